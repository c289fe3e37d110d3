"""Domineering's deeper look for the computer (`bot.ai.domineering`), checked against a
plain reference written from the rule text (shared/rules/domineering.md, rules 1 and 5-9):
squares as (file, rank) on a wrapping 8×8 board, pieces walked one square at a time, a
blank tried as every distance 1-6; nothing of the engine's bitmasks or step tables."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import cast

import pytest

from bot.ai import think
from bot.ai.domineering import (
    CAREFUL,
    EASY_SEES,
    ROOT_CANDIDATES,
    SURVIVAL_WORTH,
    DomineeringGuide,
    placements,
    reply_value,
    share_of,
)
from bot.games import CHANCE, GAMES
from bot.games.domineering import DomineeringState
from bot.games.dominoes import Tile, double_six
from tests.games.playout import playout
from tests.slow import slow_cases

Square = tuple[int, int]
DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def _walk(start: Square, direction: tuple[int, int], distance: int, blocked: set[Square]) -> Square | None:
    """Rule 6 on the torus of rule 1: exactly `distance` squares, none of them blocked."""
    f, r = start
    for k in range(1, distance + 1):
        square = ((f + direction[0] * k) % 8, (r + direction[1] * k) % 8)
        if square in blocked:
            return None
    return square


def _distances(number: int) -> list[int]:
    return list(range(1, 7)) if number == 0 else [number]  # rule 5: a blank is any of 1-6


def reference_placements(pieces: list[Square], blocked: set[Square], tile: Tile) -> set[tuple[Square, ...]]:
    """Rules 5-7: two different pieces, either number first; the tile lies on the first
    piece's square (already blocked: a piece stood there) and the first piece on its
    destination before the second one moves."""
    return set(_reference_placements(pieces, blocked, tile))


def reference_can_place(pieces: list[Square], blocked: set[Square], tile: Tile) -> bool:
    """Whether `reference_placements` is not empty (it stops at the first placement found)."""
    return next(_reference_placements(pieces, blocked, tile), None) is not None


def _reference_placements(pieces: list[Square], blocked: set[Square], tile: Tile) -> Iterator[tuple[Square, ...]]:
    for first in pieces:
        for second in pieces:
            if first == second:
                continue
            for a, b in ((tile.low, tile.high), (tile.high, tile.low)):
                for way1 in DIRECTIONS:
                    for d1 in _distances(a):
                        to1 = _walk(first, way1, d1, blocked)
                        if to1 is None:
                            continue
                        for way2 in DIRECTIONS:
                            for d2 in _distances(b):
                                to2 = _walk(second, way2, d2, blocked | {to1})
                                if to2 is not None:
                                    yield (first, to1, second, to2)


def _index(square: Square) -> int:
    return square[0] + 8 * square[1]


def _square(index: int) -> Square:
    return (index % 8, index // 8)


def _random_board(rng: random.Random, pieces: int) -> tuple[list[Square], list[Square], list[Square]]:
    """Distinct squares: `pieces` per seat and up to 30 laid tiles."""
    squares = [(f, r) for f in range(8) for r in range(8)]
    rng.shuffle(squares)
    walls = rng.randint(0, 30)
    return squares[:pieces], squares[pieces : 2 * pieces], squares[2 * pieces : 2 * pieces + walls]


@pytest.mark.parametrize("pieces", slow_cases([2, 4], {4}))
def test_placements_and_playable_shares_match_the_rule_text(pieces: int) -> None:
    rng = random.Random(pieces)
    tiles = double_six()
    for _ in range(120):
        mine, theirs, walls = _random_board(rng, pieces)
        blocked = set(mine) | set(theirs) | set(walls)
        mask = sum(1 << _index(s) for s in blocked)
        own = tuple(_index(s) for s in mine)
        playable = 0
        for tile in tiles:
            expected = reference_placements(mine, blocked, tile)
            got = {tuple(_square(s) for s in p) for p in placements(own, mask, tile.low, tile.high)}
            assert got == expected, (mine, walls, tile)
            playable += bool(expected)
        assert share_of(own, mask, tiles) == pytest.approx(playable / len(tiles))


def _state(
    mine: list[Square], theirs: list[Square], walls: list[Square], pool: list[Tile], me: int
) -> DomineeringState:
    """A position right after `me` moved: the opponent is to draw from `pool`."""
    names = [[f"{'abcdefgh'[f]}{r + 1}" for f, r in own] for own in ((mine, theirs) if me == 0 else (theirs, mine))]
    state = GAMES["domineering"].load(
        {
            "game": "domineering",
            "options": {"pieces": str(len(mine))},
            "pieces": names,
            "laid": [[f"{'abcdefgh'[f]}{r + 1}", "1-2", 0] for f, r in walls],
            "pool": [str(t) for t in pool],
            "drawn": None,
            "to_move": 1 - me,
        }
    )
    assert isinstance(state, DomineeringState)
    return state


def reference_reply_value(mine: list[Square], theirs: list[Square], walls: list[Square], pool: list[Tile]) -> float:
    """`reply_value` spelled out: every opponent draw, every placement it has with it, then
    the share of the rest of the pool we could play on the board it leaves (rule 7: the
    tile stays on its first piece's square, its second piece's square empties)."""
    blocked = set(mine) | set(theirs) | set(walls)
    total = 0.0
    for tile in pool:
        replies = reference_placements(theirs, blocked, tile)
        if not replies:
            total += 1.0  # rule 8: the opponent cannot move both pieces and loses
            continue
        rest = [t for t in pool if t != tile]
        values = []
        for _first, to1, second, to2 in replies:
            board = (blocked - {second}) | {to1, to2}
            if not rest:
                values.append(0.5)  # rule 9: our turn would begin with an empty pool
                continue
            ours = sum(reference_can_place(mine, board, t) for t in rest)
            values.append(SURVIVAL_WORTH * ours / len(rest))
        total += CAREFUL * min(values) + (1 - CAREFUL) * sum(values) / len(values)
    return total / len(pool)


@pytest.mark.parametrize(("pieces", "me"), [(2, 0), (2, 1), (4, 0), (4, 1)])
def test_reply_value_matches_the_rule_text_on_random_positions(pieces: int, me: int) -> None:
    rng = random.Random(10 * pieces + me)
    values = []
    for _ in range(12):
        mine, theirs, walls = _random_board(rng, pieces)
        pool = rng.sample(double_six(), rng.randint(1, 6))
        value = reply_value(_state(mine, theirs, walls, pool, me), me)
        assert value == pytest.approx(reference_reply_value(mine, theirs, walls, pool))
        values.append(value)
    assert len(set(values)) > 3  # the positions really differed


def test_a_move_that_leaves_the_opponent_no_placement_is_worth_a_win() -> None:
    """White's two pieces are each walled in on all four sides: every draw loses for it."""
    theirs = [(0, 0), (4, 4)]
    walls = [((f + df) % 8, (r + dr) % 8) for f, r in theirs for df, dr in DIRECTIONS]
    mine = [(2, 6), (6, 2)]
    pool = double_six()[:5]
    assert reply_value(_state(mine, theirs, walls, pool, 0), 0) == 1.0


