"""The board: squares, Images, and the shape rules of a 3-domino path (rulings 1 and 6).

A square is an int `file + files * rank` (0-based, `a1` = 0).  A `Board` holds the
position-independent geometry of one board size (neighbours, names, the Images' squares)
and is cached, so building a state never recomputes it.

A path is six squares `(s1, ..., s6)`: dominoes `s1-s2`, `s3-s4`, `s5-s6` laid in that
order, each written near end first.  `s1` is the anchor square (ruling 6: the Image's
front or side, or next to one of the seat's earlier paths) and `s2` the first domino's far
end; the second domino's near end touches that far end (`s3` next to `s2`), never only the
anchor, and the third's touches the second's far end (`s5` next to `s4`).
The same three dominoes can sometimes be laid in another order (most often the reverse,
when the far end of the third domino is an anchor too); that is the same layout on the
board, so the smallest valid order by square numbers is its canonical form
(`canonical_path`) and `enumerate_layouts` lists each layout once.  A typed path is read
in the order written or in reverse, each domino either way round (`readings`): a reading
is accepted only when it is itself a valid path, so it names the same layout.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass
from functools import cache, lru_cache

from bot.games.base import IllegalMove
from bot.games.squares import parse_square, square_name
from bot.i18n import tr

Path = tuple[int, int, int, int, int, int]

STANDARD = (13, 20)
DDM = (13, 19)
IMAGE_FILE = 6  # the g file


@dataclass(frozen=True, eq=False)
class Board:
    """Geometry of one board size; get one with `board_of(files, ranks)` (one object per
    size, so identity is equality and hashing is cheap)."""

    files: int
    ranks: int
    names: tuple[str, ...]
    orthogonal: tuple[tuple[int, ...], ...]
    around: tuple[tuple[int, ...], ...]
    """The up-to-8 squares around each square (king moves)."""
    images: tuple[int, int]
    approaches: tuple[frozenset[int], frozenset[int]]
    """Each Image's front and side squares: where a seat's first domino may start."""

    @property
    def size(self) -> int:
        return self.files * self.ranks

    def square(self, text: str) -> int:
        """Parse a square name; raises IllegalMove."""
        file, rank = parse_square(text, self.files, self.ranks)
        return file + self.files * rank

    def coords(self, square: int) -> tuple[int, int]:
        return square % self.files, square // self.files

    def distance(self, a: int, b: int) -> int:
        """King-move (Chebyshev) distance, used by the Rook's detonation."""
        (af, ar), (bf, br) = self.coords(a), self.coords(b)
        return max(abs(af - bf), abs(ar - br))


