"""Focus (Sid Sackson, also sold as Domination): stacks that move as far as they are tall.

Rulings and notation: `shared/rules/focus.md`.  A move is `c3-c5` (the top pieces of the
c3 stack, as many as the distance, jump to c5); a drop or a setup placement is `*d4`.

The board is a tuple of 64 strings indexed `file + 8 * rank`; a string lists the owners
of a stack's pieces bottom to top (`"0010"`: top piece seat 0's).  Cut corner squares are
never written to.  Strings make copying a position cheap and give a ready repetition key.

The repetition table (ruling 9) must not grow with the game, because there is no move
limit by default and the snapshot is stored after every move.  A capture is the one
irreversible change (captured pieces are out for good, so the pieces in play never come
back to an earlier count): no position before the last capture can recur.  So the state
keeps the position right after the last capture (`anchor`) and the moves played since
(`trail`, two characters a ply), and the counts in `seen` are derived from them.

The snapshot holds the anchor and how many of the match's log moves led up to it
(`anchor_moves`), never the trail: the move log already keeps every move since, and a
trail grows without bound (a 2,000-ply stretch without a capture was 4 KB, 16 KB was
seen).  `FocusRules.log_needed` tells the loader to fetch the log's moves after the anchor;
`load` encodes them back into the trail and checks that they lead to the dumped position.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Self

from bot.games.base import (
    GameInfo,
    GameState,
    IllegalMove,
    Option,
    OptionValue,
    Outcome,
    Rules,
    SnapshotMismatch,
    opponent,
    shown,
)
from bot.games.squares import parse_square, square_name
from bot.i18n import tr

SIZE = 8
MAX_HEIGHT = 5
PIECES = 18
CUT = frozenset(
    f + SIZE * r
    for f, r in [(0, 0), (1, 0), (0, 1), (6, 0), (7, 0), (7, 1), (0, 6), (0, 7), (1, 7), (6, 7), (7, 7), (7, 6)]
)
SQUARES = tuple(i for i in range(SIZE * SIZE) if i not in CUT)
DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1))
NAMES = tuple(square_name(i % SIZE, i // SIZE) for i in range(SIZE * SIZE))


def _rays(origin: int) -> tuple[tuple[str, ...], ...]:
    """The moves from `origin` of exactly k squares, for k = 1 .. SIZE - 1 (index k - 1),
    each in `DIRECTIONS` order: listing a stack's moves is then joining its first h tuples,
    not formatting the same few hundred strings again at every position."""
    f, r = origin % SIZE, origin // SIZE
    rays = []
    for k in range(1, SIZE):
        ray = []
        for df, dr in DIRECTIONS:
            tf, tr = f + df * k, r + dr * k
            if 0 <= tf < SIZE and 0 <= tr < SIZE and (t := tf + SIZE * tr) not in CUT:
                ray.append(f"{NAMES[origin]}-{NAMES[t]}")
        rays.append(tuple(ray))
    return tuple(rays)


RAYS = {i: _rays(i) for i in SQUARES}
"""`RAYS[square][k - 1]`: the stack moves from `square` over exactly k squares."""

_CODES = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
"""One character per square (52 of each) for the moves in the repetition trail."""
CODE = dict(zip(SQUARES, _CODES, strict=True))
SQUARE_OF = {c: i for i, c in CODE.items()}
SQUARE_NAMED = {NAMES[i]: i for i in SQUARES}

_MOVE = re.compile(r"^([a-z]\d+)\s*[-x ]?\s*([a-z]\d+)$")
_DROP = re.compile(r"^(?:\*|drop\s+)\s*([a-z]\d+)$")

HOW_TO_PLAY = tr(
    """\
**Focus** — control every stack.
• A stack belongs to whoever's piece is on top. On your turn, move or drop.
• **Move** the top *k* pieces of one of your stacks exactly *k* squares in a straight line
  (not diagonally), jumping over anything between: `c3-c5` moves the top 2 pieces of c3.
  The pieces left behind belong to whoever is now on top of them.
• Landing on a stack puts your pieces on top. A stack taller than 5 loses pieces from the
  bottom: yours go to your **reserve**, the opponent's are **captured**.
