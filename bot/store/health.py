"""Can the bot use this database?  Checked once at start-up, before the event loop and Discord.

Why here and not in bot/app/startup.py: the checks are SQL (an integrity check, the schema
version, a write probe), and all SQL lives in the store package.  bot/app/startup.py decides
what to do with a refusal (one line, exit 3); this module only knows how to ask each backend.

SQLite (a file): damaged or not a database (`PRAGMA quick_check`), newer schema, read-only.
`quick_check` reads every page, about 1.8 s for a 650 MB file (100,000 matches; `python -m
bench scale`), which alone would break the start-up target.  So it runs before start-up
only for files up to `FULL_CHECK_BYTES`; a larger file gets the cheap checks first (header,
schema, version, write probe) and the full check right after, beside the running bot
(`scan_sqlite_file`, started by bot/__main__.py), which stops the bot with the same one
line and exit 3 when the file is damaged.
PostgreSQL (a URL, shared by several processes): unreachable or refusing the login, newer
schema, read-only (a standby, `default_transaction_read_only`, a role without CREATE).
Nothing is written by a check: the write probe is always rolled back.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from bot.store.database import public_url

WRITE_PROBE = "CREATE TABLE boneyard_startup_write_check (x INTEGER)"
"""A write that is always rolled back: SQLite opens a file it may not write read-only without
complaint, and in WAL mode even `BEGIN IMMEDIATE` succeeds there; only a real write tells.
On PostgreSQL a CREATE TABLE also needs the right to create tables, which migrations need."""

FULL_CHECK_BYTES = 128 * 2**20
"""Files up to this size are fully checked before start-up (about 0.35 s at the size)."""

CONNECT_SECONDS = 10.0
"""How long a PostgreSQL server may take to answer before the start-up gives up (in one line)."""


_BROKEN_CONTENT = (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)
"""SQLite's primary result codes for a file whose content is broken."""


def damaged(error: BaseException) -> bool:
    """Whether `error` (or what caused it) is SQLite saying the file's content is broken
    (SQLITE_CORRUPT, SQLITE_NOTADB): the scan beside a large file's bot names it in one line
    and stops the bot, so a duty that meets it first has nothing to add but that line."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        code = getattr(current, "sqlite_errorcode", None)
        if isinstance(current, sqlite3.DatabaseError) and code is not None and code & 0xFF in _BROKEN_CONTENT:
            return True
        current = current.__cause__ or current.__context__
    return False


class Unusable(RuntimeError):
    """The database cannot be used as it is; the message is the single line to show.
    `retry`: the file is fine and a later start can work (a full disk, a busy file, an I/O
    error), so a supervisor should restart the bot rather than wait for a person."""

    def __init__(self, line: str, *, retry: bool = False) -> None:
        super().__init__(line)
        self.retry = retry


FAULTS = (
    ("database or disk is full", "the disk holding the database {database} is full ({exc}); free some space", True),
    ("disk i/o error", "the disk failed to read or write the database {database} ({exc})", True),
    ("database is locked", "the database {database} is busy: another program holds its lock ({exc})", True),
    ("readonly", "the database {database} is read-only ({exc}); the bot's user must be able to write it", False),
    ("unable to open", "cannot open the database {database} ({exc}): check its permissions", False),
)
"""SQLite errors that say something about the disk or the file's access, not its content:
named as what they are (never "damaged"); the file itself is intact."""


def _fault(database: Path, exc: sqlite3.Error) -> Unusable | None:
    """The refusal for an I/O or access fault (the file is intact), or None for anything else."""
    message = str(exc).lower()
    for words, line, retry in FAULTS:
        if words in message:
            return Unusable(line.format(database=database, exc=exc), retry=retry)
    return None


# --- SQLite ----------------------------------------------------------------------------


def check_sqlite_file(database: Path, known_version: int) -> tuple[bool, bool]:
    """Open the file once, synchronously, and refuse what the bot cannot use.

    Returns (the file is new, its full check is still due): it is created here, empty (the
    store migrates it); a file over `FULL_CHECK_BYTES` gets `scan_sqlite_file` after start.
    `database` must be absolute, so that messages name the real place.
    """
    created = not database.exists()
    scan_later = not created and database.stat().st_size > FULL_CHECK_BYTES
    try:
        connection = sqlite3.connect(database, isolation_level=None, timeout=5)
    except sqlite3.Error as exc:
        raise Unusable(f"cannot open the database {database}: {exc}") from None
    try:
        _check_open(connection, database, known_version, full=not scan_later)
    finally:
        connection.close()
    return created, scan_later


def scan_sqlite_file(database: Path) -> str | None:
    """Every page of the file checked (`PRAGMA quick_check`) on a read connection of its own,
    beside a running bot (WAL: it blocks no writer); the refusal's line when it is damaged."""
    try:
        with contextlib.closing(sqlite3.connect(f"{database.as_uri()}?mode=ro", uri=True, timeout=30)) as connection:
            (verdict,) = connection.execute("PRAGMA quick_check(1)").fetchone()
    except sqlite3.DatabaseError as exc:
        fault = _fault(database, exc)
        return str(fault) if fault is not None else _damaged(database, str(exc))
    return None if verdict == "ok" else _damaged(database, str(verdict))


