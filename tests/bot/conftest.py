from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.services.matches import MatchService
from bot.store import Store
from tests.conftest import MigratedCopies, sqlite_copy

ALICE, BOB, CAROL = 1001, 1002, 1003
CHANNEL, GUILD = 500, 900


BACKENDS = ("sqlite", "postgresql")

on_sqlite_only = pytest.mark.parametrize("store", ["sqlite"], indirect=True)
"""For a test of something pure that a stored match only feeds, such as what the checker
makes of a record: the store's side of it (the export) is tested on both backends, and the
PostgreSQL twin would play the same game again to learn nothing new."""


@pytest.fixture(params=BACKENDS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    """The store on each backend: every test that uses it runs on SQLite and on PostgreSQL."""
    if request.param == "sqlite":
        store = await Store.open(sqlite_copy(request.getfixturevalue("migrated_sqlite"), tmp_path / "boneyard.sqlite3"))
        yield store
        await store.close()
        return
    copies: MigratedCopies = request.getfixturevalue("migrated_copies")
    async with copies.database() as url:
        store = await Store.open(url)
        yield store
        await store.close()


@pytest.fixture
def service(store: Store) -> MatchService:
    return MatchService(store, cache_size=4)
