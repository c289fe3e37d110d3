"""Summon paths (ruling 6) on full boards, against a brute-force reference written from the
rule text, on random boards with earlier paths of both seats, for both seats and both sizes.

Ruling 6: one square of the first domino (its anchor square, written first) is the Image's
front or a side square, or touches a square of the seat's earlier paths; the second domino
touches the first's OTHER square (its far end), never only the anchor; the third touches the
second's far end the same way.  No two of the three lie end to end in a straight line, the
six squares hold no 2×2 block, and no square is already used (paths or Images).

The reference works on (file, rank) pairs and knows nothing of the engine's board module.
"""

from __future__ import annotations

import random

import pytest

from bot.games import IllegalMove
from bot.games.wonderland import WonderlandState
from tests.games.wonderland.helpers import position

Square = tuple[int, int]
Domino = frozenset[Square]
Layout = frozenset[Domino]
SIZES = {"standard": (13, 20), "ddm": (13, 19)}
LETTERS = "abcdefghijklm"


def name(square: Square) -> str:
    return f"{LETTERS[square[0]]}{square[1] + 1}"


def parse(text: str) -> Square:
    return LETTERS.index(text[0]), int(text[1:]) - 1


def touching(a: Square, b: Square) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def images(ranks: int) -> tuple[Square, Square]:
    return (6, 0), (6, ranks - 1)


def front_and_sides(seat: int, ranks: int) -> set[Square]:
    """Ruling 1: the square toward the opponent and the two beside the Image on its rank."""
    file, rank = images(ranks)[seat]
    toward = 1 if seat == 0 else -1
    return {(file, rank + toward), (file - 1, rank), (file + 1, rank)}


def end_to_end(x: tuple[Square, Square], y: tuple[Square, Square]) -> bool:
    """Short side against short side: all four squares on one line, one after the other."""
    squares = [*x, *y]
    if len({r for _f, r in squares}) == 1:
        line = sorted(f for f, _r in squares)
    elif len({f for f, _r in squares}) == 1:
        line = sorted(r for _f, r in squares)
    else:
        return False
    return line == list(range(line[0], line[0] + 4))


def has_block(squares: set[Square]) -> bool:
    return any({(f + 1, r), (f, r + 1), (f + 1, r + 1)} <= squares for f, r in squares)


def reference_paths(
    files: int, ranks: int, seat: int, paths: list[tuple[int, list[Square]]]
) -> dict[Layout, tuple[Square, ...]]:
    """Every legal path of `seat`: layout → one laying order (anchor first, then far ends)."""
    used = set(images(ranks)) | {s for _owner, squares in paths for s in squares}
    own = [s for owner, squares in paths if owner == seat for s in squares]

    def free(s: Square) -> bool:
        return 0 <= s[0] < files and 0 <= s[1] < ranks and s not in used

    def neighbours(s: Square) -> list[Square]:
        f, r = s
        return [n for n in ((f + 1, r), (f - 1, r), (f, r + 1), (f, r - 1)) if free(n)]

    def anchor(s: Square) -> bool:
        return s in front_and_sides(seat, ranks) or any(touching(s, o) for o in own)

    found: dict[Layout, tuple[Square, ...]] = {}
    for a1 in [(f, r) for f in range(files) for r in range(ranks)]:
        if not free(a1) or not anchor(a1):
            continue
        for b1 in neighbours(a1):  # the first domino a1-b1; b1 is its far end
            for a2 in neighbours(b1):  # the second domino touches the far end...
                for b2 in neighbours(a2):  # ...and its other square is its own far end
                    for a3 in neighbours(b2):
                        for b3 in neighbours(a3):
                            squares = (a1, b1, a2, b2, a3, b3)
                            if len(set(squares)) != 6:
                                continue
                            dominoes = ((a1, b1), (a2, b2), (a3, b3))
                            if any(
                                end_to_end(x, y)
                                for x, y in (
                                    (dominoes[0], dominoes[1]),
                                    (dominoes[1], dominoes[2]),
                                    (dominoes[0], dominoes[2]),
                                )
                            ):
                                continue
                            if has_block(set(squares)):
                                continue
                            layout = frozenset(frozenset(d) for d in dominoes)
                            found.setdefault(layout, squares)
    return found


def reference_places(
    seat: int, ranks: int, paths: list[tuple[int, list[Square]]], new: tuple[Square, ...]
) -> set[Square]:
    """Where the being may stand: next to an earlier path square of either player, or next
    to the summoner's Image when the new path touches no earlier one."""
    earlier = {s for _owner, squares in paths for s in squares}
    near_earlier = {s for s in new if any(touching(s, e) for e in earlier)}
    return near_earlier or {s for s in new if touching(s, images(ranks)[seat])}


# --- building positions ------------------------------------------------------------------


def summoning(seat: int, board: str, paths: list[tuple[int, list[Square]]]) -> WonderlandState:
    """`seat` to act with two level-1 S faces (AH+4H or AC+4S may be summoned)."""
    files, _ranks = SIZES[board]
    return position(
        paths=[(owner, [f + files * r for f, r in squares]) for owner, squares in paths],
        active=seat,
        dice=["AH", "4H"] if seat == 0 else ["AC", "4S"],
        faces=["S", "S"],
        options={"board": board},
    )