def _positions(seed: int, count: int) -> list[DomineeringState]:
    """Positions of random two-piece games with a tile drawn for the player to move (not
    the tidy start only): both seats, early and late."""
    rng = random.Random(seed)
    found: list[DomineeringState] = []
    while len(found) < count:
        stop = rng.randint(0, 16)
        for before, seat, _move in playout(GAMES["domineering"].start(), rng):
            if seat != CHANCE and cast(DomineeringState, before).ply >= stop:
                if len(before.legal_moves(seat)) > 1:
                    found.append(cast(DomineeringState, before))
                break
    return found


@pytest.mark.slow  # a look through every reply of many positions
def test_normal_and_hard_play_the_shortlisted_move_with_the_best_look_through_the_reply() -> None:
    """The plan of a turn: the move of the shortlist worth the most `reply_value`, at normal
    and hard alike; no search second-guesses it, so the seed does not matter."""
    guide = DomineeringGuide()
    for state in _positions(5, 5):
        seat = state.to_move
        shortlist = guide.shortlist(state, seat)
        assert len(shortlist) == min(ROOT_CANDIDATES, len(state.legal_moves(seat)))
        worth = {move: reply_value(state.play(seat, move), seat) for move in shortlist}
        normal = think("domineering", state.dump(), seat, "normal", 1)
        assert worth[normal] == max(worth.values())
        assert think("domineering", state.dump(), seat, "normal", 2) == normal
        assert think("domineering", state.dump(), seat, "hard", 1) == normal


@pytest.mark.slow  # many seeded choices on many positions
def test_easy_chooses_among_a_handful_of_its_moves() -> None:
    """Easy overlooks moves on purpose: its choice is one of EASY_SEES moves drawn for the
    position, and over many positions it often misses normal's move."""
    guide = DomineeringGuide()
    missed = 0
    for state in _positions(8, 10):
        seat = state.to_move
        handful = guide.root_moves(state, seat, guided=False)
        assert len(handful) == min(EASY_SEES, len(state.legal_moves(seat)))
        assert set(handful) <= set(state.legal_moves(seat))
        assert handful == guide.root_moves(state, seat, guided=False)
        easy = think("domineering", state.dump(), seat, "easy", 3)
        assert easy in handful
        missed += easy != think("domineering", state.dump(), seat, "normal", 3)
    assert missed >= 3
