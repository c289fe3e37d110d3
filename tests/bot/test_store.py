"""The store: migrations, the one-open-match-per-channel rule, optimistic versions."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import MIGRATIONS, StaleVersion, Store
from tests.bot.conftest import ALICE, BOB, CHANNEL


async def _challenge(store: Store, channel: int = CHANNEL) -> int:
    row = await store.create_challenge(
        game="focus",
        options={},
        guild_id=1,
        channel_id=channel,
        challenger_id=ALICE,
        opponent_id=BOB,
        seat_pref="first",
        seed="s",
        seed_hash="h",
    )
    assert row is not None
    return row.id


async def test_migrations_bring_a_new_file_to_the_latest_version(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "db.sqlite3")
    assert await store.schema_version() == len(MIGRATIONS)
    await store.close()
    again = await Store.open(tmp_path / "db.sqlite3")  # reopening applies nothing twice
    assert await again.schema_version() == len(MIGRATIONS)
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
    version = await store.commit_moves(
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
