"""The storage tests' PostgreSQL copies (`MigratedCopies` in tests/conftest.py): a copy handed
on to the next test is what a new copy of the template would be, and a copy whose schema a
test changed is never handed on.  Every storage test's isolation rests on this."""

from __future__ import annotations

import random

import asyncpg

from bot.services.matches import MatchService
from bot.store import Store
from tests.bot.match_driver import play_randomly, start_match
from tests.conftest import MigratedCopies
from tests.postgres import PostgresServer


async def _rows_and_next_ids(url: str) -> dict[str, int]:
    """Every table's row count and every sequence's next value, read without advancing the
    sequence (a copy of the template is compared as it is)."""
    connection = await asyncpg.connect(url)
    try:
        tables = [
            row[0] for row in await connection.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        ]
        found = {f"rows {t}": await connection.fetchval(f'SELECT count(*) FROM "{t}"') for t in tables}
        for name, last, start in await connection.fetch(
            "SELECT sequencename, last_value, start_value FROM pg_sequences WHERE schemaname = 'public'"
        ):
            found[f"next {name}"] = start if last is None else last + 1
        return found
    finally:
        await connection.close()


async def _fill(url: str) -> None:
    """Matches, moves, clocks, outbox rows, ratings: what a storage test leaves behind."""
    store = await Store.open(url)
    try:
        service = MatchService(store, cache_size=4)
        for seed, game in enumerate(("focus", "dominance", "domino_wars")):
            match_id = await start_match(service, game, channel=600 + seed, clock="rapid")
            await play_randomly(service, match_id, random.Random(seed), max_moves=40)
    finally:
        await store.close()


async def test_a_copy_handed_on_is_a_new_copy_again(postgres_server: PostgresServer, migrated_template: str) -> None:
    copies = MigratedCopies(postgres_server, migrated_template)
    async with copies.database() as first:
        new = await _rows_and_next_ids(first)
        await _fill(first)
        used = await _rows_and_next_ids(first)
        assert sum(used[k] > new[k] for k in new) >= 5, used  # several tables and a sequence were used
    async with copies.database() as second:
        assert second == first  # the same database, handed on
        assert await _rows_and_next_ids(second) == new


async def test_a_copy_whose_schema_changed_is_dropped(postgres_server: PostgresServer, migrated_template: str) -> None:
    copies = MigratedCopies(postgres_server, migrated_template)
    changes = ("ALTER TABLE matches ADD COLUMN spare INTEGER", "CREATE INDEX spare ON matches (id)")
    for change in changes:
        async with copies.database() as first:
            connection = await asyncpg.connect(first)
            try:
                await connection.execute(change)
            finally:
                await connection.close()
        async with copies.database() as second:
            assert second != first
        admin = await asyncpg.connect(postgres_server.url())
        try:
            name = first.rsplit("/", 1)[1]
            assert not await admin.fetchval("SELECT count(*) FROM pg_database WHERE datname = $1", name)
        finally:
            await admin.close()
