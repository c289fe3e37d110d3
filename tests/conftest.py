"""Fixtures shared by every test package: the throwaway PostgreSQL server."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager

import asyncpg
import pytest

from tests.postgres import PostgresServer

_numbers = itertools.count(1)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One server for the whole run (started on first use, about a second)."""
    server = PostgresServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()


@asynccontextmanager
async def fresh_database(server: PostgresServer) -> AsyncIterator[str]:
    """The URL of a new empty database on `server`, dropped afterwards."""
    name = f"test_{next(_numbers)}"
    admin = await asyncpg.connect(server.url())
    try:
        await admin.execute(f"CREATE DATABASE {name}")
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