def engine_layouts(state: WonderlandState, seat: int) -> set[Layout]:
    card = "AH" if seat == 0 else "AC"
    found: set[Layout] = set()
    for move in state.summon_moves(seat, f"summon {card} "):
        words = move.split()[2:5]
        found.add(frozenset(frozenset(parse(x) for x in w.split("-")) for w in words))
    return found


def random_board(rng: random.Random, board: str) -> list[tuple[int, list[Square]]]:
    """Earlier paths of both seats, each laid legally by the reference."""
    files, ranks = SIZES[board]
    paths: list[tuple[int, list[Square]]] = []
    for _ in range(rng.randint(1, 7)):
        seat = rng.choice((0, 1))
        options = reference_paths(files, ranks, seat, paths)
        if options:
            layout = rng.choice(sorted(options, key=lambda lay: options[lay]))
            paths.append((seat, list(options[layout])))
    return paths


# --- the tests -----------------------------------------------------------------------------


@pytest.mark.parametrize("board", ["standard", "ddm"])
@pytest.mark.parametrize("seat", [0, 1])
def test_an_empty_board_offers_exactly_140_first_paths(board: str, seat: int) -> None:
    files, ranks = SIZES[board]
    expected = reference_paths(files, ranks, seat, [])
    assert len(expected) == 140
    assert engine_layouts(summoning(seat, board, []), seat) == set(expected)


@pytest.mark.parametrize("seed", range(16))
def test_paths_on_random_boards_match_the_reference_for_both_seats(seed: int) -> None:
    rng = random.Random(seed)
    board = ("standard", "ddm")[seed % 2]
    files, ranks = SIZES[board]
    paths = random_board(rng, board)
    for seat in (0, 1):
        expected = reference_paths(files, ranks, seat, paths)
        state = summoning(seat, board, paths)
        assert engine_layouts(state, seat) == set(expected), (board, seat, paths)
        card = "AH" if seat == 0 else "AC"
        for layout in rng.sample(sorted(expected, key=lambda lay: expected[lay]), min(5, len(expected))):
            order = expected[layout]
            place = sorted(reference_places(seat, ranks, paths, order))[0]
            text = f"summon {card} {name(order[0])}-{name(order[1])} {name(order[2])}-{name(order[3])} "
            text += f"{name(order[4])}-{name(order[5])} @{name(place)}"
            after = state.play(seat, text)
            laid = after.view(None)["paths"][-1]["dominoes"]
            assert frozenset(frozenset(parse(x) for x in d) for d in laid) == layout


def test_the_anchor_is_never_the_far_end() -> None:
    """The regression: f1 is an anchor, but written second it is the far end, and f2 touches nothing."""
    state = summoning(0, "standard", [])
    with pytest.raises(IllegalMove, match="first domino"):
        state.play(0, "summon AH f2-f1 e1-d1 c1-c2 @f1")
    assert not any("f2-f1" in m or "f1-f2 e1" in m for m in state.summon_moves(0, "summon AH "))


def written_as_a_path(seat: int, ranks: int, paths: list[tuple[int, list[Square]]], dominoes: list[Domino]) -> bool:
    """Whether three dominoes, in the order written or laid from the other end, each either
    way round, form a chain from an anchor through far ends (the rest of ruling 6 does not
    depend on the order)."""
    own = [s for owner, squares in paths if owner == seat for s in squares]
    for order in (dominoes, dominoes[::-1]):
        for first in order[0]:
            (far,) = order[0] - {first}
            if not (first in front_and_sides(seat, ranks) or any(touching(first, o) for o in own)):
                continue
            chained = True
            for domino in order[1:]:
                near = [s for s in domino if touching(s, far)]
                if len(near) != 1:
                    chained = False
                    break
                (far,) = domino - {near[0]}
            if chained:
                return True
    return False


@pytest.mark.parametrize("seed", range(8))
def test_a_path_written_backwards_or_jumbled_is_accepted_only_where_it_reads_as_that_path(seed: int) -> None:
    rng = random.Random(100 + seed)
    board = ("standard", "ddm")[seed % 2]
    files, ranks = SIZES[board]
    paths = random_board(rng, board)
    seat = rng.choice((0, 1))
    card = "AH" if seat == 0 else "AC"
    state = summoning(seat, board, paths)
    expected = reference_paths(files, ranks, seat, paths)
    accepted = refused = 0
    for layout in rng.sample(sorted(expected, key=lambda lay: expected[lay]), min(20, len(expected))):
        order = expected[layout]
        place = name(sorted(reference_places(seat, ranks, paths, order))[0])
        forward = [(order[0], order[1]), (order[2], order[3]), (order[4], order[5])]
        for written in (forward[::-1], [forward[1], forward[0], forward[2]], [forward[0], forward[2], forward[1]]):
            dominoes = [frozenset(d) for d in written]
            text = f"summon {card} " + " ".join(f"{name(d[1])}-{name(d[0])}" for d in written) + f" @{place}"
            if written_as_a_path(seat, ranks, paths, dominoes):
                laid = state.play(seat, text).view(None)["paths"][-1]["dominoes"]
                assert frozenset(frozenset(parse(x) for x in d) for d in laid) == layout
                accepted += 1
            else:
                with pytest.raises(IllegalMove):
                    state.play(seat, text)
                refused += 1
    assert accepted and refused
