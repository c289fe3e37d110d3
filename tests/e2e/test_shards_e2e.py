"""Two shards through the fake Discord: two bot clients on one database, each owning its guilds.

Shard 0's client and shard 1's client (SHARD_COUNT=2, SHARD_IDS=0 and 1) run in this test
process, each with its own store connection (its own pool on PostgreSQL), its own gateway
session and its own clocks; the fake Discord sends each guild's events only to the session
that identified for the guild's shard.  A blitz match runs in a guild of each shard, on one
fake wall clock (minutes pass in milliseconds).  Shard 1's client then stops abruptly (no
last heartbeat, its lease left behind, as a killed process leaves them); shard 0 goes on
meanwhile, and shard 1's guild is silent.  A new client for shard 1 takes over once the dead
lease has lapsed, and its match's clock resumes where the store left it.  Read as the players
would: every reminder once, every loss on time once, each announced by the client that owns
the guild, and nothing left unsent.
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app import client
from bot.app.client import Boneyard
from bot.app.config import Settings
from bot.services.matches import ClockNotice, ClockResult, Update
from bot.services.shard_leases import LEASE_SECONDS, ShardLeases, ShardsTaken
from bot.store import Store
from bot.store.leases import LeaseStore
from tests.bot.settling_time import SettlingTime
from tests.conftest import fresh_database
from tests.e2e.harness import (
    BLITZ_REMINDERS,
    Harness,
    assert_board_for,
    pictures_at_test_priority,
    unexpected_errors,
)
from tests.fake_discord import FakeChannel, FakeDiscord, FakeGuild, FakeUser, restore_discord_defaults

pytestmark = pytest.mark.e2e

COUNT = 2
QUICK_RENEWAL = 0.05
"""Seconds between lease renewals where a test waits for one (the product's: 5 s)."""


class ShardHarness(Harness):
    """The harness of one shard's client; records which clock results it announced."""

    def __init__(self, fake: FakeDiscord, database: Path, shards: set[int], clock: SettlingTime) -> None:
        super().__init__(fake, database)
        self.shards = shards
        self.time = clock
        self.fired: list[tuple[int, str]] = []
        """(match id, what) of every clock result this client announced."""

    def settings(self) -> Settings:
        return Settings.load(
            environ={
                "DISCORD_TOKEN": "dummy",
                "DATABASE_PATH": str(self.database),
                "DISCORD_API_BASE": self.fake.base_url,
                "SYNC_COMMANDS": "global",
                "TYPED_MOVES": "on",
                "SHARD_COUNT": str(COUNT),
                "SHARD_IDS": ",".join(str(s) for s in sorted(self.shards)),
                **({"DATABASE_URL": self.database_url} if self.database_url else {}),
            },
            dotenv=None,
        )

    async def start(self) -> Boneyard:
        """A new client for these shards, its clocks on the shared fake time."""
        self.fake.gateway.identified_shards -= {(shard, COUNT) for shard in self.shards}
        bot = Boneyard(self.settings())
        pictures_at_test_priority(bot)
        bot.clock_time = (self.time.now, self.time.sleep)
        bot.before_identify_hook = identify_at_once  # type: ignore[method-assign]
        for prepare in self.prepare:
            prepare(bot)
        self.adopt(bot)
        self._runner = asyncio.create_task(bot.start(bot.settings.token))
        await self.fake.wait_for_shards(self.shards, COUNT)
        await self._guilds_read(bot)
        assert bot.clocks is not None
        self.time.keepers.append(bot.clocks)
        bot.add_listener(self._record, "on_clock_result")
        return bot

    async def _guilds_read(self, bot: Boneyard, timeout: float = 10.0) -> None:  # noqa: ASYNC109
        """Wait until the client has read the GUILD_CREATE of every guild on its shards: they are
        sent with READY, but a loaded machine may run the test before the client reads them."""
        owned = {guild for guild in self.fake.world.guilds if (guild >> 22) % COUNT in self.shards}
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not owned <= {guild.id for guild in bot.guilds}:
            if loop.time() > deadline:
                raise AssertionError(f"the client on shards {sorted(self.shards)} never read its guilds' GUILD_CREATE")
            await asyncio.sleep(0.01)

    async def _record(self, result: ClockResult) -> None:
        if isinstance(result, ClockNotice):
            self.fired.append((result.match.id, result.text))
        elif isinstance(result, Update):
            self.fired.append((result.match.id, "timeout"))

    async def crash(self) -> str:
        """Stop as a killed process does: no last heartbeat, no lease released, no goodbye
        (the gateway and the store connection are closed: a dead process holds nothing).
        Returns the dead client's lease owner token."""
        bot = self.bot
        await self.wait_for_handlers()
        keeper = bot.clocks
        assert keeper is not None
        self.time.keepers.remove(keeper)
        bot.clocks = None
        await keeper.close(last_heartbeat=False)
        owner = bot.leases.owner
        await bot.leases.close(release=False)
        await self.stop()
        return owner


async def identify_at_once(shard_id: int | None, *, initial: bool = False) -> None:
    """discord.py's default `before_identify_hook` sleeps 5 s before every IDENTIFY but the
    first, for the real Discord's identify rate limit; the fake has none."""


def guild_on_each_shard(fake: FakeDiscord) -> tuple[list[FakeGuild], list[FakeChannel]]:
    """A guild on each of the COUNT shards with a `games` channel; every player in each."""
    guilds = [fake.add_guild(f"Shard {s} Hall", shard=(s, COUNT)) for s in range(COUNT)]
    channels = [fake.add_text_channel(guild, "games") for guild in guilds]
    for guild in guilds:
        for user in fake.players:
            fake.add_member(guild, user)
    return guilds, channels


async def play_blitz(harness: Harness, channel: FakeChannel, first: FakeUser, second: FakeUser) -> int:
    """`/play focus clock:blitz`, accepted, and the first player's move: the match id."""
    ask = await harness.command(
        "play", {"game": "focus", "opponent": second, "seat": "first", "clock": "blitz"}, user=first, channel=channel
    )
    match_id, board = await harness.accept(await harness.public_reply(ask), second)
    assert_board_for(board, first)
    assert_board_for(await harness.slash_move(first, "d2-d1", channel=channel), second)
    return match_id


def reminders(fake: FakeDiscord, channel: FakeChannel, user: FakeUser) -> Counter[str]:
    said = [m.content for m in fake.bot_messages(channel) if m.content.startswith(f"⏰ {user.mention}, ")]
    return Counter(text.split(", ", 1)[1].split(" for your move")[0] for text in said)


def losses(fake: FakeDiscord, channel: FakeChannel) -> list[str]:
    return [m.content for m in fake.bot_messages(channel) if "ran out of time" in m.content and m.attachments]


@pytest.fixture(params=["sqlite", "postgresql"])
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[tuple[Path, str | None]]:
    if request.param == "sqlite":
        yield tmp_path / "boneyard.sqlite3", None
        return
    async with fresh_database(request.getfixturevalue("postgres_server")) as url:
        yield tmp_path / "unused.sqlite3", url


async def test_two_shards_fire_each_clock_once_and_a_dead_shard_resumes_on_restart(
    database: tuple[Path, str | None], caplog: pytest.LogCaptureFixture
) -> None:
    path, url = database
    clock = SettlingTime(float(int(time.time())))
    async with FakeDiscord() as fake:
        guilds, channels = guild_on_each_shard(fake)
        alice, bob, carol = fake.players
        zero, one = (ShardHarness(fake, path, {shard}, clock) for shard in range(COUNT))
        zero.database_url = one.database_url = url
        restarted: ShardHarness | None = None
        try:
            await zero.start()
            await one.start()
            for guild in guilds:
                await zero.bot.lobby.configure(guild.id, venue="channel", clock=None)
            assert {g.id for g in zero.bot.guilds} == {g for g in fake.world.guilds if (g >> 22) % COUNT == 0}
            assert {g.id for g in one.bot.guilds} == {g for g in fake.world.guilds if (g >> 22) % COUNT == 1}

            # a match in each shard's guild; the second player's clock runs (1:00 + 3:00)
            m0 = await play_blitz(zero, channels[0], alice, bob)
            m1 = await play_blitz(one, channels[1], alice, carol)
            assert zero.bot.clocks is not None and one.bot.clocks is not None
            assert zero.bot.clocks.get(m1) is None and one.bot.clocks.get(m0) is None  # each keeps its own
            await clock.advance(50)
            await fake.wait_until_idle()
            assert reminders(fake, channels[0], bob) == Counter({"30 s left": 1, "15 s left": 1})
            assert reminders(fake, channels[1], carol) == Counter({"30 s left": 1, "15 s left": 1})

            # shard 1's process dies; shard 0 goes on (its clock, a move), shard 1's guild is silent
            dead_owner = await one.crash()
            silent_from = fake.mark()
            await clock.advance(20)
            await fake.wait_until_idle()
            assert reminders(fake, channels[0], bob) == Counter(
                {"30 s left": 1, "15 s left": 1, "5 s left": 1, "entering reserve": 1}
            )
            assert_board_for(await zero.slash_move(bob, "c2-c1", channel=channels[0]), alice)
            assert [m for m in fake.bot_messages(channels[1]) if m.id > silent_from.snowflake] == []
            leases = {lease.shard: lease.owner for lease in await LeaseStore(zero.bot.store).leases()}
            assert leases == {0: zero.bot.leases.owner, 1: dead_owner}  # a killed process leaves its lease

            # the lease lapses (as LEASE_SECONDS after the crash); a new shard-1 client takes over
            await zero.bot.store.db.execute(
                "UPDATE shard_leases SET refreshed_at = refreshed_at - ? WHERE owner = ?", (LEASE_SECONDS, dead_owner)
            )
            restarted = ShardHarness(fake, path, {1}, clock)
            restarted.database_url = url
            await restarted.start()
            assert restarted.bot.clocks is not None and restarted.bot.clocks.get(m1) is not None  # resumed
            await clock.advance(300)  # carol's reserve runs out, then alice's (bob moved at 70 s)
            await fake.wait_until_idle()
            await zero.wait_for_handlers()
        finally:
            for harness in (zero, one, restarted):
                if harness is not None:
                    await harness.stop()
            restore_discord_defaults()
        fake.assert_clean()

        # what the players read: every reminder once, each loss on time once
        full = Counter(BLITZ_REMINDERS)
        assert reminders(fake, channels[0], alice) == full
        (loss,) = losses(fake, channels[0])
        assert f"🏆 **{bob.name}** wins: Orange ran out of time" in loss
        after_restart = reminders(fake, channels[1], carol)
        assert max(after_restart.values()) == 1, after_restart  # none twice, across the crash
        assert {"30 s left", "15 s left", "0:30 of reserve left"} <= set(after_restart)
        (loss,) = losses(fake, channels[1])
        assert f"🏆 **{alice.name}** wins: Blue ran out of time" in loss

        # each result announced by the client that owns the guild, each timeout once
        assert {m for m, _ in zero.fired} == {m0}
        assert {m for m, _ in one.fired} == {m1} and ("timeout" not in {w for _, w in one.fired})
        assert restarted is not None and {m for m, _ in restarted.fired} == {m1}
        timeouts = [m for h in (zero, one, restarted) for m, what in h.fired if what == "timeout"]
        assert sorted(timeouts) == sorted([m0, m1])

    store = await Store.open(url or path)
    try:
        for match_id in (m0, m1):
            row = await store.get_match(match_id)
            assert row is not None and row.status == "finished"
        assert await store.unsent_announcements() == []
        assert await LeaseStore(store).leases() == []  # both clean stops released theirs
    finally:
        await store.close()
    errors = unexpected_errors(zero, caplog.records)
    assert not errors, "\n".join(errors)


async def test_one_process_runs_both_shards_and_a_second_one_on_a_shard_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SHARD_IDS=0,1 of 2 in one client: a connection per shard, both guilds' matches and
    clocks in one process.  A second client started on shard 1 is refused, naming it, once
    the first has renewed its lease (within one renewal), and it changed nothing.  Leases are
    renewed every few hundredths of a second here, not every 5 s: the intruder waits one
    renewal to be refused, whatever its length."""
    monkeypatch.setattr(client, "ShardLeases", functools.partial(ShardLeases, renew_every=QUICK_RENEWAL))
    path = tmp_path / "boneyard.sqlite3"
    clock = SettlingTime(float(int(time.time())))
    async with FakeDiscord() as fake:
        guilds, channels = guild_on_each_shard(fake)
        alice, bob, carol = fake.players
        both = ShardHarness(fake, path, {0, 1}, clock)
        try:
            bot = await both.start()
            assert sorted(bot.shards) == [0, 1] and {g.id for g in bot.guilds} == set(fake.world.guilds)
            for guild in guilds:
                await bot.lobby.configure(guild.id, venue="channel", clock=None)
            matches = [
                await play_blitz(both, channels[0], alice, bob),
                await play_blitz(both, channels[1], carol, alice),
            ]

            intruder = Boneyard(ShardHarness(fake, path, {1}, clock).settings())
            with pytest.raises(ShardsTaken, match=r"shards \[1\] are run by another live process"):
                await asyncio.wait_for(intruder.start("dummy"), 60)
            await intruder.close()
            assert len(fake.gateway.sessions) == COUNT  # it never connected to Discord
            held = {lease.shard: lease.owner for lease in await LeaseStore(bot.store).leases()}
            assert held == {0: bot.leases.owner, 1: bot.leases.owner}

            await clock.advance(300)
            await fake.wait_until_idle()
            await both.wait_for_handlers()
        finally:
            await both.stop()
            restore_discord_defaults()
        fake.assert_clean()
    full = {"30 s left", "15 s left", "5 s left", "entering reserve", "0:30 of reserve left"}
    for channel, player in ((channels[0], bob), (channels[1], alice)):
        said = reminders(fake, channel, player)
        assert full <= set(said) and max(said.values()) == 1, said
        assert len(losses(fake, channel)) == 1
    assert sorted(m for m, what in both.fired if what == "timeout") == sorted(matches)


async def test_a_process_whose_shard_was_taken_over_stops_its_duties_and_leaves_it(tmp_path: Path) -> None:
    """Shards 0 and 1 in one client; its lease on shard 1 is taken over by another process
    (as after a long pause of this one).  At its next renewal it finds out: it closes shard 1's
    connection and never fires that guild's clock again (the stored clock is left as it was,
    for the new owner), while shard 0 goes on."""
    path = tmp_path / "boneyard.sqlite3"
    clock = SettlingTime(float(int(time.time())))
    async with FakeDiscord() as fake:
        guilds, channels = guild_on_each_shard(fake)
        alice, bob, carol = fake.players
        both = ShardHarness(fake, path, {0, 1}, clock)
        try:
            bot = await both.start()
            for guild in guilds:
                await bot.lobby.configure(guild.id, venue="channel", clock=None)
            m0 = await play_blitz(both, channels[0], alice, bob)
            m1 = await play_blitz(both, channels[1], alice, carol)
            await clock.advance(35)
            await fake.wait_until_idle()
            assert reminders(fake, channels[1], carol) == Counter({"30 s left": 1})

            # another process takes shard 1 over (this one's lease is stale in the database)
            leases = LeaseStore(bot.store)
            await bot.store.db.execute("UPDATE shard_leases SET refreshed_at = refreshed_at - ?", (LEASE_SECONDS,))
            assert await leases.claim({1}, COUNT, "successor", now=time.time(), alive_within=LEASE_SECONDS) == []
            stored = (await bot.service.get(m1)).clock
            await bot.leases.renew()  # its next renewal
            assert bot.leases.lost == {1} and bot.leases.held == {0}
            assert not bot.owns(guilds[1].id) and bot.owns(guilds[0].id)
            for _ in range(100):
                if [s.shard for s in fake.gateway.active_sessions] == [(0, COUNT)]:
                    break
                await asyncio.sleep(0.02)
            assert [s.shard for s in fake.gateway.active_sessions] == [(0, COUNT)]  # shard 1's connection closed

            silent_from = fake.mark()
            await clock.advance(300)
            await fake.wait_until_idle()
            await both.wait_for_handlers()
            assert [m for m in fake.bot_messages(channels[1]) if m.id > silent_from.snowflake] == []
            row = await bot.service.store.get_match(m1)
            assert row is not None and row.status == "active" and row.clock == stored  # left to its new owner
            assert len(losses(fake, channels[0])) == 1  # shard 0 went on to the end
            assert {m for m, what in both.fired if what == "timeout"} == {m0}
        finally:
            await both.stop()
            restore_discord_defaults()
        fake.assert_clean()
