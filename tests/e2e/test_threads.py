"""Issue 17 through the real bot and the fake Discord, with the server in the default `threads` venue:
a thread per match, expiring challenges, the default clock, rematch, draw offers and takebacks."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.records.move_log import TAKEBACK_SEAT
from tests.bot.settling_time import SettlingTime
from tests.e2e.harness import (
    Harness,
    assert_board_for,
    board_png,
    challenge_match_id,
    running_bot,
    unexpected_errors,
)
from tests.fake_discord import FakeChannel, FakeMessage, FakeUser, payloads

pytestmark = pytest.mark.e2e


@pytest.fixture
async def harness(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> AsyncIterator[Harness]:
    """The bot on a server that kept the product's defaults (threads, a `daily` default clock)."""
    async with running_bot(tmp_path / "boneyard.sqlite3", venue="threads", clock="daily") as running:
        yield running
    records = caplog.get_records("setup") + caplog.get_records("call") + caplog.records
    errors = unexpected_errors(running, records)
    assert not errors, "\n".join(errors)


async def challenge(
    harness: Harness, challenger: FakeUser, opponent: FakeUser, *, channel: FakeChannel | None = None, **options: str
) -> tuple[int, FakeMessage]:
    ask = await harness.command(
        "play", {"game": "focus", "opponent": opponent, "seat": "first", **options}, user=challenger, channel=channel
    )
    message = harness.fake.original_response(ask)
    assert message is not None, ask.callback_data
    return challenge_match_id(message), message


async def accept(harness: Harness, message: FakeMessage, user: FakeUser) -> tuple[int, FakeChannel, FakeMessage]:
    """Click Accept: the match id, its new thread and the first board posted there."""
    fake = harness.fake
    match_id = challenge_match_id(message)
    mark = fake.mark()
    click = await fake.click_button(message, f"boneyard:accept:{match_id}", user=user)
    assert harness.updated(await harness.settled(click)), click.callback_data
    assert click.callback_type == 6, click.callback_data  # acknowledged before any database work
    row = await harness.bot.service.get(match_id)
    thread = fake.world.channels[row.channel_id]
    assert thread.is_thread and thread.parent_id == message.channel_id, "the match got its own thread"
    board = await fake.wait_for_message(thread, lambda m: bool(m.attachments), since=mark)
    return match_id, thread, board


async def start(harness: Harness, a: FakeUser, b: FakeUser, **options: str) -> tuple[int, FakeChannel]:
    _, message = await challenge(harness, a, b, **options)
    match_id, thread, board = await accept(harness, message, b)
    assert_board_for(board, a)
    return match_id, thread


