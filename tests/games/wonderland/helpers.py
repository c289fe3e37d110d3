"""Positions for Wonderland tests, built through `rules.load` so each test states exactly
the position it needs (paths in a loaded position need not obey the laying rules)."""

from __future__ import annotations

from typing import Any

from bot.games.wonderland import WonderlandRules, WonderlandState
from bot.games.wonderland.board import STANDARD, board_of

RULES = WonderlandRules()
BOARD = board_of(*STANDARD)
POOL0 = ["AH", "2H", "3H", "4H", "5D", "6D", "7D", "8S", "9S", "10S", "JS", "JH", "QS", "QH", "KH"]
POOL1 = ["AC", "2C", "3C", "4S", "5S", "6C", "7C", "8H", "9D", "10D", "JC", "JD", "QC", "QD", "KS"]


def sq(name: str) -> int:
    return BOARD.square(name)


def factors(c: int = 0, f: int = 0, d: int = 0, a: int = 0, m: int = 0) -> list[int]:
    return [c, f, d, a, m]


def being(owner: int, card: str, square: str, **extra: Any) -> dict[str, Any]:
    return {"owner": owner, "card": card, "square": sq(square), **extra}


def corridor(*names: str) -> list[int]:
    return [sq(n) for n in names]


def position(
    *,
    paths: list[tuple[int, list[int]]] | None = None,
    beings: list[dict[str, Any]] | None = None,
    f0: list[int] | None = None,
    f1: list[int] | None = None,
    phase: str = "action",
    active: int = 0,
    dice: list[str] | None = None,
    faces: list[str] | None = None,
    lives: tuple[int, int] = (3, 3),
    pools: tuple[list[str], list[str]] = (POOL0, POOL1),
    summoned: tuple[list[str], list[str]] = ([], []),
    attacks: list[dict[str, Any]] | None = None,
    defender: int | None = None,
    turn_no: int = 10,
    summon_done: bool = False,
    options: dict[str, Any] | None = None,
) -> WonderlandState:
    data = {
        "game": "wonderland",
        "options": options or {},
        "phase": phase,
        "active": active,
        "turn_no": turn_no,
        "pools": [list(pools[0]), list(pools[1])],
        "summoned": [list(summoned[0]), list(summoned[1])],
        "paths": [[owner, squares] for owner, squares in (paths or [])],
        "lives": list(lives),
        "beings": beings or [],
        "factors": [f0 or factors(), f1 or factors()],
        "dice": dice or [],
        "faces": faces,
        "summon_done": summon_done,
        "attacks": attacks or [],
        "defender": defender,
        "last_move": None,
        "ply": 0,
        "outcome": None,
    }
    return RULES.load(data)


def after_pools(options: dict[str, Any] | None = None) -> WonderlandState:
    """A new game with both pool decks picked (seat 0 to choose dice)."""
    state = RULES.start(options=options)
    state = state.play(0, "pool " + " ".join(POOL0))
    return state.play(1, "pool " + " ".join(POOL1))


# A long straight path on file c from c2 to c12 and a cross path on rank 8 (b8..k8).
LINE = corridor(*[f"c{r}" for r in range(2, 13)])
CROSS = corridor(*[f"{f}8" for f in "bdefghijk"])
