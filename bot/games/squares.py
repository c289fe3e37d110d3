"""Chess-style square names (`a1` at the bottom left as seat 0 sees the board).

Position-independent helpers are plain functions, as in python-chess: every grid game
names squares the same way, so parsing and printing them lives here once.
"""

from __future__ import annotations

import re

from bot.games.base import IllegalMove, shown
from bot.i18n import tr

FILES = "abcdefghijklmnopqrstuvwxyz"
_SQUARE = re.compile(r"^([a-z])([0-9]{1,2})$")


def square_name(file: int, rank: int) -> str:
    """`square_name(0, 0)` is `a1`; file and rank are 0-based."""
    return f"{FILES[file]}{rank + 1}"


def parse_square(text: str, files: int, ranks: int) -> tuple[int, int]:
    """(file, rank), 0-based, of `text` on a board of that size; raises IllegalMove."""
    match = _SQUARE.match(text.strip().lower())
    if match is None:
        raise IllegalMove(tr("{text} is not a square; squares are written like `c3`.", text=shown(text)))
    file = FILES.index(match.group(1))
    rank = int(match.group(2)) - 1
    if file >= files or not 0 <= rank < ranks:
        last = square_name(files - 1, ranks - 1)
        raise IllegalMove(tr("{text} is off the board (a1 to {last}).", text=shown(text), last=last))
    return file, rank
