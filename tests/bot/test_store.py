"""The store: migrations, the one-open-match-per-channel rule, optimistic versions."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from bot.store import MIGRATIONS, POSTGRES_MIGRATIONS, StaleVersion, Store
from tests.bot.conftest import ALICE, BOB, CHANNEL
from tests.bot.match_driver import stored_challenge


async def _challenge(store: Store, channel: int = CHANNEL) -> int:
    return await stored_challenge(store, channel=channel)


async def test_migrations_bring_a_new_file_to_the_latest_version(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "db.sqlite3")
    assert await store.schema_version() == len(MIGRATIONS)
    await store.close()
    again = await Store.open(tmp_path / "db.sqlite3")  # reopening applies nothing twice
    assert await again.schema_version() == len(MIGRATIONS)
    await again.close()


async def test_migrations_bring_a_new_postgres_database_to_the_latest_version(postgres_url: str) -> None:
    store = await Store.open(postgres_url)
    assert store.backend == "postgresql"
    assert await store.schema_version() == len(POSTGRES_MIGRATIONS) == len(MIGRATIONS)
    await store.close()
    again = await Store.open(postgres_url)
    assert await again.schema_version() == len(MIGRATIONS)
    # snowflakes need 64 bits, timestamps more than a float4
    match = await again.create_challenge(
        game="focus",
        options={},
        guild_id=1_574_420_490_167_123_970,
        channel_id=1_574_420_490_171_318_275,
        challenger_id=1_574_420_490_171_318_276,
        opponent_id=None,
        seat_pref="random",
        seed="s",
        seed_hash="h",
    )
    assert match is not None and match.channel_id == 1_574_420_490_171_318_275
    assert abs(match.created_at - time.time()) < 5
    await again.close()


async def test_a_channel_holds_one_open_match(store: Store) -> None:
    await _challenge(store)
    second = await store.create_challenge(
        game="focus",
        options={},
        guild_id=1,
        channel_id=CHANNEL,
        challenger_id=BOB,
        opponent_id=None,
        seat_pref="random",
        seed="t",
        seed_hash="u",
    )
    assert second is None
    assert await _challenge(store, channel=CHANNEL + 1)


async def test_commit_with_a_stale_version_changes_nothing(store: Store) -> None:
    match_id = await _challenge(store)
    row = await store.start_match(match_id, (ALICE, BOB), {"x": 1}, [], BOB)
    version, _ = await store.commit_moves(
        match_id, expected_version=row.version, first_ply=0, moves=[(0, "c3-c4", True, False)], snapshot={"x": 2}
    )
    with pytest.raises(StaleVersion):
        await store.commit_moves(
            match_id, expected_version=row.version, first_ply=1, moves=[(1, "d3-d4", True, False)], snapshot={"x": 3}
        )
    after = await store.get_match(match_id)
    assert after is not None
    assert after.version == version
    assert after.snapshot == {"x": 2}
    assert [m.move for m in await store.moves(match_id)] == ["c3-c4"]


async def test_accepting_twice_fails_the_second_time(store: Store) -> None:
    match_id = await _challenge(store)
    await store.start_match(match_id, (ALICE, BOB), {}, [], BOB)
    with pytest.raises(StaleVersion):
        await store.start_match(match_id, (BOB, ALICE), {}, [], BOB)
    row = await store.get_match(match_id)
    assert row is not None and row.seats == (ALICE, BOB)


def test_database_url_selects_postgresql_and_is_checked() -> None:
    from bot.app.config import ConfigError, Settings

    env = {"DISCORD_TOKEN": "x", "DATABASE_PATH": "here.sqlite3"}
    assert Settings.load(environ=env, dotenv=None).database_location == Path("here.sqlite3")
    url = "postgresql://bot:secret@db/boneyard"
    assert Settings.load(environ={**env, "DATABASE_URL": url}, dotenv=None).database_location == url
    with pytest.raises(ConfigError, match="DATABASE_URL"):
        Settings.load(environ={**env, "DATABASE_URL": "mysql://db"}, dotenv=None)
