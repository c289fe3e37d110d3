"""How a change of state becomes an `Update`: the views, the moves told, the buttons, whom to prompt.

Pure: given the rules, the match row, the states before and after, and the log entries in
between, it decides what the channel and each seat learn.  It is kept apart from the service
so that every kind of change (a move, a start, a takeback) describes itself the same way, and
so the decisions (which private views changed, when an update is quiet) can be read in one
place.  Only views leave it: no game state is ever put in an `Update`.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from typing import Any

from bot.games import CHANCE, GameState, Rules
from bot.games.base import LogEntry
from bot.services.matches.updates import Told, Update
from bot.store import MatchRow

log = logging.getLogger(__name__)

MAX_BUTTONS = 5  # one row of Discord buttons


def player_seats(turn: Iterable[int]) -> frozenset[int]:
    """The players among the seats of `turn` (the CHANCE seat left out): whose clocks run."""
    return frozenset(seat for seat in turn if seat != CHANCE)


def decorate(row: MatchRow, view: dict[str, Any]) -> dict[str, Any]:
    """Add what the match knows and the game does not (its id); a copy, never shared."""
    return {**view, "match_id": row.id}


def tell(origin: GameState, record: Sequence[LogEntry]) -> tuple[Told, ...]:
    """`record` (applied from `origin`) with the engine's sentences.  A narration bug must
    never undo or hide a committed move: it falls back to the bare notation."""
    try:
        told = origin.narrate(record)
    except Exception:
        log.exception("narrating %d moves failed; announcing the notation only", len(record))
        told = [(entry, None) for entry in record]
    return tuple(Told(e.seat, e.move, e.public, text) for e, text in told)


def buttons(rules: Rules, state: GameState) -> tuple[str, ...]:
    """The game's `button_moves` legal now, for one row of buttons under the board."""
    pattern = rules.info.button_moves
    if pattern is None or state.outcome is not None:
        return ()
    found: dict[str, None] = {}
    for seat in sorted(state.turn - {CHANCE}):
        found.update((m, None) for m in state.legal_moves(seat) if pattern.match(m))
    return tuple(found)[:MAX_BUTTONS]


def describe(
    rules: Rules,
    row: MatchRow,
    state: GameState,
    before: GameState | None,
    record: Sequence[LogEntry],
    *,
    ply: int,
    note: str | None = None,
    intro: str | None = None,
) -> Update:
    """The update of `row`'s match now at `state`, reached from `before` (None: it just
    started) by the log entries `record`; `ply` is the length of the log after them."""
    private: dict[int, dict[str, Any]] = {}
    if rules.info.has_private_info:
        for seat in (0, 1):
            mine = state.view(seat)
            if before is None or before.view(seat).get("private") != mine.get("private"):
                private[seat] = decorate(row, mine)
    played = tuple((s, m) for s, m, public, _forced in record if public and s != CHANCE)
    told = tell(before, record) if before is not None else ()
    movers = {s for s, *_ in record}
    waiting = player_seats(before.turn) if before is not None else frozenset()
    prompt = tuple(
        seat
        for seat in sorted(player_seats(state.turn))
        if state.outcome is None and (seat not in waiting or seat in movers or seat in private)
    )
    turn_began = tuple(
        seat for seat in sorted(player_seats(state.turn)) if state.outcome is None and seat not in waiting
    )
    public_view = decorate(row, state.view(None))
    first = record[0] if record else None
    secret_move = first is not None and first.seat != CHANCE and not first.public
    quiet = (
        before is not None
        and secret_move
        and state.outcome is None
        and not any(entry.public for entry in record)
        and player_seats(state.turn) <= waiting
        and before.view(None).get("phase") == public_view.get("phase")
    )
    return Update(
        match=row,
        public_view=public_view,
        private_views=private,
        played=played,
        outcome=state.outcome,
        ply=ply,
        note=note,
        buttons=buttons(rules, state),
        prompt=prompt,
        turn_began=turn_began,
        told=told,
        secret_move=secret_move,
        quiet=quiet,
        intro=intro,
    )
