"""Focus (Sid Sackson, also sold as Domination): stacks that move as far as they are tall.

Rulings and notation: `shared/rules/focus.md`.  A move is `c3-c5` (the top pieces of the
c3 stack, as many as the distance, jump to c5); a drop or a setup placement is `*d4`.

The board is a tuple of 64 strings indexed `file + 8 * rank`; a string lists the owners
of a stack's pieces bottom to top (`"0010"`: top piece seat 0's).  Cut corner squares are
never written to.  Strings make copying a position cheap and give a ready repetition key.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Self

from bot.games.base import (
    GameInfo,
    GameState,
    IllegalMove,
    Option,
    OptionValue,
    Outcome,
    Rules,
    opponent,
    shown,
)
from bot.games.squares import parse_square, square_name

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

_MOVE = re.compile(r"^([a-z]\d+)\s*[-x ]?\s*([a-z]\d+)$")
_DROP = re.compile(r"^(?:\*|drop\s+)\s*([a-z]\d+)$")

HOW_TO_PLAY = """\
**Focus** — control every stack.
• A stack belongs to whoever's piece is on top. On your turn, move or drop.
• **Move** the top *k* pieces of one of your stacks exactly *k* squares in a straight line
  (not diagonally), jumping over anything between: `c3-c5` moves the top 2 pieces of c3.
  The pieces left behind belong to whoever is now on top of them.
• Landing on a stack puts your pieces on top. A stack taller than 5 loses pieces from the
  bottom: yours go to your **reserve**, the opponent's are **captured**.