def _check_open(connection: sqlite3.Connection, database: Path, known_version: int, *, full: bool) -> None:
    try:
        if full:
            (verdict,) = connection.execute("PRAGMA quick_check(1)").fetchone()
        else:  # the header and the whole schema are read; every other page comes after start
            connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
            verdict = "ok"
        (version,) = connection.execute("PRAGMA user_version").fetchone()
    except sqlite3.DatabaseError as exc:
        raise _fault(database, exc) or Unusable(_damaged(database, str(exc))) from None
    if verdict != "ok":
        raise Unusable(_damaged(database, str(verdict)))
    if version > known_version:
        raise Unusable(newer_schema(str(database), version, known_version))
    try:
        connection.execute("BEGIN IMMEDIATE")
        try:
            connection.execute(WRITE_PROBE)
        finally:
            connection.execute("ROLLBACK")
    except sqlite3.OperationalError as exc:
        fault = _fault(database, exc)
        if fault is not None:
            raise fault from None
        if "read-only" in str(exc):
            raise Unusable(
                f"the database {database} is read-only ({exc}); the bot's user must be able to write "
                "the file and its directory"
            ) from None
        raise Unusable(f"cannot write the database {database}: {exc}") from None


def _damaged(database: Path, detail: str) -> str:
    detail = " ".join(detail.replace("*", "").split())  # quick_check reports over several lines
    return (
        f"the database {database} is damaged or not a SQLite database ({detail}); "
        "restore a backup (README: Backups) or move the file away to start empty"
    )


def newer_schema(where: str, version: int, known_version: int) -> str:
    return (
        f"the database {where} has schema version {version}, newer than this Boneyard knows "
        f"({known_version}); run the newer Boneyard, or restore a backup made for this version"
    )


# --- PostgreSQL ------------------------------------------------------------------------


async def check_postgres(url: str, known_version: int, *, connect_within: float = CONNECT_SECONDS) -> None:
    """Connect once and refuse a server the bot cannot use (the URL's password never appears)."""
    import asyncpg

    where = public_url(url)
    try:
        connection = await asyncpg.connect(url, timeout=connect_within)
    except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        raise Unusable(f"cannot connect to the database {where}: {_one_line(exc)}") from None
    try:
        known = await connection.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
        version = int(await connection.fetchval("SELECT max(version) FROM schema_version") or 0) if known else 0
        if version > known_version:
            raise Unusable(newer_schema(where, version, known_version))
        try:
            async with connection.transaction():
                await connection.execute(WRITE_PROBE)
                raise _RollBack
        except _RollBack:
            pass
        except asyncpg.PostgresError as exc:
            raise Unusable(
                f"cannot write the database {where} ({_one_line(exc)}); the bot needs a primary server "
                "and a role that may create tables there"
            ) from None
    finally:
        await connection.close()


class _RollBack(Exception):
    """Leaves the write probe's transaction by its rollback path."""


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__
