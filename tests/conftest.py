"""Fixtures shared by every test package: the throwaway PostgreSQL server."""

from __future__ import annotations

import asyncio
import gc
import itertools
import shutil
import sys
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg
import pytest

from bot.store import Store
from tests.postgres import PostgresServer, running_server

_numbers = itertools.count(1)

# The suite keeps its compiled modules even where PYTHONDONTWRITEBYTECODE is set (many
# containers set it): without them every xdist worker rewrote the asserts of every test
# module and compiled every module of the bot again, each run (3.5 s of CPU per worker of
# the 5 s a collection took), and every bot subprocess compiled the bot again.  The files go
# to the `__pycache__` directories git ignores.
sys.dont_write_bytecode = False

# Fewer collections by Python's cycle collector.  A test process keeps a large heap for
# its whole run (the engines' and renderers' caches, games played once per module, the
# imported bot), and with the default thresholds (700, 10, 10) the collector walked all of
# it some 25 times a worker: 3.8 s of the 5 s the collector took in a run of the quick
# loop, about 5 % of the tests' CPU.  Young objects are still collected often (every
# 5,000 net allocations); the whole heap only after 100 collections of the middle
# generation.  Nothing here depends on when garbage cycles are freed.
gc.set_threshold(5_000, 20, 100)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One server for the whole run (started on first use, about a second)."""
    with running_server() as server:
        yield server


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file with every migration applied, made once per test process and never
    opened by a test: `sqlite_copy` gives each test its own copy.  Migrating a new file takes
    about 0.04 s (a dozen transactions, each waiting for the disk); copying it 0.002 s.  Tests
    of migrating a file make their own."""
    path = tmp_path_factory.mktemp("migrated") / "boneyard.sqlite3"

    async def make() -> None:
        store = await Store.open(path)
        await store.close()

    with ThreadPoolExecutor(1) as thread:  # asked for from async fixtures: a loop of its own
        thread.submit(asyncio.run, make()).result()
    assert not path.with_name(path.name + "-wal").exists(), "the template was left with an unmerged log"
    return path


def sqlite_copy(template: Path, to: Path) -> Path:
    """`to`, a copy of the migrated file `template` (`migrated_sqlite`)."""
    shutil.copyfile(template, to)
    return to


MIGRATED_TEMPLATE = "boneyard_migrated"


@pytest.fixture(scope="session")
def migrated_template(postgres_server: PostgresServer) -> str:
    """A database with every migration applied, made once, never opened by a test: the stores
    of the storage tests are copies of it (`MigratedCopies`), not new databases migrated one
    by one.  Tests of migrating or refusing a database use `postgres_url` (empty) instead."""

    async def make() -> None:
        admin = await asyncpg.connect(postgres_server.url())
        try:
            await admin.execute(f"CREATE DATABASE {MIGRATED_TEMPLATE}")
        finally:
            await admin.close()
        store = await Store.open(postgres_server.url(MIGRATED_TEMPLATE))
        await store.close()

    with ThreadPoolExecutor(1) as thread:  # asked for from async fixtures: a loop of its own
        thread.submit(asyncio.run, make()).result()
    return MIGRATED_TEMPLATE


SHAPE = """
SELECT string_agg(line, E'\\n' ORDER BY line) FROM (
    SELECT format('column %s.%s %s %s %s', c.relname, a.attname, format_type(a.atttypid, a.atttypmod),
                  a.attnotnull, pg_get_expr(d.adbin, d.adrelid)) AS line
    FROM pg_attribute AS a JOIN pg_class AS c ON c.oid = a.attrelid
    LEFT JOIN pg_attrdef AS d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE c.relnamespace = 'public'::regnamespace AND a.attnum > 0 AND NOT a.attisdropped
    UNION ALL SELECT format('relation %s %s %s', relname, relkind, reloptions) FROM pg_class
    WHERE relnamespace = 'public'::regnamespace
    UNION ALL SELECT pg_get_indexdef(i.indexrelid) FROM pg_index AS i JOIN pg_class AS c ON c.oid = i.indrelid
    WHERE c.relnamespace = 'public'::regnamespace
    UNION ALL SELECT format('constraint %s %s', conname, pg_get_constraintdef(oid))
    FROM pg_constraint WHERE connamespace = 'public'::regnamespace
    UNION ALL SELECT format('sequence %s %s %s %s %s', seqrelid::regclass, seqstart, seqincrement, seqmax, seqcycle)
    FROM pg_sequence
    UNION ALL SELECT format('trigger %s', tgname) FROM pg_trigger WHERE NOT tgisinternal
    UNION ALL SELECT format('function %s', oid::regprocedure) FROM pg_proc WHERE pronamespace = 'public'::regnamespace
    UNION ALL SELECT format('view %s %s', c.relname, pg_get_viewdef(c.oid)) FROM pg_class AS c
    WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('v', 'm')
    UNION ALL SELECT format('setting %s', setconfig) FROM pg_db_role_setting
    WHERE setdatabase = (SELECT oid FROM pg_database WHERE datname = current_database())
    UNION ALL SELECT format('schema_version %s', row_to_json(v)) FROM schema_version AS v
) AS shape
"""
"""Everything of a database a test could change besides its rows: tables and their columns,
indexes, constraints, sequences, triggers, functions, views, settings and the migrations
applied.  Read from the catalogs rather than `information_schema`, whose views cost a new
connection 5 ms more to plan and run, after every storage test."""


