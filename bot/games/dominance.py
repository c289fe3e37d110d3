"""Dominance: dice light up spaces of a random domino Battlefield; stones race, capture,
fall into the Underworld and climb back out.

Rulings and notation: `shared/rules/dominance.md`.

Representation
--------------
* The Battlefield is 6 files × 7 ranks; a space is the index `file + 6 * rank` (a1 = 0).
  Tiles lie horizontally, three to a rank, so a space's tile is fixed by where it is:
  tile `3 * rank + file // 2`, whose left half is the even file.  The random layout is
  therefore just the 42 space values (`values`), empty until the `layout` chance move.
* `board` holds 42 owners (`EMPTY`, 0 or 1).  The Underworld is a flat tuple of 14 counts,
  `under[7 * seat + pos]`, where `pos` 0..5 are u1..u6 and 6 is u0 — the order of the line.
* Within a turn the state remembers which stones may still act: `eligible` (Battlefield
  stones that started the move phase on an active space and have not moved), `uw_eligible`
  (the same, counted per Underworld space, since stones there are interchangeable),
  `moved` / `uw_moved` (where stones that moved now stand, for the view) and `captured`
  (where stones that already captured now stand).

Interpretations (documented because the rulings leave them open)
----------------------------------------------------------------
* A move names only its two ends, `c3-c5`: passing through a space has no effect, so any
  path of active empty spaces will do and the engine searches for one (breadth first; the
  shortest such path is recorded in `last_path` for the picture).
* Re-entering on a double (roll 3 3 → tile 3-3) is still a choice between two different
  spaces, the left and the right half; both have the same value, so a stone captured on
  either goes to u3.  Every decision therefore has at least two options (an action plus
  `done`, or two halves), so nothing is ever forced on a player: `forced_move` says so
  without listing the moves.
* Phases with nothing to do are skipped: after the roll the move phase begins only if some
  stone can move, the capture phase only if some stone can capture, and the turn ends when
  no stone is on u0.  A phase also ends by itself once its last possible action is taken.
* `ply` counts every move applied, chance moves included.  `last_move` is the last move
  of a player (never a chance move).  The turn cap counts completed turns after setup.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from typing import Any, Final, Self

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
from bot.games.squares import square_name
from bot.i18n import tr

FILES: Final = 6
RANKS: Final = 7
SPACES: Final = FILES * RANKS
EMPTY: Final = -1
STONES: Final = 4
TURN_DICE: Final = 4
U0: Final = 6
"""Underworld position of the blank space u0 (positions 0..5 are u1..u6)."""
UW_POSITIONS: Final = 7
SEAT_NAMES: Final = (tr("Orange"), tr("Blue"))

NAMES: Final = tuple(square_name(i % FILES, i // FILES) for i in range(SPACES))
UW_NAMES: Final = ("u1", "u2", "u3", "u4", "u5", "u6", "u0")
_INDEX: Final = {name: i for i, name in enumerate(NAMES)}
_UW_INDEX: Final = {name: i for i, name in enumerate(UW_NAMES)}


def _neighbours(i: int) -> tuple[int, ...]:
    f, r = i % FILES, i // FILES
    around = ((f - 1, r), (f + 1, r), (f, r - 1), (f, r + 1))
    return tuple(x + FILES * y for x, y in around if 0 <= x < FILES and 0 <= y < RANKS)


NEIGHBOURS: Final = tuple(_neighbours(i) for i in range(SPACES))


def tile_squares(tile: int) -> tuple[int, int]:
    """The (left, right) spaces of Battlefield tile `tile` (0..20, row by row from a1)."""
    left = FILES * (tile // 3) + 2 * (tile % 3)
    return left, left + 1


BATTLEFIELD_TILES: Final = tuple((a, b) for a in range(1, 7) for b in range(a, 7))
"""The 21 tiles without a blank, low number first."""

_SPACE = r"(?:[a-f][1-7]|u[0-6])"
_STEP = re.compile(rf"^({_SPACE})\s*([-x ])\s*({_SPACE})$")
_ENTER = re.compile(r"^(?:enter\s*)?([a-z]\d+)$")
_ROLL = re.compile(r"^roll\s*((?:\d[\s,\-]*)+)$")
_LAYOUT = re.compile(r"^layout\s+(.+)$")
_DONE = frozenset(("done", "pass", "end"))

HOW_TO_PLAY = tr(
    """\
