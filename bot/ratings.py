"""Elo ratings, one rating per player per game.

Why Elo and not Glicko-2: Boneyard's pools are small and play-by-post games are slow, so
the rating period Glicko-2 needs would hold few games; Elo with a K-factor schedule is
simple to explain to players ("you won 14 points") and updates after every single game.

The schedule follows FIDE's in spirit:

- K = 40 while a player is provisional (fewer than `PROVISIONAL_GAMES` rated games),
- K = 20 afterwards,
- K = 10 for a rating at or above `MASTER_RATING`.

Each side of a game uses its own K, so a provisional player moves fast without shaking an
established opponent much; with equal K the update is zero-sum.  A rating is a small frozen
value with a JSON round trip (`dump` / `load`) so the store can keep it as it likes.
Pure: standard library only, no I/O.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Self

DEFAULT_RATING = 1500.0
PROVISIONAL_GAMES = 30
MASTER_RATING = 2400.0
K_PROVISIONAL = 40
K_ESTABLISHED = 20
K_MASTER = 10
WIN, DRAW, LOSS = 1.0, 0.5, 0.0


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating in one game and how many rated games it rests on."""

    value: float = DEFAULT_RATING
    games: int = 0

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    def dump(self) -> dict[str, Any]:
        return {"value": self.value, "games": self.games}

    @classmethod
    def load(cls, data: dict[str, Any]) -> Self:
        return cls(float(data["value"]), int(data["games"]))


def expected_score(rating: float, opponent: float) -> float:
    """The score `rating` is expected to make against `opponent` (0..1; a draw counts ½)."""
    return 1.0 / (1.0 + math.pow(10.0, (opponent - rating) / 400.0))


def k_factor(rating: Rating) -> int:
    """The K-factor of the schedule above: how far one game can move this rating."""
    if rating.provisional:
        return K_PROVISIONAL
    if rating.value >= MASTER_RATING:
        return K_MASTER
    return K_ESTABLISHED


def rating_changes(a: Rating, b: Rating, score_a: float) -> tuple[float, float]:
    """The points `a` and `b` gain (negative: lose) when `a` scores `score_a` against `b`.

    Raises ValueError unless `score_a` is 0, ½ or 1.
    """
    if score_a not in (WIN, DRAW, LOSS):
        raise ValueError(f"A game's score is 0, 0.5 or 1, not {score_a}.")
    expected_a = expected_score(a.value, b.value)
    return k_factor(a) * (score_a - expected_a), k_factor(b) * ((1.0 - score_a) - (1.0 - expected_a))


def update(a: Rating, b: Rating, score_a: float) -> tuple[Rating, Rating]:
    """Both ratings after one game in which `a` scored `score_a` (1 win, ½ draw, 0 loss)."""
    change_a, change_b = rating_changes(a, b, score_a)
    return Rating(a.value + change_a, a.games + 1), Rating(b.value + change_b, b.games + 1)
