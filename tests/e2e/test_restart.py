"""A restart (a new client on the same database file) loses nothing: matches and buttons go on."""

from __future__ import annotations

import pytest

from tests.e2e.harness import Harness, assert_board_for, board_png

pytestmark = pytest.mark.e2e


async def test_restart_mid_match_keeps_the_match_and_old_buttons(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, carol = fake.players
    match_id, _ = await harness.start_match("focus", alice, bob)
    assert_board_for(await harness.slash_move(alice, "d2-d1"), bob)
    side_room = fake.add_text_channel(fake.guild, "side-room")
    challenge = await harness.challenge("focus", carol, alice, channel=side_room, seat="second")
    old_bot = harness.bot

    new_bot = await harness.restart()
    assert new_bot is not old_bot and old_bot.is_closed()
    assert len(fake.find_requests("PUT", rf"/applications/\d+/guilds/{fake.guild.id}/commands")) == 2

    # The running match continues where it was.
    assert await harness.to_move(match_id) == [bob.id]
    assert_board_for(await harness.slash_move(bob, "c2-c1"), alice)
    assert await harness.move_count(match_id) == 2
    replayed = await new_bot.service.replay(match_id)
    assert replayed.view(None)["last_move"] == "c2-c1"

    # The Accept button posted by the old client still works.
    second_id, board = await harness.accept(challenge, alice)
    assert second_id != match_id
    assert (await new_bot.service.get(second_id)).seats == (alice.id, carol.id)
    assert_board_for(board, alice)
    board_png(await harness.slash_move(alice, "d2-d1", channel=side_room))