• **Drop** one reserve piece on any square (`*d4`), even on an enemy stack to take it.
• You lose when, on your turn, you control no stack and have no reserve.
• Draw: the same position for the third time, or 400 moves without a result.
Options: `setup=drop` (players place their pieces first), `drops=restricted` (drops only on
empty squares or your own stacks)."""


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
        seen: dict[str, int],
        last_move: str | None,
        outcome: Outcome | None,
        options: dict[str, OptionValue],
    ) -> None:
        self.board = board
        self.reserves = reserves
        self.captured = captured
        self.to_move = to_move
        self.setup_left = setup_left
        self.ply = ply
        self.seen = seen
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
        moves = []
        mine = str(seat)
        for i in SQUARES:
            stack = self.board[i]
            if not stack or stack[-1] != mine:
                continue
            f, r = i % SIZE, i // SIZE
            for k in range(1, len(stack) + 1):
                for df, dr in DIRECTIONS:
                    tf, tr = f + df * k, r + dr * k
                    if 0 <= tf < SIZE and 0 <= tr < SIZE and (t := tf + SIZE * tr) not in CUT:
                        moves.append(f"{NAMES[i]}-{NAMES[t]}")
        if self.reserves[seat]:
            moves.extend(f"*{NAMES[i]}" for i in SQUARES if self._may_drop(seat, i))
        return moves

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
            "seen": dict(self.seen),
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
        raise IllegalMove(f"{shown(move)} is not a Focus move: write a move like `c3-c5` or a drop like `*d4`.")

    @staticmethod
    def _square(text: str) -> int:
        f, r = parse_square(text, SIZE, SIZE)
        i = f + SIZE * r
        if i in CUT:
            raise IllegalMove(f"{NAMES[i]} is a cut corner, not a square of the board.")
        return i

    def _drop(self, seat: int, i: int) -> Self:
        if self.in_setup:
            if not self._may_place_in_setup(seat, i):
                stack = self.board[i]
                if stack[-1] != str(seat):
                    raise IllegalMove(
                        f"During setup, place only on an empty square or your own stack; {NAMES[i]} is not yours."
                    )
                raise IllegalMove(f"The stack on {NAMES[i]} is already {MAX_HEIGHT} tall.")
            left = list(self.setup_left)
            left[seat] -= 1
            board = list(self.board)
            board[i] += str(seat)
            nxt = opponent(seat) if left[opponent(seat)] else seat
            if not any(left):
                nxt = 0  # rule 3: seat 0 makes the first real move
            notation = f"*{NAMES[i]}"
            return self._next(tuple(board), self.reserves, self.captured, nxt, (left[0], left[1]), notation, setup=True)
        if not self.reserves[seat]:
            raise IllegalMove("You have no pieces in reserve to drop.")
        if not self._may_drop(seat, i):
            raise IllegalMove(
                f"With restricted drops, drop only on an empty square or your own stack; {NAMES[i]} is not yours."
            )
        board = list(self.board)
        board[i] += str(seat)
        reserves = list(self.reserves)
        reserves[seat] -= 1
        return self._after_action(seat, board, reserves, f"*{NAMES[i]}", i)

    def _move(self, seat: int, src: int, dst: int) -> Self:
        if self.in_setup:
            raise IllegalMove("The pieces are still being placed: place one with a drop like `*d4`.")
        stack = self.board[src]
        if not stack:
            raise IllegalMove(f"There is no stack on {NAMES[src]}.")
        if stack[-1] != str(seat):
            raise IllegalMove(f"The stack on {NAMES[src]} is not yours: its top piece belongs to your opponent.")
        if src == dst:
            raise IllegalMove("A stack must move at least one square.")
        sf, sr, df, dr = src % SIZE, src // SIZE, dst % SIZE, dst // SIZE
        if (sf != df) == (sr != dr):
            raise IllegalMove("Stacks move in a straight line along a rank or a file, never diagonally.")
        k = abs(df - sf) + abs(dr - sr)
        if k > len(stack):
            raise IllegalMove(
                f"Moving {k} squares takes the top {k} pieces, but the stack on {NAMES[src]} is only {len(stack)} tall."
            )
        board = list(self.board)
        board[src], moving = stack[:-k], stack[-k:]
        board[dst] += moving
        return self._after_action(seat, board, list(self.reserves), f"{NAMES[src]}-{NAMES[dst]}", dst)

    def _after_action(self, seat: int, board: list[str], reserves: list[int], notation: str, landed: int) -> Self:
        captured = list(self.captured)
        stack = board[landed]
        if len(stack) > MAX_HEIGHT:
            removed, board[landed] = stack[:-MAX_HEIGHT], stack[-MAX_HEIGHT:]
            own = removed.count(str(seat))
            reserves[seat] += own
            captured[seat] += len(removed) - own
        return self._next(
            tuple(board),
            (reserves[0], reserves[1]),
            (captured[0], captured[1]),
            opponent(seat),
            self.setup_left,
            notation,
        )

    def _next(
        self,
        board: tuple[str, ...],
        reserves: tuple[int, int],
        captured: tuple[int, int],
        to_move: int,
        setup_left: tuple[int, int],
        notation: str,
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
            seen=self.seen,
            last_move=notation,
            outcome=None,
            options=self.options,
        )
        if not state.in_setup:
            state.seen = dict(self.seen)
            key = state._position_key()
            state.seen[key] = state.seen.get(key, 0) + 1
            state._outcome = state._judge(state.seen[key])
        return state

    def _position_key(self) -> str:
        return f"{'/'.join(self.board)}|{self.reserves[0]},{self.reserves[1]}|{self.to_move}"

    def _judge(self, repetitions: int) -> Outcome | None:
        seat = self.to_move
        if not self.reserves[seat] and not any(s and s[-1] == str(seat) for s in self.board):
            return Outcome(
                frozenset((opponent(seat),)),
                f"{FocusRules.info.seat_names[seat]} controls no stack and has no reserve.",
            )
        limit = int(self.options["repetitions"])
        if limit and repetitions >= limit:
            return Outcome(frozenset(), f"The same position occurred {repetitions} times.")
        cap = int(self.options["ply_limit"])
        if cap and self.ply >= cap:
            return Outcome(frozenset(), f"{cap} moves were played without a result.")
        return None


class FocusRules(Rules):
    info = GameInfo(
        key="focus",
        name="Focus",
        seat_names=("Orange", "Blue"),
        blurb="Sid Sackson's stacking game: move stacks as far as they are tall, capture by overloading.",
        how_to_play=HOW_TO_PLAY,
        options=(
            Option(
                "setup",
                "standard",
                "standard: the usual 6×6 pattern; drop: players place their 18 pieces first",
                ("standard", "drop"),
            ),
            Option(
                "drops",
                "anywhere",
                "anywhere: drop on any square; restricted: only on empty squares or your own stacks",
                ("anywhere", "restricted"),
            ),
            Option("repetitions", 3, "the same position this many times is a draw (0: never)", minimum=0, maximum=10),
            Option(
                "ply_limit",
                400,
                "moves without a result before the game is drawn (0: no limit)",
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
            seen={},
            last_move=None,
            outcome=None,
            options=options,
        )
        if not drop_setup:  # rule 9: the start position is its own first occurrence
            state.seen = {state._position_key(): 1}
        return state

    def load(self, data: Mapping[str, Any]) -> FocusState:
        board = [""] * (SIZE * SIZE)
        for name, stack in data["board"].items():
            f, r = parse_square(name, SIZE, SIZE)
            board[f + SIZE * r] = str(stack)
        outcome = data.get("outcome")
        return FocusState(
            board=tuple(board),
            reserves=(int(data["reserves"][0]), int(data["reserves"][1])),
            captured=(int(data["captured"][0]), int(data["captured"][1])),
            to_move=int(data["to_move"]),
            setup_left=(int(data["setup_left"][0]), int(data["setup_left"][1])),
            ply=int(data["ply"]),
            seen={str(k): int(v) for k, v in data["seen"].items()},
            last_move=data.get("last_move"),
            outcome=Outcome.from_json(outcome) if outcome else None,
            options=self.resolve_options(data.get("options", {})),
        )


FocusState.rules = FocusRules()
