"""A blitz match through the real bot and the fake Discord: the player to move lets the
clock run, is reminded in the channel, and loses on time.

Minutes of match time pass in milliseconds: the bot's clocks are restarted with a fake
wall clock (`Boneyard.start_clocks(now=..., sleep=...)`, the test hook), started at the
real time so that the stored timestamps look like production ones.
"""

from __future__ import annotations

import re
import time
from collections import Counter

import pytest

from tests.bot.settling_time import SettlingTime
from tests.e2e.harness import BLITZ_REMINDERS, Harness, assert_board_for, board_png

pytestmark = pytest.mark.e2e


async def test_blitz_reminders_then_loss_on_time(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, _ = fake.players
    clock = SettlingTime(float(int(time.time())))
    clock.keepers.append(await harness.bot.start_clocks(now=clock.now, sleep=clock.sleep))

    ask = await harness.command(
        "play", {"game": "focus", "opponent": bob, "seat": "first", "clock": "blitz"}, user=alice
    )
    challenge = await harness.public_reply(ask)
    assert "Clock: blitz: 1:00 per move + 3:00 reserve, draft 2:00." in challenge.content
    match_id, board = await harness.accept(challenge, bob)
    assert_board_for(board, alice)

    shown = await harness.ephemeral_reply(await harness.command("clock", user=bob))
    assert f"▶ {alice.name} (Orange): `1:00 + 3:00`" in shown and f"· {bob.name} (Blue): `1:00 + 3:00`" in shown

    mark = fake.mark()
    await clock.advance(241)
    outcome = await fake.wait_for_message(fake.channel, lambda m: bool(m.attachments), since=mark)
    await fake.wait_until_idle()

    assert f"🏆 **{bob.name}** wins: Orange ran out of time" in outcome.content
    board_png(outcome)
    row = await harness.bot.service.get(match_id)
    assert row.status == "finished" and row.outcome is not None and row.outcome["winners"] == [1]
    reminders = [
        m.content for m in fake.bot_messages(fake.channel) if m.id > mark.snowflake and m.content.startswith("⏰ <@")
    ]
    assert all(m.startswith(f"⏰ {alice.mention}, ") for m in reminders), reminders
    said = Counter(m.split(", ", 1)[1].split(" for your move")[0] for m in reminders)
    assert said == Counter(BLITZ_REMINDERS)
    assert "no match in this channel" in await harness.error_reply("clock", user=alice)


async def test_pause_needs_both_players_and_shows_on_the_clock(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, carol = fake.players
    clock = SettlingTime(float(int(time.time())))
    clock.keepers.append(await harness.bot.start_clocks(now=clock.now, sleep=clock.sleep))
    ask = await harness.command("play", {"game": "focus", "opponent": bob, "seat": "first", "clock": "2m"}, user=alice)
    challenge = await harness.public_reply(ask)
    await harness.accept(challenge, bob)

    first = await harness.public_reply(await harness.command("pause", user=alice))
    assert f"{bob.mention}, use `/pause` too to agree." in first.content
    assert "not playing" in await harness.error_reply("pause", user=carol)
    second = await harness.public_reply(await harness.command("pause", user=bob))
    assert "is paused" in second.content
    mark = fake.mark()
    await clock.advance(3600)
    shown = await harness.ephemeral_reply(await harness.command("clock", user=alice))
    assert f"⏸ {alice.name} (Orange): `2:00`" in shown and "paused" in shown
    assert [m for m in fake.bot_messages(fake.channel) if m.id > mark.snowflake and m.content.startswith("⏰")] == []
    bad = await harness.error_reply("play", {"game": "focus", "clock": "soon"}, user=carol)
    assert "`soon` is not a duration" in bad  # checked before anything else is stored


async def test_a_domino_wars_draft_that_runs_out_is_completed_at_random_and_the_channel_is_told(
    harness: Harness,
) -> None:
    fake = harness.fake
    alice, bob, _ = fake.players
    clock = SettlingTime(float(int(time.time())))
    clock.keepers.append(await harness.bot.start_clocks(now=clock.now, sleep=clock.sleep))
    ask = await harness.command(
        "play", {"game": "domino_wars", "opponent": bob, "seat": "first", "clock": "blitz"}, user=alice
    )
    challenge = fake.original_response(ask)
    assert challenge is not None
    match_id, _board = await harness.accept(challenge, bob)

    mark = fake.mark()
    await clock.advance(121)
    await fake.wait_for_message(fake.channel, lambda m: "draft time ran out" in m.content, since=mark)
    await fake.wait_until_idle()
    said = [m.content for m in fake.bot_messages(fake.channel) if m.id > mark.snowflake]
    told = [line for text in said for line in text.splitlines() if "draft time ran out" in line]
    sentence = "⏰ {}'s draft time ran out: the missing picks were completed at random."
    assert sorted(told) == sorted(sentence.format(name) for name in (alice.name, bob.name))
    assert not any(re.search(r"\b[0-6]-[0-6]\b", text) for text in said)  # no tile of a secret draft
    row = await harness.bot.service.get(match_id)
    assert row.status == "active"
    view = await harness.bot.service.view(match_id, alice.id)
    assert view["phase"] != "draft" and len(view["private"]["draft"]) == 8
