"""Fixtures shared by every test package: the throwaway PostgreSQL server."""

from __future__ import annotations

import asyncio
import itertools
import sys
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager

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


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One server for the whole run (started on first use, about a second)."""
    with running_server() as server:
        yield server


MIGRATED_TEMPLATE = "boneyard_migrated"


@pytest.fixture(scope="session")
def migrated_template(postgres_server: PostgresServer) -> str:
    """A database with every migration applied, made once, never opened by a test: the stores
    of the storage tests are copies of it (each test its own), not new databases migrated one
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
        admin = await asyncpg.connect(server.url())
        try:
            await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        finally:
            await admin.close()


@pytest.fixture
async def postgres_url(postgres_server: PostgresServer) -> AsyncIterator[str]:
    async with fresh_database(postgres_server) as url:
        yield url
