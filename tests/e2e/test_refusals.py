"""What must change nothing: illegal moves, the wrong user, the wrong channel, and two moves at once."""

from __future__ import annotations

import asyncio

import pytest

from tests.e2e.harness import Harness, assert_board_for
from tests.fake_discord import FakeUser

pytestmark = pytest.mark.e2e


async def test_move_autocomplete_lists_legal_moves_only_for_the_player_to_move(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, carol = fake.players
    match_id, _ = await harness.start_match("focus", alice, bob)
    legal = await harness.bot.service.legal_moves(match_id, alice.id)

    async def choices(user: FakeUser, typed: str) -> list[str]:
        interaction = await fake.autocomplete("move", {"notation": typed}, focused="notation", user=user)
        await fake.wait_for_response(interaction)
        assert interaction.callback_type == 8
        return [str(c["value"]) for c in interaction.choices]

    offered = await choices(alice, "d2")
    # Moves that start with what was typed come first, then the ones that merely contain it.
    assert offered == [m for m in legal if m.startswith("d2")] + [m for m in legal if m.endswith("-d2")]
    assert "d2-d1" in offered and "e2-d2" in offered
    assert await choices(alice, "D2-D") == ["d2-d3", "d2-d1"]  # case does not matter
    everything = await choices(alice, "")
    assert len(everything) == 25 and set(everything) <= set(legal)
    assert await choices(bob, "c2") == []  # not bob's turn
    assert await choices(carol, "d2") == []  # not in the match


async def test_illegal_move_wrong_user_and_wrong_channel_change_nothing(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, carol = fake.players
    match_id, _ = await harness.start_match("focus", alice, bob)
    elsewhere = fake.add_text_channel(fake.guild, "lobby")

    illegal = await harness.error_reply("move", {"notation": "d2-d6"}, user=alice)
    assert illegal == "⚠️ Moving 4 squares takes the top 4 pieces, but the stack on d2 is only 1 tall."
    assert "not your turn" in await harness.error_reply("move", {"notation": "c2-c1"}, user=bob)
    assert "You are not playing in this match" in await harness.error_reply("move", {"notation": "d2-d1"}, user=carol)
    assert "no match in this channel" in await harness.error_reply(
        "move", {"notation": "d2-d1"}, user=alice, channel=elsewhere
    )
    assert "You are not playing in this match" in await harness.error_reply("resign", user=carol)
    assert await harness.move_count(match_id) == 0
    assert await harness.to_move(match_id) == [alice.id]

    mark = fake.mark()
    await fake.send_message(fake.channel, alice, "d2-d6")
    warning = await fake.wait_for_message(fake.channel, since=mark)
    assert warning.content == illegal  # the same reason, typed or slashed
    assert await harness.move_count(match_id) == 0
    assert_board_for(await harness.slash_move(alice, "d2-d1"), bob)


async def test_two_moves_at_the_same_instant_are_serialised(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, _ = fake.players
    match_id, _ = await harness.start_match("focus", alice, bob)

    # The player to move sends two moves at once: exactly one is played.
    race = await asyncio.gather(
        fake.slash_command("move", {"notation": "d2-d1"}, user=alice),
        fake.slash_command("move", {"notation": "e2-e1"}, user=alice),
    )
    answers = [await fake.wait_for_answer(interaction) for interaction in race]
    played = [i for i, a in zip(race, answers, strict=True) if not a.ephemeral]
    refused = [i for i, a in zip(race, answers, strict=True) if a.ephemeral]
    assert len(played) == 1 and len(refused) == 1
    assert await harness.ephemeral_reply(refused[0]) == "⚠️ It is not your turn."
    assert await harness.move_count(match_id) == 1
    assert_board_for(await fake.wait_for_followup(played[0]), bob)
    winner = played[0].data["options"][0]["value"]
    assert (await harness.bot.service.view(match_id, None))["last_move"] == winner

    # Both players at once: bob (to move) always plays; alice's move is refused if it came first,
    # or played after bob's; never both against the same position.
    race = await asyncio.gather(
        fake.slash_command("move", {"notation": "f3-f2"}, user=alice),
        fake.slash_command("move", {"notation": "c2-c1"}, user=bob),
    )
    alice_answer, bob_answer = [await fake.wait_for_answer(interaction) for interaction in race]
    alice_move, bob_move = race
    assert not bob_answer.ephemeral
    alice_played = not alice_answer.ephemeral
    if not alice_played:
        assert await harness.ephemeral_reply(alice_move) == "⚠️ It is not your turn."
    assert await harness.move_count(match_id) == 2 + alice_played
    moves = [m.move for m in await harness.bot.service.store.moves(match_id)]
    assert moves == [winner, "c2-c1", "f3-f2"][: 2 + alice_played]
    await fake.wait_for_followup(bob_move)