**Dominance** — dice light up the Battlefield; send every enemy stone to the Underworld.
• The **Battlefield** is the 21 tiles without a blank, laid at random in 7 rows of 3: a 6×7
  board of spaces a1–f7, each worth its half's number. The **Underworld** is a line
  `u1 … u6 u0`. Each side has 4 stones.
• **Setup**: Orange (the source's White) rolls first, then the players alternate: two dice
  put two of your stones on that tile, sending back any stones already there.
• Blue (Black) takes the first turn. A turn:
  1. **Roll** four dice: every space showing a rolled number is *active*.
  2. **Move**: each of your stones that starts on an active space may move once, through
     active empty spaces, ending on any empty space: `c3-c5` (the engine finds the path).
     In the Underworld stones walk the line the same way and may share spaces: `u3-u5`,
     and from u6 into u0: `u6-u0`. End with `done`.
  3. **Capture**: each stone on an active space may once step onto an adjacent stone of
     either colour: `c5xc6`. The taken stone goes to the Underworld space numbered like the
     space it stood on. End with `done`.
  4. **Return**: each stone on u0 rolls two dice and enters on either half of that tile:
     `enter d4`, capturing whatever stands there.
• A phase with nothing to do is skipped. You lose as soon as none of your stones is on
  the Battlefield. Draw after 500 turns (option `turn_limit`)."""
)


class DominanceState(GameState):
    """A Dominance position (see the module docstring for the fields)."""

    __slots__ = (
        "_actions",
        "_outcome",
        "board",
        "captured",
        "dice",
        "eligible",
        "forced",
        "last_move",
        "last_path",
        "last_seat",
        "moved",
        "options",
        "pair",
        "phase",
        "ply",
        "to_move",
        "turns",
        "under",
        "unplaced",
        "uw_eligible",
        "uw_moved",
        "values",
    )

    def __init__(
        self,
        *,
        options: dict[str, OptionValue],
        values: tuple[int, ...] = (),
        board: tuple[int, ...] = (EMPTY,) * SPACES,
        under: tuple[int, ...] = (0,) * (2 * UW_POSITIONS),
        unplaced: tuple[int, int] = (STONES, STONES),
        phase: str = "layout",
        to_move: int = 0,
        dice: tuple[int, ...] = (),
        pair: tuple[int, ...] = (),
        eligible: frozenset[int] = frozenset(),
        uw_eligible: tuple[int, ...] = (0,) * UW_POSITIONS,
        moved: tuple[int, ...] = (),
        uw_moved: tuple[int, ...] = (0,) * UW_POSITIONS,
        captured: frozenset[int] = frozenset(),
        turns: int = 0,
        ply: int = 0,
        last_move: str | None = None,
        last_seat: int | None = None,
        last_path: tuple[str, ...] = (),
        outcome: Outcome | None = None,
    ) -> None:
        self.options = options
        self.values = values
        self.board = board
        self.under = under
        self.unplaced = unplaced
        self.phase = phase
        self.to_move = to_move
        self.dice = dice
        self.pair = pair
        self.eligible = eligible
        self.uw_eligible = uw_eligible
        self.moved = moved
        self.uw_moved = uw_moved
        self.captured = captured
        self.turns = turns
        self.ply = ply
        self.last_move = last_move
        self.last_seat = last_seat
        self.last_path = last_path
        self._outcome = outcome
        self._actions: dict[str, tuple[str, int, int]] | None = None
        self.forced = ()

    def _copy(self, **changes: Any) -> Self:
        """A new state equal to this one but for `changes` (the ply always advances)."""
        fields: dict[str, Any] = {
            "options": self.options,
            "values": self.values,
            "board": self.board,
            "under": self.under,
            "unplaced": self.unplaced,
            "phase": self.phase,
            "to_move": self.to_move,
            "dice": self.dice,
            "pair": self.pair,
            "eligible": self.eligible,
            "uw_eligible": self.uw_eligible,
            "moved": self.moved,
            "uw_moved": self.uw_moved,
            "captured": self.captured,
            "turns": self.turns,
            "ply": self.ply + 1,
            "last_move": self.last_move,
            "last_seat": self.last_seat,
            "last_path": self.last_path,
            "outcome": self._outcome,
        }
        fields.update(changes)
        return type(self)(**fields)

    # --- contract ------------------------------------------------------------------

    @property
    def turn(self) -> frozenset[int]:
        if self._outcome is not None:
            return frozenset()
        if self.phase in ("move", "capture", "enter"):
            return frozenset((self.to_move,))
        return frozenset((CHANCE,))

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    def legal_moves(self, seat: int) -> list[str]:
        if seat == CHANCE or seat not in self.turn:
            return []
        return list(self.actions())

    def forced_move(self, seat: int) -> str | None:
        """Never a forced move: a move or capture phase only opens when an action exists,
        so `done` is always a second option, and re-entry always offers two halves."""
        return None

    def actions(self) -> dict[str, tuple[str, int, int]]:
        """Canonical move → (kind, from, to) for the player to move; cached (states are immutable).

        Kinds: `move` (Battlefield), `walk` (Underworld positions), `capture`, `enter`
        (from = -1), `done`.
        """
        if self._actions is None:
            self._actions = self._compute_actions()
        return self._actions

    def _compute_actions(self) -> dict[str, tuple[str, int, int]]:
        found: dict[str, tuple[str, int, int]] = {}
        if self.phase == "move":
            for src in sorted(self.eligible):
                for dst in sorted(self._destinations(src)):
                    found[f"{NAMES[src]}-{NAMES[dst]}"] = ("move", src, dst)
            for pos in range(U0):
                if self.uw_eligible[pos]:
                    for dst in self._walks(pos):
                        found[f"{UW_NAMES[pos]}-{UW_NAMES[dst]}"] = ("walk", pos, dst)
        elif self.phase == "capture":
            for src, dst in self._captures():
                found[f"{NAMES[src]}x{NAMES[dst]}"] = ("capture", src, dst)
        elif self.phase == "enter":
            for dst in self._entry_squares():
                found[f"enter {NAMES[dst]}"] = ("enter", -1, dst)
            return found
        if found:
            found["done"] = ("done", -1, -1)
        return found

    # --- geometry ------------------------------------------------------------------

    def active_values(self) -> frozenset[int]:
        return frozenset(self.dice) if self.phase in ("move", "capture", "return", "enter") else frozenset()

    def _destinations(self, src: int) -> set[int]:
        """Empty spaces reachable from `src` through active empty spaces (rule 7)."""
        active = self.active_values()
        board, values = self.board, self.values
        seen = {src}
        todo = [src]
        found: set[int] = set()
        while todo:
            here = todo.pop()
            for nxt in NEIGHBOURS[here]:
                if nxt in seen or board[nxt] != EMPTY:
                    continue
                seen.add(nxt)
                found.add(nxt)
                if values[nxt] in active:
                    todo.append(nxt)
        return found

    def _path(self, src: int, dst: int) -> tuple[int, ...]:
        """A shortest legal path from `src` to `dst` (both included), for `last_path`."""
        active = self.active_values()
        parent = {src: src}
        frontier = [src]
        while frontier and dst not in parent:
            following = []
            for here in frontier:
                if here != src and self.values[here] not in active:
                    continue
                for nxt in NEIGHBOURS[here]:
                    if nxt not in parent and self.board[nxt] == EMPTY:
                        parent[nxt] = here
                        following.append(nxt)
            frontier = following
        path = [dst]
        while path[-1] != src:
            path.append(parent[path[-1]])
        return tuple(reversed(path))

    def _walks(self, pos: int) -> list[int]:
        """Underworld positions reachable from `pos` along the line (rule 7)."""
        active = self.active_values()
        found = []
        for step in (-1, 1):
            nxt = pos + step
            while 0 <= nxt < UW_POSITIONS:
                found.append(nxt)
                if nxt == U0 or nxt + 1 not in active:
                    break
                nxt += step
        return sorted(found)

    def _captures(self) -> list[tuple[int, int]]:
        active = self.active_values()
        mine = self.to_move
        pairs: list[tuple[int, int]] = []
        for src in range(SPACES):
            if self.board[src] != mine or src in self.captured or self.values[src] not in active:
                continue
            pairs.extend((src, dst) for dst in NEIGHBOURS[src] if self.board[dst] != EMPTY)
        return sorted(pairs)

    def _entry_squares(self) -> tuple[int, int]:
        return self._tile_of(self.pair)

    def _roll_seat(self) -> int | None:
        """Who rolled `dice`: the player whose turn it is, or (while the next roll is due)
        the previous player, so a turn skipped for want of an action still shows its roll."""
        if not self.dice:
            return None
        return opponent(self.to_move) if self.phase == "roll" else self.to_move

    def _can_act(self) -> list[str]:
        sources: dict[str, None] = {}
        for kind, src, dst in self.actions().values():
            if kind in ("move", "capture"):
                sources[NAMES[src]] = None
            elif kind == "walk":
                sources[UW_NAMES[src]] = None
            elif kind == "enter":
                sources[NAMES[dst]] = None
        return list(sources)

    # --- views ---------------------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        active = self.active_values()
        laid = bool(self.values)
        public = {
            **self.public_base(),
            "phase": self.phase,
            "to_move": self.to_move,
            "layout": [list(self.values[FILES * r : FILES * (r + 1)]) for r in range(RANKS)] if laid else None,
            "tiles": [
                {
                    "tile": f"{min(self.values[a], self.values[b])}-{max(self.values[a], self.values[b])}",
                    "left": NAMES[a],
                    "right": NAMES[b],
                }
                for a, b in map(tile_squares, range(len(BATTLEFIELD_TILES)))
            ]
            if laid
            else [],
            "stones": {NAMES[i]: owner for i, owner in enumerate(self.board) if owner != EMPTY},
            "underworld": {UW_NAMES[p]: [self.under[p], self.under[UW_POSITIONS + p]] for p in range(UW_POSITIONS)},
            "unplaced": list(self.unplaced),
            "roll": list(self.dice),
            "roll_seat": self._roll_seat(),
            "return_roll": list(self.pair) if self.phase in ("enter",) else [],
            "setup_roll": list(self.pair) if self.phase == "setup" else [],
            "active_values": sorted(active),
            "active": [NAMES[i] for i in range(SPACES) if laid and self.values[i] in active]
            + [UW_NAMES[p] for p in range(U0) if p + 1 in active],
            "moved": [NAMES[i] for i in self.moved]
            + [UW_NAMES[p] for p in range(UW_POSITIONS) for _ in range(self.uw_moved[p])],
            "captured": sorted((NAMES[i] for i in self.captured), key=_INDEX.__getitem__),
            "can_act": self._can_act() if self.turn - {CHANCE} else [],
            "turn_number": self.turns + 1,
            "turn_limit": int(self.options["turn_limit"]),
            "ply": self.ply,
            "last_move": self.last_move,
            "last_seat": self.last_seat,
            "last_path": list(self.last_path),
        }
        return self.seat_view(public, seat, {})

    def dump(self) -> dict[str, Any]:
        return {
            "game": "dominance",
            "options": dict(self.options),
            "layout": _layout_text(self.values) if self.values else None,
            "stones": {NAMES[i]: owner for i, owner in enumerate(self.board) if owner != EMPTY},
            "underworld": [list(self.under[:UW_POSITIONS]), list(self.under[UW_POSITIONS:])],
            "unplaced": list(self.unplaced),
            "phase": self.phase,
            "to_move": self.to_move,
            "dice": list(self.dice),
            "pair": list(self.pair),
            "eligible": sorted(NAMES[i] for i in self.eligible),
            "uw_eligible": list(self.uw_eligible),
            "moved": [NAMES[i] for i in self.moved],
            "uw_moved": list(self.uw_moved),
            "captured": sorted(NAMES[i] for i in self.captured),
            "turns": self.turns,
            "ply": self.ply,
            "last_move": self.last_move,
            "last_seat": self.last_seat,
            "last_path": list(self.last_path),
            "outcome": self._outcome.to_json() if self._outcome else None,
        }

    # --- chance ----------------------------------------------------------------------

    def _sample_chance(self, rng: random.Random) -> str:
        if self.phase == "layout":
            tiles = list(BATTLEFIELD_TILES)
            rng.shuffle(tiles)
            return "layout " + " ".join(f"{a}{b}" if rng.random() < 0.5 else f"{b}{a}" for a, b in tiles)
        count = TURN_DICE if self.phase == "roll" else 2
        return "roll " + " ".join(str(d) for d in sorted(rng.randint(1, 6) for _ in range(count)))

    def describe(self, before: GameState, entry: LogEntry) -> str | None:
        """Rolls in words (setup, turn and return), so notifications and screen readers carry them.

        A turn roll that leaves nothing to do says so: otherwise the channel reads as one side
        rolling twice in a row, with nothing between the two rolls to explain it."""
        if entry.seat != CHANCE or not isinstance(before, DominanceState) or before.phase == "layout":
            return None
        dice = entry.move.split()[1:]
        if before.phase == "setup":
            return tr("Setup roll for {seat}: {dice}", seat=SEAT_NAMES[before.to_move], dice=" + ".join(dice))
        if before.phase == "roll":
            if self.phase == "roll" and self.to_move != before.to_move:  # the engine skipped the turn
                return tr(
                    "{seat} rolls {dice}: nothing can move or capture, and the turn passes",
                    seat=SEAT_NAMES[before.to_move],
                    dice=", ".join(dice),
                )
            return tr("{seat} rolls {dice}", seat=SEAT_NAMES[before.to_move], dice=", ".join(dice))
        return tr("Return roll for {seat}: {dice}", seat=SEAT_NAMES[before.to_move], dice=" + ".join(dice))

    def _apply_chance(self, text: str) -> Self:
        if self.phase == "layout":
            match = _LAYOUT.match(text)
            if match is None:
                raise IllegalMove(tr("The Battlefield must be laid first: `layout 12 43 ...` (21 tiles from a1)."))
            return self._copy(values=_parse_layout(match.group(1)), phase="setup")
        match = _ROLL.match(text)
        if match is None:
            raise IllegalMove(tr("{text} is not a roll; write it like `roll 3 4`.", text=shown(text)))
        dice = tuple(sorted(int(d) for d in re.findall(r"\d", match.group(1))))
        count = TURN_DICE if self.phase == "roll" else 2
        if len(dice) != count or not all(1 <= d <= 6 for d in dice):
            raise IllegalMove(
                tr(
                    "Roll {count} dice, each from 1 to 6, like `roll {value}`.",
                    count=count,
                    value=" ".join(["3"] * count),
                )
            )
        if self.phase == "setup":
            return self._place(dice)
        if self.phase == "roll":
            return self._begin_turn(dice)
        return self._copy(pair=dice, phase="enter")

    # --- applying moves --------------------------------------------------------------

    def _apply(self, seat: int, move: str) -> Self:
        text = normalise(move)
        if seat == CHANCE:
            return self._apply_chance(text)
        canonical = self._canonical(text, move)
        action = self.actions().get(canonical)
        if action is None:
            raise IllegalMove(self._why_illegal(canonical))
        kind, src, dst = action
        if kind == "done":
            return self._copy(last_move="done", last_seat=seat, last_path=())._end_phase()
        if kind == "move":
            return self._move(canonical, src, dst)
        if kind == "walk":
            return self._walk(canonical, src, dst)
        if kind == "capture":
            return self._capture(canonical, src, dst)
        return self._enter(canonical, dst)

    def _canonical(self, text: str, original: str) -> str:
        """The canonical notation of a player's text in the current phase."""
        if text in _DONE:
            return "done"
        if step := _STEP.match(text):
            a, sep, b = step.groups()
            if sep == "x" or (self.phase == "capture" and a[0] != "u"):
                return f"{a}x{b}"
            return f"{a}-{b}"
        if (enter := _ENTER.match(text)) and (text.startswith("enter") or self.phase == "enter"):
            return f"enter {enter.group(1)}"
        raise IllegalMove(
            tr(
                "{original} is not a Dominance move: write `c3-c5` to move, `c5xc6` to capture, `enter d4` "
                "to return, or `done`.",
                original=shown(original),
            )
        )

    def _why_illegal(self, canonical: str) -> str:
        """A sentence explaining why a well-formed move is not legal now."""
        phase = self.phase
        if canonical == "done":
            return tr("There is nothing to end: choose where to enter with `enter d4`.")
        if canonical.startswith("enter"):
            if phase != "enter":
                return tr("You enter only from u0, in the return phase after rolling two dice.")
            a, b = (NAMES[i] for i in self._entry_squares())
            return tr(
                "Your roll {pair}-{pair2} lets the stone enter on {a} or {b} only.",
                pair=self.pair[0],
                pair2=self.pair[1],
                a=a,
                b=b,
            )
        if phase == "enter":
            a, b = (NAMES[i] for i in self._entry_squares())
            return tr("Now bring your stone back from u0: `enter {a}` or `enter {b}`.", a=a, b=b)
        src_name, dst_name = re.split(r"[-x]", canonical)
        if "x" in canonical:
            if phase == "move":
                return tr("Captures come after the move phase: finish moving first, or end it with `done`.")
            return self._why_no_capture(src_name, dst_name)
        if phase == "capture":
            return tr("The move phase is over: capture with a move like `c5xc6`, or end the turn with `done`.")
        return self._why_no_move(src_name, dst_name)

    def _why_no_move(self, src_name: str, dst_name: str) -> str:
        if (src_name[0] == "u") != (dst_name[0] == "u"):
            return tr("Stones move within the Battlefield or within the Underworld, never between them.")
        if src_name[0] == "u":
            pos = _UW_INDEX[src_name]
            if not self.under[UW_POSITIONS * self.to_move + pos]:
                return tr("You have no stone on {src_name}.", src_name=src_name)
            if not self.uw_eligible[pos]:
                return tr(
                    "No stone of yours on {src_name} may move: it must start the phase on an active space.",
                    src_name=src_name,
                )
            return tr(
                "A stone on {src_name} cannot reach {dst_name}: every space it passes must be active.",
                src_name=src_name,
                dst_name=dst_name,
            )
        src, dst = _INDEX[src_name], _INDEX[dst_name]
        if self.board[src] != self.to_move:
            return tr("You have no stone on {src_name}.", src_name=src_name)
        if src in self.moved:
            return tr("The stone on {src_name} has already moved this turn.", src_name=src_name)
        if src not in self.eligible:
            return tr(
                "The stone on {src_name} did not start the phase on an active space, so it cannot move.",
                src_name=src_name,
            )
        if self.board[dst] != EMPTY:
            return tr("{dst_name} is occupied: stones move only into empty spaces.", dst_name=dst_name)
        return tr(
            "No path from {src_name} to {dst_name} runs through active empty spaces only.",
            src_name=src_name,
            dst_name=dst_name,
        )

    def _why_no_capture(self, src_name: str, dst_name: str) -> str:
        if src_name[0] == "u" or dst_name[0] == "u":
            return tr("There are no captures in the Underworld.")
        src, dst = _INDEX[src_name], _INDEX[dst_name]
        if self.board[src] != self.to_move:
            return tr("You have no stone on {src_name}.", src_name=src_name)
        if src in self.captured:
            return tr("The stone on {src_name} has already captured this turn.", src_name=src_name)
        if self.values[src] not in self.active_values():
            return tr("{src_name} is not active, so its stone cannot capture.", src_name=src_name)
        if dst not in NEIGHBOURS[src]:
            return tr(
                "{dst_name} is not next to {src_name}: capture one step along a rank or a file.",
                dst_name=dst_name,
                src_name=src_name,
            )
        return tr("There is no stone on {dst_name} to capture.", dst_name=dst_name)

    def _move(self, notation: str, src: int, dst: int) -> Self:
        path = tuple(NAMES[i] for i in self._path(src, dst))
        board = list(self.board)
        board[src], board[dst] = EMPTY, board[src]
        state = self._copy(
            board=tuple(board),
            eligible=self.eligible - {src},
            moved=(*self.moved, dst),
            last_move=notation,
            last_seat=self.to_move,
            last_path=path,
        )
        return state._continue_phase()

    def _walk(self, notation: str, src: int, dst: int) -> Self:
        base = UW_POSITIONS * self.to_move
        under = list(self.under)
        under[base + src] -= 1
        under[base + dst] += 1
        uw_eligible, uw_moved = list(self.uw_eligible), list(self.uw_moved)
        uw_eligible[src] -= 1
        uw_moved[dst] += 1
        step = 1 if dst > src else -1
        state = self._copy(
            under=tuple(under),
            uw_eligible=tuple(uw_eligible),
            uw_moved=tuple(uw_moved),
            last_move=notation,
            last_seat=self.to_move,
            last_path=tuple(UW_NAMES[p] for p in range(src, dst + step, step)),
        )
        return state._continue_phase()

    def _capture(self, notation: str, src: int, dst: int) -> Self:
        board, under = self._take(list(self.board), list(self.under), dst)
        board[src], board[dst] = EMPTY, self.to_move
        state = self._copy(
            board=tuple(board),
            under=tuple(under),
            captured=(self.captured - {src}) | {dst},
            last_move=notation,
            last_seat=self.to_move,
            last_path=(NAMES[src], NAMES[dst]),
        )
        return state._judged() or state._continue_phase()

    def _enter(self, notation: str, dst: int) -> Self:
        board, under = self._take(list(self.board), list(self.under), dst)
        board[dst] = self.to_move
        under[UW_POSITIONS * self.to_move + U0] -= 1
        state = self._copy(
            board=tuple(board),
            under=tuple(under),
            pair=(),
            last_move=notation,
            last_seat=self.to_move,
            last_path=("u0", NAMES[dst]),
        )
        return state._judged() or state._after_return()

    def _take(self, board: list[int], under: list[int], square: int) -> tuple[list[int], list[int]]:
        """Send the stone on `square` (if any) to the Underworld space of the same value."""
        owner = board[square]
        if owner != EMPTY:
            under[UW_POSITIONS * owner + self.values[square] - 1] += 1
            board[square] = EMPTY
        return board, under

    # --- flow ----------------------------------------------------------------------

    def _place(self, dice: tuple[int, ...]) -> Self:
        """Setup (rule 4): clear the rolled tile, then put two of the roller's stones on it."""
        seat = self.to_move
        board, unplaced = list(self.board), list(self.unplaced)
        for square in self._tile_of(dice):
            if board[square] != EMPTY:
                unplaced[board[square]] += 1
            board[square] = seat
        unplaced[seat] -= 2
        other = opponent(seat)
        if unplaced[other]:
            nxt, phase = other, "setup"
        elif unplaced[seat]:
            nxt, phase = seat, "setup"
        else:
            nxt, phase = 1, "roll"  # rule 5: Black (seat 1) takes the first turn
        return self._copy(board=tuple(board), unplaced=(unplaced[0], unplaced[1]), to_move=nxt, phase=phase, pair=())

    def _tile_of(self, dice: tuple[int, ...]) -> tuple[int, int]:
        """The (left, right) spaces of the tile bearing the two rolled numbers where it lies
        in this game's layout (rules 4 and 9): found by its values, never by its place in
        the sorted list of tiles, which is where it lies only on the canonical layout."""
        wanted = sorted(dice)
        for tile in range(len(BATTLEFIELD_TILES)):
            left, right = tile_squares(tile)
            if sorted((self.values[left], self.values[right])) == wanted:
                return left, right
        raise AssertionError(f"no tile {wanted} in the layout")  # a parsed layout holds all 21

    def _begin_turn(self, dice: tuple[int, ...]) -> Self:
        active = frozenset(dice)
        seat = self.to_move
        eligible = frozenset(i for i in range(SPACES) if self.board[i] == seat and self.values[i] in active)
        base = UW_POSITIONS * seat
        uw_eligible = tuple(self.under[base + p] if p + 1 in active else 0 for p in range(UW_POSITIONS))
        state = self._copy(
            dice=dice,
            phase="move",
            eligible=eligible,
            uw_eligible=uw_eligible,
            moved=(),
            uw_moved=(0,) * UW_POSITIONS,
            captured=frozenset(),
        )
        return state._continue_phase()

    def _continue_phase(self) -> Self:
        """Stay in this phase while an action remains, else move on to the next one."""
        return self if self.actions() else self._end_phase()

    def _end_phase(self) -> Self:
        """Leave the move or capture phase, skipping a capture phase with nothing to take."""
        if self.phase == "move":
            capture = self._with(phase="capture")
            if capture.actions():
                return capture
            return capture._after_return()
        return self._after_return()

    def _with(self, **changes: Any) -> Self:
        """Like `_copy` but without counting a ply (a phase change is not a move)."""
        return self._copy(ply=self.ply, **changes)

    def _after_return(self) -> Self:
        """Start the return phase if a stone waits on u0, else end the turn."""
        if self.under[UW_POSITIONS * self.to_move + U0]:
            return self._with(phase="return", pair=())
        turns = self.turns + 1
        limit = int(self.options["turn_limit"])
        outcome = None
        if limit and turns >= limit:
            outcome = Outcome(frozenset(), tr("{limit} turns were played without a winner.", limit=limit))
        return self._with(
            phase="over" if outcome else "roll",
            to_move=self.to_move if outcome else opponent(self.to_move),
            turns=turns,
            pair=(),
            eligible=frozenset(),
            uw_eligible=(0,) * UW_POSITIONS,
            moved=(),
            uw_moved=(0,) * UW_POSITIONS,
            captured=frozenset(),
            outcome=outcome,
        )

    def _judged(self) -> Self | None:
        """The finished state if a side has no stone left on the Battlefield (rule 10)."""
        for seat in (opponent(self.to_move), self.to_move):
            if seat not in self.board:
                return self._with(
                    phase="over",
                    outcome=Outcome(
                        frozenset((opponent(seat),)),
                        tr("{seat} has no stone left on the Battlefield.", seat=SEAT_NAMES[seat]),
                    ),
                )
        return None


def _layout_text(values: tuple[int, ...]) -> str:
    return " ".join(f"{values[a]}{values[b]}" for a, b in map(tile_squares, range(len(BATTLEFIELD_TILES))))


def _parse_layout(text: str) -> tuple[int, ...]:
    """42 space values from `12 43 ...`; raises IllegalMove unless it is the 21 non-blank tiles."""
    tokens = re.findall(r"\d\s*[-:]?\s*\d|\S", text)
    pairs = []
    for token in tokens:
        digits = re.sub(r"\D", "", token)
        if len(digits) != 2:
            raise IllegalMove(
                tr("{token} is not a tile: write each tile as two digits, left then right.", token=shown(token))
            )
        pairs.append((int(digits[0]), int(digits[1])))
    if len(pairs) != len(BATTLEFIELD_TILES):
        raise IllegalMove(tr("A layout lists exactly 21 tiles, not {count}.", count=len(pairs)))
    if sorted((min(p), max(p)) for p in pairs) != list(BATTLEFIELD_TILES):
        raise IllegalMove(tr("A layout must use each of the 21 tiles 1-1 … 6-6 exactly once (no blanks)."))
    return tuple(v for pair in pairs for v in pair)


class DominanceRules(Rules):
    info = GameInfo(
        key="dominance",
        name="Dominance",
        seat_names=SEAT_NAMES,
        blurb=tr("Dice light up a random domino Battlefield; race, capture, and climb back out of the Underworld."),
        how_to_play=HOW_TO_PLAY,
        options=(
            Option(
                "turn_limit",
                500,
                tr("turns (after setup) before the game is drawn (0: no limit)"),
                minimum=0,
                maximum=5000,
            ),
        ),
        button_moves=re.compile(r"^(done|enter [a-f][1-7])$"),
        move_pattern=re.compile(
            r"^\s*(([a-f][1-7]|u[0-6])\s*[-x ]\s*([a-f][1-7]|u[0-6])|enter\s+[a-z]\d+|done)\s*$", re.I
        ),
    )

    def _start(self, options: dict[str, OptionValue]) -> DominanceState:
        return DominanceState(options=options)

    def load(self, data: Mapping[str, Any], later: Sequence[str] = ()) -> DominanceState:
        board = [EMPTY] * SPACES
        for name, owner in data["stones"].items():
            board[_INDEX[name]] = int(owner)
        outcome = data.get("outcome")
        layout = data.get("layout")
        return DominanceState(
            options=self.resolve_options(data.get("options", {})),
            values=_parse_layout(layout) if layout else (),
            board=tuple(board),
            under=tuple(int(n) for row in data["underworld"] for n in row),
            unplaced=(int(data["unplaced"][0]), int(data["unplaced"][1])),
            phase=str(data["phase"]),
            to_move=int(data["to_move"]),
            dice=tuple(int(d) for d in data["dice"]),
            pair=tuple(int(d) for d in data["pair"]),
            eligible=frozenset(_INDEX[n] for n in data["eligible"]),
            uw_eligible=tuple(int(n) for n in data["uw_eligible"]),
            moved=tuple(_INDEX[n] for n in data["moved"]),
            uw_moved=tuple(int(n) for n in data["uw_moved"]),
            captured=frozenset(_INDEX[n] for n in data["captured"]),
            turns=int(data["turns"]),
            ply=int(data["ply"]),
            last_move=data.get("last_move"),
            last_seat=data.get("last_seat"),
            last_path=tuple(str(p) for p in data.get("last_path", ())),
            outcome=Outcome.from_json(outcome) if outcome else None,
        )


DominanceState.rules = DominanceRules()
