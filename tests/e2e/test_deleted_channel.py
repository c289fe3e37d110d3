"""A match channel deleted mid-match: announcing there logs a warning and breaks nothing else."""

from __future__ import annotations

import logging

import pytest

from tests.e2e.harness import Harness, assert_board_for

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("bot_was_told", [True, False], ids=["channel-delete-event", "event-missed"])
async def test_announcing_to_a_deleted_channel_logs_and_does_not_raise(
    harness: Harness, caplog: pytest.LogCaptureFixture, bot_was_told: bool
) -> None:
    fake = harness.fake
    alice, bob, _ = fake.players
    doomed = fake.add_text_channel(fake.guild, "doomed")
    match_id, _ = await harness.start_match("focus", alice, bob, channel=doomed)
    assert_board_for(await harness.slash_move(alice, "d2-d1", channel=doomed), bob)

    await fake.delete_channel(doomed, notify_bot=bot_was_told)
    # What the clock does when time runs out: end the match and announce it in its channel.
    harness.expected_errors.append("could not post the board")  # logged with its traceback when the event was missed
    update = await harness.bot.service.claim_timeout(match_id, 1)
    with caplog.at_level(logging.WARNING, logger="cogs"):
        await harness.bot.presenter.announce(update)
    assert any(
        str(doomed.id) in r.getMessage() for r in caplog.records if r.name in ("cogs.out.presenter", "cogs.out.outbox")
    )
    # the announcement is given up (its channel is gone), not retried forever
    assert await harness.bot.store.unsent_announcements() == []
    assert (await harness.bot.service.get(match_id)).status == "finished"

    # The bot still plays elsewhere.
    match_id, board = await harness.start_match("focus", bob, alice)
    assert_board_for(board, bob)
    assert_board_for(await harness.slash_move(bob, "d2-d1"), alice)
    lobby = fake.add_text_channel(fake.guild, "lobby")
    assert "no match in this channel" in await harness.error_reply("board", user=alice, channel=lobby)
