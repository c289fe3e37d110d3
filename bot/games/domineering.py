"""Domineering (the domino-draw game): draw a tile, move both pieces by its numbers, wall in.

Rulings and notation: `shared/rules/domineering.md`.  A chance move is `draw 2-5`; a move
is `d4-b4 e5-e8` (first piece's from-to, then the second's; the tile is laid on the first
from-square before the second piece moves); a stuck player with `unplayable=keep` plays
`keep`.

Representation: squares are the integers `file + 8 * rank` of an 8×8 torus.  Every
occupied square (pieces of both colours and laid tiles) is one bit of an int, and the
squares a step passes through are precomputed per (square, direction, distance) as a bit
mask, so "is this step legal" is a single `&`.  Laying the tile on the first from-square
needs no update at all: that square simply stays occupied, which is exactly rule 7.
Pieces keep their order within a seat (the order of the setup), so a dump is stable.

Nothing is hidden: the pool is public as a set (views list it sorted), and because a draw
is a chance move chosen by whoever runs the match, the pool has no order to leak.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Self

from bot.games.base import (
    CHANCE,
    GameInfo,
    GameState,
    IllegalMove,
    LogEntry,
    Option,
    OptionValue,
    Outcome,
    Rules,
    normalise,
    opponent,
    shown,
)
from bot.games.dominoes import Tile, double_six, parse_tile
from bot.games.squares import parse_square, square_name
from bot.i18n import tr, tr_n

SIZE = 8
MAX_STEP = 6
SEAT_NAMES = (tr("Black"), tr("White"))
NAMES = tuple(square_name(i % SIZE, i // SIZE) for i in range(SIZE * SIZE))
DIRECTIONS = ((0, 1), (0, -1), (1, 0), (-1, 0))  # up, down, right, left (as seat 0 sees the board)
KEEP = "keep"

SETUPS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "2": (("d4", "e5"), ("h1", "a8")),
    "centre": (("d4", "e4", "d5", "e5"), ("a1", "h1", "a8", "h8")),
    "diagonal": (("c3", "d4", "e5", "f6"), ("b7", "a8", "h1", "g2")),
}


def _ray(square: int, direction: tuple[int, int]) -> tuple[int, ...]:
    """The squares 1..6 steps from `square` in `direction`, wrapping at every edge."""
    f, r = square % SIZE, square // SIZE
    df, dr = direction
    return tuple(((f + df * k) % SIZE) + SIZE * ((r + dr * k) % SIZE) for k in range(1, MAX_STEP + 1))


RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_ray(sq, d) for d in DIRECTIONS) for sq in range(SIZE * SIZE)
)
STEPS: tuple[tuple[tuple[tuple[int, int], ...], ...], ...] = tuple(
    tuple(tuple((ray[k - 1], sum(1 << s for s in ray[:k])) for k in range(1, MAX_STEP + 1)) for ray in RAYS[sq])
    for sq in range(SIZE * SIZE)
)
"""STEPS[square][direction][distance - 1] = (destination, mask of every square passed and landed on)."""

Step = tuple[int, int]  # (direction index, distance)
Plan = tuple[int, int, int, int, Step, Step]  # first from, first to, second from, second to, their steps

_MOVE = re.compile(r"^([a-z]\d{1,2})\s*[-x]?\s*([a-z]\d{1,2})\s*[,;/]?\s*([a-z]\d{1,2})\s*[-x]?\s*([a-z]\d{1,2})$")
_DRAW = re.compile(r"^draw\s+(.+)$")

HOW_TO_PLAY = tr(
    """\
**Domineering** — hem your opponent in on a board with no edges.
• The 8×8 board wraps around: leave one edge and you come back in on the opposite one.
• Black (first) starts on d4 and e5, White on h1 and a8. The 28 dominoes of a double-six
  set lie face down; everyone can see which are still in the pool.
• **Your turn:** a domino is drawn for you. Move **both** pieces: one by one number, the
  other by the other number, in either order. A blank is any distance 1–6.
• Pieces move in a straight line along a rank or file, exactly that far, never onto or
  through a piece or a domino.
• The domino is laid as a wall on the square your **first** piece left, *before* the
  second piece moves — so you can never step aside to let your other piece through.
