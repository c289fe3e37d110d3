"""`python -m bot` with DATABASE_URL: a PostgreSQL database it cannot use is refused in one line
and exit 3, within seconds, and the URL's password never shows; a good one starts the bot.

Each case runs the real entry point in a subprocess against the throwaway server of the tests.
"""

from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path

import asyncpg
import pytest

from bot.store import MIGRATIONS
from tests.bot.test_startup import HANG, bot_environment, run_bot, single_line
from tests.fake_discord import FakeDiscord
from tests.postgres import PostgresServer


def test_an_unreachable_server_is_refused_in_one_line_without_the_password(tmp_path: Path) -> None:
    url = "postgresql://boneyard:hunter2@127.0.0.1:9/boneyard"  # discard port: nothing listens
    result = run_bot(tmp_path, bot_environment(tmp_path / "unused.sqlite3", DATABASE_URL=url))
    assert result.returncode == 3
    line = single_line(result)
    assert line.startswith("boneyard: cannot connect to the database postgresql://boneyard:***@127.0.0.1:9/boneyard: ")
    assert "hunter2" not in result.stderr
    assert not (tmp_path / "unused.sqlite3").exists(), "no SQLite file is made when the URL is set"


def test_a_database_that_does_not_exist_is_refused_in_one_line(tmp_path: Path, postgres_server: PostgresServer) -> None:
    url = postgres_server.url("no_such_database")
    result = run_bot(tmp_path, bot_environment(tmp_path / "unused.sqlite3", DATABASE_URL=url))
    assert result.returncode == 3
    line = single_line(result)
    assert f"cannot connect to the database {url}: " in line
    assert "no_such_database" in line.split(": ", 2)[2], "the server's reason is given"


async def test_a_newer_schema_is_refused_in_one_line(tmp_path: Path, postgres_url: str) -> None:
    newer = len(MIGRATIONS) + 1
    connection = await asyncpg.connect(postgres_url)
    try:
        await connection.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        await connection.execute("INSERT INTO schema_version VALUES ($1)", newer)
    finally:
        await connection.close()
    result = await asyncio.to_thread(
        run_bot, tmp_path, bot_environment(tmp_path / "unused.sqlite3", DATABASE_URL=postgres_url)
    )
    assert result.returncode == 3
    assert (
        f"the database {postgres_url} has schema version {newer}, newer than this Boneyard knows ({newer - 1})"
        in single_line(result)
    )


async def test_a_read_only_database_is_refused_in_one_line_and_left_unchanged(
    tmp_path: Path, postgres_url: str
) -> None:
    name = postgres_url.rsplit("/", 1)[1]
    connection = await asyncpg.connect(postgres_url)
    try:
        await connection.execute(f"ALTER DATABASE {name} SET default_transaction_read_only = on")
    finally:
        await connection.close()
    result = await asyncio.to_thread(
        run_bot, tmp_path, bot_environment(tmp_path / "unused.sqlite3", DATABASE_URL=postgres_url)
    )
    assert result.returncode == 3
    line = single_line(result)
    assert f"cannot write the database {postgres_url} (" in line
    assert "read-only transaction" in line
    connection = await asyncpg.connect(postgres_url)
    try:
        assert await connection.fetchval("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == 0
    finally:
        await connection.close()


@pytest.mark.slow  # a real bot process connected to the fake Discord
async def test_a_usable_database_starts_the_bot_and_is_migrated(tmp_path: Path, postgres_url: str) -> None:
    async with FakeDiscord() as fake:
        environment = bot_environment(
            tmp_path / "unused.sqlite3", DATABASE_URL=postgres_url, DISCORD_API_BASE=fake.base_url
        )
        bot = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=tmp_path, env=environment, stderr=asyncio.subprocess.PIPE
        )
        try:
            await fake.wait_until_ready(timeout=HANG)
        finally:
            bot.send_signal(signal.SIGTERM)
            _, log = await asyncio.wait_for(bot.communicate(), HANG)
    assert bot.returncode == 0, log.decode()
    assert "Traceback" not in log.decode()
    connection = await asyncpg.connect(postgres_url)
    try:
        assert await connection.fetchval("SELECT max(version) FROM schema_version") == len(MIGRATIONS)
        assert await connection.fetchval("SELECT to_regclass('boneyard_startup_write_check')") is None
    finally:
        await connection.close()
    assert not (tmp_path / "unused.sqlite3").exists()
