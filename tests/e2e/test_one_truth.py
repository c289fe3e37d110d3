"""One truth per move (cogs/out/outbox.py `_mark_posted`): a board that was posted while the
database refused to mark its row sent is a posted board.  The mover hears nothing but the
board, the row is marked once the database answers again, and the next move in the channel
does not wait for it."""

from __future__ import annotations

import logging
import sqlite3

import pytest

from bot.services.outbox import Outbox
from tests.e2e.harness import Harness, assert_board_for

pytestmark = pytest.mark.e2e


async def test_a_board_posted_but_not_marked_is_told_once_and_reconciled(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    fake = harness.fake
    alice, bob, _ = fake.players
    match_id, _ = await harness.start_match("focus", alice, bob)
    real_done = Outbox.done
    refused: list[str] = []

    async def done_fails_once(self: Outbox, key: str, message_id: int | None, *, failure: str | None = None) -> None:
        if failure is None and not refused:
            refused.append(key)
            raise sqlite3.OperationalError("database is locked")
        await real_done(self, key, message_id, failure=failure)

    monkeypatch.setattr(Outbox, "done", done_fails_once)
    with caplog.at_level(logging.INFO, logger="cogs.out.outbox"):
        move = await harness.command("move", {"notation": "d2-d1"}, user=alice)
        board = await fake.wait_for_followup(move)
        assert_board_for(board, bob)
        await harness.wait_for_handlers()
        assert refused, "the test did not make marking fail"
        private = [m.content for m in fake.followups(move) if m.ephemeral]
        assert private == []  # no "I could not post the board" next to the posted board
        assert not [m for m in fake.dms_to(alice) + fake.dms_to(bob) if "could not post" in m.content]
        # the row is marked by the next delivery or drain, whichever comes first

        assert_board_for(await harness.slash_move(bob, "c2-c1"), alice)  # the next move reconciles first
    owed = await harness.bot.announcements.owed(created_before=None, shards=harness.bot.leases.current)
    assert owed == []
    lines = [r.getMessage() for r in caplog.records if r.name == "cogs.out.outbox"]
    assert f"announcement {refused[0]} marked sent after the database came back" in lines
    assert not [line for line in lines if "without waiting longer" in line]  # the next board did not wait
    boards = [m for m in fake.bot_messages(fake.channel) if m.attachments]
    assert len(boards) == 3  # start and two moves: each once
    assert await harness.move_count(match_id) == 2
