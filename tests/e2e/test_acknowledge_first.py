"""Acknowledge first, tell the truth after: slow commits, old buttons, boards that cannot be posted."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from cogs.out import outbox
from tests.e2e.harness import Harness, assert_board_for, board_png, challenge_match_id
from tests.fake_discord import FakeMessage

pytestmark = pytest.mark.e2e

HOLD_AFTER_ACK = 0.3
"""How long the lock stays held once the interaction was acknowledged, so that the bot's commit
meets it: not a bound on anything, every check below holds however long the bot takes."""


async def test_a_commit_that_waits_on_the_database_lock_still_ends_with_the_board_posted(harness: Harness) -> None:
    fake = harness.fake
    assert fake.ack_deadline == 3.0  # Discord forgets an interaction not acknowledged within 3 s
    alice, bob, _ = fake.players
    match_id, _ = await harness.start_match("focus", alice, bob)

    # Another writer holds SQLite's write lock (the bot waits up to busy_timeout = 5 s) until the
    # interaction was acknowledged, and a moment more: a bot that acknowledged only after its
    # commit would not acknowledge at all while the lock is held.
    other = sqlite3.connect(harness.database, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        interaction = await fake.slash_command("move", {"notation": "d2-d1"}, user=alice)
        await fake.wait_for_response(interaction)
        assert interaction.callback_type == 5 and not interaction.ephemeral  # "thinking…" at once
        await asyncio.sleep(HOLD_AFTER_ACK)
        assert interaction.followup_ids == [], "the move was committed only after the lock was free"
        other.execute("COMMIT")
        board = await fake.wait_for_followup(interaction, timeout=10)
    finally:
        other.close()
    assert "alice (Orange) played `d2-d1`." in board.content
    assert_board_for(board, bob)
    assert await harness.move_count(match_id) == 1
    assert [r for r in fake.requests if r.status == 404] == [], "no interaction was forgotten"


async def test_an_old_button_is_refused_with_a_link_to_the_current_board(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.services.matches.service.secrets.token_hex", lambda n: "fixed-seed-for-buttons")
    fake = harness.fake
    alice, bob, _ = fake.players
    match_id, first_board = await harness.start_match("dominance", alice, bob)
    service = harness.bot.service
    row = await service.get(match_id)
    assert row.seats is not None
    mover = alice if row.seats[(await service.view(match_id, None))["turn"][0]] == alice.id else bob
    old_done = f"boneyard:mv:{match_id}:v{row.version}:done"
    assert old_done in first_board.custom_ids

    click = await fake.click_button(first_board, old_done, user=mover)
    await fake.wait_for_followup(click)
    await harness.wait_for_handlers()
    assert "played `done`" in first_board.content  # the turn's post, edited as the turn goes on
    played = await harness.move_count(match_id)

    # The same button again, on a copy of the board it was drawn for: that position is gone.
    stale = _bot_message_with_button(harness, first_board, old_done)
    for clicker in (alice, bob):
        again = await fake.click_button(stale, old_done, user=clicker)
        text = await harness.ephemeral_reply(again)
        assert "older position" in text, text
        newest = [m for m in fake.bot_messages(fake.channel) if "board.png" in m.files()][-1]
        assert f"/channels/{fake.guild.id}/{fake.channel.id}/{newest.id}" in text, text
    # A button from before positions were recorded is never taken for the current one.
    legacy = _bot_message_with_button(harness, first_board, f"boneyard:mv:{match_id}:done")
    assert "older position" in await harness.ephemeral_reply(
        await fake.click_button(legacy, legacy.custom_ids[0], user=mover)
    )
    assert await harness.move_count(match_id) == played


async def test_a_button_used_outside_its_match_channel_is_refused(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, carol = fake.players
    challenge = await harness.challenge("focus", alice, bob)
    match_id = challenge_match_id(challenge)
    elsewhere = fake.add_text_channel(fake.guild, "elsewhere")
    await fake.flush_events()
    # Decline stays with its challenge (Accept works anywhere in the server: test_threads.py)
    copy = _bot_message_with_button(harness, challenge, f"boneyard:decline:{match_id}", channel_id=elsewhere.id)
    text = await harness.ephemeral_reply(await fake.click_button(copy, copy.custom_ids[0], user=bob))
    assert f"played in <#{fake.channel.id}>" in text
    assert (await harness.bot.service.get(match_id)).status == "challenge"

    match_id, board = await harness.start_match("dominance", carol, alice, channel=elsewhere)
    done = next(c for c in board.custom_ids if c.endswith(":done"))
    stray = _bot_message_with_button(harness, board, done, channel_id=fake.channel.id)
    before = await harness.move_count(match_id)
    for user in (carol, alice):
        text = await harness.ephemeral_reply(await fake.click_button(stray, done, user=user))
        assert f"played in <#{elsewhere.id}>" in text
    assert await harness.move_count(match_id) == before


async def test_when_the_board_cannot_be_posted_the_players_are_told_once(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The boards that could not be posted stay unsent (the drain's, after its grace period), so
    # each later post of the channel waits the outbox's whole ORDER_WAIT for them (2 s, 3 times).
    # It can only time out here: a shorter one is the same outcome (as in tests/bot/test_outbox.py).
    monkeypatch.setattr(outbox, "ORDER_WAIT", 0.05)
    fake = harness.fake
    alice, bob, carol = fake.players
    match_id, _ = await harness.start_match("focus", alice, bob)
    fake.channel.bot_can_send = False  # a moderator took Send Messages away from the bot

    mark = fake.mark()
    await fake.send_message(fake.channel, alice, "d2-d1")  # a typed move: saved, but no board
    alice_dm = await fake.wait_for_message(fake.dm_channel(alice), since=mark)
    bob_dm = await fake.wait_for_message(fake.dm_channel(bob), since=mark)
    assert await harness.move_count(match_id) == 1
    assert alice_dm.content.startswith("⚠️ Your move was saved, but I could not post the board")
    assert "Missing Permissions" in alice_dm.content and "`/board`" in alice_dm.content
    assert "Your opponent moved in **Focus**" in bob_dm.content and "Missing Permissions" in bob_dm.content
    assert fake.dms_to(carol) == []

    await fake.send_message(fake.channel, bob, "c2-c1")  # still no board: nobody is told twice
    await fake.wait_until_idle()
    assert await harness.move_count(match_id) == 2
    assert (len(fake.dms_to(alice)), len(fake.dms_to(bob))) == (1, 1)

    # /move answers through the interaction, which needs no Send Messages: the board is shown.
    board = await harness.slash_move(alice, "e2-e1")
    assert_board_for(board, bob)
    fake.channel.bot_can_send = True
    assert_board_for(await harness.typed_move(bob, "f2-f1"), alice)
    assert (len(fake.dms_to(alice)), len(fake.dms_to(bob))) == (1, 1)


async def test_an_accepted_challenge_whose_board_cannot_be_posted_tells_the_accepter_privately(
    harness: Harness,
) -> None:
    fake = harness.fake
    alice, bob, _ = fake.players
    challenge = await harness.challenge("focus", alice, bob)
    match_id = challenge_match_id(challenge)
    fake.channel.bot_can_send = False
    mark = fake.mark()
    click = await fake.click_button(challenge, f"boneyard:accept:{match_id}", user=bob)
    text = await harness.ephemeral_reply(click)
    assert text.startswith("⚠️ Your move was saved, but I could not post the board") and "Missing Permissions" in text
    alice_dm = await fake.wait_for_message(fake.dm_channel(alice), since=mark)
    assert "could not post the board" in alice_dm.content
    assert fake.dms_to(bob) == []
    assert (await harness.bot.service.get(match_id)).status == "active"
    assert challenge.content.startswith(f"✅ {bob.mention} accepted")
    fake.channel.bot_can_send = True
    board = await harness.fake.wait_for_followup(await fake.slash_command("board", {}, user=bob))
    board_png(board)


def _bot_message_with_button(
    harness: Harness, original: FakeMessage, custom_id: str, *, channel_id: int | None = None
) -> FakeMessage:
    """A bot message carrying `custom_id` (in another channel, or with an id the bot no longer
    makes): what a player could still click on an old message or a copy of it."""
    world = harness.fake.world
    channel = world.channels[channel_id or original.channel_id]
    message = world.create_message(channel, world.bot, "an old message")
    message.components = [{"type": 1, "components": [{"type": 2, "style": 1, "label": "x", "custom_id": custom_id}]}]
    return message


async def test_an_unexpected_failure_says_whether_the_move_was_saved(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = harness.fake
    alice, bob, _ = fake.players
    match_id, _ = await harness.start_match("focus", alice, bob)
    service = harness.bot.service
    real_play = service.play
    harness.expected_errors.append("move ")  # the bug below is logged with its reference

    async def fails_before_saving(*args: object, **kwargs: object) -> object:
        raise RuntimeError("a bug before the commit")

    monkeypatch.setattr(service, "play", fails_before_saving)
    text = await harness.error_reply("move", {"notation": "d2-d1"}, user=alice)
    assert "Something went wrong on my side" in text and text.endswith("nothing changed.")
    assert await harness.move_count(match_id) == 0

    async def fails_after_saving(*args: object, **kwargs: object) -> object:
        await real_play(*args, **kwargs)  # type: ignore[arg-type]
        raise RuntimeError("a bug after the commit")

    monkeypatch.setattr(service, "play", fails_after_saving)
    text = await harness.error_reply("move", {"notation": "d2-d1"}, user=alice)
    assert "your move may have been saved" in text and "nothing changed" not in text
    assert await harness.move_count(match_id) == 1
