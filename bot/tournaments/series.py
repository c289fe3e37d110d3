"""A pairing is a series of games: best of 1, 3 or 5; first to ⌈n/2⌉ game wins takes it.

Draws (decided here, documented for players):

- A drawn game is never a game win; it counts ½ in the series' game points.
- Knockout formats (single and double elimination, deathmatch) need a winner, so a drawn
  game is replayed: the series simply goes on until one side has ⌈n/2⌉ wins.  The host can
  end an endless series with `Tournament.report`.
- Points formats (Swiss, round robin) cap the series at n games.  If nobody reached
  ⌈n/2⌉ wins by then, the side with more wins takes the series; equal wins is a drawn
  pairing (½ match point each).

Results are given per game as the index (0 or 1) of the pairing's player who won, or None
for a draw.  Pure functions, standard library only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

ALLOWED_BEST_OF = (1, 3, 5)
DEATHMATCH_BEST_OF = (1, 3, 5, 7, 9)


def wins_needed(best_of: int) -> int:
    """Game wins that take a best-of-`best_of` series."""
    return best_of // 2 + 1


@dataclass(frozen=True, slots=True)
class SeriesResult:
    """Where a series stands: game wins per side, drawn games, and whether it is over."""

    wins: tuple[int, int]
    draws: int
    finished: bool
    winner: int | None
    """0 or 1 when finished with a winner; None while running or for a drawn series."""


def series_result(games: Sequence[int | None], best_of: int, *, draws_replayed: bool) -> SeriesResult:
    """Score a series from its finished games (winner index per game, None for a draw)."""
    wins = (sum(1 for g in games if g == 0), sum(1 for g in games if g == 1))
    draws = sum(1 for g in games if g is None)
    need = wins_needed(best_of)
    if wins[0] >= need or wins[1] >= need:
        return SeriesResult(wins, draws, True, 0 if wins[0] >= need else 1)
    if not draws_replayed and len(games) >= best_of:
        winner = None if wins[0] == wins[1] else (0 if wins[0] > wins[1] else 1)
        return SeriesResult(wins, draws, True, winner)
    return SeriesResult(wins, draws, False, None)
