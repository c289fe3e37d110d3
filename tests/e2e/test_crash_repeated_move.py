"""A board left unsent by a crash is matched by its own key, never by its text.

The case that broke: a Focus player repeats a move two turns later (`d2-d1`, back, `d2-d1`),
so the second board's sentence is word for word the first one's.  A crash just before the
second board was posted used to leave it unposted for good: the restart found the first
board's text within 5 s and took it for the second.  Now a channel post carries its row's key
as nonce (Discord gives back only a message made with that nonce) and a `/move` reply is
matched by its interaction, so the second board is posted once; a crash just after a post
still never posts it twice.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.e2e.harness import board_png
from tests.e2e.test_crashes import bot_process, count, every_case, move, texts

pytestmark = [pytest.mark.e2e, pytest.mark.slow]  # a real bot process killed at a crash point

OPENING = [("alice", "d2-d1"), ("bob", "c2-c1"), ("alice", "d1-d2"), ("bob", "c1-c2")]
REPEATED = "d2-d1"


async def test_a_repeated_move_s_board_survives_a_kill_before_and_after_its_post(tmp_path: Path) -> None:
    cases = {
        f"{how} {point}": (how, point) for how in ("slash", "typed") for point in ("outbox.prepared", "outbox.posted")
    }
    await every_case(tmp_path, cases, repeated_case)


async def repeated_case(tmp_path: Path, how: str, point: str) -> None:
    async with bot_process(tmp_path) as (fake, harness, process):
        alice, bob, _ = fake.players
        players = {"alice": alice, "bob": bob}
        await harness.start_match("focus", alice, bob)
        await process.stop()

        # One run, played briskly: the repeat's board is due seconds after the first one's
        # (the old text match looked 5 s back); the crash point fires at the repeat's board.
        await process.start(crash_at=f"{point}:{len(OPENING) + 1}")
        for who, notation in OPENING:
            await harness.slash_move(players[who], notation)
        said = f"alice (Orange) played `{REPEATED}`."
        assert count(fake, fake.channel, re.escape(said)) == 1
        if how == "slash":
            await move(fake, alice, REPEATED)
        else:
            await fake.send_message(fake.channel, alice, REPEATED)
        await process.killed()
        await process.start()
        await process.settle()

        boards = [m for m in fake.bot_messages(fake.channel) if said in m.content]
        assert len(boards) == 2, texts(fake, fake.channel)  # the first one, and the repeat once
        assert boards[0].content == boards[1].content  # word for word: text cannot tell them apart
        for board in boards:
            board_png(board)
        await harness.slash_move(bob, "c2-c1")
        await process.stop()
