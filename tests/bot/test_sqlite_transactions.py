"""A transaction on SQLite that is cancelled (a duty stopped, a bot shutting down) or that
SQLite ends itself (a full database) leaves the connection as it found it and raises what
happened (bot/store/database.py).

aiosqlite runs every statement on its connection's own thread, and a statement sent there runs
even when the coroutine that awaited it is cancelled.  A `BEGIN` cancelled while it waited for
the write lock once left the connection inside a transaction: every later `BEGIN` failed
("cannot start a transaction within a transaction"), and the bot answered nothing."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.store.database import SqliteDatabase, Step


async def opened(path: Path) -> SqliteDatabase:
    db = await SqliteDatabase.open(path, checkpoint_every=None)
    await db.execute("CREATE TABLE moves (n INTEGER PRIMARY KEY)")
    return db


def rows_seen_by_another_connection(path: Path) -> list[int]:
    with sqlite3.connect(path) as other:
        return [n for (n,) in other.execute("SELECT n FROM moves ORDER BY n")]


async def insert_in_a_transaction(db: SqliteDatabase, n: int) -> None:
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO moves (n) VALUES (?)", (n,))


async def test_a_transaction_cancelled_while_its_begin_waits_for_the_lock_leaves_none_open(tmp_path: Path) -> None:
    path = tmp_path / "boneyard.sqlite3"
    db = await opened(path)
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        holder.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        waiting = asyncio.create_task(insert_in_a_transaction(db, 1))
        await asyncio.sleep(0)  # one turn: the task takes the lock and sends its BEGIN
        assert db._write_lock.locked()  # the BEGIN is on the connection's thread, waiting
        waiting.cancel()
        await asyncio.to_thread(holder.execute, "COMMIT")  # the BEGIN gets the lock after all
        with pytest.raises(asyncio.CancelledError):
            await waiting

        await insert_in_a_transaction(db, 2)  # the next transaction starts and commits
        await db.execute("INSERT INTO moves (n) VALUES (3)")  # and a single statement commits by itself
        assert await asyncio.to_thread(rows_seen_by_another_connection, path) == [2, 3]
    finally:
        holder.close()
        await db.close()


async def test_a_transaction_cancelled_in_its_body_writes_nothing_and_leaves_none_open(tmp_path: Path) -> None:
    path = tmp_path / "boneyard.sqlite3"
    db = await opened(path)
    inside = asyncio.Event()

    async def stalls_inside() -> None:
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO moves (n) VALUES (1)")
            inside.set()
            await asyncio.Event().wait()  # cancelled here

    try:
        stalled = asyncio.create_task(stalls_inside())
        await inside.wait()
        stalled.cancel()
        with pytest.raises(asyncio.CancelledError):
            await stalled
        await insert_in_a_transaction(db, 2)
        assert await asyncio.to_thread(rows_seen_by_another_connection, path) == [2]
    finally:
        await db.close()


@pytest.mark.parametrize("how", ["transaction", "write_steps"])
async def test_a_full_database_says_so_and_leaves_no_transaction_open(tmp_path: Path, how: str) -> None:
    """SQLite ends a transaction by itself when the database is full: the error raised is the
    full database's, not a failed ROLLBACK's ("no transaction is active")."""
    path = tmp_path / "boneyard.sqlite3"
    db = await opened(path)
    await db.execute("CREATE TABLE pages (text TEXT NOT NULL)")
    await db.execute("PRAGMA max_page_count = 16")  # as if the disk were full past 64 KiB
    rows = [("x" * 3000,) for _ in range(40)]
    try:
        with pytest.raises(sqlite3.OperationalError, match="full"):
            if how == "transaction":
                async with db.transaction() as tx:
                    for row in rows:
                        await tx.execute("INSERT INTO pages (text) VALUES (?)", row)
            else:
                await db.write_steps([Step("INSERT INTO pages (text) VALUES (?)", rows, many=True)])
        await insert_in_a_transaction(db, 1)  # a small write still fits, and commits
        assert await asyncio.to_thread(rows_seen_by_another_connection, path) == [1]
    finally:
        await db.close()
