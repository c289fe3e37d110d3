"""The board and the path shape rules (rulings 1 and 6), checked against an independent
brute-force enumerator on small boards."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest

from bot.games.wonderland.board import (
    STANDARD,
    Path,
    anchors,
    board_of,
    canonical_path,
    end_to_end,
    enumerate_layouts,
    enumerate_paths,
    path_error,
)
from tests.games.wonderland.helpers import RULES

# --- board geometry --------------------------------------------------------------------


def test_standard_board_is_13_by_20_with_images_on_g1_and_g20() -> None:
    view = RULES.start().view(None)
    assert (view["files"], view["ranks"]) == (13, 20)
    assert [i["square"] for i in view["images"]] == ["g1", "g20"]
    assert [i["lives"] for i in view["images"]] == [3, 3]


def test_ddm_board_is_13_by_19() -> None:
    view = RULES.start(options={"board": "ddm"}).view(None)
    assert (view["files"], view["ranks"]) == (13, 19)
    assert [i["square"] for i in view["images"]] == ["g1", "g19"]


def test_image_front_and_sides_are_the_approaches() -> None:
    board = board_of(13, 20)
    names = board.names
    assert {names[s] for s in board.approaches[0]} == {"g2", "f1", "h1"}
    assert {names[s] for s in board.approaches[1]} == {"g19", "f20", "h20"}


# --- shape rules, one by one ------------------------------------------------------------

B = board_of(13, 20)


def p(text: str) -> Path:
    squares = [B.square(s) for s in text.replace("-", " ").split()]
    return (squares[0], squares[1], squares[2], squares[3], squares[4], squares[5])


START = anchors(B, set(B.images), [], 0)


def test_a_path_from_the_image_front_is_legal() -> None:
    assert path_error(B, set(B.images), START, p("g2-g3 h3-h4 i4-i5")) is None


def test_first_domino_must_cover_the_front_or_a_side() -> None:
    assert "first domino" in str(path_error(B, set(B.images), START, p("c2-c3 d3-d4 c4-c5")))


def test_second_domino_must_touch_the_far_end_of_the_first() -> None:
    # h2-h3 touches g2 (the near end), not g3
    assert "far end" in str(path_error(B, set(B.images), START, p("g2-g3 h2-i2 i3-i4")))


def test_dominoes_end_to_end_in_line_are_refused() -> None:
    assert "end to end" in str(path_error(B, set(B.images), START, p("g2-g3 g4-g5 h5-h6")))
    assert "end to end" in str(path_error(B, set(B.images), START, p("f1-e1 e2-d2 c2-b2")))


def test_a_2x2_block_is_refused() -> None:
    assert "2×2" in str(path_error(B, set(B.images), START, p("g2-g3 h3-h2 i2-i3")))


def test_used_squares_and_the_image_are_refused() -> None:
    used = set(B.images) | {B.square("h3")}
    assert "free squares" in str(path_error(B, used, START, p("g2-g3 h3-h4 i4-i5")))
    assert "free squares" in str(path_error(B, set(B.images), START, p("f1-g1 g2-g3 h3-h4")))


def test_canonical_path_is_the_smallest_legal_order_of_the_same_dominoes() -> None:
    forward = p("g2-g3 h3-h4 i4-i5")
    # laid backwards it would start at g5, which is not an anchor: only one order is legal
    assert canonical_path(B, set(B.images), START, forward) == forward


# --- brute force on small boards -----------------------------------------------------------


def _dominoes(files: int, ranks: int) -> list[tuple[int, int]]:
    out = []
    for r in range(ranks):
        for f in range(files):
            s = f + files * r
            if f + 1 < files:
                out.append((s, s + 1))
            if r + 1 < ranks:
                out.append((s, s + files))
    return out


def _touch(a: int, b: int, files: int) -> bool:
    (af, ar), (bf, br) = (a % files, a // files), (b % files, b // files)
    return abs(af - bf) + abs(ar - br) == 1


def _in_line_end_to_end(x: tuple[int, int], y: tuple[int, int], files: int) -> bool:
    cells = sorted([*x, *y])
    coords = [(c % files, c // files) for c in cells]
    same_rank = len({r for _f, r in coords}) == 1
    same_file = len({f for f, _r in coords}) == 1
    if not (same_rank or same_file):
        return False
    axis = [f for f, _r in coords] if same_rank else [r for _f, r in coords]
    axis.sort()
    return axis == list(range(axis[0], axis[0] + 4))


def _brute_force(files: int, ranks: int, used: set[int], anchor_squares: set[int]) -> set[Path]:
    """Every ordering of every 3 disjoint free dominoes, checked by the rules' words."""
    free = [d for d in _dominoes(files, ranks) if d[0] not in used and d[1] not in used]
    found: set[Path] = set()
    for trio in itertools.combinations(free, 3):
        cells = [c for d in trio for c in d]
        if len(set(cells)) != 6:
            continue
        if any(_in_line_end_to_end(x, y, files) for x, y in itertools.combinations(trio, 2)):
            continue
        cellset = set(cells)
        if any({c, c + 1, c + files, c + files + 1} <= cellset for c in cellset if c % files < files - 1):
            continue
        for order in itertools.permutations(trio):
            for flips in itertools.product((False, True), repeat=3):
                seq = [(d[1], d[0]) if flip else d for d, flip in zip(order, flips, strict=True)]
                (a1, a2), (b1, b2), (c1, c2) = seq
                if a1 not in anchor_squares:  # the anchor is written first; b1 touches the far end a2
                    continue
                if _touch(a2, b1, files) and _touch(b2, c1, files):
                    found.add((a1, a2, b1, b2, c1, c2))
    return found


