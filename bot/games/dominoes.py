"""Domino tiles and their `x-y` notation, shared by the games that use tiles.

A tile is an ordered pair with the lower number first, so equal tiles compare equal
whatever order a player typed them in.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from bot.games.base import IllegalMove, shown
from bot.i18n import tr

_TILE = re.compile(r"^\s*([0-9])\s*[-:|/]\s*([0-9])\s*$")


class Tile(NamedTuple):
    """A domino: `low` ≤ `high`."""

    low: int
    high: int

    @classmethod
    def of(cls, a: int, b: int) -> Tile:
        if not (0 <= a <= 6 and 0 <= b <= 6):
            raise IllegalMove(tr("A domino's numbers go from 0 to 6, not {a}-{b}.", a=a, b=b))
        return cls(min(a, b), max(a, b))

    @property
    def is_double(self) -> bool:
        return self.low == self.high

    @property
    def pips(self) -> int:
        return self.low + self.high

    def __str__(self) -> str:
        return f"{self.low}-{self.high}"


def parse_tile(text: str) -> Tile:
    """Parse `2-5`, `5-2`, `5:2` or `5 - 2`; raises IllegalMove."""
    match = _TILE.match(text)
    if match is None:
        raise IllegalMove(tr("{text} is not a domino; write it like `2-5`.", text=shown(text)))
    return Tile.of(int(match.group(1)), int(match.group(2)))


def double_six() -> list[Tile]:
    """The 28 tiles of a double-six set, in canonical order (0-0, 0-1, ... 6-6)."""
    return [Tile(a, b) for a in range(7) for b in range(a, 7)]


def no_doubles() -> list[Tile]:
    """The 21 tiles of a double-six set that have two different numbers."""
    return [t for t in double_six() if not t.is_double]


def format_tiles(tiles: list[Tile] | tuple[Tile, ...]) -> str:
    return " ".join(str(t) for t in tiles)
