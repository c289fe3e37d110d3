"""A match's ending stores its final board once, shared by the board row and the result row.

Why: the board's payload (the public view, the moves told, the buttons) was built twice when a
match played in a thread ended, once for the thread's board and once for the result in the
channel; both rows must still carry the same payload."""

from __future__ import annotations

import pytest

from bot.services.matches import Lobby, MatchService, Update
from bot.store import Store
from bot.store.outbox import BOARD, MATCH_RESULT
from tests.bot.conftest import ALICE, BOB, CHANNEL, GUILD

THREAD = 7001


@pytest.mark.parametrize("ending", ["resign", "move"])
async def test_the_final_board_is_built_once_for_both_rows(
    service: MatchService, store: Store, monkeypatch: pytest.MonkeyPatch, ending: str
) -> None:
    lobby = Lobby(service)
    options = {"ply_limit": "1"} if ending == "move" else {}
    challenge = await lobby.challenge(
        game="focus",
        channel_id=CHANNEL,
        guild_id=GUILD,
        challenger_id=ALICE,
        opponent_id=BOB,
        threads_possible=True,
        options=options,
        seat_pref="first",
    )
    started = await lobby.accept(challenge.id, BOB, thread_id=THREAD)
    built: list[int] = []
    real = Update.board_payload

    def counted(self: Update) -> dict[str, object]:
        built.append(self.match.id)
        return real(self)

    monkeypatch.setattr(Update, "board_payload", counted)
    if ending == "resign":
        end = await service.resign(started.match.id, BOB)
    else:
        end = await service.play(started.match.id, ALICE, "d2-d1")
    assert end.outcome is not None and len(end.followups) == 2
    assert built == [started.match.id]
    board = await store.announcement(end.announcement or "")
    result = await store.announcement(end.followups[0])
    assert board is not None and result is not None
    assert (board.kind, result.kind) == (BOARD, MATCH_RESULT)
    assert board.payload == result.payload and board.payload["outcome"] is not None