• **Drop** one reserve piece on any square (`*d4`), even on an enemy stack to take it.
• You lose when, on your turn, you control no stack and have no reserve.
• Draw: the same position for the third time. There is no move limit (as in the source).
Options: `setup=drop` (players place their pieces first), `drops=restricted` (drops only on
empty squares or your own stacks), `ply_limit=N` (draw after N plies, single moves of
either player)."""
)


def _start_board() -> tuple[str, ...]:
    board = [""] * (SIZE * SIZE)
    pattern = {True: "001100", False: "110011"}  # ranks 7, 5, 3 / ranks 6, 4, 2
    for rank in range(1, 7):
        row = pattern[rank % 2 == 0]  # rank index 2 is "rank 3"
        for i, owner in enumerate(row):
            board[(i + 1) + SIZE * rank] = owner
    return tuple(board)


class FocusState(GameState):
    """A Focus position.  `setup_left` counts placements still due in `setup=drop`."""

    __slots__ = (
        "_outcome",
        "anchor",
        "anchor_moves",
        "base",
        "board",
        "captured",
        "forced",
        "last_move",
        "options",
        "ply",
        "reserves",
        "seen",
        "setup_left",
        "to_move",
        "trail",
    )

    def __init__(
        self,
        *,
        board: tuple[str, ...],
        reserves: tuple[int, int],
        captured: tuple[int, int],
        to_move: int,
        setup_left: tuple[int, int],
        ply: int,
        last_move: str | None,
        outcome: Outcome | None,
        options: dict[str, OptionValue],
        anchor: str | None = None,
        anchor_moves: int = 0,
        trail: str = "",
        base: dict[str, int] | None = None,
        seen: dict[str, int] | None = None,
    ) -> None:
        self.board = board
        self.reserves = reserves
        self.captured = captured
        self.to_move = to_move
        self.setup_left = setup_left
        self.ply = ply
        self.anchor = anchor
        """The position key right after the last capture (or the first real position)."""
        self.anchor_moves = anchor_moves
        """How many moves of the match's log (setup placements included) led to `anchor`."""
        self.trail = trail
        """The moves since `anchor`, coded two characters a ply."""
        self.base = base or {}
        """Counts carried over from a snapshot written before the trail existed."""
        self.seen = seen if seen is not None else _counts(anchor, trail, self.base)
        """How often each position since `anchor` occurred (derived, never dumped)."""
        self.last_move = last_move
        self._outcome = outcome
        self.options = options
        self.forced = ()

    # --- contract ------------------------------------------------------------------

    @property
    def turn(self) -> frozenset[int]:
        return frozenset() if self._outcome is not None else frozenset((self.to_move,))

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def in_setup(self) -> bool:
        return any(self.setup_left)

    def legal_moves(self, seat: int) -> list[str]:
        if seat not in self.turn:
            return []
        if self.in_setup:
            return [f"*{NAMES[i]}" for i in SQUARES if self._may_place_in_setup(seat, i)]
        moves: list[str] = []
        mine = str(seat)
        for i in SQUARES:
            stack = self.board[i]
            if not stack or stack[-1] != mine:
                continue
            for ray in RAYS[i][: len(stack)]:
                moves.extend(ray)
        if self.reserves[seat]:
            moves.extend(f"*{NAMES[i]}" for i in SQUARES if self._may_drop(seat, i))
        return moves

    def forced_move(self, seat: int) -> str | None:
        """The only legal move, else None, known at the second move `legal_moves` would list:
        the engine asks after every move, and a seat nearly always has dozens."""
        if seat not in self.turn or self.in_setup:
            return super().forced_move(seat)
        only: str | None = None
        mine = str(seat)
        for i in SQUARES:
            stack = self.board[i]
            if stack and stack[-1] == mine:
                for ray in RAYS[i][: len(stack)]:
                    if ray:
                        if only is not None or len(ray) > 1:
                            return None
                        only = ray[0]
        if self.reserves[seat]:
            for i in SQUARES:
                if self._may_drop(seat, i):
                    if only is not None:
                        return None
                    only = f"*{NAMES[i]}"
        return only

    def view(self, seat: int | None) -> dict[str, Any]:
        public = {
            **self.public_base(),
            "stacks": {NAMES[i]: [int(c) for c in self.board[i]] for i in SQUARES if self.board[i]},
            "cut": sorted(NAMES[i] for i in CUT),
            "reserves": list(self.reserves),
            "captured": list(self.captured),
            "to_move": self.to_move,
            "setup_left": list(self.setup_left),
            "ply": self.ply,
            "last_move": self.last_move,
            "repetitions": self.seen.get(self._position_key(), 0),
        }
        return self.seat_view(public, seat, {})

    def dump(self) -> dict[str, Any]:
        return {
            "game": "focus",
            "board": {NAMES[i]: self.board[i] for i in SQUARES if self.board[i]},
            "reserves": list(self.reserves),
            "captured": list(self.captured),
            "to_move": self.to_move,
            "setup_left": list(self.setup_left),
            "ply": self.ply,
            "anchor": self.anchor,
            "anchor_moves": self.anchor_moves,
            **({"seen": dict(self.base)} if self.base else {}),
            "last_move": self.last_move,
            "outcome": self._outcome.to_json() if self._outcome else None,
            "options": dict(self.options),
        }

    # --- rules ---------------------------------------------------------------------

    def _may_place_in_setup(self, seat: int, i: int) -> bool:
        stack = self.board[i]
        return not stack or (stack[-1] == str(seat) and len(stack) < MAX_HEIGHT)

    def _may_drop(self, seat: int, i: int) -> bool:
        if self.options["drops"] == "anywhere":
            return True
        stack = self.board[i]
        return not stack or stack[-1] == str(seat)

    def _apply(self, seat: int, move: str) -> Self:
        text = " ".join(move.lower().split())
        if drop := _DROP.match(text):
            return self._drop(seat, self._square(drop.group(1)))
        if step := _MOVE.match(text):
            return self._move(seat, self._square(step.group(1)), self._square(step.group(2)))
        raise IllegalMove(
            tr("{move} is not a Focus move: write a move like `c3-c5` or a drop like `*d4`.", move=shown(move))
        )

    @staticmethod
    def _square(text: str) -> int:
        f, r = parse_square(text, SIZE, SIZE)
        i = f + SIZE * r
        if i in CUT:
            raise IllegalMove(tr("{square} is a cut corner, not a square of the board.", square=NAMES[i]))
        return i

    def _drop(self, seat: int, i: int) -> Self:
        if self.in_setup:
            if not self._may_place_in_setup(seat, i):
                stack = self.board[i]
                if stack[-1] != str(seat):
                    raise IllegalMove(
                        tr(
                            "During setup, place only on an empty square or your own stack; {square} is not yours.",
                            square=NAMES[i],
                        )
                    )
                raise IllegalMove(
                    tr("The stack on {square} is already {max_height} tall.", square=NAMES[i], max_height=MAX_HEIGHT)
                )
            left = list(self.setup_left)
            left[seat] -= 1
            board = list(self.board)
            board[i] += str(seat)
            nxt = opponent(seat) if left[opponent(seat)] else seat
            if not any(left):
                nxt = 0  # rule 3: seat 0 makes the first real move
            notation = f"*{NAMES[i]}"
            return self._next(
                tuple(board), self.reserves, self.captured, nxt, (left[0], left[1]), notation, "", setup=True
            )
        if not self.reserves[seat]:
            raise IllegalMove(tr("You have no pieces in reserve to drop."))
        if not self._may_drop(seat, i):
            raise IllegalMove(
                tr(
                    "With restricted drops, drop only on an empty square or your own stack; {square} is not yours.",
                    square=NAMES[i],
                )
            )
        board = list(self.board)
        reserves = list(self.reserves)
        captured = list(self.captured)
        _drop_piece(board, reserves, captured, seat, i)
        return self._after_action(seat, board, reserves, captured, f"*{NAMES[i]}", f"*{CODE[i]}")

    def _move(self, seat: int, src: int, dst: int) -> Self:
        if self.in_setup:
            raise IllegalMove(tr("The pieces are still being placed: place one with a drop like `*d4`."))
        stack = self.board[src]
        if not stack:
            raise IllegalMove(tr("There is no stack on {square}.", square=NAMES[src]))
        if stack[-1] != str(seat):
            raise IllegalMove(
                tr("The stack on {square} is not yours: its top piece belongs to your opponent.", square=NAMES[src])
            )
        if src == dst:
            raise IllegalMove(tr("A stack must move at least one square."))
        sf, sr, df, dr = src % SIZE, src // SIZE, dst % SIZE, dst // SIZE
        if (sf != df) == (sr != dr):
            raise IllegalMove(tr("Stacks move in a straight line along a rank or a file, never diagonally."))
        k = abs(df - sf) + abs(dr - sr)
        if k > len(stack):
            raise IllegalMove(
                tr(
                    "Moving {k} squares takes the top {k} pieces, but the stack on {square} is only {count} tall.",
                    k=k,
                    square=NAMES[src],
                    count=len(stack),
                )
            )
        board = list(self.board)
        reserves = list(self.reserves)
        captured = list(self.captured)
        _move_stack(board, reserves, captured, seat, src, dst)
        return self._after_action(
            seat, board, reserves, captured, f"{NAMES[src]}-{NAMES[dst]}", f"{CODE[src]}{CODE[dst]}"
        )

    def _after_action(
        self, seat: int, board: list[str], reserves: list[int], captured: list[int], notation: str, code: str
    ) -> Self:
        return self._next(
            tuple(board),
            (reserves[0], reserves[1]),
            (captured[0], captured[1]),
            opponent(seat),
            self.setup_left,
            notation,
            code,
        )

    def _next(
        self,
        board: tuple[str, ...],
        reserves: tuple[int, int],
        captured: tuple[int, int],
        to_move: int,
        setup_left: tuple[int, int],
        notation: str,
        code: str,
        *,
        setup: bool = False,
    ) -> Self:
        state = type(self)(
            board=board,
            reserves=reserves,
            captured=captured,
            to_move=to_move,
            setup_left=setup_left,
            ply=self.ply if setup else self.ply + 1,
            anchor=self.anchor,
            anchor_moves=self.anchor_moves,
            trail=self.trail,
            base=self.base,
            seen=self.seen,
            last_move=notation,
            outcome=None,
            options=self.options,
        )
        if not state.in_setup:
            key = state._position_key()
            if self.anchor is None or captured != self.captured:
                # The first real position, or a capture: nothing earlier can recur.
                state.anchor, state.trail, state.base, state.seen = key, "", {}, {key: 1}
                state.anchor_moves = state.moves_played
            else:
                state.trail = self.trail + code
                state.seen = dict(self.seen)
                state.seen[key] = state.seen.get(key, 0) + 1
            state._outcome = state._judge(state.seen[key])
        return state

    def _position_key(self) -> str:
        return _key(self.board, self.reserves, self.to_move)

    @property
    def moves_played(self) -> int:
        """How many moves the match's log holds for this game so far: every real move (`ply`)
        plus the setup placements made (Focus has no chance moves; a forced move is logged as
        any other)."""
        return _moves_played(self.ply, self.setup_left, self.options)

    def __eq__(self, other: object) -> bool:
        """Equal dumps AND equal repetition history: the dump leaves the trail to the log, but
        two positions with different pasts can end differently (ruling 9)."""
        return (
            super().__eq__(other)
            and isinstance(other, FocusState)
            and (self.trail, self.base) == (other.trail, other.base)
        )

    __hash__ = GameState.__hash__

    def _judge(self, repetitions: int) -> Outcome | None:
        seat = self.to_move
        if not self.reserves[seat] and not any(s and s[-1] == str(seat) for s in self.board):
            return Outcome(
                frozenset((opponent(seat),)),
                tr("{seat} controls no stack and has no reserve.", seat=FocusRules.info.seat_names[seat]),
            )
        limit = int(self.options["repetitions"])
        if limit and repetitions >= limit:
            return Outcome(frozenset(), tr("The same position occurred {repetitions} times.", repetitions=repetitions))
        cap = int(self.options["ply_limit"])
        if cap and self.ply >= cap:
            return Outcome(frozenset(), tr("{cap} plies were played without a result.", cap=cap))
        return None


