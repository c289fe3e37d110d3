"""Counting the statements and transactions the bot waits for, at the driver.

Why at the driver rather than in `bot/store`: what costs a move its latency is every trip to
the database, the ones the store asks for and the ones its drivers add on their own (BEGIN,
COMMIT, asyncpg's reset of a connection going back to its pool).  So the count is taken where
the statements leave the process: SQLite's trace callback (every statement its connection
runs) and asyncpg's query logger (every query a pooled connection sends).  Dev-only: the bench
and the tests use it; the product never imports it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from typing import Any, cast

from bot.store.database import Database, PostgresDatabase, SqliteDatabase


@dataclass
class Statements:
    """What was sent to the database while counting, in order."""

    texts: list[str] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.texts)

    @property
    def commits(self) -> int:
        """Transactions committed: explicit COMMITs, and statements run outside any transaction
        (each commits by itself: its own WAL flush on PostgreSQL)."""
        return sum(1 for t in self.texts if _first_word(t) == "COMMIT") + self._autocommits

    _autocommits: int = 0
    _open: bool = False

    def add(self, text: str) -> None:
        self.texts.append(text)
        word = _first_word(text)
        if word == "BEGIN":
            self._open = True
        elif word in {"COMMIT", "ROLLBACK"}:
            self._open = False
        elif not self._open and word in _WRITES:
            self._autocommits += 1


_WRITES = {"INSERT", "UPDATE", "DELETE"}


def _first_word(text: str) -> str:
    words = text.lstrip().split(None, 1)
    return words[0].rstrip(";").upper() if words else ""


@asynccontextmanager
async def counting(db: Database) -> Any:
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
        with _asyncpg_logger(db, seen):
            yield seen
    else:
        raise TypeError(f"cannot count the statements of {type(db).__name__}")


@contextmanager
def _asyncpg_logger(db: PostgresDatabase, seen: Statements) -> Iterator[None]:
    def logged(record: Any) -> None:
        seen.add(record.query)

    connections = [holder._con for holder in db._pool._holders if holder._con is not None]
    for connection in connections:
        connection.add_query_logger(logged)
    try:
        yield
    finally:
        for connection in connections:
            connection.remove_query_logger(logged)
