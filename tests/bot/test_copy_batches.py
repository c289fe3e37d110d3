"""The migrate copy reads SQLite in rowid batches: rows on every side of a batch edge arrive."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.app.migrate import migrate
from bot.store import Store
from bot.store import copy as store_copy
from tests.bot.test_backup_postgres import everything
from tests.bot.test_migrate import _community
from tests.conftest import fresh_database
from tests.postgres import PostgresServer


async def test_small_batches_copy_every_row(
    tmp_path: Path, postgres_server: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_copy, "BATCH", 3)  # the community's tables hold 1 to ~60 rows
    source = tmp_path / "old.sqlite3"
    await _community(source)
    original = await Store.open(source)
    before = await everything(original)
    await original.close()
    assert max(len(rows) for rows in before.values()) > 3 * store_copy.BATCH
    async with fresh_database(postgres_server) as url:
        out = io.StringIO()
        assert await migrate(source, url, out=out) == 0, out.getvalue()
        copied = await Store.open(url)
        try:
            assert await everything(copied) == before
        finally:
            await copied.close()
