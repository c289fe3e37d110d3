"""A whole Focus match through the real bot: by slash commands and buttons, and by typed moves."""

from __future__ import annotations

import hashlib

import pytest

from tests.e2e.harness import Harness, assert_board_for, board_png

pytestmark = pytest.mark.e2e


async def test_slash_commands_from_challenge_to_resignation(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, _ = fake.players
    challenge = await harness.challenge("focus", alice, bob)
    assert alice.mention in challenge.content and bob.mention in challenge.content
    assert "**Focus**" in challenge.content and "Who moves first: the challenger." in challenge.content

    match_id, board = await harness.accept(challenge, bob)
    assert challenge.content.startswith(f"✅ {bob.mention} accepted") and challenge.components == []
    row = await harness.bot.service.get(match_id)
    assert row.seats == (alice.id, bob.id)
    assert f"seed hash `{row.seed_hash[:16]}" in board.content
    assert_board_for(board, alice)

    pictures = [board_png(board)]
    for user, notation, next_player in [
        (alice, "d2-d1", bob),
        (bob, "c2-c1", alice),
        (alice, "e2-e1", bob),
        (bob, "f2-f1", alice),
    ]:
        before = await harness.move_count(match_id)
        reply = await harness.slash_move(user, notation)
        assert reply.id not in {board.id}, "each move is answered by a new message"
        assert f"{user.name} " in reply.content and f"played `{notation}`" in reply.content
        assert_board_for(reply, next_player)
        pictures.append(board_png(reply))
        assert await harness.move_count(match_id) == before + 1
    assert len(set(pictures)) == len(pictures), "every board picture shows the new position"

    ask = await harness.command("resign", user=bob)
    assert "Really resign?" in await harness.ephemeral_reply(ask)
    confirm = await fake.wait_for_answer(ask, ephemeral=True)
    assert confirm.custom_ids == [f"boneyard:resign:{match_id}"]
    mark = fake.mark()
    click = await fake.click_button(confirm, f"boneyard:resign:{match_id}", user=bob)
    await fake.wait_for_response(click)
    assert click.callback_type == 6  # acknowledged first, then the confirmation is edited
    outcome = await fake.wait_for_message(fake.channel, lambda m: bool(m.attachments), since=mark)
    assert confirm.content == "You resigned." and confirm.components == []
    row = await harness.bot.service.get(match_id)
    assert row.status == "finished"
    assert "🏆 **alice** wins: Blue resigned." in outcome.content
    assert "📈 Ratings: alice 1520 (+20) · bob 1480 (-20)" in outcome.content  # two provisional 1500s, K=40
    assert f"`{row.seed}`" in outcome.content and hashlib.sha256(row.seed.encode()).hexdigest() == row.seed_hash
    board_png(outcome)
    assert "to move" not in outcome.content
    assert "no match in this channel" in await harness.error_reply("move", {"notation": "d3-d2"}, user=alice)


async def test_slash_moves_reach_the_move_limit_draw(harness: Harness) -> None:
    alice, bob, _ = harness.fake.players
    match_id, _ = await harness.start_match("focus", alice, bob, options="ply_limit=6")
    moves = [(alice, "d2-d1"), (bob, "c2-c1"), (alice, "d1-d2"), (bob, "c1-c2"), (alice, "e2-e1")]
    for (user, notation), (next_player, _) in zip(moves, [*moves[1:], (bob, "")], strict=True):
        assert_board_for(await harness.slash_move(user, notation), next_player)
    last = await harness.slash_move(bob, "f2-f1")
    row = await harness.bot.service.get(match_id)
    assert row.status == "finished" and await harness.move_count(match_id) == 6
    assert "bob (Blue) played `f2-f1`." in last.content
    assert "🤝 **Draw**: 6 plies were played without a result." in last.content
    assert "📈 Ratings: alice 1500 (+0) · bob 1500 (+0)" in last.content
    assert f"Secret seed (check every roll and draw): `{row.seed}`" in last.content
    board_png(last)


async def test_typed_moves_play_a_match_to_a_repetition_draw(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, carol = fake.players
    match_id, _ = await harness.start_match("focus", alice, bob, options="repetitions=2")

    assert_board_for(await harness.typed_move(alice, "d2-d1"), bob)

    # Chat, a spectator and a move out of turn change nothing; only the move out of turn is answered.
    mark = fake.mark()
    await fake.send_message(fake.channel, alice, "good luck!")
    await fake.send_message(fake.channel, carol, "c2-c1")
    await fake.send_message(fake.channel, alice, "e2-e1")
    warning = await fake.wait_for_message(fake.channel, since=mark)
    assert warning.content == "⚠️ It is not your turn."
    await fake.wait_until_idle()
    assert [m.id for m in fake.bot_messages(fake.channel) if m.id > mark.snowflake] == [warning.id]
    assert await harness.move_count(match_id) == 1

    assert_board_for(await harness.typed_move(bob, "C2 c1"), alice)  # an obvious variant of c2-c1
    assert_board_for(await harness.typed_move(alice, "d1-d2"), bob)
    final = await harness.typed_move(bob, "c1-c2")
    row = await harness.bot.service.get(match_id)
    assert row.status == "finished"
    assert "🤝 **Draw**: The same position occurred 2 times." in final.content
    assert f"`{row.seed}`" in final.content
    board_png(final)