async def test_three_matches_in_one_channel_each_played_to_its_end_in_its_thread(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, carol = fake.players
    pairs = [(alice, bob), (bob, carol), (carol, alice)]
    made = await asyncio.gather(*(challenge(harness, a, b, options="ply_limit=2") for a, b in pairs))
    for _, message in made:
        assert message.channel_id == fake.channel.id
        assert "The match will be played in a thread of this channel." in message.content
        assert "Clock: daily: " in message.content and "Expires <t:" in message.content
    started = await asyncio.gather(
        *(accept(harness, message, b) for (_, message), (_, b) in zip(made, pairs, strict=True))
    )
    threads = [thread for _, thread, _ in started]
    assert len({t.id for t in threads}) == 3
    assert [t.name for t in threads] == ["Focus · alice vs bob", "Focus · bob vs carol", "Focus · carol vs alice"]
    for (_, message), (a, b), (match_id, thread, board) in zip(made, pairs, started, strict=True):
        assert message.content == f"✅ {b.mention} accepted. Match #{match_id} begins in {thread.mention}!"
        assert_board_for(board, a)
        assert (await harness.bot.service.get(match_id)).seats == (a.id, b.id)

    # Moves in the three threads at the same time, by every way of moving: each lands in its own match.
    first = await asyncio.gather(
        harness.typed_move(alice, "d2-d1", channel=threads[0]),
        harness.slash_move(bob, "d2-d1", channel=threads[1]),
        harness.typed_move(carol, "d2-d1", channel=threads[2]),
    )
    for reply, (_, b) in zip(first, pairs, strict=True):
        assert_board_for(reply, b)
    shown = await fake.wait_for_followup(await harness.command("board", user=alice, channel=threads[1]))
    assert shown.content == f"Focus · match #{started[1][0]} · {carol.mention} to move"
    board_png(shown)
    mark = fake.mark()
    last = await asyncio.gather(
        harness.slash_move(bob, "c2-c1", channel=threads[0]),
        harness.typed_move(carol, "c2-c1", channel=threads[1]),
        harness.slash_move(alice, "c2-c1", channel=threads[2]),
    )
    await harness.wait_for_handlers()
    for reply, (match_id, thread, _) in zip(last, started, strict=True):
        assert "🤝 **Draw**: 2 plies were played without a result." in reply.content
        assert reply.channel_id == thread.id
        assert reply.custom_ids == [f"boneyard:moves:{match_id}:0:f", f"boneyard:lbrematch:{match_id}"], (
            "Focus has no dice to check"
        )
        assert (await harness.bot.service.get(match_id)).status == "finished"
        assert thread.archived and not thread.deleted, "a finished match's thread is archived, not deleted"
    results = [m for m in fake.bot_messages(fake.channel) if m.id > mark.snowflake]
    assert len(results) == 3
    for match_id, thread, _ in started:
        [result] = [m for m in results if f"Match #{match_id} in {thread.mention}" in m.content]
        assert "🤝 **Draw**" in result.content and result.custom_ids == [
            f"boneyard:moves:{match_id}:0:f",
            f"boneyard:lbrematch:{match_id}",
        ]
        board_png(result)
    assert "no match in this channel" in await harness.error_reply("move", {"notation": "d2-d1"}, user=alice)


async def test_a_thread_cannot_hold_a_thread_so_a_match_there_keeps_the_thread(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, carol = fake.players
    thread = fake.world.add_thread(fake.channel, "chat", owner_id=alice.id, private=False, auto_archive_duration=1440)
    await fake.gateway.dispatch("THREAD_CREATE", {**fake.world.channel_payload(thread), "newly_created": True})
    _, message = await challenge(harness, alice, bob, channel=thread)
    assert "played in a thread" not in message.content
    assert "already has a match" in await harness.error_reply("play", {"game": "focus"}, user=carol, channel=thread)


async def test_expired_challenge_cannot_be_accepted_and_says_so(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, carol = fake.players
    clock = SettlingTime(float(int(time.time())))
    clock.keepers.append(await harness.bot.start_clocks(now=clock.now, sleep=clock.sleep))
    assert "from 1 minute to 30 days" in await harness.error_reply(
        "play", {"game": "focus", "expires": "40d"}, user=alice
    )
    match_id, message = await challenge(harness, alice, bob, expires="1h")
    assert f"Expires <t:{int(clock.now()) + 3600}:R>." in message.content
    other_id, other = await challenge(harness, carol, alice)

    listed = await harness.command("challenges", user=bob)
    text = await harness.ephemeral_reply(listed)
    assert f"#{match_id} **Focus**" in text and f"#{other_id} **Focus**" in text
    listing = fake.original_response(listed)
    assert listing is not None and listing.custom_ids == [f"boneyard:accept:{match_id}"]  # only what bob may accept

    await clock.advance(3601)
    click = await fake.click_button(message, f"boneyard:accept:{match_id}", user=bob)
    assert "has expired" in harness.refusal(await harness.settled(click))
    assert (await harness.bot.service.get(match_id)).seats is None
    cog = harness.bot.get_cog("LobbyCog")
    assert cog is not None and await cog.expire_now() == 1  # type: ignore[attr-defined]
    await fake.wait_until_idle()
    assert message.content == f"⌛ {alice.mention}'s challenge to **Focus** (#{match_id}) expired."
    assert (await harness.bot.service.get(match_id)).status == "cancelled"
    assert f"#{match_id} " not in await harness.ephemeral_reply(await harness.command("challenges", user=bob))

    # The other challenge (24 h by default) is still open; its challenger withdraws it.
    decline = await fake.click_button(other, f"boneyard:decline:{other_id}", user=carol)
    assert harness.updated(await harness.settled(decline))
    assert other.content == f"❌ {carol.mention} withdrew the challenge."
    assert "No open challenges" in await harness.ephemeral_reply(await harness.command("challenges", user=bob))


async def test_expiry_poll_closes_challenges_after_a_restart(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, _ = fake.players
    match_id, message = await challenge(harness, alice, bob, expires="2m")
    await harness.restart()
    clock = SettlingTime(time.time() + 121)
    await harness.bot.start_clocks(now=clock.now, sleep=clock.sleep)
    cog = harness.bot.get_cog("LobbyCog")
    assert cog is not None and await cog.expire_now() == 1  # type: ignore[attr-defined]
    await fake.wait_until_idle()
    assert message.content == f"⌛ {alice.mention}'s challenge to **Focus** (#{match_id}) expired."
    assert message.components == []


async def test_abandoned_casual_match_ends_on_the_default_clock(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, _ = fake.players
    clock = SettlingTime(float(int(time.time())))
    # Four fake days at the product's pace (a heartbeat every 2 s) would be 172,800 wake-ups,
    # each settled against SQLite, and even without the heartbeat the scheduler's 60 s cap on one
    # sleep would wake it 5,760 times.  Fake time has no wall-clock jump for that cap to catch:
    # an hourly pace keeps the keeper beating and waking all along, 96 times.
    keeper = await harness.bot.start_clocks(now=clock.now, sleep=clock.sleep, heartbeat_every=3600.0, max_sleep=3600.0)
    clock.keepers.append(keeper)
    _, unclocked = await challenge(harness, alice, bob, clock="none")
    assert "Clock: none." in unclocked.content
    match_id, thread = await start(harness, alice, bob)
    assert (await harness.bot.service.get(match_id)).clock is not None
    mark = fake.mark()
    await clock.advance(24 * 3600 + 72 * 3600 + 1)  # daily: 24 h a move + 72 h reserve
    final = await fake.wait_for_message(thread, lambda m: bool(m.attachments), since=mark)
    await harness.wait_for_handlers()
    assert f"🏆 **{bob.name}** wins: Orange ran out of time" in final.content
    assert thread.archived
    parent = [m for m in fake.bot_messages(fake.channel) if m.id > mark.snowflake and m.attachments]
    assert len(parent) == 1 and "ran out of time" in parent[0].content

    # A server admin changes the default; a member without Manage Server cannot.
    refused = await harness.error_reply("settings", {"clock": "rapid"}, user=alice)
    assert "Only members with Manage Server can change the server settings." in refused
    changed = await harness.ephemeral_reply(
        await harness.command("settings", {"clock": "rapid"}, user=fake.world.owner)
    )
    assert "default clock of casual matches: **rapid**" in changed
    changed = await harness.ephemeral_reply(
        await harness.command("settings", {"venue": "channel"}, user=fake.world.owner)
    )
    assert "Matches are played in: **channel**" in changed
    _, here = await challenge(harness, bob, alice)
    assert "played in a thread" not in here.content and "Clock: rapid: " in here.content
    assert "already has a match" in await harness.error_reply("play", {"game": "focus"}, user=alice)


async def test_rematch_swaps_the_seats_and_keeps_game_options_and_clock(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, _ = fake.players
    match_id, thread = await start(harness, alice, bob, options="repetitions=2", clock="rapid")
    mark = fake.mark()
    ask = await harness.command("resign", user=bob, channel=thread)
    confirm = fake.original_response(ask)
    assert confirm is not None
    await harness.settled(await fake.click_button(confirm, f"boneyard:resign:{match_id}", user=bob))
    await harness.wait_for_handlers()
    [result] = [m for m in fake.bot_messages(fake.channel) if m.id > mark.snowflake and m.attachments]

    await harness.restart()  # the Rematch button is persistent
    click = await fake.click_button(result, f"boneyard:lbrematch:{match_id}", user=bob)
    rematch = harness.answer(await harness.settled(click))
    assert click.callback_type == 6, click.callback_data  # acknowledged before any database work
    assert not rematch.ephemeral and rematch.channel_id == fake.channel.id
    assert f"🎲 {bob.mention} asks {alice.mention} for a rematch of **Focus**, seats swapped!" in rematch.content
    assert "`repetitions=2`" in rematch.content and "Clock: rapid: " in rematch.content
    # stored like any challenge (so it is marked when accepted, withdrawn or expired) ...
    assert await harness.bot.lobby.message_of(challenge_match_id(rematch)) == rematch.id
    # ... and pressing Rematch again, by either player, makes no second challenge
    for presser in (bob, alice):
        again = await fake.click_button(result, f"boneyard:lbrematch:{match_id}", user=presser)
        assert "A rematch is already open" in harness.refusal(await harness.settled(again))
    open_ones = [r for r in await harness.bot.service.of_player(alice.id) if r.status == "challenge"]
    assert [r.id for r in open_ones] == [challenge_match_id(rematch)]
    new_id, new_thread, board = await accept(harness, rematch, alice)
    new = await harness.bot.service.get(new_id)
    assert new.seats == (bob.id, alice.id) and new.options == {"repetitions": "2"} and new.clock is not None
    assert new_thread.id != thread.id and new_thread.name == "Focus · bob vs alice"
    assert_board_for(board, bob)
    refused = await fake.click_button(result, f"boneyard:lbrematch:{match_id}", user=fake.players[2])
    assert "Only the two players" in harness.refusal(await harness.settled(refused))


async def test_draw_offer_accepted_and_a_stale_offer_is_not(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, carol = fake.players
    match_id, thread = await start(harness, alice, bob)
    offer = await harness.command("draw", user=alice, channel=thread)
    first = fake.original_response(offer)
    assert first is not None and f"{alice.mention} offers a draw. {bob.mention}, accept" in first.content
    assert "Your draw offer stands" in await harness.error_reply("draw", user=alice, channel=thread)
    assert "not playing" in await harness.error_reply("draw", user=carol, channel=thread)
    await harness.typed_move(alice, "d2-d1", channel=thread)  # a move declines the offer
    late = await fake.click_button(first, f"boneyard:lbdraw:{match_id}", user=bob)
    assert "no longer open" in harness.refusal(await harness.settled(late))
    again = await harness.command("draw", user=bob, channel=thread)  # so this is a new offer, not an accept
    second = fake.original_response(again)
    assert second is not None and f"{bob.mention} offers a draw" in second.content
    assert (await harness.bot.service.get(match_id)).status == "active"

    mark = fake.mark()
    click = await fake.click_button(second, f"boneyard:lbdraw:{match_id}", user=alice)
    assert harness.updated(await harness.settled(click))
    assert second.components == [], "the accepted offer loses its button"
    final = await fake.wait_for_message(thread, lambda m: bool(m.attachments), since=mark)
    assert "🤝 **Draw**: Drawn by agreement." in final.content
    row = await harness.bot.service.get(match_id)
    assert row.status == "finished" and row.outcome is not None and row.outcome["winners"] == []

    _, wars = await challenge(harness, alice, bob)
    other_id, other_thread, _ = await accept(harness, wars, bob)
    await harness.bot.service.abort(other_id, alice.id, moderator=True)  # ends it: /draw now has no match
    assert "no match in this channel" in await harness.error_reply("draw", user=alice, channel=other_thread)


async def test_draw_only_where_the_game_allows_it(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, _ = fake.players
    ask = await harness.command("play", {"game": "domineering", "opponent": bob, "seat": "first"}, user=alice)
    message = fake.original_response(ask)
    assert message is not None
    _, thread, _ = await accept(harness, message, bob)
    assert "no draw by agreement" in await harness.error_reply("draw", user=alice, channel=thread)


async def test_takeback_refused_then_accepted_and_the_log_still_replays(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, carol = fake.players
    match_id, thread = await start(harness, alice, bob)
    assert "no move to take back" in await harness.error_reply("takeback", user=alice, channel=thread)
    await harness.typed_move(alice, "d2-d1", channel=thread)
    before = await harness.bot.service.view(match_id, None)

    ask = await harness.command("takeback", user=alice, channel=thread)
    request = fake.original_response(ask)
    assert request is not None
    assert f"{alice.mention} asks to take back their last move. {bob.mention}, allow it?" in request.content
    wrong = await fake.click_button(request, f"boneyard:lbtbyes:{match_id}", user=alice)
    assert "Your opponent answers" in harness.refusal(await harness.settled(wrong))
    refuse = await fake.click_button(request, f"boneyard:lbtbno:{match_id}", user=bob)
    assert harness.updated(await harness.settled(refuse))
    assert request.content == f"🚫 {bob.mention} refused the takeback; the position stands."
    assert await harness.bot.service.view(match_id, None) == before and await harness.move_count(match_id) == 1

    ask = await harness.command("takeback", user=alice, channel=thread)
    request = fake.original_response(ask)
    assert request is not None
    assert "not playing" in harness.refusal(
        await harness.settled(await fake.click_button(request, f"boneyard:lbtbyes:{match_id}", user=carol))
    )
    mark = fake.mark()
    allow = await fake.click_button(request, f"boneyard:lbtbyes:{match_id}", user=bob)
    assert harness.updated(await harness.settled(allow))
    assert request.content == f"↩️ {bob.mention} allowed the takeback." and request.components == []
    board = await fake.wait_for_message(thread, lambda m: bool(m.attachments), since=mark)
    assert board.content.startswith("↩️ The last move was taken back.") and f"{alice.mention} to move" in board.content
    assert "played" not in board.content
    after = await harness.bot.service.view(match_id, None)
    assert after["turn"] == [0] and after != before

    log = await harness.bot.store.moves(match_id)
    assert [(m.seat, m.move) for m in log] == [(0, "d2-d1"), (TAKEBACK_SEAT, "takeback 0")]
    assert_board_for(await harness.typed_move(alice, "e2-e1", channel=thread), bob)
    replayed = await harness.bot.service.replay(match_id)
    assert replayed.view(None) == {
        k: v for k, v in (await harness.bot.service.view(match_id, None)).items() if k != "match_id"
    }
    ask = await harness.command("takeback", user=alice, channel=thread)
    stale = fake.original_response(ask)
    assert stale is not None
    await harness.typed_move(bob, "c2-c1", channel=thread)  # a move since the request cancels it
    late = await fake.click_button(stale, f"boneyard:lbtbyes:{match_id}", user=bob)
    assert "no takeback request" in harness.refusal(await harness.settled(late))
    assert await harness.move_count(match_id) == 4


async def test_without_thread_permission_the_match_falls_back_to_the_channel(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, carol = fake.players
    _, early = await challenge(harness, alice, bob)  # made while threads were allowed
    fake.deny_bot(payloads.CREATE_PUBLIC_THREADS)
    _, late = await challenge(harness, carol, alice)
    assert "played in a thread" in early.content and "played in a thread" not in late.content
    assert "already has a match" in await harness.error_reply("play", {"game": "focus"}, user=bob)

    mark = fake.mark()
    click = await fake.click_button(early, f"boneyard:accept:{challenge_match_id(early)}", user=bob)
    assert "this channel already has a match" in harness.refusal(await harness.settled(click))
    assert fake.find_requests("POST", rf"/channels/{fake.channel.id}/threads", since=mark)[0].status == 403
    match_id, board = await harness.accept(late, alice)  # the late challenge held the channel: it plays here
    assert board.channel_id == fake.channel.id
    assert_board_for(board, carol)
    assert (await harness.bot.service.get(match_id)).channel_id == fake.channel.id
    assert not any(c.is_thread for c in fake.world.channels.values())
    # The early challenge, still open, does not hide the match that holds the channel.
    assert_board_for(await harness.typed_move(carol, "d2-d1"), alice)
    assert_board_for(await harness.slash_move(alice, "c2-c1"), carol)


async def test_accept_from_the_challenges_list_and_withdraw_there(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, carol = fake.players
    match_id, message = await challenge(harness, alice, bob)
    own_id, own = await challenge(harness, carol, alice)
    listed = await harness.command("challenges", user=carol)
    listing = fake.original_response(listed)
    assert listing is not None and listing.custom_ids == [f"boneyard:lbwithdraw:{own_id}"]
    button = listing.component(f"boneyard:lbwithdraw:{own_id}")
    assert button is not None and button["label"] == f"Withdraw #{own_id}"
    refused = await fake.click_button(listing, f"boneyard:lbwithdraw:{own_id}", user=bob)
    assert "Only the challenger" in harness.refusal(await harness.settled(refused))
    withdraw = await fake.click_button(listing, f"boneyard:lbwithdraw:{own_id}", user=carol)
    assert harness.updated(await harness.settled(withdraw))
    await harness.wait_for_handlers()
    assert (await harness.bot.service.get(own_id)).status == "cancelled"
    assert own.content == f"❌ {carol.mention} withdrew the challenge." and own.components == []

    listed = await harness.command("challenges", user=bob)
    listing = fake.original_response(listed)
    assert listing is not None and listing.custom_ids == [f"boneyard:accept:{match_id}"]
    mark = fake.mark()
    click = await fake.click_button(listing, f"boneyard:accept:{match_id}", user=bob)
    assert harness.updated(await harness.settled(click))
    row = await harness.bot.service.get(match_id)
    thread = fake.world.channels[row.channel_id]
    assert_board_for(await fake.wait_for_message(thread, lambda m: bool(m.attachments), since=mark), alice)
    await harness.wait_for_handlers()
    assert message.content == f"✅ Accepted by {bob.mention} in {thread.mention}." and message.components == []


async def test_two_accepts_of_an_open_challenge_at_once_leave_one_thread(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, carol = fake.players
    ask = await harness.command("play", {"game": "focus", "seat": "first"}, user=alice)
    message = fake.original_response(ask)
    assert message is not None
    match_id = challenge_match_id(message)
    clicks = await asyncio.gather(
        *(fake.click_button(message, f"boneyard:accept:{match_id}", user=u) for u in (bob, carol))
    )
    answered = await asyncio.gather(*(harness.settled(c) for c in clicks))
    await harness.wait_for_handlers()
    won = [c for c in answered if harness.updated(c)]
    lost = [c for c in answered if not harness.updated(c)]
    assert len(won) == 1 and len(lost) == 1 and "no longer open" in harness.refusal(lost[0])
    row = await harness.bot.service.get(match_id)
    threads = [c for c in fake.world.channels.values() if c.is_thread]
    assert [t.id for t in threads if not t.deleted] == [row.channel_id]
    assert all(t.deleted for t in threads if t.id != row.channel_id)


async def test_the_parent_channel_points_a_player_to_their_match_threads(harness: Harness) -> None:
    """`/move` or a typed move in the channel holding a player's thread says where the match
    is; `/matches` says whose turn it is in each, with the time left and a link."""
    fake = harness.fake
    alice, bob, carol = fake.players
    first, thread = await start(harness, alice, bob)
    text = await harness.error_reply("move", {"notation": "d2-d1"}, user=alice)
    assert f"Your match is played in its thread: {thread.mention}." in text, text
    # a typed move in the channel gets the same pointer; chatter that is no move gets nothing
    mark = fake.mark()
    await fake.send_message(fake.channel, alice, "d2-d1")
    pointer = await fake.wait_for_message(fake.channel, lambda m: "↪️" in m.content, since=mark)
    assert thread.mention in pointer.content and pointer.mention_ids == []
    await fake.send_message(fake.channel, alice, "good luck everyone")
    await fake.wait_until_idle()
    assert [m for m in fake.bot_messages(fake.channel) if m.id > pointer.id] == []
    # a second match in another thread of the channel: both are listed
    second, other = await start(harness, carol, alice)
    text = await harness.error_reply("board", user=alice)
    assert f"Your matches here are played in their threads: {thread.mention}, {other.mention}." in text, text

    listing = await harness.ephemeral_reply(await harness.command("matches", user=alice))
    lines = listing.splitlines()
    [mine] = [line for line in lines if f"#{first} " in line]
    assert f"vs {bob.mention}" in mine and "**your turn**" in mine and "⏱" in mine and str(thread.id) in mine
    [theirs] = [line for line in lines if f"#{second} " in line]
    assert f"vs {carol.mention}" in theirs and f"{carol.mention}'s turn" in theirs and str(other.id) in theirs


async def test_a_finished_match_s_thread_still_knows_its_match(harness: Harness) -> None:
    """After the end, `/board`, `/export` and `/replay` typed in the match's thread are about
    that match (not "no match in this channel", nor the caller's latest other match)."""
    fake = harness.fake
    alice, bob, carol = fake.players
    match_id, thread = await start(harness, alice, bob)
    await harness.bot.service.resign(match_id, bob.id)
    other, _ = await start(harness, alice, bob)  # a newer match of both players, elsewhere

    shown = await fake.wait_for_followup(await harness.command("board", user=carol, channel=thread))
    assert f"match #{match_id} · ended: " in shown.content and "resigned" in shown.content
    assert shown.files()["board.png"].startswith(b"\x89PNG")
    export = await harness.command("export", user=bob, channel=thread)
    await fake.wait_for_response(export)
    await harness.wait_for_handlers()
    exported = fake.original_response(export)
    assert exported is not None and f"boneyard-match-{match_id}.txt" in exported.files()
    assert other != match_id


async def test_accept_from_the_challenges_list_works_in_any_channel_of_the_server(harness: Harness) -> None:
    """`/challenges` is read anywhere in the server; its Accept starts the match where it was
    challenged (a thread of that channel), not where the list was shown."""
    fake = harness.fake
    alice, bob, _ = fake.players
    match_id, message = await challenge(harness, alice, bob)
    elsewhere = fake.add_text_channel(fake.guild, "lounge")
    await fake.flush_events()
    listed = await harness.command("challenges", user=bob, channel=elsewhere)
    listing = fake.original_response(listed)
    assert listing is not None and listing.custom_ids == [f"boneyard:accept:{match_id}"]
    mark = fake.mark()
    click = await fake.click_button(listing, f"boneyard:accept:{match_id}", user=bob)
    assert harness.updated(await harness.settled(click)), click.callback_data
    row = await harness.bot.service.get(match_id)
    thread = fake.world.channels[row.channel_id]
    assert thread.is_thread and thread.parent_id == fake.channel.id, "the match starts where it was challenged"
    assert_board_for(await fake.wait_for_message(thread, lambda m: bool(m.attachments), since=mark), alice)
    await harness.wait_for_handlers()
    assert message.content == f"✅ Accepted by {bob.mention} in {thread.mention}." and message.components == []
