"""The `harness` fixture: the fake Discord and the real bot, shut down and checked after each test."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.conftest import sqlite_copy
from tests.e2e.harness import Harness, running_bot, unexpected_errors


@pytest.fixture
async def harness(tmp_path: Path, caplog: pytest.LogCaptureFixture, migrated_sqlite: Path) -> AsyncIterator[Harness]:
    """The bot on a copy of a migrated database file: what the first start of a bot on a new
    file does is tested in tests/bot/test_startup.py and test_store.py."""
    async with running_bot(sqlite_copy(migrated_sqlite, tmp_path / "boneyard.sqlite3")) as running:
        yield running
    records = caplog.get_records("setup") + caplog.get_records("call") + caplog.records  # the last: teardown
    errors = unexpected_errors(running, records)
    assert not errors, "\n".join(errors)
