"""The store: migrations, the one-open-match-per-channel rule, optimistic versions."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from bot.store import MIGRATIONS, POSTGRES_MIGRATIONS, StaleVersion, Store
from bot.store.outbox import BOARD, MATCH_RESULT, Announcement
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


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
async def test_a_commit_writes_exactly_its_moves_and_rows_or_nothing(store: Store, seed: int) -> None:
    """Both backends write a move differently (SQLite: a transaction of steps; PostgreSQL: one
    statement with writing WITH clauses): each must store exactly the log lines and outbox rows
    given, the match row under the version check, and nothing at all for a stale version."""
    rng = random.Random(seed)
    match_id = await _challenge(store)
    version = (await store.start_match(match_id, (ALICE, BOB), {}, [], BOB)).version
    ply, logged, rows, snapshot = 0, [], [], {}
    for _ in range(5):
        moves = [
            (rng.randrange(2), f"m{rng.randrange(99)}", rng.random() < 0.5, rng.random() < 0.3)
            for _ in range(rng.randrange(4))
        ]
        announce = [
            Announcement(
                rng.choice([BOARD, MATCH_RESULT]),
                CHANNEL + rng.randrange(2),
                rng.choice([None, 77]),
                {"n": rng.randrange(9)},
                match_id=rng.choice([None, match_id]),
                follow_up_of=rng.choice([None, 2**62 + rng.randrange(9)]),
            )
            for _ in range(rng.randrange(4))
        ]
        stale = rng.random() < 0.3
        clock = {"c": rng.randrange(9)} if rng.random() < 0.5 else None
        try:
            version, fresh = await store.commit_moves(
                match_id,
                expected_version=version - 1 if stale else version,
                first_ply=ply,
                moves=moves,
                snapshot={"at": ply, "stale": stale},
                clock=clock,
                announce=announce,
            )
        except StaleVersion:
            assert stale
        else:
            assert not stale
            assert (fresh is None) == (not announce) and (fresh is None or fresh.row.key == announce[0].key)
            logged += [(ply + i, *m) for i, m in enumerate(moves)]
            rows += announce
            ply += len(moves)
            snapshot = {"at": ply - len(moves), "stale": False}
        stored = await store.moves(match_id)
        assert [(m.ply, m.seat, m.move, m.public, m.forced) for m in stored] == logged
        unsent = await store.unsent_announcements()
        assert [(a.key, a.kind, a.channel_id, a.guild_id, a.payload, a.match_id, a.follow_up_of) for a in unsent] == [
            (a.key, a.kind, a.channel_id, a.guild_id, a.payload, a.match_id, a.follow_up_of) for a in rows
        ]
        row = await store.get_match(match_id)
        assert row is not None and row.version == version and row.snapshot == snapshot
