"""Shards: which process owns which guild's clocks, outbox rows and tournaments."""

from __future__ import annotations

import random

import pytest

from bot.app.config import ConfigError, Settings
from bot.clocks import PRESETS, ClockState
from bot.infra.shards import ShardLayout, shard_of
from bot.store import Store
from bot.store.clocks import MatchClockStore
from bot.store.lobby import LobbyStore
from bot.store.outbox import BOARD, Announcement
from tests.bot.conftest import ALICE, BOB
from tests.bot.match_driver import stored_challenge

DISCORD_EPOCH_MS = 1_420_070_400_000


def reference_shard(guild_id: int, count: int) -> int:
    """Discord's documentation: a guild's shard is its creation time in milliseconds since
    the Discord epoch (the snowflake's top 42 bits), modulo the number of shards."""
    created_ms = guild_id // 2**22 + DISCORD_EPOCH_MS
    return (created_ms - DISCORD_EPOCH_MS) % count


def test_the_shard_formula_matches_discords() -> None:
    rng = random.Random(11)
    for _ in range(2000):
        guild = rng.getrandbits(63)
        count = rng.randrange(1, 64)
        assert shard_of(guild, count) == reference_shard(guild, count)
    assert shard_of(None, 7) == 0  # DMs arrive on shard 0


def _settings(**env: str) -> Settings:
    return Settings.load(environ={"DISCORD_TOKEN": "x", **env}, dotenv=None)


def test_layouts_are_read_and_bad_ones_refused_with_the_setting_named() -> None:
    assert _settings().shards == ShardLayout(1, frozenset({0}))
    assert _settings(SHARD_COUNT="4", SHARD_IDS="2").shards == ShardLayout(4, frozenset({2}))
    # several shards in one process (discord.py's AutoShardedClient runs one connection each)
    assert _settings(SHARD_COUNT="4", SHARD_IDS="0, 1").shards == ShardLayout(4, frozenset({0, 1}))
    assert _settings(SHARD_COUNT="3").shards == ShardLayout(3, frozenset({0, 1, 2}))  # default: every shard
    for env, setting in (
        ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "SHARD_IDS"),  # shard 1's guilds would have no owner
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT"),
        ({"SHARD_COUNT": "two"}, "SHARD_COUNT"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1,1"}, "SHARD_IDS"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "x"}, "SHARD_IDS"),
        ({"SHARD_COUNT": "3", "SHARD_IDS": "0,3"}, "SHARD_IDS"),
    ):
        with pytest.raises(ConfigError, match=setting):
            _settings(**env)


async def _match_in(store: Store, guild: int | None, channel: int) -> int:
    match_id = await stored_challenge(store, guild=guild, channel=channel)
    clock = ClockState.new(PRESETS["blitz"]).start_turn({0}, 1000.0).to_json()
    await store.start_match(match_id, (ALICE, BOB), {}, [], BOB, clock=clock)
    return match_id


async def test_each_process_loads_exactly_its_guilds_clocks_and_outbox_rows(store: Store) -> None:
    rng = random.Random(3)
    guilds: list[int | None] = [rng.getrandbits(62) for _ in range(30)] + [None]
    owner_of: dict[int, int] = {}
    announcements = []
    for number, guild in enumerate(guilds):
        match_id = await _match_in(store, guild, 100 + number)
        owner_of[match_id] = shard_of(guild, 3)
        announcements.append(Announcement(BOARD, 100 + number, guild, {}, match_id=match_id))
    await store.announce(announcements)
    seen_clocks: list[int] = []
    seen_rows: list[int] = []
    for shard in range(3):
        layout = ShardLayout(3, frozenset({shard}))
        clocks = await MatchClockStore(store, layout).load_all()
        assert {owner_of[m] for m, _ in clocks} <= {shard}
        seen_clocks += [m for m, _ in clocks]
        rows = await store.unsent_announcements(shards=layout)
        assert {owner_of[r.match_id or 0] for r in rows} <= {shard}
        seen_rows += [r.match_id or 0 for r in rows]
    assert sorted(seen_clocks) == sorted(owner_of)  # every guild owned, none twice
    assert sorted(seen_rows) == sorted(owner_of)
    assert len(set(owner_of.values())) == 3


async def test_each_shard_keeps_its_own_heartbeat(store: Store) -> None:
    zero = MatchClockStore(store, ShardLayout(2, frozenset({0})))
    one = MatchClockStore(store, ShardLayout(2, frozenset({1})))
    await zero.save_heartbeat(100.0)
    await one.save_heartbeat(250.0)
    assert await zero.load_heartbeat() == 100.0
    assert await one.load_heartbeat() == 250.0


async def test_a_process_with_several_shards_loads_the_union_of_theirs(store: Store) -> None:
    rng = random.Random(5)
    guilds: list[int | None] = [rng.getrandbits(62) for _ in range(24)] + [None]
    owner_of = {}
    for number, guild in enumerate(guilds):
        match_id = await _match_in(store, guild, 300 + number)
        owner_of[match_id] = shard_of(guild, 4)
    for ids in ({0, 2}, {1, 3}, {0, 1, 2, 3}, {3}, set()):
        layout = ShardLayout(4, frozenset(ids))
        loaded = {m for m, _ in await MatchClockStore(store, layout).load_all()}
        assert loaded == {m for m, shard in owner_of.items() if shard in ids}, ids


async def test_a_process_with_several_shards_beats_for_each_of_them(store: Store) -> None:
    both = MatchClockStore(store, ShardLayout(3, frozenset({0, 2})))
    await both.save_heartbeat(400.0)
    assert await MatchClockStore(store, ShardLayout(3, frozenset({0}))).load_heartbeat() == 400.0
    assert await MatchClockStore(store, ShardLayout(3, frozenset({2}))).load_heartbeat() == 400.0
    assert await MatchClockStore(store, ShardLayout(3, frozenset({1}))).load_heartbeat() is None


async def test_each_process_expires_only_its_guilds_challenges(store: Store) -> None:
    """Challenge expiry is a per-shard duty too: the process that owns the guild closes the
    challenge and edits its message, the other leaves it alone."""
    lobby = LobbyStore(store)
    guild_on = {shard: (1_000 * 2 + shard) << 22 for shard in (0, 1)}
    ids = {}
    for shard, guild in guild_on.items():
        ids[shard] = await stored_challenge(store, guild=guild, channel=700 + shard)
        await lobby.set_expiry(ids[shard], 100.0)
    assert await lobby.expire_challenges(200.0, ShardLayout(2, frozenset({1}))) == [ids[1]]
    assert await lobby.expire_challenges(200.0, ShardLayout(2, frozenset({1}))) == []
    assert await lobby.expire_challenges(200.0, ShardLayout(2, frozenset())) == []  # leases unsure: nothing
    assert await lobby.expire_challenges(200.0, ShardLayout(2, frozenset({0}))) == [ids[0]]
