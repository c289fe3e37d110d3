"""Dominance on random layouts, checked against a plain reference written from the rule text.

Rules 1, 4, 6 and 9 (shared/rules/dominance.md): the Battlefield is the 21 tiles laid at
random, 7 rows of 3, row by row from a1, each tile's left half on the even file; a setup
or return roll of two dice names the tile bearing those two numbers *wherever this game's
layout put it*, and a turn roll lights every space whose value was rolled.

The reference below knows nothing of the engine: it reads the layout text the way the
notation defines it (`layout 12 43 ...`, left then right digit, row by row from a1).
The canonical sorted layout is deliberately avoided: on it a tile's place in the sorted
list and its place on the board coincide, which hid a bug.
"""

from __future__ import annotations

import random

import pytest

from bot.games import CHANCE, GAMES
from bot.games.dominance import DominanceState

RULES = GAMES["dominance"]
ORANGE, BLUE = 0, 1
FILES = "abcdef"
CANONICAL = "11 12 13 14 15 16 22 23 24 25 26 33 34 35 36 44 45 46 55 56 66"


# --- the reference -------------------------------------------------------------------------


def random_layout(rng: random.Random) -> str:
    """The 21 tiles without a blank, shuffled, each turned either way (rule 1)."""
    tiles = [(a, b) for a in range(1, 7) for b in range(a, 7)]
    rng.shuffle(tiles)
    return " ".join(f"{a}{b}" if rng.random() < 0.5 else f"{b}{a}" for a, b in tiles)


def space_values(layout: str) -> dict[str, int]:
    """Every space's number: tile k of the text lies on rank k // 3 + 1, files 2(k % 3) and
    2(k % 3) + 1, its first digit on the left."""
    values: dict[str, int] = {}
    for k, tile in enumerate(layout.split()):
        rank = k // 3 + 1
        left = FILES[2 * (k % 3)]
        right = FILES[2 * (k % 3) + 1]
        values[f"{left}{rank}"] = int(tile[0])
        values[f"{right}{rank}"] = int(tile[1])
    return values


def tile_spaces(layout: str, a: int, b: int) -> set[str]:
    """The two spaces of the tile bearing the numbers a and b (rules 4 and 9)."""
    for k, tile in enumerate(layout.split()):
        if sorted((int(tile[0]), int(tile[1]))) == sorted((a, b)):
            rank = k // 3 + 1
            return {f"{FILES[2 * (k % 3)]}{rank}", f"{FILES[2 * (k % 3) + 1]}{rank}"}
    raise AssertionError(f"no tile {a}-{b} in {layout}")


def lit_spaces(layout: str, dice: list[int]) -> set[str]:
    """The spaces a turn roll makes active (rule 6)."""
    return {space for space, value in space_values(layout).items() if value in dice}


def test_the_reference_reads_the_canonical_layout_like_the_rulings_table() -> None:
    # The table in test_dominance.py: a5-b5 is 3-4, e4-f4 is 3-3, f7 is a 6.
    assert tile_spaces(CANONICAL, 4, 3) == {"a5", "b5"}
    assert tile_spaces(CANONICAL, 3, 3) == {"e4", "f4"}
    assert space_values(CANONICAL)["f7"] == 6
    assert space_values("21 " + CANONICAL[3:])["a1"] == 2  # the first digit is the left half


# --- the engine against it ----------------------------------------------------------------


def laid(layout: str) -> DominanceState:
    state = RULES.start().play(CHANCE, f"layout {layout}")
    assert isinstance(state, DominanceState)
    return state


@pytest.mark.parametrize("seed", range(40))
def test_every_setup_roll_lands_on_the_tile_with_those_numbers_in_this_layout(seed: int) -> None:
    rng = random.Random(seed)
    layout = random_layout(rng)
    state = laid(layout)
    expected: dict[str, int] = {}
    while state.phase == "setup":
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        roller = state.to_move
        state = state.play(CHANCE, f"roll {a} {b}")
        for space in tile_spaces(layout, a, b):
            expected[space] = roller  # stones already there went back to their owners
        stones = state.view(None)["stones"]
        assert {s: o for s, o in stones.items()} == expected, (layout, a, b)
    assert len(expected) == 8


def test_a_setup_roll_on_a_random_layout_is_not_the_sorted_tile_index() -> None:
    """The regression: 1-2 is the second tile of the sorted list (c1-d1), but here it lies on f7-e7."""
    layout = CANONICAL.split()
    layout[1], layout[20] = layout[20], layout[1]  # 6-6 to c1-d1, 1-2 to the last place
    layout[20] = "21"
    state = laid(" ".join(layout)).play(CHANCE, "roll 2 1")
    assert state.view(None)["stones"] == {"e7": ORANGE, "f7": ORANGE}


def return_position(layout: str, *, seat: int, stones: dict[str, int]) -> DominanceState:
    """`seat` has one stone on u0 and is about to roll for its return (rule 9)."""
    under = [[0] * 7, [0] * 7]
    under[seat][6] = 1
    state = RULES.load(
        {
            "options": {},
            "layout": layout,
            "stones": stones,
            "underworld": under,
            "unplaced": [0, 0],
            "phase": "return",
            "to_move": seat,
            "dice": [1, 2, 3, 4],
            "pair": [],
            "eligible": [],
            "uw_eligible": [0] * 7,
            "moved": [],
            "uw_moved": [0] * 7,
            "captured": [],
            "turns": 3,
            "ply": 20,
        }
    )
    assert isinstance(state, DominanceState)
    return state


@pytest.mark.parametrize("seed", range(40))
def test_every_return_roll_offers_exactly_the_halves_of_that_tile_in_this_layout(seed: int) -> None:
    rng = random.Random(1000 + seed)
    layout = random_layout(rng)
    seat = rng.choice((ORANGE, BLUE))
    stones = {"a1": seat, "f7": 1 - seat}
    for a in range(1, 7):
        for b in range(a, 7):
            state = return_position(layout, seat=seat, stones=stones).play(CHANCE, f"roll {b} {a}")
            halves = tile_spaces(layout, a, b)
            assert set(state.legal_moves(seat)) == {f"enter {h}" for h in halves}, (layout, a, b)
            chosen = rng.choice(sorted(halves))
            after = state.play(seat, f"enter {chosen}")
            assert after.view(None)["stones"].get(chosen) == seat


@pytest.mark.parametrize("seed", range(20))
def test_a_turn_roll_lights_the_spaces_the_reference_lights(seed: int) -> None:
    rng = random.Random(2000 + seed)
    layout = random_layout(rng)
    full = {f"{f}{r}": BLUE for f in FILES for r in range(1, 8)} | {"f7": ORANGE}  # so the turn is not skipped
    state = return_position(layout, seat=BLUE, stones=full)
    state = RULES.load({**state.dump(), "phase": "roll", "underworld": [[0] * 7, [0] * 7]})
    dice = sorted(rng.randint(1, 6) for _ in range(4))
    view = state.play(CHANCE, "roll " + " ".join(map(str, dice))).view(None)
    assert view["phase"] == "capture"
    assert {s for s in view["active"] if not s.startswith("u")} == lit_spaces(layout, dice)
