"""Counting the statements and commits the bot waits for, at the driver.

Why at the driver rather than in `bot/store`: what costs a move its latency is every trip to
the database, the ones the store asks for and the ones its drivers add on their own (BEGIN,
COMMIT, asyncpg's reset of a connection going back to its pool).  So the count is taken where
the statements leave the process: SQLite's trace callback (every statement its connection
runs) and asyncpg's query logger (every query a pooled connection sends, on both of the
store's pools).  Dev-only: the bench and the tests use it; the product never imports it.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, cast

from bot.store.database import Database, PostgresDatabase, SqliteDatabase

_WRITES = {"INSERT", "UPDATE", "DELETE"}
_WRITING_WITH = re.compile(r"\bAS\s*\(\s*(INSERT|UPDATE|DELETE)\b", re.IGNORECASE)
"""A `WITH` whose clauses write (PostgreSQL's data-modifying `WITH`): a write like the others."""


def first_word(text: str) -> str:
    words = text.lstrip().split(None, 1)
    return words[0].rstrip(";").upper() if words else ""


@dataclass(frozen=True)
class Sent:
    """One statement as it left the process."""

    text: str
    commits: bool
    """It ended a transaction that wrote: a COMMIT, or a write outside any transaction."""
    flushed: bool
    """Its commit waits for the WAL to reach the disk (PostgreSQL at its durable settings):
    False for the store's unflushed bookkeeping writes (`Database.execute_unflushed`)."""


@dataclass
class Statements:
    """What was sent to the database while counting, in order."""

    sent: list[Sent] = field(default_factory=list)
    _open: bool = False

    def add(self, text: str, *, flushed: bool = True) -> None:
        word = first_word(text)
        writes = word in _WRITES or (word == "WITH" and _WRITING_WITH.search(text) is not None)
        commits = word == "COMMIT" or (not self._open and writes)
        if word == "BEGIN":
            self._open = True
        elif word in {"COMMIT", "ROLLBACK"}:
            self._open = False
        self.sent.append(Sent(text, commits, flushed and commits))

    @property
    def texts(self) -> list[str]:
        return [s.text for s in self.sent]

    @property
    def count(self) -> int:
        return len(self.sent)

    @property
    def commits(self) -> int:
        """Transactions committed that wrote (explicit COMMITs and writes on their own)."""
        return sum(1 for s in self.sent if s.commits)

    @property
    def flushes(self) -> int:
        """Commits that waited for the WAL flush."""
        return sum(1 for s in self.sent if s.flushed)


@asynccontextmanager
async def counting(db: Database) -> AsyncIterator[Statements]:
    """`async with counting(store.db) as seen:` the statements `db` runs meanwhile."""
    seen = Statements()
    if isinstance(db, SqliteDatabase):
        # the trace callback is set on the connection's own thread
        in_thread = cast(Callable[..., Awaitable[None]], db._db._execute)
        connection = db._db._conn
        await in_thread(connection.set_trace_callback, seen.add)
        try:
            yield seen
        finally:
            await in_thread(connection.set_trace_callback, None)
    elif isinstance(db, PostgresDatabase):

        def flushed(record: Any) -> None:
            seen.add(record.query)

        def unflushed(record: Any) -> None:
            seen.add(record.query, flushed=False)

        watched = [(c, flushed) for c in _connections(db._pool)]
        if db._unflushed is not db._pool:
            watched += [(c, unflushed) for c in _connections(db._unflushed)]
        for connection, logger in watched:
            connection.add_query_logger(logger)
        try:
            yield seen
        finally:
            for connection, logger in watched:
                connection.remove_query_logger(logger)
    else:
        raise TypeError(f"cannot count the statements of {type(db).__name__}")


def _connections(pool: Any) -> list[Any]:
    """The open connections of an asyncpg pool (a pool opens more under load: the counting
    callers warm it first)."""
    return [holder._con for holder in pool._holders if holder._con is not None]