def _key(board: tuple[str, ...] | list[str], reserves: tuple[int, int] | list[int], to_move: int) -> str:
    """The repetition key of ruling 9: board, both reserves, side to move."""
    return f"{'/'.join(board)}|{reserves[0]},{reserves[1]}|{to_move}"


def _land(board: list[str], reserves: list[int], captured: list[int], seat: int, landed: int) -> None:
    """Rule 7: cut the stack on `landed` to 5 from the bottom; `seat`'s pieces go to its
    reserve, the opponent's are captured."""
    stack = board[landed]
    if len(stack) > MAX_HEIGHT:
        removed, board[landed] = stack[:-MAX_HEIGHT], stack[-MAX_HEIGHT:]
        own = removed.count(str(seat))
        reserves[seat] += own
        captured[seat] += len(removed) - own


def _drop_piece(board: list[str], reserves: list[int], captured: list[int], seat: int, square: int) -> None:
    """Rule 6, already checked: one reserve piece onto `square`."""
    board[square] += str(seat)
    reserves[seat] -= 1
    _land(board, reserves, captured, seat, square)


def _move_stack(board: list[str], reserves: list[int], captured: list[int], seat: int, src: int, dst: int) -> None:
    """Rule 5, already checked: the top k pieces of `src` onto `dst`, k squares away."""
    k = abs(dst % SIZE - src % SIZE) + abs(dst // SIZE - src // SIZE)
    stack = board[src]
    board[src], moving = stack[:-k], stack[-k:]
    board[dst] += moving
    _land(board, reserves, captured, seat, dst)


def _moves_played(ply: int, setup_left: tuple[int, int], options: Mapping[str, OptionValue]) -> int:
    """Log moves up to a position: its real moves plus, in a drop setup, the placements made."""
    placed = 2 * PIECES - sum(setup_left) if options.get("setup") == "drop" else 0
    return ply + placed


def _counts(anchor: str | None, trail: str, base: Mapping[str, int]) -> dict[str, int]:
    """The repetition counts: `base`, plus the anchor position and each position the
    trail's moves lead to (replayed; the trail holds no capture, by construction)."""
    return _replay(anchor, trail, base)[0]


def _replay(anchor: str | None, trail: str, base: Mapping[str, int]) -> tuple[dict[str, int], str | None, bool]:
    """`_counts`, the key of the position the trail ends in, and whether every trail move was
    one the side to move could make without capturing (a trail never captures, so a false
    here means moves that do not belong to it: `load` checks moves taken from the log)."""
    seen = dict(base)
    if anchor is None:
        return seen, None, True
    rows, reserve_text, side = anchor.split("|")
    board = rows.split("/")
    reserves = [int(n) for n in reserve_text.split(",")]
    to_move = int(side)
    captured = [0, 0]
    fits = True
    seen[anchor] = seen.get(anchor, 0) + 1
    key = anchor
    for i in range(0, len(trail), 2):
        head, dst = trail[i], SQUARE_OF[trail[i + 1]]
        if head == "*":
            fits = fits and reserves[to_move] > 0
            _drop_piece(board, reserves, captured, to_move, dst)
        else:
            src = SQUARE_OF[head]
            stack, straight = board[src], src % SIZE == dst % SIZE or src // SIZE == dst // SIZE
            distance = abs(dst % SIZE - src % SIZE) + abs(dst // SIZE - src // SIZE)
            fits = fits and straight and 0 < distance <= len(stack) and stack[-1] == str(to_move)
            if not fits:
                break  # not a move at all: nothing to replay it with
            _move_stack(board, reserves, captured, to_move, src, dst)
        to_move = opponent(to_move)
        key = _key(board, reserves, to_move)
        seen[key] = seen.get(key, 0) + 1
    return seen, key, fits and not any(captured)


def _encode(moves: Sequence[str]) -> str:
    """The trail of the canonical move texts `moves` (as the log keeps them: `c3-c5`, `*d4`);
    SnapshotMismatch for any other text."""
    codes = []
    for text in moves:
        src, _, dst = text.partition("-")
        try:
            if text.startswith("*"):
                codes.append("*" + CODE[SQUARE_NAMED[text[1:]]])
            else:
                codes.append(CODE[SQUARE_NAMED[src]] + CODE[SQUARE_NAMED[dst]])
        except KeyError:
            raise SnapshotMismatch(f"{text!r} is not a Focus move as the log keeps them") from None
    return "".join(codes)


class FocusRules(Rules):
    info = GameInfo(
        has_chance=False,
        key="focus",
        name="Focus",
        seat_names=(tr("Orange"), tr("Blue")),
        blurb=tr("Sid Sackson's stacking game: move stacks as far as they are tall, capture by overloading."),
        how_to_play=HOW_TO_PLAY,
        options=(
            Option(
                "setup",
                "standard",
                tr("standard: the usual 6×6 pattern; drop: players place their 18 pieces first"),
                ("standard", "drop"),
            ),
            Option(
                "drops",
                "anywhere",
                tr("anywhere: drop on any square; restricted: only on empty squares or your own stacks"),
                ("anywhere", "restricted"),
            ),
            Option(
                "repetitions", 3, tr("the same position this many times is a draw (0: never)"), minimum=0, maximum=10
            ),
            Option(
                "ply_limit",
                0,
                tr("plies (single moves of either player) before the game is drawn (0: no limit, as in the source)"),
                minimum=0,
                maximum=5000,
            ),
        ),
        move_pattern=re.compile(r"^\s*(\*\s*[a-h]\d|drop\s+[a-h]\d|[a-h]\d\s*[-x ]?\s*[a-h]\d)\s*$", re.I),
        draw_by_agreement=True,  # rulings 9: "or by agreement"
    )

    def _start(self, options: dict[str, OptionValue]) -> FocusState:
        drop_setup = options["setup"] == "drop"
        state = FocusState(
            board=tuple([""] * (SIZE * SIZE)) if drop_setup else _start_board(),
            reserves=(0, 0),
            captured=(0, 0),
            to_move=0,
            setup_left=(PIECES, PIECES) if drop_setup else (0, 0),
            ply=0,
            last_move=None,
            outcome=None,
            options=options,
        )
        if not drop_setup:  # rule 9: the start position is its own first occurrence
            key = state._position_key()
            state.anchor, state.seen = key, {key: 1}
        return state

    def log_needed(self, data: Mapping[str, Any]) -> int | None:
        """The log moves up to the anchor when moves were played since it: their texts rebuild
        the trail the snapshot leaves out.  None for a snapshot that holds its trail (written
        before the log held it), has no anchor (a drop setup) or is at its anchor."""
        if "trail" in data or data.get("anchor") is None or "anchor_moves" not in data:
            return None
        anchor_moves = int(data["anchor_moves"])
        return anchor_moves if anchor_moves < _played_in(data) else None

    def load(self, data: Mapping[str, Any], later: Sequence[str] = ()) -> FocusState:
        board = [""] * (SIZE * SIZE)
        for name, stack in data["board"].items():
            f, r = parse_square(name, SIZE, SIZE)
            board[f + SIZE * r] = str(stack)
        outcome = data.get("outcome")
        state = FocusState(
            board=tuple(board),
            reserves=(int(data["reserves"][0]), int(data["reserves"][1])),
            captured=(int(data["captured"][0]), int(data["captured"][1])),
            to_move=int(data["to_move"]),
            setup_left=(int(data["setup_left"][0]), int(data["setup_left"][1])),
            ply=int(data["ply"]),
            last_move=data.get("last_move"),
            outcome=Outcome.from_json(outcome) if outcome else None,
            options=self.resolve_options(data.get("options", {})),
            **_repetitions(data, board),
            seen={},  # counted below, once the trail is known
        )
        needed = self.log_needed(data)
        if needed is not None:
            due = state.moves_played - needed
            if len(later) != due:
                raise SnapshotMismatch(
                    f"this Focus snapshot needs the {due} log moves after move {needed}, not {len(later)}"
                )
            state.trail = _encode(later)
        state.seen, last, fits = _replay(state.anchor, state.trail, state.base)
        checked = "anchor_moves" in data and "trail" not in data  # older snapshots are taken as they are
        if checked and state.anchor is not None and (not fits or last != state._position_key()):
            raise SnapshotMismatch(
                f"the {len(later)} log moves after move {state.anchor_moves} do not lead from this Focus "
                "snapshot's anchor to its position"
            )
        return state


def _played_in(data: Mapping[str, Any]) -> int:
    """`FocusState.moves_played` of a dumped state."""
    left = data["setup_left"]
    return _moves_played(int(data["ply"]), (int(left[0]), int(left[1])), data.get("options", {}))


def _repetitions(data: Mapping[str, Any], board: list[str]) -> dict[str, Any]:
    """The repetition fields of a snapshot.  Since the log holds the moves after the anchor,
    a snapshot has the anchor and `anchor_moves` only (the trail comes from the log).  One
    written before that holds the trail itself; its anchor's place in the log follows from
    the trail's length.  One written before the trail existed holds the whole table in `seen`:
    it is kept as `base` (until the next capture), with the current position as the anchor
    and its own occurrence taken out of `base`.  A position given without any table (a
    test's or a puzzle's) is its own first occurrence."""
    seen = {str(k): int(v) for k, v in data.get("seen", {}).items()}
    played = _played_in(data)
    if "anchor" in data:
        trail = str(data.get("trail", ""))
        anchor_moves = int(data.get("anchor_moves", played - len(trail) // 2))
        return {"anchor": data["anchor"], "anchor_moves": anchor_moves, "trail": trail, "base": seen}
    if any(int(n) for n in data["setup_left"]):  # still in a drop setup: no table yet
        return {"anchor": None, "trail": "", "base": {}}
    anchor = _key(board, (int(data["reserves"][0]), int(data["reserves"][1])), int(data["to_move"]))
    if seen.get(anchor, 0) > 1:
        seen[anchor] -= 1
    else:
        seen.pop(anchor, None)
    return {"anchor": anchor, "anchor_moves": played, "trail": "", "base": seen}


FocusState.rules = FocusRules()
