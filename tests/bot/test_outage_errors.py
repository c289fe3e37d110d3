"""Which errors mean "the database is unavailable" (bot/store/outage.py), and which are bugs."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import aiosqlite
import asyncpg
import pytest

from bot.store.outage import DatabaseUnavailable, unavailable


async def test_a_locked_sqlite_database_is_unavailable_not_a_bug(tmp_path: Path) -> None:
    path = tmp_path / "locked.sqlite3"
    async with aiosqlite.connect(path) as holder, aiosqlite.connect(path, timeout=0.01) as other:
        await holder.execute("CREATE TABLE t (x)")
        await holder.commit()
        await holder.execute("BEGIN EXCLUSIVE")
        with pytest.raises(sqlite3.OperationalError) as raised:
            await other.execute("INSERT INTO t VALUES (1)")
    assert unavailable(raised.value)


def test_the_outage_classes_and_their_wrappers() -> None:
    assert unavailable(asyncpg.CannotConnectNowError("the database system is starting up"))
    assert unavailable(asyncpg.ConnectionDoesNotExistError("connection was closed in the middle of operation"))
    assert unavailable(DatabaseUnavailable())
    assert unavailable(sqlite3.OperationalError("database or disk is full"))
    try:
        try:
            raise asyncpg.CannotConnectNowError("starting up")
        except asyncpg.PostgresError as cause:
            raise RuntimeError("while loading match 3") from cause
    except RuntimeError as wrapped:
        assert unavailable(wrapped)


def test_bugs_and_other_services_failing_are_not_a_database_outage() -> None:
    assert not unavailable(sqlite3.OperationalError("no such table: matches"))
    assert not unavailable(asyncpg.UniqueViolationError("duplicate key"))
    assert not unavailable(KeyError("seat"))
    assert not unavailable(ConnectionResetError("the picture worker went away"))  # not raised in the store
