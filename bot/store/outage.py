"""One place that tells a database outage from a bug: `unavailable(error)`.

Why one place: the drivers say "the database is away" in many ways (asyncpg's
`CannotConnectNowError` while PostgreSQL starts, `ConnectionDoesNotExistError` when it went
away mid-query, `InterfaceError` from a pool being re-made, `OSError`/`ConnectionRefusedError`
while it is down, a connection timeout; SQLite's "database is locked", "disk I/O error",
"database or disk is full", "attempt to write a readonly database").  None of these is a bug
in the bot, and all of them pass: the user is told that the database is unavailable, that
nothing changed and that a retry shortly will work, rather than "something went wrong".
The error may be wrapped (discord.py's `CommandInvokeError`, a `raise ... from`), so the
chain of causes is searched.
"""

from __future__ import annotations

import sqlite3
from typing import Final

SQLITE_OUTAGES: Final = (
    "database is locked",
    "database table is locked",
    "disk i/o error",
    "database or disk is full",
    "attempt to write a readonly database",
    "unable to open database file",
    "database is full",
)
"""Lower-cased beginnings of SQLite's messages for a database that is busy or whose disk fails."""

ASYNCPG_OUTAGES: Final = (
    "PostgresConnectionError",  # CannotConnectNowError, ConnectionDoesNotExistError, ... (class 08)
    "CannotConnectNowError",
    "ConnectionDoesNotExistError",
    "ConnectionFailureError",
    "AdminShutdownError",  # the server is shutting down (class 57P01)
    "CrashShutdownError",
    "InterfaceError",  # "pool is closing", "connection is closed"
    "ConnectionRejectionError",
    "TooManyConnectionsError",
)
"""asyncpg's exception classes (by name: this module must not import the optional driver)
that mean the server cannot be reached or is restarting."""


DATABASE_MODULES: Final = ("bot.store", "asyncpg", "aiosqlite", "sqlite3")


class DatabaseUnavailable(Exception):
    """The database cannot be reached now (an outage, a full disk, a lock held too long)."""


def unavailable(error: BaseException) -> bool:
    """Whether `error` (or anything that caused it) says the database is unavailable."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if _says_unavailable(current):
            return True
        current = current.__cause__ or current.__context__ or getattr(current, "original", None)
    return False


def _says_unavailable(error: BaseException) -> bool:
    if isinstance(error, DatabaseUnavailable):
        return True
    if isinstance(error, sqlite3.OperationalError):
        return str(error).lower().startswith(SQLITE_OUTAGES)
    module = type(error).__module__
    if module.startswith("asyncpg"):
        return any(klass.__name__ in ASYNCPG_OUTAGES for klass in type(error).__mro__)
    # A refused connection, a timeout, a full disk: the database's only when it arose in
    # the store or a driver (the same classes from Discord's HTTP client or the picture
    # workers are not a database outage).
    return isinstance(error, OSError) and _raised_in_the_database(error)


def _raised_in_the_database(error: BaseException) -> bool:
    trace = error.__traceback__
    while trace is not None:
        name = str(trace.tb_frame.f_globals.get("__name__", ""))
        if name.startswith(DATABASE_MODULES):
            return True
        trace = trace.tb_next
    return False