@cache
def board_of(files: int, ranks: int) -> Board:
    names = tuple(square_name(i % files, i // files) for i in range(files * ranks))
    orthogonal: list[tuple[int, ...]] = []
    around: list[tuple[int, ...]] = []
    for i in range(files * ranks):
        f, r = i % files, i // files
        orthogonal.append(
            tuple(
                (f + df) + files * (r + dr)
                for df, dr in ((0, 1), (1, 0), (0, -1), (-1, 0))
                if 0 <= f + df < files and 0 <= r + dr < ranks
            )
        )
        around.append(
            tuple(
                (f + df) + files * (r + dr)
                for dr in (-1, 0, 1)
                for df in (-1, 0, 1)
                if (df or dr) and 0 <= f + df < files and 0 <= r + dr < ranks
            )
        )
    file = min(IMAGE_FILE, files - 1)
    low, high = file, file + files * (ranks - 1)
    approaches = (
        frozenset(s for s in (low + files, low - 1, low + 1) if 0 <= s < files * ranks and s // files in (0, 1)),
        frozenset(s for s in (high - files, high - 1, high + 1) if 0 <= s < files * ranks and s // files >= ranks - 2),
    )
    return Board(files, ranks, names, tuple(orthogonal), tuple(around), (low, high), approaches)


# --- shape rules -----------------------------------------------------------------------


def end_to_end(board: Board, a: tuple[int, int], b: tuple[int, int]) -> bool:
    """True when dominoes `a` and `b` (each two orthogonally adjacent squares) lie short side
    to short side in a straight line.

    Read from the square numbers alone, without coordinates: the path enumerator asks this
    about every pair of dominoes it tries, millions of times a game.  A domino's two squares
    differ by 1 when it lies along a rank and by `files` when it lies along a file; two
    dominoes are in line when they lie the same way and one's low end follows the other's
    high end by that step (along a rank, on the same rank: 1 more is the next rank's first
    square at the board's edge)."""
    low_a, high_a = (a[0], a[1]) if a[0] < a[1] else (a[1], a[0])
    low_b, high_b = (b[0], b[1]) if b[0] < b[1] else (b[1], b[0])
    step = high_a - low_a
    if high_b - low_b != step:
        return False
    if step == 1 and low_a // board.files != low_b // board.files:
        return False
    return low_b == high_a + step or low_a == high_b + step


def has_block(board: Board, squares: Collection[int]) -> bool:
    """True when the squares contain a solid 2×2 block."""
    files = board.files
    for s in squares:
        if s % files < files - 1 and s + 1 in squares and s + files in squares and s + files + 1 in squares:
            return True
    return False


def shape_error(board: Board, path: Path) -> str | None:
    """Why six squares are not a path's shape (ignoring where it is laid), or None."""
    s1, s2, s3, s4, s5, s6 = path
    if len(set(path)) != 6:
        return tr("A path's six squares must all be different.")
    near = board.orthogonal
    if s2 not in near[s1] or s4 not in near[s3] or s6 not in near[s5]:
        return tr("Each domino covers two side-by-side squares.")
    if s3 not in near[s2]:
        return tr("The second domino must touch the far end of the first.")
    if s5 not in near[s4]:
        return tr("The third domino must touch the far end of the second.")
    dominoes = ((s1, s2), (s3, s4), (s5, s6))
    if (
        end_to_end(board, dominoes[0], dominoes[1])
        or end_to_end(board, dominoes[1], dominoes[2])
        or end_to_end(board, dominoes[0], dominoes[2])
    ):
        return tr("No two of the path's dominoes may lie end to end in a straight line.")
    if has_block(board, path):
        return "A path may not contain a solid 2×2 block of squares."
    return None


def anchors(board: Board, used: Collection[int], own: Collection[int], seat: int) -> frozenset[int]:
    """Free squares a seat's first domino may cover: its Image's front and sides, and
    squares orthogonally next to the seat's earlier path squares."""
    found = {s for s in board.approaches[seat] if s not in used}
    for s in own:
        found.update(n for n in board.orthogonal[s] if n not in used)
    return frozenset(found)


def path_error(board: Board, used: Collection[int], anchor_squares: Collection[int], path: Path) -> str | None:
    """Why `path` may not be laid now, or None (rule 6)."""
    if any(s in used for s in path):
        return "A path may only cover free squares."
    if path[0] not in anchor_squares:
        return tr(
            "The first domino must start (its first square) on your Image's front or side square or "
            "next to one of your earlier paths; the second domino touches its other square, the far "
            "end."
        )
    return shape_error(board, path)


def enumerate_paths(board: Board, used: Collection[int], anchor_squares: Collection[int]) -> Iterator[Path]:
    """Every legal path in laying order (a layout may appear in several orders)."""
    near = board.orthogonal
    firsts: set[tuple[int, int]] = set()
    for a in anchor_squares:
        for b in near[a]:
            if b not in used:
                firsts.add((a, b))  # the anchor is the near end; the chain goes on from b
    for s1, s2 in sorted(firsts):
        d1 = (s1, s2)
        for s3 in near[s2]:
            if s3 in used or s3 == s1:
                continue
            for s4 in near[s3]:
                if s4 in used or s4 in (s1, s2):
                    continue
                d2 = (s3, s4)
                if end_to_end(board, d1, d2):
                    continue
                for s5 in near[s4]:
                    if s5 in used or s5 in (s1, s2, s3):
                        continue
                    for s6 in near[s5]:
                        if s6 in used or s6 in (s1, s2, s3, s4):
                            continue
                        d3 = (s5, s6)
                        if end_to_end(board, d2, d3) or end_to_end(board, d1, d3):
                            continue
                        path = (s1, s2, s3, s4, s5, s6)
                        if not has_block(board, path):
                            yield path


def any_path(board: Board, used: Collection[int], anchor_squares: Collection[int]) -> bool:
    """True when at least one path can be laid (rule 13); stops at the first one."""
    return next(enumerate_paths(board, used, anchor_squares), None) is not None


def layout_key(path: Path) -> frozenset[frozenset[int]]:
    return frozenset((frozenset(path[0:2]), frozenset(path[2:4]), frozenset(path[4:6])))


def orderings(path: Path) -> Iterator[Path]:
    """Every way to write the same three dominoes (order and direction of each)."""
    dominoes = (path[0:2], path[2:4], path[4:6])
    for i, j, k in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)):
        for flips in range(8):
            out: list[int] = []
            for bit, index in enumerate((i, j, k)):
                a, b = dominoes[index]
                out.extend((b, a) if flips >> bit & 1 else (a, b))
            yield (out[0], out[1], out[2], out[3], out[4], out[5])


def readings(path: Path) -> Iterator[Path]:
    """The ways a typed path may be read: its dominoes in the order written or in reverse
    (laid from the other end), each domino's two squares either way round.  Only a reading
    that is a valid path counts, and every valid reading names the same three dominoes."""
    dominoes = (path[0:2], path[2:4], path[4:6])
    for order in (dominoes, dominoes[::-1]):
        for flips in range(8):
            out: list[int] = []
            for bit, (a, b) in enumerate(order):
                out.extend((b, a) if flips >> bit & 1 else (a, b))
            yield (out[0], out[1], out[2], out[3], out[4], out[5])


def canonical_path(board: Board, used: Collection[int], anchor_squares: Collection[int], path: Path) -> Path:
    """The canonical order of a legal path's layout: its smallest legal ordering."""
    return min(p for p in orderings(path) if path_error(board, used, anchor_squares, p) is None)


def enumerate_layouts(board: Board, used: Collection[int], anchor_squares: Collection[int]) -> tuple[Path, ...]:
    """Each legal layout once, in its canonical order, sorted.

    Cached: every state of a turn shares the squares in use, so the (≈10 ms) enumeration
    runs once per position of the board rather than once per state."""
    return _layouts(board, frozenset(used), frozenset(anchor_squares))


@lru_cache(maxsize=64)
def _layouts(board: Board, used: frozenset[int], anchor_squares: frozenset[int]) -> tuple[Path, ...]:
    best: dict[frozenset[frozenset[int]], Path] = {}
    for path in enumerate_paths(board, used, anchor_squares):
        key = layout_key(path)
        known = best.get(key)
        if known is None or path < known:
            best[key] = path
    return tuple(sorted(best.values()))


def format_path(board: Board, path: Path) -> str:
    n = board.names
    return f"{n[path[0]]}-{n[path[1]]} {n[path[2]]}-{n[path[3]]} {n[path[4]]}-{n[path[5]]}"


def parse_path(board: Board, dominoes: list[str]) -> Path:
    """Three `c2-c3` dominoes into six squares; raises IllegalMove."""
    if len(dominoes) != 3:
        raise IllegalMove(tr("A path is three dominoes, each written as two squares like `c2-c3`."))
    squares: list[int] = []
    for text in dominoes:
        ends = text.split("-")
        if len(ends) != 2:
            raise IllegalMove(tr("Write each domino of a path as two squares joined by a dash, like `c2-c3`."))
        squares.extend(board.square(e) for e in ends)
    return (squares[0], squares[1], squares[2], squares[3], squares[4], squares[5])
