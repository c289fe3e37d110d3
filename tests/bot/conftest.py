from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.matches import MatchService
from bot.store import Store

ALICE, BOB, CAROL = 1001, 1002, 1003
CHANNEL, GUILD = 500, 900


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    store = await Store.open(tmp_path / "boneyard.sqlite3")
    yield store
    await store.close()


@pytest.fixture
def service(store: Store) -> MatchService:
    return MatchService(store, cache_size=4)
