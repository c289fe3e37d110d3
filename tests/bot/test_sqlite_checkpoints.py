"""WAL checkpoints run beside the bot's writes, never inside a commit (bot/store/database.py)."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from pathlib import Path

import pytest

from bot.store.database import SqliteDatabase

PAGE = 4096
ROW = "x" * 3500  # about one page a row


def wal_pages(database: Path) -> int:
    wal = database.with_name(database.name + "-wal")
    return wal.stat().st_size // PAGE if wal.exists() else 0


async def write_pages(db: SqliteDatabase, pages: int, start: int = 0) -> None:
    async with db.transaction() as tx:
        await tx.executemany("INSERT INTO filler (n, text) VALUES (?, ?)", [(start + i, ROW) for i in range(pages)])


async def opened(path: Path, every: float) -> SqliteDatabase:
    db = await SqliteDatabase.open(path, checkpoint_every=every)
    await db.execute("CREATE TABLE filler (n INTEGER PRIMARY KEY, text TEXT NOT NULL)")
    return db


async def test_commits_never_checkpoint(tmp_path: Path) -> None:
    """SQLite's automatic checkpoint would keep the WAL near 1,000 pages by checkpointing
    inside the commit that crosses it; the bot's connection leaves the WAL alone."""
    path = tmp_path / "boneyard.sqlite3"
    db = await opened(path, every=3600.0)  # the checkpointer does not come round in this test
    try:
        assert await db.fetch_one("PRAGMA wal_autocheckpoint") == (0,)
        for round_number in range(6):
            await write_pages(db, 500, start=round_number * 500)
        assert await asyncio.to_thread(wal_pages, path) >= 3000
        assert db.checkpoints == 0
    finally:
        await db.close()


async def test_the_checkpointer_keeps_the_wal_one_interval_long(tmp_path: Path) -> None:
    path = tmp_path / "boneyard.sqlite3"
    db = await opened(path, every=3600.0)
    try:
        sizes = []
        for round_number in range(10):
            await write_pages(db, 300, start=round_number * 300)
            busy, frames, done = await db.checkpoint()
            assert busy == 0 and frames == done > 0, (busy, frames, done)
            sizes.append(await asyncio.to_thread(wal_pages, path))
        # the WAL restarts from its beginning after each complete checkpoint
        assert max(sizes) < 2 * 300 + 50, sizes
        assert await db.fetch_one("SELECT count(*) FROM filler") == (3000,)
    finally:
        await db.close()
    assert not path.with_name(path.name + "-wal").exists(), "closing checkpoints and removes the WAL"


async def test_the_checkpointer_runs_by_itself(tmp_path: Path) -> None:
    path = tmp_path / "boneyard.sqlite3"
    db = await opened(path, every=0.01)
    try:
        await write_pages(db, 200)
        async with asyncio.timeout(30):
            while db.checkpoints < 2:  # noqa: ASYNC110 - polling a counter of the code under test
                await asyncio.sleep(0.01)
        busy, frames, done = await db.checkpoint()
        assert busy == 0 and frames == done, "everything written was copied back"
    finally:
        await db.close()


async def test_a_checkpoint_failing_every_time_logs_one_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    tries = 0
    enough = asyncio.Event()

    async def disk_full(self: SqliteDatabase) -> tuple[int, int, int]:
        nonlocal tries
        tries += 1
        if tries >= 50:
            enough.set()
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(SqliteDatabase, "checkpoint", disk_full)
    with caplog.at_level(logging.INFO, logger="bot.store.database"):
        database = await SqliteDatabase.open(tmp_path / "full.sqlite3", checkpoint_every=0.001)
        try:
            await asyncio.wait_for(enough.wait(), 30)
        finally:
            await database.close()
    lines = [r for r in caplog.records if r.name == "bot.store.database" and "checkpoint" in r.getMessage()]
    assert len([r for r in lines if r.exc_info]) == 1  # one traceback for 50 failures
    assert len(lines) <= 2  # and at most one more line within the minute
