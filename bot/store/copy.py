"""Copy a SQLite database into an empty PostgreSQL one (`python -m bot migrate --to URL`).

Why a copy and not a dump: the two schemas differ in types (bot/store/migrations.py), so
rows are read from one store and written to the other through the same drivers the bot
uses, table by table in foreign-key order, in batches (COPY on the target), in ONE
transaction on the target: a failed copy leaves the target empty.  Then the identity
sequences are moved past the copied ids, and the caller checks the result (row counts, and
every match replayed from its log).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Final

from bot.store.core import Store
from bot.store.database import Row

TABLES: Final = (
    "meta",
    "matches",
    "seats",
    "moves",
    "abort_votes",
    "dm_notices",
    "clock_votes",
    "tournaments",
    "tournament_entries",
    "tournament_games",
    "ratings",
    "rated_matches",
    "guild_settings",
    "user_settings",
    "match_offers",
    "outbox",
    "notice_prefs",
    "notice_held",
    "notice_settings",
    "vacations",
    "vacation_days_used",
    "vacation_pauses",
    "nudges",
    "private_messages",
    "analyses",
)
"""Every table, parents before children."""
NOT_COPIED: Final = ("shard_leases",)
"""Tables of running processes, not of the community: a lease names a process of the old
database (bot/services/shard_leases.py); the processes on the new one claim their own."""
IDENTITY_TABLES: Final = ("matches", "tournaments", "outbox")
BATCH: Final = 5000


class CopyRefused(RuntimeError):
    """The copy cannot start (the target is not empty, or not PostgreSQL); nothing was written."""


async def counts(store: Store) -> dict[str, int]:
    found = {}
    for table in TABLES:
        row = await store.fetch_one(f"SELECT COUNT(*) FROM {table}")
        found[table] = int(row[0]) if row else 0
    return found


async def _columns(source: Store, table: str) -> list[str]:
    return [str(r[1]) for r in await source.fetch_all(f"PRAGMA table_info({table})")]


async def _batches(source: Store, table: str, columns: list[str]) -> AsyncIterator[list[Row]]:
    """The rows of a SQLite table in batches, by rowid (every table has one): a table of
    millions of moves is never in memory whole, and each batch is found by the rowid index."""
    after = -(2**63)
    while True:
        rows = await source.fetch_all(
            f"SELECT rowid, {', '.join(columns)} FROM {table} WHERE rowid > ? ORDER BY rowid LIMIT ?", (after, BATCH)
        )
        if not rows:
            return
        after = int(rows[-1][0])
        yield [row[1:] for row in rows]


async def copy_into(source: Store, target: Store) -> dict[str, int]:
    """Copy every row of `source` (SQLite) into `target` (an empty PostgreSQL store, already
    migrated to the same schema version); returns the rows copied per table."""
    if source.backend != "sqlite" or target.backend != "postgresql":
        raise CopyRefused("the copy goes from a SQLite file to a PostgreSQL database")
    if await source.schema_version() != await target.schema_version():
        raise CopyRefused("the two databases are at different schema versions; start the bot on the file once")
    existing = {table: n for table, n in (await counts(target)).items() if n}
    if existing:
        raise CopyRefused(f"the target database is not empty ({existing}); give an empty one")
    copied = {}
    async with target.transaction() as tx:
        for table in TABLES:
            columns = await _columns(source, table)
            copied[table] = 0
            async for rows in _batches(source, table, columns):
                await tx.copy_rows(table, columns, rows)
                copied[table] += len(rows)
        for table in IDENTITY_TABLES:
            sequence = f"pg_get_serial_sequence('{table}', 'id')"
            await tx.execute(f"SELECT setval({sequence}, COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)")
    return copied
