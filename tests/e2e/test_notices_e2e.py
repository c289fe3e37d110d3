"""Notices each player chooses, through the real bot and the fake Discord: what each player
received is counted (pings in the channel, DMs), so each choice must deliver as promised and
nothing else.  Hours and days pass on a fake wall clock (`Boneyard.start_clocks`, and
`clock_time` for a bot started after a restart); the notices duty runs every few hundredths
of a real second (`Duties.max_interval`) and reads that fake time through the service."""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections.abc import Callable
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from bot.app.client import Boneyard
from bot.infra.duties import Duties, DutyHealth
from bot.services.matches import clock_of
from cogs.out.notices import NOTICE_DUTY
from tests.bot.settling_time import SettlingTime
from tests.e2e.harness import BLITZ_REMINDERS, Harness
from tests.fake_discord import FakeChannel, FakeMessage, FakeUser

pytestmark = pytest.mark.e2e

HOUR, DAY = 3600.0, 86400.0


def quick_duties(bot: Boneyard) -> None:
    bot.duties = Duties(backoff_first=0.05, backoff_max=0.3, max_interval=0.02)


def on_fake_time(clock: SettlingTime) -> Callable[[Boneyard], None]:
    def prepare(bot: Boneyard) -> None:
        bot.clock_time = (clock.now, clock.sleep)

    return prepare


async def slow_clocks(harness: Harness, clock: SettlingTime) -> None:
    """The running bot's clocks on `clock`, waking rarely (the tests jump hours and days)."""
    keeper = await harness.bot.start_clocks(now=clock.now, sleep=clock.sleep, heartbeat_every=HOUR, max_sleep=HOUR)
    clock.keepers[:] = [keeper]


async def duty_passes(bot: Boneyard) -> None:
    """Until the notices duty ran a whole pass that started after this call."""
    health = bot.duties.of(NOTICE_DUTY)
    assert health is not None
    for _ in range(2):
        await asyncio.wait_for(bot.duties.wait_for(ran_after(health, time.time())), 20)


def ran_after(health: DutyHealth, since: float) -> Callable[[], bool]:
    return lambda: health.last_success is not None and health.last_success > since


def local(zone: str, day: int, hour: int, minute: int = 0) -> float:
    """A moment of this year's 14th (day 0) or later days of January, in `zone`: far from any
    summer-time change and from the year's end, whatever day the tests run."""
    year = datetime.now(UTC).year
    return datetime(year, 1, 14 + day, hour, minute, tzinfo=ZoneInfo(zone)).timestamp()


def pings(harness: Harness, channel: FakeChannel, since: int) -> list[int]:
    return [u for m in harness.fake.bot_messages(channel) if m.id > since for u in m.pinged_ids]


def dms(harness: Harness, user: FakeUser, since: int) -> list[FakeMessage]:
    return [m for m in harness.fake.dms_to(user) if m.id > since]


async def start(
    harness: Harness, alice: FakeUser, bob: FakeUser, clock: str, channel: FakeChannel | None = None
) -> int:
    """alice (first to move) against bob; the match id."""
    values = {"game": "focus", "opponent": bob, "seat": "first", "clock": clock}
    challenge = await harness.public_reply(await harness.command("play", values, user=alice, channel=channel))
    match_id, _board = await harness.accept(challenge, bob)
    await harness.fake.wait_until_idle()
    return match_id


async def move(
    harness: Harness, user: FakeUser, match_id: int, rng: random.Random, channel: FakeChannel | None = None
) -> None:
    legal = await harness.bot.service.legal_moves(match_id, user.id)
    await harness.command("move", {"notation": rng.choice(legal)}, user=user, channel=channel)
    await harness.fake.wait_until_idle()


@pytest.mark.parametrize("how", ["ping", "dm", "digest", "off"])
async def test_each_choice_delivers_as_promised_and_nothing_else(harness: Harness, how: str) -> None:
    fake = harness.fake
    alice, bob, carol = fake.players
    chosen = await harness.ephemeral_reply(await harness.command("notify", {"how": how}, user=bob))
    assert "Your turn is told by:" in chosen and "(this server's default)" not in chosen
    rng = random.Random(len(how))
    match_id = await start(harness, alice, bob, "none")
    mark = fake.mark().snowflake
    await move(harness, alice, match_id, rng)
    assert await harness.to_move(match_id) == [bob.id]
    board = [m for m in fake.bot_messages(fake.channel) if m.id > mark and m.attachments][-1]
    assert f"{bob.mention} to move" in board.content, "the board names the player to move whatever they chose"
    assert pings(harness, fake.channel, mark) == ([bob.id] if how == "ping" else [])
    told = dms(harness, bob, mark)
    if how == "dm":
        assert [m.content for m in told] == [
            f"♟ Your move in **Focus** against {alice.name} — match #{match_id}: "
            f"https://discord.com/channels/{fake.guild.id}/{fake.channel.id}"
        ]
    else:
        assert told == []
    assert dms(harness, alice, mark) == [] and dms(harness, carol, mark) == []

    mark = fake.mark().snowflake  # alice never chose: the default ping, and bob hears nothing of her turn
    await move(harness, bob, match_id, rng)
    assert pings(harness, fake.channel, mark) == [alice.id]
    assert dms(harness, alice, mark) == [] and dms(harness, bob, mark) == []