• Write the move as `d4-b4 e5-e8`: first piece from-to, then the second.
• Cannot move both pieces after the draw? You lose. Pool empty when a turn begins: draw.
Options: `pieces=4` (`setup=centre` or `diagonal`; move any two of your four pieces),
`unplayable=keep` (a stuck player plays `keep`, keeps the tile face up and play goes on;
when the pool is empty, fewer kept tiles wins, a tie goes to White)."""
)


def _distances(number: int) -> range:
    """The distances a tile number allows: a blank is any distance from 1 to 6 (rule 5)."""
    return range(1, MAX_STEP + 1) if number == 0 else range(number, number + 1)


def _assignments(tile: Tile) -> list[tuple[range, range]]:
    """(first piece's distances, second piece's distances), each assignment once."""
    a, b = _distances(tile.low), _distances(tile.high)
    return [(a, b)] if a == b else [(a, b), (b, a)]


def _reachable(square: int, distances: range, occupied: int) -> Iterable[tuple[int, Step]]:
    """Every (destination, step) of a piece on `square` moving one of `distances` (rule 6)."""
    for direction, steps in enumerate(STEPS[square]):
        for distance in distances:
            dest, mask = steps[distance - 1]
            if occupied & mask:
                break  # a longer step in this direction passes the same obstacle
            yield dest, (direction, distance)


def _join(names: list[str]) -> str:
    """`a2, c3 and e5`: squares listed (the last joined in the reader's language)."""
    return names[0] if len(names) == 1 else tr("{items} and {last}", items=", ".join(names[:-1]), last=names[-1])


class DomineeringState(GameState):
    """A Domineering position.  `drawn` is the tile the player to move must play (None:
    a draw is due, or the game is over)."""

    __slots__ = (
        "_moves",
        "_outcome",
        "drawn",
        "forced",
        "kept",
        "laid",
        "last_move",
        "last_paths",
        "options",
        "pieces",
        "ply",
        "pool",
        "to_move",
    )

    def __init__(
        self,
        *,
        pieces: tuple[tuple[int, ...], tuple[int, ...]],
        laid: tuple[tuple[int, Tile, int], ...],
        pool: frozenset[Tile],
        drawn: Tile | None,
        kept: tuple[tuple[Tile, ...], tuple[Tile, ...]],
        to_move: int,
        ply: int,
        last_move: str | None,
        last_paths: tuple[tuple[int, ...], ...],
        outcome: Outcome | None,
        options: dict[str, OptionValue],
    ) -> None:
        self.pieces = pieces
        self.laid = laid
        self.pool = pool
        self.drawn = drawn
        self.kept = kept
        self.to_move = to_move
        self.ply = ply
        self.last_move = last_move
        self.last_paths = last_paths
        self._outcome = outcome
        self.options = options
        self._moves: dict[str, Plan] | None = None
        self.forced = ()

    # --- contract ------------------------------------------------------------------

    @property
    def turn(self) -> frozenset[int]:
        if self._outcome is not None:
            return frozenset()
        return frozenset((CHANCE,)) if self.drawn is None else frozenset((self.to_move,))

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def keeps_unplayable(self) -> bool:
        return self.options["unplayable"] == "keep"

    def legal_moves(self, seat: int) -> list[str]:
        if seat not in self.turn:
            return []
        if seat == CHANCE:
            return [f"draw {t}" for t in sorted(self.pool)]
        moves = list(self.plans())
        return moves or [KEEP]  # no moves and no outcome: only with unplayable=keep

    def view(self, seat: int | None) -> dict[str, Any]:
        public = {
            **self.public_base(),
            "options": dict(self.options),
            "to_move": self.to_move,
            "pieces": [[NAMES[s] for s in own] for own in self.pieces],
            "laid": [{"square": NAMES[s], "tile": str(t), "seat": by} for s, t, by in self.laid],
            "drawn": str(self.drawn) if self.drawn is not None else None,
            "pool": [str(t) for t in sorted(self.pool)],
            "kept": [[str(t) for t in own] for own in self.kept],
            "last_move": self.last_move,
            "last_paths": [[NAMES[s] for s in path] for path in self.last_paths],
            "ply": self.ply,  # player moves played, `keep` included, draws not counted
        }
        return self.seat_view(public, seat, {})

    def dump(self) -> dict[str, Any]:
        return {
            "game": "domineering",
            "options": dict(self.options),
            "pieces": [[NAMES[s] for s in own] for own in self.pieces],
            "laid": [[NAMES[s], str(t), by] for s, t, by in self.laid],
            "pool": [str(t) for t in sorted(self.pool)],
            "drawn": str(self.drawn) if self.drawn is not None else None,
            "kept": [[str(t) for t in own] for own in self.kept],
            "to_move": self.to_move,
            "ply": self.ply,
            "last_move": self.last_move,
            "last_paths": [[NAMES[s] for s in path] for path in self.last_paths],
            "outcome": self._outcome.to_json() if self._outcome else None,
        }

    # --- move generation -----------------------------------------------------------

    def occupied(self) -> int:
        """Bits of every square a piece may not enter or pass: both colours' pieces, laid tiles."""
        mask = 0
        for own in self.pieces:
            for s in own:
                mask |= 1 << s
        for s, _tile, _by in self.laid:
            mask |= 1 << s
        return mask

    def plans(self) -> dict[str, Plan]:
        """Every legal move of the player to move with the drawn tile, canonical text -> how.

        Each (first from-to, second from-to) pair is one move; when several distance and
        direction choices give the same pair, the first found is the path recorded.
        """
        if self._moves is not None:
            return self._moves
        moves: dict[str, Plan] = {}
        if self.drawn is not None and self._outcome is None:
            occupied = self.occupied()
            own = self.pieces[self.to_move]
            for first in own:
                for second in own:
                    if first == second:
                        continue
                    for d1, d2 in _assignments(self.drawn):
                        for to1, step1 in _reachable(first, d1, occupied):
                            # rule 7: the tile now lies on `first`, which stays occupied; `to1` fills up
                            after = occupied | (1 << to1)
                            head = f"{NAMES[first]}-{NAMES[to1]} {NAMES[second]}-"
                            for to2, step2 in _reachable(second, d2, after):
                                key = head + NAMES[to2]
                                if key not in moves:
                                    moves[key] = (first, to1, second, to2, step1, step2)
        self._moves = moves
        return moves

    # --- applying moves ------------------------------------------------------------

    def _apply(self, seat: int, move: str) -> Self:
        text = normalise(move)
        if seat == CHANCE:
            return self._draw(text, move)
        if text == KEEP:
            return self._keep()
        found = _MOVE.match(text)
        if found is None:
            raise IllegalMove(
                tr(
                    "{move} is not a Domineering move: write both steps, first piece first, like `d4-b4 e5-e8`.",
                    move=shown(move),
                )
            )
        squares = [self._square(found.group(i)) for i in range(1, 5)]
        key = f"{NAMES[squares[0]]}-{NAMES[squares[1]]} {NAMES[squares[2]]}-{NAMES[squares[3]]}"
        plan = self.plans().get(key)
        if plan is None:
            raise IllegalMove(self._why_illegal(*squares))
        return self._move(key, plan)

    @staticmethod
    def _square(text: str) -> int:
        f, r = parse_square(text, SIZE, SIZE)
        return f + SIZE * r

    def _draw(self, text: str, move: str) -> Self:
        found = _DRAW.match(text)
        if found is None:
            raise IllegalMove(tr("{move} is not a draw; chance moves are written like `draw 2-5`.", move=shown(move)))
        tile = parse_tile(found.group(1))
        if tile not in self.pool:
            raise IllegalMove(tr("{tile} is no longer in the pool.", tile=tile))
        state = self._copy(pool=self.pool - {tile}, drawn=tile)
        if not state.plans() and not self.keeps_unplayable:
            name = SEAT_NAMES[self.to_move]
            state._outcome = Outcome(
                frozenset((opponent(self.to_move),)),
                tr(
                    "{name} cannot move both pieces after drawing {tile}: {stuck_reason}.",
                    name=name,
                    tile=tile,
                    stuck_reason=state._stuck_reason(),
                ),
            )
        return state

    def _keep(self) -> Self:
        if self.plans() or not self.keeps_unplayable:
            raise IllegalMove(tr("You can only keep the tile when you cannot move both pieces with it."))
        assert self.drawn is not None
        kept = list(self.kept)
        kept[self.to_move] = (*kept[self.to_move], self.drawn)
        return self._copy(
            drawn=None, kept=(kept[0], kept[1]), last_move=KEEP, last_paths=(), ply=self.ply + 1
        )._next_turn()

    def _move(self, key: str, plan: Plan) -> Self:
        first, to1, second, to2, step1, step2 = plan
        assert self.drawn is not None
        own = tuple(to1 if s == first else to2 if s == second else s for s in self.pieces[self.to_move])
        pieces = list(self.pieces)
        pieces[self.to_move] = own
        paths = (
            (first, *RAYS[first][step1[0]][: step1[1]]),
            (second, *RAYS[second][step2[0]][: step2[1]]),
        )
        return self._copy(
            pieces=(pieces[0], pieces[1]),
            laid=(*self.laid, (first, self.drawn, self.to_move)),
            drawn=None,
            last_move=key,
            last_paths=paths,
            ply=self.ply + 1,
        )._next_turn()

    def _next_turn(self) -> Self:
        """Pass the turn; rule 9 (and the keep option's count) when the pool is empty."""
        self.to_move = opponent(self.to_move)
        if not self.pool:
            self._outcome = self._empty_pool_outcome()
        return self

    def _empty_pool_outcome(self) -> Outcome:
        if not self.keeps_unplayable:
            return Outcome(frozenset(), tr("The pool is empty: the game is a draw."))
        black, white = len(self.kept[0]), len(self.kept[1])
        winner = 0 if black < white else 1
        if black == white:
            reason = tr(
                "The pool is empty: Black kept {black} unplayable tiles, White {white} (a tie goes to White, "
                "the second player).",
                black=black,
                white=white,
            )
        else:
            reason = tr(
                "The pool is empty: Black kept {black} unplayable tiles, White {white}.", black=black, white=white
            )
        return Outcome(frozenset((winner,)), reason, scores=(black, white))

    def _copy(self, **changes: Any) -> Self:
        fields: dict[str, Any] = {
            "pieces": self.pieces,
            "laid": self.laid,
            "pool": self.pool,
            "drawn": self.drawn,
            "kept": self.kept,
            "to_move": self.to_move,
            "ply": self.ply,
            "last_move": self.last_move,
            "last_paths": self.last_paths,
            "outcome": self._outcome,
            "options": self.options,
        }
        fields.update(changes)
        return type(self)(**fields)

    def _sample_chance(self, rng: random.Random) -> str:
        return f"draw {rng.choice(sorted(self.pool))}"

    def describe(self, before: GameState, entry: LogEntry) -> str | None:
        """The drawn tile in words (rule: chance in the message text, not only the picture)."""
        if entry.seat != CHANCE:
            return None
        tile = entry.move.split()[-1]
        return tr("Drawn tile: {tile} (for {seat})", tile=tile, seat=SEAT_NAMES[self.to_move])

    # --- explanations --------------------------------------------------------------

    def _can_move(self, square: int, number: int, occupied: int) -> bool:
        return next(iter(_reachable(square, _distances(number), occupied)), None) is not None

    def _stuck_reason(self) -> str:
        """Why the player to move cannot move two pieces with the drawn tile, naming pieces."""
        assert self.drawn is not None
        occupied = self.occupied()
        own = self.pieces[self.to_move]
        numbers = sorted({self.drawn.low, self.drawn.high})
        able = {s: {n for n in numbers if self._can_move(s, n, occupied)} for s in own}
        blocked = [NAMES[s] for s in own if not able[s]]
        if len(own) - len(blocked) < 2:
            return tr_n("{squares} is blocked", "{squares} are blocked", len(blocked), squares=_join(blocked))
        for n in numbers:
            if not any(n in able[s] for s in own):
                names = [NAMES[s] for s in own]
                if len(names) == 2:
                    return tr("neither {first} nor {second} can move {n}", first=names[0], second=names[1], n=n)
                return tr("none of {squares} can move {n}", squares=_join(names), n=n)
        return tr(
            "{squares} are in each other's way: whichever moves first, the tile laid on its square or the piece "
            "itself blocks the other",
            squares=_join([NAMES[s] for s in own]),
        )

    def _why_illegal(self, from1: int, to1: int, from2: int, to2: int) -> str:
        """A player-readable reason why a well-formed move is not legal now."""
        assert self.drawn is not None
        own = self.pieces[self.to_move]
        for s in (from1, from2):
            if s not in own:
                mine = _join([NAMES[p] for p in own])
                return tr("There is no piece of yours on {square}; yours are on {mine}.", square=NAMES[s], mine=mine)
        if from1 == from2:
            return tr("Move two different pieces, one step each.")
        occupied = self.occupied()
        first = self._step_problem(from1, to1, {self.drawn.low, self.drawn.high}, occupied)
        if first:
            return first
        second = self._step_problem(from2, to2, {self.drawn.low, self.drawn.high}, occupied | (1 << to1))
        if second:
            return tr(
                "{second} (the tile is laid on {square} as soon as the first piece leaves it)",
                second=second,
                square=NAMES[from1],
            )
        return tr(
            "With {drawn}, one piece moves {low} and the other {high} (a blank is any distance 1–6); "
            "{square}-{square2} {square3}-{square4} does not fit.",
            drawn=self.drawn,
            low=self.drawn.low,
            high=self.drawn.high,
            square=NAMES[from1],
            square2=NAMES[to1],
            square3=NAMES[from2],
            square4=NAMES[to2],
        )

    def _step_problem(self, start: int, dest: int, numbers: set[int], occupied: int) -> str | None:
        """Why no number of the tile takes `start` to `dest` now, or None if one does."""
        wanted = {d for n in numbers for d in _distances(n)}
        fitting = [
            (direction, k)
            for direction, ray in enumerate(RAYS[start])
            for k, square in enumerate(ray, 1)
            if square == dest and k in wanted
        ]
        if not fitting:
            if start == dest:
                return tr("{square} must move; a piece cannot stay where it is.", square=NAMES[start])
            if start % SIZE != dest % SIZE and start // SIZE != dest // SIZE:
                return tr(
                    "{square} to {square2} is not a straight line along a rank or file.",
                    square=NAMES[start],
                    square2=NAMES[dest],
                )
            nums = " or ".join(str(n) for n in sorted(numbers))
            return tr(
                "{square} to {square2} is not {nums} squares in either direction with {drawn}.",
                square=NAMES[start],
                square2=NAMES[dest],
                nums=nums,
                drawn=self.drawn,
            )
        if all(occupied & STEPS[start][direction][k - 1][1] for direction, k in fitting):
            return tr(
                "The way from {square} to {square2} is blocked by a piece or a domino.",
                square=NAMES[start],
                square2=NAMES[dest],
            )
        return None


class DomineeringRules(Rules):
    info = GameInfo(
        key="domineering",
        name="Domineering",
        seat_names=SEAT_NAMES,
        blurb=tr("Draw a domino, move both pieces by its numbers, and wall your opponent in on a wrap-around board."),
        how_to_play=HOW_TO_PLAY,
        options=(
            Option("pieces", "2", tr("2: two pieces each; 4: four each, a turn moves any two of them"), ("2", "4")),
            Option(
                "setup",
                "centre",
                tr("with pieces=4 only: centre (Black the centre, White the corners) or diagonal"),
                ("centre", "diagonal"),
            ),
            Option(
                "unplayable",
                "lose",
                tr("lose: a player who cannot move both pieces loses; keep: they keep the tile and play goes on"),
                ("lose", "keep"),
            ),
        ),
        move_pattern=re.compile(
            r"^\s*(keep|draw\s+\d\s*-\s*\d|[a-h]\d\s*[-x]?\s*[a-h]\d\s*[,;/ ]\s*[a-h]\d\s*[-x]?\s*[a-h]\d)\s*$", re.I
        ),
    )

    def _start(self, options: dict[str, OptionValue]) -> DomineeringState:
        black, white = SETUPS["2" if options["pieces"] == "2" else str(options["setup"])]
        return DomineeringState(
            pieces=(tuple(self._squares(black)), tuple(self._squares(white))),
            laid=(),
            pool=frozenset(double_six()),
            drawn=None,
            kept=((), ()),
            to_move=0,
            ply=0,
            last_move=None,
            last_paths=(),
            outcome=None,
            options=options,
        )

    @staticmethod
    def _squares(names: Iterable[str]) -> list[int]:
        return [DomineeringState._square(n) for n in names]

    def load(self, data: Mapping[str, Any], later: Sequence[str] = ()) -> DomineeringState:
        outcome = data.get("outcome")
        drawn = data.get("drawn")
        pieces = [tuple(self._squares(own)) for own in data["pieces"]]
        kept = [tuple(parse_tile(t) for t in own) for own in data.get("kept", [[], []])]
        return DomineeringState(
            pieces=(pieces[0], pieces[1]),
            laid=tuple((DomineeringState._square(s), parse_tile(t), int(by)) for s, t, by in data["laid"]),
            pool=frozenset(parse_tile(t) for t in data["pool"]),
            drawn=parse_tile(drawn) if drawn else None,
            kept=(kept[0], kept[1]),
            to_move=int(data["to_move"]),
            ply=int(data.get("ply", 0)),
            last_move=data.get("last_move"),
            last_paths=tuple(tuple(self._squares(path)) for path in data.get("last_paths", [])),
            outcome=Outcome.from_json(outcome) if outcome else None,
            options=self.resolve_options(data.get("options", {})),
        )


DomineeringState.rules = DomineeringRules()
