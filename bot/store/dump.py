"""The SQL of `python -m bot backup`: a database copied, as of one commit, into one SQLite file.

Both backends back up to the same thing, a self-contained SQLite file at the same schema
version, because that file is what every restore path already takes:
- SQLite: SQLite's online backup API copies every page in one step inside one read
  transaction, so the copy is exactly the database as of one commit, and in WAL mode the
  bot's writers are not blocked meanwhile (`cp` of the file and its `-wal` can catch a
  transaction half-way).
- PostgreSQL: every table is read in ONE read-only REPEATABLE READ transaction (one
  snapshot, whatever the bot processes commit meanwhile), through server-side cursors in
  batches, and written into a fresh SQLite file migrated to the server's schema version.
  The file is a logical dump: `python -m bot migrate --from FILE --to postgresql://...`
  restores it into an empty database, checked by counts and by replaying every match; the
  bot can also run on the file itself (DATABASE_PATH).  `pg_dump` remains the tool for a
  byte-faithful copy of the server (roles, settings, other schemas); this dump holds exactly
  Boneyard's tables.

Either way the file is then switched to journal mode DELETE (no `-wal` to forget) and
checked (`PRAGMA quick_check`); bot/app/backup.py flushes and renames it into place.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path
from typing import Final

from bot.store.copy import TABLES
from bot.store.database import PostgresDatabase, SqliteDatabase, public_url
from bot.store.health import Unusable, newer_schema
from bot.store.migrations import MIGRATIONS

BATCH: Final = 2000
"""Rows read from the server and written to the file at a time."""


def sqlite_backup(database: Path, partial: Path) -> tuple[int, int]:
    """Copy the SQLite file `database` into `partial`; returns (schema version, matches)."""
    # mode=rw: never create an empty database where the real one was expected.
    source = sqlite3.connect(f"{database.as_uri()}?mode=rw", uri=True, timeout=30)
    try:
        with contextlib.closing(sqlite3.connect(partial)) as copy:
            source.backup(copy)  # pages=-1: all pages in one step, one snapshot
    finally:
        source.close()
    return seal(partial)


async def postgres_backup(url: str, partial: Path) -> tuple[int, int]:
    """Dump the PostgreSQL database at `url` into the SQLite file `partial` (empty or new);
    returns (schema version, matches).  Raises `Unusable` for a server that is not a
    Boneyard database this code knows."""
    import asyncpg

    try:
        source = await PostgresDatabase.open(url, min_size=1, max_size=1)
    except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        raise Unusable(f"cannot connect to the database {public_url(url)}: {' '.join(str(exc).split())}") from None
    try:
        await _dump(source, url, partial)
    except asyncpg.PostgresError as exc:
        raise Unusable(f"backup of {public_url(url)} failed: {' '.join(str(exc).split())}") from None
    finally:
        await source.close()
    return seal(partial)


async def _dump(source: PostgresDatabase, url: str, partial: Path) -> None:
    import asyncpg

    async with source.snapshot() as reader:
        try:
            row = await reader.fetch_one("SELECT max(version) FROM schema_version")
        except asyncpg.UndefinedTableError:
            raise Unusable(f"{public_url(url)} holds no Boneyard database (no schema_version table)") from None
        version = int(row[0] or 0) if row else 0
        if version > len(MIGRATIONS):
            raise Unusable(newer_schema(public_url(url), version, len(MIGRATIONS)))
        target = await SqliteDatabase.open(partial)
        try:
            for number, script in enumerate(MIGRATIONS[:version], start=1):
                await target.apply_migration(number, script)
            async with target.transaction() as writer:
                for table in await _tables(target):
                    columns = ", ".join(await _columns(target, table))
                    marks = ", ".join("?" for _ in columns.split(", "))
                    insert = f"INSERT INTO {table} ({columns}) VALUES ({marks})"
                    async for batch in reader.batches(f"SELECT {columns} FROM {table}", BATCH):
                        await writer.executemany(insert, batch)
        finally:
            await target.close()


async def _tables(target: SqliteDatabase) -> list[str]:
    """The tables of the file's schema version, parents before children."""
    present = {str(r[0]) for r in await target.fetch_all("SELECT name FROM sqlite_master WHERE type = 'table'")}
    return [table for table in TABLES if table in present]


async def _columns(target: SqliteDatabase, table: str) -> list[str]:
    return [str(r[1]) for r in await target.fetch_all(f"PRAGMA table_info({table})")]


def seal(partial: Path) -> tuple[int, int]:
    """Make `partial` one self-contained file and check it; returns (schema version, matches)."""
    with contextlib.closing(sqlite3.connect(partial)) as copy:
        copy.execute("PRAGMA journal_mode = DELETE")
        (verdict,) = copy.execute("PRAGMA quick_check").fetchone()
        if verdict != "ok":
            raise sqlite3.DatabaseError(f"the copy failed its integrity check: {verdict}")
        (schema_version,) = copy.execute("PRAGMA user_version").fetchone()
        has_matches = copy.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'matches'")
        matches = copy.execute("SELECT count(*) FROM matches").fetchone()[0] if has_matches.fetchone() else 0
    return int(schema_version), int(matches)