@pytest.mark.parametrize("seed", range(6))
def test_enumerator_matches_brute_force_on_small_boards(seed: int) -> None:
    rng = random.Random(seed)
    files, ranks = rng.choice([(4, 4), (5, 4), (4, 5), (5, 5)])
    board = board_of(files, ranks)
    cells = list(range(files * ranks))
    used = set(rng.sample(cells, rng.randint(0, 5)))
    anchor_squares = {c for c in rng.sample(cells, 3) if c not in used}
    expected = _brute_force(files, ranks, used, anchor_squares)
    found = list(enumerate_paths(board, used, anchor_squares))
    assert len(found) == len(set(found))
    assert set(found) == expected
    layouts = enumerate_layouts(board, used, anchor_squares)
    keys = {frozenset((frozenset(q[0:2]), frozenset(q[2:4]), frozenset(q[4:6]))) for q in expected}
    assert len(layouts) == len(keys)
    for layout in layouts:
        assert layout in expected
        assert canonical_path(board, used, anchor_squares, layout) == layout


def test_brute_force_sees_something_on_an_empty_board() -> None:
    board = board_of(4, 4)
    assert _brute_force(4, 4, set(), {0}) == set(enumerate_paths(board, set(), {0}))
    assert _brute_force(4, 4, set(), {0})


def _every_domino_pair(files: int, ranks: int) -> Iterator[tuple[tuple[int, int], tuple[int, int]]]:
    dominoes = _dominoes(files, ranks)
    for x, y in itertools.permutations(dominoes, 2):
        if not set(x) & set(y):
            yield x, y


@pytest.mark.parametrize("size", [(4, 4), (5, 3), (3, 5)])
def test_end_to_end_agrees_with_the_rule_read_from_coordinates_for_every_pair(size: tuple[int, int]) -> None:
    """`end_to_end` reads square numbers, not coordinates: every pair of disjoint dominoes of
    a small board, each domino either way round, against `_in_line_end_to_end`."""
    files, ranks = size
    board = board_of(files, ranks)
    seen = {True: 0, False: 0}
    for x, y in _every_domino_pair(files, ranks):
        expected = _in_line_end_to_end(x, y, files)
        for a, b in ((x, y), (x[::-1], y), (x, y[::-1]), (x[::-1], y[::-1])):
            assert end_to_end(board, a, b) is expected, (a, b)
        seen[expected] += 1
    assert seen[True] and seen[False]


def test_end_to_end_agrees_with_the_rule_on_a_real_board() -> None:
    """A real board (both are 13 files wide), where a rank's last square is followed by the
    next rank's first: every domino against every domino starting within a rank of it (the
    rest are too far apart to touch; the small boards check them)."""
    files, ranks = STANDARD
    board = board_of(files, ranks)
    dominoes = _dominoes(files, ranks)
    wrapped = 0
    for x in dominoes:
        for y in dominoes:
            if set(x) & set(y) or abs(min(x) - min(y)) > files + 1:
                continue
            expected = _in_line_end_to_end(x, y, files)
            assert end_to_end(board, x, y) is expected, (x, y)
            along_ranks = max(x) - min(x) == 1 == max(y) - min(y)
            wrapped += along_ranks and max(x) % files == files - 1 and min(y) == max(x) + 1
    assert wrapped == ranks - 1  # rank-edge pairs: consecutive numbers, yet not in line