class MigratedCopies:
    """Copies of the migrated template for the storage tests, each test its own at a time.

    Why copies are emptied and handed on rather than made anew: `CREATE DATABASE` costs the
    server about 0.12 s even from a small template (it copies every catalog file), and some
    170 storage tests of the quick loop each made one.  After a test, its copy is emptied as
    a new copy is (every row deleted, sequences restarted), but only if nothing else of it
    changed (`SHAPE`, the migrations applied included); otherwise it is dropped and the next
    test gets a new copy.  Rows and sequences are the only state a test of the store leaves
    that a new copy would not have.

    Rows are deleted, not truncated: TRUNCATE gives each table and index new files (about
    1 ms of the server's time a table, and CASCADE takes in every table that refers to one),
    while a test leaves a few hundred rows at most.  The deletion runs with triggers off
    (`session_replication_role`), so the foreign keys do not dictate an order: every table
    is emptied in the same transaction."""

    def __init__(self, server: PostgresServer, template: str) -> None:
        self.server = server
        self.template = template
        self._spare: list[str] = []
        self._shape: str | None = None
        self._emptying = ""

    @asynccontextmanager
    async def database(self) -> AsyncIterator[str]:
        """The URL of an empty migrated database of this test's own."""
        name = self._spare.pop() if self._spare else await self._copy()
        reusable = False
        try:
            yield self.server.url(name)
            reusable = await self._emptied(name)
        finally:
            if reusable:
                self._spare.append(name)
            else:
                await _drop(self.server, name)

    async def _copy(self) -> str:
        name = f"test_{next(_numbers)}"
        admin = await asyncpg.connect(self.server.url())
        try:
            await admin.execute(f"CREATE DATABASE {name} TEMPLATE {self.template} STRATEGY FILE_COPY")
        finally:
            await admin.close()
        if self._shape is None:  # the template itself cannot be opened: a copy is used while it
            connection = await asyncpg.connect(self.server.url(name))
            try:
                self._shape = await connection.fetchval(SHAPE)
                tables = await connection.fetch(
                    "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_version'"
                )
                sequences = await connection.fetch(
                    "SELECT sequencename, start_value FROM pg_sequences WHERE schemaname = 'public'"
                )
            finally:
                await connection.close()
            deletions = "".join(f'DELETE FROM "{row[0]}";' for row in tables)
            restarts = ", ".join(f"setval('\"{row[0]}\"', {row[1]}, false)" for row in sequences)
            self._emptying = (
                "BEGIN; SET LOCAL session_replication_role = replica;"
                f"{deletions} {f'SELECT {restarts};' if restarts else ''} COMMIT;"
            )
        return name

    async def _emptied(self, name: str) -> bool:
        """Empty database `name` as a new copy is; False when something besides rows changed."""
        connection = await asyncpg.connect(self.server.url(name))
        try:
            await connection.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            if await connection.fetchval(SHAPE) != self._shape:
                return False
            await connection.execute(self._emptying)
            return True
        finally:
            await connection.close()


@pytest.fixture(scope="session")
def migrated_copies(postgres_server: PostgresServer, migrated_template: str) -> MigratedCopies:
    return MigratedCopies(postgres_server, migrated_template)


async def _drop(server: PostgresServer, name: str) -> None:
    admin = await asyncpg.connect(server.url())
    try:
        await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    finally:
        await admin.close()


@asynccontextmanager
async def fresh_database(server: PostgresServer, *, template: str | None = None) -> AsyncIterator[str]:
    """The URL of a new database on `server`, dropped afterwards: empty, or a copy of `template`."""
    name = f"test_{next(_numbers)}"
    admin = await asyncpg.connect(server.url())
    try:
        copy = f" TEMPLATE {template} STRATEGY FILE_COPY" if template else ""
        await admin.execute(f"CREATE DATABASE {name}{copy}")
    finally:
        await admin.close()
    try:
        yield server.url(name)
    finally:
        await _drop(server, name)


@pytest.fixture
async def postgres_url(postgres_server: PostgresServer) -> AsyncIterator[str]:
    async with fresh_database(postgres_server) as url:
        yield url