async def test_a_server_default_applies_to_who_never_chose(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, carol = fake.players
    managers = fake.add_role(fake.guild, "Managers", permissions=1 << 5)  # MANAGE_GUILD
    fake.member(fake.guild, carol).role_ids.append(managers.id)
    shown = await harness.ephemeral_reply(await harness.command("settings", {"notify": "dm"}, user=carol))
    assert "told of their turn by: **dm**" in shown
    await harness.command("notify", {"how": "ping"}, user=alice)  # her own choice wins
    rng = random.Random(4)
    match_id = await start(harness, alice, bob, "none")
    mark = fake.mark().snowflake
    await move(harness, alice, match_id, rng)
    assert pings(harness, fake.channel, mark) == [] and len(dms(harness, bob, mark)) == 1
    mark = fake.mark().snowflake
    await move(harness, bob, match_id, rng)
    assert pings(harness, fake.channel, mark) == [alice.id] and dms(harness, alice, mark) == []


@pytest.mark.parametrize("how", ["ping", "dm", "dm, closed"])
async def test_quiet_hours_hold_notices_back_until_they_end_then_deliver_once(harness: Harness, how: str) -> None:
    fake = harness.fake
    alice, bob, _ = fake.players
    berlin = "Europe/Berlin"
    clock = SettlingTime(local(berlin, 0, 23, 30))
    harness.prepare += [quick_duties, on_fake_time(clock)]
    await harness.restart()
    await slow_clocks(harness, clock)
    await harness.command("notify", {"how": how.split(",")[0], "zone": "Europe/Berlin", "quiet": "23-7"}, user=bob)
    fake.close_dms(bob, closed=how == "dm, closed")  # then the held notice pings instead of a lost DM
    rng = random.Random(9)
    match_id = await start(harness, alice, bob, "none")
    mark = fake.mark().snowflake
    await move(harness, alice, match_id, rng)
    await clock.advance_to(local(berlin, 1, 6, 58))
    await duty_passes(harness.bot)
    assert pings(harness, fake.channel, mark) == [] and dms(harness, bob, mark) == []

    await clock.advance_to(local(berlin, 1, 7, 1))
    await duty_passes(harness.bot)
    await clock.advance(HOUR)
    await duty_passes(harness.bot)
    if how != "dm":
        assert pings(harness, fake.channel, mark) == [bob.id]
        assert dms(harness, bob, mark) == []
    else:
        assert pings(harness, fake.channel, mark) == []
        [held] = dms(harness, bob, mark)
        assert f"match #{match_id}" in held.content and str(fake.channel.id) in held.content


async def test_a_notice_held_for_a_turn_already_taken_is_not_sent(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, _ = fake.players
    clock = SettlingTime(local("UTC", 0, 23))
    harness.prepare += [quick_duties, on_fake_time(clock)]
    await harness.restart()
    await slow_clocks(harness, clock)
    await harness.command("notify", {"how": "dm", "quiet": "22-7"}, user=bob)
    rng = random.Random(2)
    match_id = await start(harness, alice, bob, "none")
    mark = fake.mark().snowflake
    await move(harness, alice, match_id, rng)
    await move(harness, bob, match_id, rng)  # he saw it anyway and moved at night
    await clock.advance(9 * HOUR)
    await duty_passes(harness.bot)
    assert dms(harness, bob, mark) == [], "no news: the turn he was told of is over"


async def test_the_digest_fires_at_its_hour_across_a_restart_and_never_twice_a_day(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, _ = fake.players
    york = "America/New_York"
    clock = SettlingTime(local(york, 0, 5))
    harness.prepare += [quick_duties, on_fake_time(clock)]
    await harness.restart()
    await slow_clocks(harness, clock)
    chosen = await harness.ephemeral_reply(
        await harness.command("notify", {"how": "digest", "zone": "America/New_York", "hour": 9}, user=bob)
    )
    assert "digest at **09:00**" in chosen and "America/New_York" in chosen
    rng = random.Random(7)
    waiting = await start(harness, alice, bob, "3d")
    await move(harness, alice, waiting, rng)  # bob to move here
    other = fake.add_text_channel(fake.guild, "side-table")
    not_waiting = await start(harness, alice, bob, "none", channel=other)  # alice to move there
    mark = fake.mark().snowflake
    assert dms(harness, bob, 0) == []

    await clock.advance_to(local(york, 0, 8, 59))
    await duty_passes(harness.bot)
    assert dms(harness, bob, mark) == []
    await harness.stop()
    clock.t = local(york, 0, 9, 30)  # the bot was down at 09:00
    await harness.start()
    await slow_clocks(harness, clock)
    await duty_passes(harness.bot)
    [digest] = dms(harness, bob, mark)
    assert digest.content.startswith("☀ Your daily digest: 1 match waiting for your move.")
    assert f"**Focus** against {alice.name} (match #{waiting}, your clock 2d 19h)" in digest.content
    assert f"https://discord.com/channels/{fake.guild.id}/{fake.channel.id}" in digest.content
    assert f"#{not_waiting}" not in digest.content

    await clock.advance(5 * HOUR)
    await harness.restart()
    await slow_clocks(harness, clock)
    await duty_passes(harness.bot)
    assert len(dms(harness, bob, mark)) == 1, "never twice for the same day, restart or not"

    await move(harness, bob, waiting, rng)  # nothing waits for bob any more
    await clock.advance_to(local(york, 1, 9, 30))
    await duty_passes(harness.bot)
    assert len(dms(harness, bob, mark)) == 1, "no digest when there is nothing to say"
    await move(harness, alice, not_waiting, rng, channel=other)
    await clock.advance_to(local(york, 2, 9))
    await duty_passes(harness.bot)
    assert len(dms(harness, bob, mark)) == 2
    assert f"match #{not_waiting}, no clock" in dms(harness, bob, mark)[-1].content


@pytest.mark.parametrize("how", ["off", "dm"])
async def test_reminders_follow_the_choice_but_the_last_warning_always_goes_out(harness: Harness, how: str) -> None:
    fake = harness.fake
    alice, bob, _ = fake.players
    clock = SettlingTime(float(int(time.time())))
    clock.keepers.append(await harness.bot.start_clocks(now=clock.now, sleep=clock.sleep))
    await harness.command("notify", {"how": how}, user=alice)
    match_id = await start(harness, alice, bob, "blitz")
    mark = fake.mark()
    await clock.advance(241)
    await fake.wait_for_message(fake.channel, lambda m: "ran out of time" in m.content, since=mark)
    await fake.wait_until_idle()
    in_channel = [
        m.content for m in fake.bot_messages(fake.channel) if m.id > mark.snowflake and m.content.startswith("⏰ <@")
    ]
    by_dm = [m.content for m in dms(harness, alice, mark.snowflake)]
    if how == "off":
        assert [text.split(" for your move")[0] for text in in_channel] == [f"⏰ {alice.mention}, 0:30 of reserve left"]
        assert by_dm == []
    else:
        assert in_channel == []
        said = [re.sub(r"^⏰ (.*) for your move in \*\*Focus\*\*.*$", r"\1", text) for text in by_dm]
        assert said == list(BLITZ_REMINDERS)
        assert all(f"match #{match_id}" in text for text in by_dm)


async def test_a_vacation_pauses_the_clock_and_gives_it_back_exactly(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, _ = fake.players
    clock = SettlingTime(local("UTC", 0, 12))  # the days counted are this year's
    harness.prepare += [quick_duties, on_fake_time(clock)]
    await harness.restart()
    await slow_clocks(harness, clock)
    service = harness.bot.service
    match_id = await start(harness, alice, bob, "daily")
    elsewhere = await start(harness, bob, alice, "none", channel=fake.add_text_channel(fake.guild, "casual"))
    await clock.advance(2 * HOUR)

    async def left() -> tuple[float, float]:
        row = await service.get(match_id)
        found = clock_of(row)
        assert found is not None
        return found.remaining(0, clock.now())

    before = await left()
    assert before == (22 * HOUR, 72 * HOUR)
    mark = fake.mark().snowflake
    started = await harness.ephemeral_reply(await harness.command("vacation start", {"days": 3}, user=alice))
    assert "(3 days)" in started and "1 match clock paused" in started
    [told] = [m for m in fake.bot_messages(fake.channel) if m.id > mark]
    assert told.content.startswith(f"{bob.mention}: 🏖 {alice.name} is on vacation until") and told.pinged_ids == [
        bob.id
    ]
    assert await harness.bot.notices.store.vacation_holders(elsewhere) == [], "a match without a clock is left alone"

    await clock.advance(DAY + 11 * HOUR)
    await duty_passes(harness.bot)
    assert await left() == before
    assert [m for m in fake.bot_messages(fake.channel) if m.id > told.id] == [], "told once, then quiet"
    assert dms(harness, alice, mark) == [], "no clock reminder while on vacation"
    status = await harness.ephemeral_reply(await harness.command("vacation status", user=alice))
    assert "**14** left of 14" in status and "You are on vacation until" in status

    ended = await harness.ephemeral_reply(await harness.command("vacation end", user=alice))
    assert "2 vacation days used, 12 left" in ended and "1 match clock running again" in ended
    assert await left() == before
    await clock.advance(HOUR)
    assert await left() == (before[0] - HOUR, before[1])

    mark = fake.mark().snowflake
    await harness.command("vacation start", {"days": 1}, user=alice)
    await clock.advance(DAY + 60)  # the day runs out: the duty ends it
    await duty_passes(harness.bot)
    back = [m for m in fake.bot_messages(fake.channel) if m.id > mark and "back from vacation" in m.content]
    assert len(back) == 1 and back[0].pinged_ids == []
    assert await left() == (before[0] - HOUR - 60, before[1])
    status = await harness.ephemeral_reply(await harness.command("vacation status", user=alice))
    assert "**11** left of 14 (3 used)" in status and "on vacation until" not in status
    refused = await harness.error_reply("vacation start", {"days": 20}, user=alice)
    assert "You have 11 vacation days left this year, not 20." in refused
    assert await left() == (before[0] - HOUR - 60, before[1]), "a refusal changes nothing"


async def test_a_nudge_once_a_day_only_by_the_waiting_player_only_without_a_clock(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, carol = fake.players
    clock = SettlingTime(float(int(time.time())))
    await slow_clocks(harness, clock)
    rng = random.Random(5)
    match_id = await start(harness, alice, bob, "none")
    await move(harness, alice, match_id, rng)
    assert "It is your turn" in await harness.error_reply("nudge", user=bob)
    assert "not playing" in await harness.error_reply("nudge", user=carol)

    mark = fake.mark().snowflake
    done = await harness.ephemeral_reply(await harness.command("nudge", user=alice))
    assert "pinged in the match's thread" in done
    [nudge] = [m for m in fake.bot_messages(fake.channel) if m.id > mark]
    assert nudge.content == f"👋 {bob.mention}, {alice.name} is waiting for your move in match #{match_id}."
    assert nudge.pinged_ids == [bob.id]

    await clock.advance(HOUR)
    again = await harness.error_reply("nudge", user=alice)
    assert "your next nudge is allowed in 23h" in again
    assert [m for m in fake.bot_messages(fake.channel) if m.id > nudge.id] == [], "a refused nudge says nothing"

    await harness.command("notify", {"how": "dm"}, user=bob)
    await clock.advance(23 * HOUR)
    mark = fake.mark().snowflake
    await harness.command("nudge", user=alice)
    assert pings(harness, fake.channel, mark) == []
    [dm] = dms(harness, bob, mark)
    assert dm.content.startswith(f"👋 {alice.name} is waiting for your move in match #{match_id}")

    timed = await start(harness, alice, bob, "daily", channel=fake.add_text_channel(fake.guild, "timed"))
    await move(
        harness, alice, timed, rng, channel=fake.world.channels[(await harness.bot.service.get(timed)).channel_id]
    )
    refused = await harness.error_reply(
        "nudge", user=alice, channel=fake.world.channels[(await harness.bot.service.get(timed)).channel_id]
    )
    assert "This match has a clock" in refused


async def test_a_player_whose_controls_come_by_dm_gets_no_second_dm_for_the_turn(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, _ = fake.players
    await harness.command("notify", {"how": "dm"}, user=bob)
    values = {"game": "domino_wars", "opponent": bob, "seat": "first", "clock": "none"}
    challenge = await harness.public_reply(await harness.command("play", values, user=alice))
    mark = fake.mark().snowflake
    _match_id, board = await harness.accept(challenge, bob)
    await fake.wait_until_idle()
    assert bob.id not in board.pinged_ids and alice.id in board.pinged_ids  # both draft; alice wants pings
    [controls] = dms(harness, bob, mark)
    assert controls.custom_ids, "the one DM is the draft's controls"
    assert not controls.content.startswith("♟")


async def test_zones_are_offered_as_typed_and_a_wrong_one_changes_nothing(harness: Harness) -> None:
    fake = harness.fake
    alice = fake.players[0]
    typing = await fake.autocomplete("notify", {"zone": "berl"}, focused="zone", user=alice)
    offered = [c["value"] for c in (await fake.wait_for_response(typing)).choices]
    assert offered[0] == "Europe/Berlin" and len(offered) <= 25
    await harness.command("notify", {"how": "dm", "zone": "Asia/Tokyo", "quiet": "23-6"}, user=alice)
    refused = await harness.error_reply("notify", {"how": "off", "zone": "Moon/Base"}, user=alice)
    assert "`Moon/Base` is not a time zone I know" in refused
    refused = await harness.error_reply("notify", {"how": "off", "quiet": "7-7"}, user=alice)
    assert "different hours" in refused
    shown = await harness.ephemeral_reply(await harness.command("notify", user=alice))
    assert "**a direct message**" in shown and "**Asia/Tokyo**" in shown and "**23:00–06:00**" in shown


@pytest.mark.parametrize("seed", [5, 23])
async def test_a_dm_notice_refused_by_closed_dms_becomes_a_ping_explained_once_per_match(
    harness: Harness, seed: int
) -> None:
    fake = harness.fake
    alice, bob, _ = fake.players
    rng = random.Random(seed)
    await harness.command("notify", {"how": "dm"}, user=bob)
    fake.close_dms(bob)
    match_id = await start(harness, alice, bob, "none")
    explained: list[int] = []
    for turn in range(3):
        if turn == 2:  # the refusal is remembered in memory only, the explanation in the store
            await harness.restart()
        mark = fake.mark().snowflake
        await move(harness, alice, match_id, rng)
        assert await harness.to_move(match_id) == [bob.id]
        assert pings(harness, fake.channel, mark) == [bob.id], f"turn {turn}: one ping instead of the DM"
        assert dms(harness, bob, mark) == []
        said = [m.content for m in fake.bot_messages(fake.channel) if m.id > mark]
        explained += [turn for text in said if "direct messages are closed" in text and "/notify how:ping" in text]
        await move(harness, bob, match_id, rng)
    assert explained == [0], "why the ping came is said once per match, at the first refusal"

    fake.close_dms(bob, closed=False)  # opened again, and said so with /notify: DMs again
    await harness.command("notify", {"how": "dm"}, user=bob)
    mark = fake.mark().snowflake
    await move(harness, alice, match_id, rng)
    assert pings(harness, fake.channel, mark) == []
    assert [m.content.split(" — ")[0] for m in dms(harness, bob, mark)] == [
        f"♟ Your move in **Focus** against {alice.name}"
    ]


@pytest.mark.parametrize("closed_since_the_turn", [False, True])
async def test_a_nudge_to_closed_dms_pings_in_the_thread_and_says_so(
    harness: Harness, closed_since_the_turn: bool
) -> None:
    fake = harness.fake
    alice, bob, _ = fake.players
    await harness.command("notify", {"how": "dm"}, user=bob)
    fake.close_dms(bob, closed=closed_since_the_turn)  # known refused by the turn's notice, or not yet
    match_id = await start(harness, alice, bob, "none")
    await move(harness, alice, match_id, random.Random(7))
    assert (dms(harness, bob, 0) == []) == closed_since_the_turn
    fake.close_dms(bob)
    mark = fake.mark().snowflake
    done = await harness.ephemeral_reply(await harness.command("nudge", user=alice))
    assert "pinged in the match's thread" in done and "by DM" not in done
    nudges = [m for m in fake.bot_messages(fake.channel) if m.id > mark and "is waiting for your move" in m.content]
    assert [m.pinged_ids for m in nudges] == [[bob.id]]
    assert dms(harness, bob, mark) == []


@pytest.mark.parametrize("closed", [False, True])
async def test_a_vacation_notice_by_dm_to_closed_dms_pings_in_the_thread_instead(
    harness: Harness, closed: bool
) -> None:
    fake = harness.fake
    alice, bob, _ = fake.players
    await harness.command("notify", {"how": "dm"}, user=bob)
    await start(harness, alice, bob, "daily")
    fake.close_dms(bob, closed=closed)
    mark = fake.mark().snowflake
    await harness.ephemeral_reply(await harness.command("vacation start", {"days": 2}, user=alice))
    await fake.wait_until_idle()
    [told] = [m for m in fake.bot_messages(fake.channel) if m.id > mark]
    assert told.content.startswith(f"{bob.mention}: 🏖 {alice.name} is on vacation until")
    assert told.pinged_ids == ([bob.id] if closed else [])
    assert len(dms(harness, bob, mark)) == (0 if closed else 1)
