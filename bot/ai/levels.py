"""Levels of play and the worker entry point.

A level is a search budget: `easy` thinks briefly and without the guides' plans of a
turn (`Guide.root_moves`), `hard` long.  Each level has an iteration cap and a cap in CPU
seconds (so a loaded machine does not weaken it); whichever comes first ends the search.
Tests and the bench pass `iterations` alone, so that a seed gives the same move on any
machine.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Final

from bot.ai.search import Budget, choose_move
from bot.games import GAMES

LEVELS: Final[dict[str, Budget]] = {
    "easy": Budget(iterations=40, seconds=0.5, guided=False),
    "normal": Budget(iterations=400, seconds=1.5),
    "hard": Budget(iterations=2000, seconds=6.0),
}
DEFAULT_LEVEL: Final = "normal"


def think(
    game: str,
    dump: dict[str, Any],
    seat: int,
    level: str,
    seed: int,
    *,
    iterations: int | None = None,
    later: Sequence[str] = (),
) -> str:
    """The move the computer plays for `seat`; runs in a worker process.

    `iterations` replaces the level's budget by a pure iteration count (deterministic).
    The search sees only `determinize(seat, ...)` of the state, so the move depends on
    what `seat` may know and on `seed` alone.  `later`: the log moves the snapshot `dump`
    leaves out (`Rules.log_needed`), so the search sees the game's whole history (a Focus
    repetition it could force or must avoid).
    """
    state = GAMES[game].load(dump, later)
    budget = LEVELS[level]
    if iterations is not None:
        budget = replace(budget, seconds=None, iterations=iterations)
    return choose_move(state, seat, budget, random.Random(seed))


def think_for(
    game: str,
    dump: dict[str, Any],
    seat: int,
    level: str,
    seed: int,
    seconds: float | None,
    iterations: int | None = None,
    later: Sequence[str] = (),
) -> str:
    """`think` with `seconds` of wall time at most (the match clock's share: a clock runs in
    wall time; None: no such cap) on top of the level's budget in CPU time; a given
    `iterations` overrides both (tests)."""
    if iterations is not None:
        return think(game, dump, seat, level, seed, iterations=iterations, later=later)
    budget = LEVELS[level]
    state = GAMES[game].load(dump, later)
    limited = replace(budget, wall=seconds)
    return choose_move(state, seat, limited, random.Random(seed))
