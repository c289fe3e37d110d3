"""A sample move of each game, for the pictures of `/rules`: a position in play and one
move from it written in the game's notation.

Why generated and not hand-written: the position comes from the engine itself (a seeded
random game), so it is always legal under the current rules, and the move shown is one
the engine accepts as typed.  Pure: no Discord, no pictures.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from bot.games import CHANCE, GAMES

MIN_PLY = 6
MAX_PLY = 600
SEED = 17
SQUARE = re.compile(r"[a-z][0-9]")
"""A move that names a square is one a picture can explain (not `pick 2-5` or `keep`)."""


@dataclass(frozen=True)
class SampleMove:
    game: str
    seat: int
    move: str
    before: dict[str, Any]
    """The public view of the position the move is made from."""
    after: dict[str, Any]
    """The public view once it is made (chance moves that follow are not yet drawn).  Public
    views only: a sample game has no real secrets, but the pictures never show any anyway."""


@cache
def sample_move(game: str) -> SampleMove:
    """A board move (one the game's `move_pattern` recognises and that names a square)
    made after at least `MIN_PLY` plies of a seeded random game.  Raises KeyError for an
    unknown game, LookupError if no such move came up (a game without typed moves)."""
    rules = GAMES[game]
    rng = random.Random(SEED)
    state = rules.start(options={})
    for ply in range(MAX_PLY):
        if state.outcome is not None:
            break
        if CHANCE in state.turn:
            state = state.play(CHANCE, state.sample_chance(rng))
            continue
        seat = min(state.turn)
        moves = state.legal_moves(seat)
        typed = [m for m in moves if rules.info.move_pattern.match(m) and SQUARE.search(m)]
        if ply >= MIN_PLY and typed:
            move = rng.choice(typed)
            return SampleMove(game, seat, move, state.view(None), state.play(seat, move).view(None))
        state = state.play(seat, rng.choice(moves))
    raise LookupError(f"no sample move found for {game}")
