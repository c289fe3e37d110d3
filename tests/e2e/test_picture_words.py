"""Pictures in words through the real bot: every board carries alt text, and `/board text`
lays the position out in characters."""

from __future__ import annotations

import pytest

from tests.e2e.harness import Harness, board_png

pytestmark = pytest.mark.e2e


async def test_boards_carry_alt_text_and_board_has_a_text_form(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, carol = fake.players
    _, board = await harness.start_match("focus", alice, bob)
    board_png(board)
    first = board.attachments[0].description or ""
    assert first.startswith("Focus board.") and "(Orange) to move" in first and "No move yet" in first

    reply = await harness.slash_move(alice, "d2-d1")
    alt = reply.attachments[0].description or ""
    assert "(Blue) to move" in alt and "Last move: d2-d1" in alt and "Orange controls" in alt

    shown = await harness.command("board", {"text": True}, user=carol, channel=fake.channel)
    message = await fake.wait_for_followup(shown)
    assert not message.attachments, "the text form is text, not a picture"
    lines = message.content.strip("`\n").splitlines()
    assert lines[0].startswith("Focus: ") and "(Blue) to move" in lines[0]
    assert "Last move: d2-d1." in lines
    grid = [line for line in lines if line[:1].isdigit()]
    assert [line.split()[0] for line in grid] == [str(r) for r in range(8, 0, -1)]
    rank_one = grid[-1].split()[1:]
    assert rank_one == [".", "O1", ".", "."], rank_one  # c1-f1 (a1, b1, g1, h1 are cut): Orange moved to d1

    again = await harness.command("board", user=carol, channel=fake.channel)
    picture = await fake.wait_for_followup(again)
    board_png(picture)
    assert (picture.attachments[0].description or "").startswith("Focus board.")
