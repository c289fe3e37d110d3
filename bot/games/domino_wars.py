"""Domino Wars (RedsToad): draft eight dominoes in secret, then fight for a 4×4 board.

Rulings and notation: `shared/rules/domino-wars.md`.  This is the game whose hidden
information must be airtight: a seat's draft, hand and draw-pile order never reach the
public view or the other seat's view, not even through `last_move` or the ply counter.

Representation
--------------
* The board is three tuples of 16 ints indexed `file + 4 * rank`: the visible mino's
  number (-1: empty), its owner (-1: empty) and how many minos lie under it.  Covered
  minos matter only as a count, so nothing more is kept.  A fourth tuple, `partners`,
  names the square holding the other half of each visible mino's domino while both halves
  are still visible (-1 once one is covered): pictures draw those pairs as dominoes.
* Per-seat data are pairs of tuples: `drafts` (sorted), `hands` (sorted), `piles` (top
  first), `known` (one flag per pile position: does the owner know that tile's place?),
  `discards` (in the order discarded; public).  A shuffle clears `known`; effect 2 sets the
  flag of the tile it puts on top, effect 0 of the tile it puts at the bottom.  Flags travel
  with their tiles, so the known tiles always form a prefix and a suffix of the pile.
* Effects still to resolve for the tile just placed are a queue (`effects`); when one
  needs a choice, `pending` names it and the same seat answers in an effect sub-phase.

Phases: `first` → `draft` → `deal` → `mulligan` → `play` / `effect` → `over`.

Canonical forms chosen where the rulings leave a choice
-------------------------------------------------------
* First player: CHANCE plays `first 0` / `first 1` (seat numbers).  The `tie` holder
  plays `first me` / `first you` (what `legal_moves` lists: the same words whichever seat
  holds the item); `first 0` / `first 1` from the holder are accepted and canonicalised.
  The choice comes before the draft, so both drafts are made knowing the directions.
* Draft: `pick x-y` one tile at a time, or `draft ...` (8 tiles, canonical sorted), which
  may also complete a draft already begun if it contains the tiles picked so far.  A
  `repeat` holder may pick one tile a second time at any point of the draft (the copy is
  listed among the picks while no tile has been copied yet); the item allows a copy and
  does not force one, so eight distinct tiles stay legal for the holder too.
* Shuffles: `shuffle 0 2-6 0-3 ...` is the seat's whole pile, top first; the owner then
  draws 3.  This covers the opening deal and every mulligan reshuffle.
* Mulligan decisions (`mulligan` / `keep`) are simultaneous for the two seats; a holder
  decides again after each reshuffle while mulligans are left.
* Skipped turns (rule 7, effect 6) are not moves: the turn passes on by itself and the
  public view lists the seats skipped (`skipped`).  A pending effect-6 skip is used up by
  the seat's next turn even when rule 7 would have skipped that turn anyway.

What the public view says about secret moves
--------------------------------------------
`last_move` is `draft` when a seat completes its draft (single picks before that change
nothing public), `shuffle 0` for a shuffle and `top` for effect 2; `ply` counts the moves
visible to everyone: player moves, where a whole draft counts once, chance moves never.
"""

from __future__ import annotations

import operator
import random
import re
from collections import Counter
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
from bot.games.dominoes import Tile, format_tiles, no_doubles, parse_tile
from bot.games.squares import parse_square, square_name
from bot.i18n import joined, tr

SIZE = 4
SQUARES = SIZE * SIZE
DRAFT_SIZE = 8
OPENING_HAND = 3
MULLIGANS = 2
NAMES = tuple(square_name(i % SIZE, i // SIZE) for i in range(SQUARES))
POOL = tuple(no_doubles())
TILE_NAMES = {t: str(t) for t in POOL}
PICKS = {t: f"pick {t}" for t in POOL}
VERTICAL = tuple((i, i + SIZE) for i in range(SQUARES - SIZE))
HORIZONTAL = tuple((i, i + 1) for i in range(SQUARES) if i % SIZE < SIZE - 1)
DIRECTION_NAMES = (tr("vertical"), tr("horizontal"))
SEAT_NAMES = (tr("Orange"), tr("Blue"))
EFFECT_WORDS = {0: "recycle", 2: "top", 4: "discard"}

_PLACE = re.compile(r"^([0-6])\s*[-:|/]\s*([0-6])\s+([a-z]\d{1,2})\s*[- ]?\s*([a-z]\d{1,2})$")
_WORD_TILE = re.compile(r"^(pick|recycle|top|discard)\s+(.+)$")
_FIRST = re.compile(r"^first\s+(me|you|0|1)$")
_SHUFFLE = re.compile(r"^shuffle\s+([01])((?:\s+\S+)*)$")

HOW_TO_PLAY = tr(
    """\
**Domino Wars** — draft eight dominoes in secret, then cover more of a 4×4 board.
• **First player**: random, or chosen by the `tie` holder (`first me` / `first you`). The first
  player places **vertically** only, the second **horizontally** only.
• **Draft**: both at once, secretly, pick 8 different tiles of the 21 (no doubles): `pick 2-5`
  eight times, or `draft 0-1 0-2 1-3 2-5 2-6 3-4 4-6 5-6`. Your picks are shuffled into your
  draw pile; draw 3.
• **Your turn**: place a tile from your hand on two adjacent squares in your direction, e.g.
  `5-3 b2-b3` (numbers in the order of the squares). Each square must be empty or show a
  **strictly lower** number. Then the tile's effects run, lower number first:
  0 `recycle x-y`: a tile of your discard pile goes to the bottom of your draw pile ·
  1 draw · 2 `top x-y`: put a tile of your pile on top · 3 nothing ·
  4 `discard x-y` from your hand, then draw · 5 no draw at the end of this turn ·
  6 your next turn is skipped. Then draw one.
• No tile in hand, or none that fits: your turn is skipped.
• The game ends when neither player can place. Most squares showing your number wins.
Items (match options, per seat): `repeat` (one tile may be drafted twice; optional), `mulligan`
(`mulligan` / `keep` your opening hand, up to twice), `tie` (choose the first player, win ties)."""
)


def _holders(value: OptionValue) -> frozenset[int]:
    """The seats an item option gives the item to (`none`, `0`, `1`, `both`)."""
    return {"none": frozenset(), "0": frozenset((0,)), "1": frozenset((1,)), "both": frozenset((0, 1))}[str(value)]


def _pair(a: Any, b: Any) -> Any:
    return (a, b)


def _set(pair: tuple[Any, Any], seat: int, value: Any) -> Any:
    return (value, pair[1]) if seat == 0 else (pair[0], value)


def _parse_tiles(text: str) -> list[Tile]:
    return [parse_tile(part) for part in text.split()]


def _remove_one(tiles: tuple[Tile, ...], tile: Tile) -> tuple[Tile, ...]:
    i = tiles.index(tile)
    return tiles[:i] + tiles[i + 1 :]


def _distinct(tiles: Iterable[Tile]) -> list[Tile]:
    return sorted(set(tiles))


class DominoWarsState(GameState):
    """A Domino Wars position (see the module docstring for the representation)."""

    __slots__ = (
        "_outcome",
        "deciding",
        "discards",
        "drafts",
        "effects",
        "first",
        "forced",
        "hands",
        "known",
        "last_move",
        "last_placement",
        "last_seat",
        "mulligans_left",
        "no_draw",
        "options",
        "owners",
        "partners",
        "pending",
        "phase",
        "piles",
        "ply",
        "shuffle_due",
        "skipped",
        "skips",
        "to_move",
        "tops",
        "under",
    )

    def __init__(self, options: dict[str, OptionValue]) -> None:
        self.options = options
        self.phase = "first"
        self.first: int | None = None
        self.to_move = 0
        self.tops: tuple[int, ...] = (-1,) * SQUARES
        self.owners: tuple[int, ...] = (-1,) * SQUARES
        self.under: tuple[int, ...] = (0,) * SQUARES
        self.partners: tuple[int, ...] = (-1,) * SQUARES
        self.drafts: tuple[tuple[Tile, ...], tuple[Tile, ...]] = ((), ())
        self.hands: tuple[tuple[Tile, ...], tuple[Tile, ...]] = ((), ())
        self.piles: tuple[tuple[Tile, ...], tuple[Tile, ...]] = ((), ())
        self.known: tuple[tuple[bool, ...], tuple[bool, ...]] = ((), ())
        self.discards: tuple[tuple[Tile, ...], tuple[Tile, ...]] = ((), ())
        self.skips = (0, 0)
        self.shuffle_due = (False, False)
        holders = _holders(options["mulligan"])
        self.mulligans_left: tuple[int, int] = (MULLIGANS if 0 in holders else 0, MULLIGANS if 1 in holders else 0)
        self.deciding = (False, False)
        self.effects: tuple[int, ...] = ()
        self.pending: int | None = None
        self.no_draw = False
        self.skipped: tuple[int, ...] = ()
        self.last_move: str | None = None
        self.last_seat: int | None = None
        self.last_placement: tuple[int, int, int] | None = None
        self.ply = 0
        self._outcome: Outcome | None = None
        self.forced = ()

    def _copy(self) -> Self:
        """A shallow copy, which `_apply` then changes: every move of every search makes one.
        The slots are read with one `attrgetter` call (half the time of a `getattr` each)."""
        new = object.__new__(type(self))
        for name, value in zip(self.__slots__, _slot_values(self), strict=True):
            setattr(new, name, value)
        new.forced = ()
        return new

    # --- contract ------------------------------------------------------------------

    @property
    def turn(self) -> frozenset[int]:
        if self._outcome is not None:
            return frozenset()
        if self.shuffle_due[0] or self.shuffle_due[1]:
            return frozenset((CHANCE,))
        phase = self.phase
        if phase in ("play", "effect"):
            return frozenset((self.to_move,))
        if phase == "draft":
            return frozenset(s for s in (0, 1) if len(self.drafts[s]) < DRAFT_SIZE)
        if phase == "mulligan":
            return frozenset(s for s in (0, 1) if self.deciding[s])
        holder = self.tie_holder
        return frozenset((CHANCE if holder is None else holder,))

    @property
    def drafting(self) -> bool:
        """The secret draft (rule 5), not the mulligan decisions (one move each)."""
        return self._outcome is None and self.phase == "draft" and CHANCE not in self.turn

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def tie_holder(self) -> int | None:
        holders = _holders(self.options["tie"])
        return min(holders) if holders else None

    def legal_moves(self, seat: int) -> list[str]:
        if seat not in self.turn or seat == CHANCE:
            return []
        phase = self.phase
        if phase == "play":
            return self._placements(seat)
        if phase == "effect":
            return self._effect_choices(seat)
        if phase == "draft":
            return [PICKS[t] for t in self._pickable(seat)]
        if phase == "mulligan":
            return ["keep", "mulligan"]
        return ["first me", "first you"]

    def has_placement(self, seat: int) -> bool:
        """Whether `seat` could place a tile of its hand now (rules 7 and 11)."""
        tops = self.tops
        for pair in self._pairs(seat):
            i, j = pair
            low = tops[i] if tops[i] < tops[j] else tops[j]
            high = tops[i] + tops[j] - low
            for tile in self.hands[seat]:
                # Some orientation fits exactly when the high number beats the higher
                # square and the low number the lower one.
                if tile.high > high and tile.low > low:
                    return True
        return False

    def _fits(self, seat: int, tile: Tile) -> bool:
        """Whether `tile` could be placed by `seat` somewhere on the board now."""
        tops = self.tops
        for i, j in self._pairs(seat):
            low = tops[i] if tops[i] < tops[j] else tops[j]
            if tile.high > tops[i] + tops[j] - low and tile.low > low:
                return True
        return False

    def _pairs(self, seat: int) -> tuple[tuple[int, int], ...]:
        return VERTICAL if seat == self.first else HORIZONTAL

    def forced_move(self, seat: int) -> str | None:
        """The only legal move, else None.  A placement is known at the second one
        `_placements` would list, none of them written out: the engine asks after every
        move, and a hand usually fits in several places."""
        if self.phase != "play" or seat not in self.turn or seat == CHANCE:
            return super().forced_move(seat)
        tops = self.tops
        only: tuple[int, int, int, int] | None = None
        for a, b in _distinct(self.hands[seat]):
            for i, j in self._pairs(seat):
                for x, y in ((a, b), (b, a)):
                    if x > tops[i] and y > tops[j]:
                        if only is not None:
                            return None
                        only = (x, y, i, j)
        if only is None:
            return None
        x, y, i, j = only
        return f"{x}-{y} {NAMES[i]}-{NAMES[j]}"

    def _placements(self, seat: int) -> list[str]:
        tops = self.tops
        moves: list[str] = []
        for tile in _distinct(self.hands[seat]):
            a, b = tile
            for i, j in self._pairs(seat):
                if a > tops[i] and b > tops[j]:
                    moves.append(f"{a}-{b} {NAMES[i]}-{NAMES[j]}")
                if b > tops[i] and a > tops[j]:
                    moves.append(f"{b}-{a} {NAMES[i]}-{NAMES[j]}")
        return moves

    def _effect_choices(self, seat: int) -> list[str]:
        word = EFFECT_WORDS[self.pending] if self.pending is not None else ""
        if self.pending == 0:
            source: Iterable[Tile] = self.discards[seat]
        elif self.pending == 2:
            source = self.piles[seat]
        else:
            source = self.hands[seat]
        return [f"{word} {t}" for t in _distinct(source)]

    def _pickable(self, seat: int) -> list[Tile]:
        picked = self.drafts[seat]
        if seat in _holders(self.options["repeat"]) and len(set(picked)) == len(picked):
            return [t for t in POOL if picked.count(t) < 2]
        return [t for t in POOL if t not in picked]

    def describe(self, before: GameState, entry: LogEntry) -> str | None:
        """A secret draft says only that a seat finished it ("Blue has drafted"), effect 2
        only that a pile tile went on top; a placement or effect choice that ends a turn says
        which turns the rules then skipped (effect 6, or no tile that fits: rule 7), which the
        thread would otherwise show only as the same player moving again."""
        seat = entry.seat
        if seat not in (0, 1) or not isinstance(before, DominoWarsState):
            return None
        if len(before.drafts[seat]) < DRAFT_SIZE <= len(self.drafts[seat]):
            return tr("{seat} has drafted.", seat=SEAT_NAMES[seat])
        move = normalise(entry.move)
        placed = _PLACE.match(move) is not None
        said: str | None = None
        if move.startswith("top"):
            said = tr("{seat} puts a tile of their draw pile on top.", seat=SEAT_NAMES[seat])
        if not placed and not move.startswith(tuple(EFFECT_WORDS.values())):
            return said
        skipped = self.skipped if placed else self.skipped[len(before.skipped) :]
        if not skipped:
            return said
        reasons = [
            tr("{seat}'s turn is skipped (effect 6).", seat=SEAT_NAMES[s])
            if before.skips[s] > self.skips[s]
            else tr("{seat} has no tile that fits: their turn is skipped.", seat=SEAT_NAMES[s])
            for s in skipped
        ]
        head = said or tr("{seat} played `{move}`.", seat=SEAT_NAMES[seat], move=entry.move)
        return joined(" ", [head, *reasons])

    def is_public_move(self, seat: int, move: str) -> bool:
        """Draft picks, shuffles and effect 2's choice are secret; everything else a player
        does (placements, recycles and discards to public piles, mulligans) is seen."""
        if seat == CHANCE:
            return not normalise(move).startswith("shuffle")
        return not normalise(move).startswith(("pick", "draft", "top"))

    def view(self, seat: int | None) -> dict[str, Any]:
        public = {
            **self.public_base(),
            "phase": "over" if self._outcome is not None else self.phase,
            "first": self.first,
            "directions": None
            if self.first is None
            else [DIRECTION_NAMES[0 if s == self.first else 1] for s in (0, 1)],
            "board": {
                NAMES[i]: {"number": self.tops[i], "owner": self.owners[i], "under": self.under[i]}
                for i in range(SQUARES)
                if self.tops[i] >= 0
            },
            "dominoes": [[NAMES[i], NAMES[p]] for i, p in enumerate(self.partners) if i < p],
            "discards": [[str(t) for t in self.discards[s]] for s in (0, 1)],
            "hand_sizes": [len(self.hands[s]) for s in (0, 1)],
            "pile_sizes": [len(self.piles[s]) for s in (0, 1)],
            "drafted": [len(self.drafts[s]) == DRAFT_SIZE for s in (0, 1)],
            "mulligans_left": list(self.mulligans_left),
            "skips": list(self.skips),
            "skipped": list(self.skipped),
            "scores": list(self.scores()),
            "effect": self.pending,
            "effects_queued": list(self.effects),
            "items": {name: str(self.options[name]) for name in ("repeat", "mulligan", "tie")},
            "last_move": self.last_move,
            "last_seat": self.last_seat,
            "last_placement": None
            if self.last_placement is None
            else {
                "seat": self.last_placement[0],
                "squares": [NAMES[self.last_placement[1]], NAMES[self.last_placement[2]]],
            },
            "ply": self.ply,
        }
        if seat is None:
            return public
        return self.seat_view(public, seat, self._private(seat))

    def _private(self, seat: int) -> dict[str, Any]:
        pile, known = self.piles[seat], self.known[seat]
        top = 0
        while top < len(pile) and known[top]:
            top += 1
        bottom = len(pile)
        while bottom > top and known[bottom - 1]:
            bottom -= 1
        return {
            "hand": [str(t) for t in self.hands[seat]],
            "draft": [str(t) for t in sorted(self.drafts[seat])],
            "pile": [str(t) for t in sorted(pile)],
            "known_top": [str(t) for t in pile[:top]],
            "known_bottom": [str(t) for t in pile[bottom:]],
            "choices": self._effect_choices(seat) if self.phase == "effect" and seat == self.to_move else [],
        }

    def scores(self) -> tuple[int, int]:
        return (self.owners.count(0), self.owners.count(1))

    def determinize(self, seat: int, rng: random.Random) -> Self:
        """A state `seat` cannot tell from this one, its secrets drawn with `rng`.

        Built from `view(seat)` alone: the opponent's hand and pile are distinct tiles
        drawn from those not in its discard pile (its draft, unseen, is made of them, its
        discards and random fillers; an unfinished draft is taken as not begun), and the
        part of `seat`'s own pile whose order it does not know is shuffled."""
        view = self.view(seat)
        private = view["private"]
        other = opponent(seat)
        new = self._copy()
        # Own pile: known top, shuffled middle, known bottom.
        top = tuple(parse_tile(t) for t in private["known_top"])
        bottom = tuple(parse_tile(t) for t in private["known_bottom"])
        middle = list((Counter(parse_tile(t) for t in private["pile"]) - Counter(top) - Counter(bottom)).elements())
        middle.sort()
        rng.shuffle(middle)
        new.piles = _set(new.piles, seat, (*top, *middle, *bottom))
        new.known = _set(new.known, seat, (True,) * len(top) + (False,) * len(middle) + (True,) * len(bottom))
        # The opponent's secrets.
        discarded = [parse_tile(t) for t in view["discards"][other]]
        in_hand, in_pile = view["hand_sizes"][other], view["pile_sizes"][other]
        candidates = sorted(set(POOL) - set(discarded))
        must_place = self.phase == "play" and self.to_move == other and in_hand > 0
        for _attempt in range(20):
            # The opponent is only ever asked to place when it can (rule 7).
            rng.shuffle(candidates)
            new.hands = _set(new.hands, other, tuple(sorted(candidates[:in_hand])))
            if not must_place or new.has_placement(other):
                break
        else:
            fitting = [t for t in candidates if new._fits(other, t)]
            if fitting:
                tile = rng.choice(fitting)
                candidates.remove(tile)
                candidates.insert(0, tile)
        hidden = candidates[: in_hand + in_pile]
        spare = candidates[in_hand + in_pile :]
        new.hands = _set(new.hands, other, tuple(sorted(hidden[:in_hand])))
        new.piles = _set(new.piles, other, tuple(hidden[in_hand:]))
        new.known = _set(new.known, other, (False,) * in_pile)
        if view["drafted"][other]:
            draft = [*discarded, *hidden]
            draft += spare[: max(0, DRAFT_SIZE - len(draft))]
            new.drafts = _set(new.drafts, other, tuple(sorted(draft[:DRAFT_SIZE])))
        else:
            new.drafts = _set(new.drafts, other, ())
        return new

    def dump(self) -> dict[str, Any]:
        return {
            "game": "domino_wars",
            "options": dict(self.options),
            "phase": self.phase,
            "first": self.first,
            "to_move": self.to_move,
            "board": [[self.tops[i], self.owners[i], self.under[i]] for i in range(SQUARES)],
            "partners": list(self.partners),
            "drafts": [format_tiles(x) for x in self.drafts],
            "hands": [format_tiles(x) for x in self.hands],
            "piles": [format_tiles(x) for x in self.piles],
            "known": ["".join("1" if k else "0" for k in x) for x in self.known],
            "discards": [format_tiles(x) for x in self.discards],
            "skips": list(self.skips),
            "shuffle_due": list(self.shuffle_due),
            "mulligans_left": list(self.mulligans_left),
            "deciding": list(self.deciding),
            "effects": list(self.effects),
            "pending": self.pending,
            "no_draw": self.no_draw,
            "skipped": list(self.skipped),
            "last_move": self.last_move,
            "last_seat": self.last_seat,
            "last_placement": None if self.last_placement is None else list(self.last_placement),
            "ply": self.ply,
            "outcome": self._outcome.to_json() if self._outcome else None,
        }

    # --- chance --------------------------------------------------------------------

    def _sample_chance(self, rng: random.Random) -> str:
        for seat in (0, 1):
            if self.shuffle_due[seat]:
                order = list(self.piles[seat])
                rng.shuffle(order)
                return f"shuffle {seat} {format_tiles(order)}".rstrip()
        return f"first {rng.randrange(2)}"

    # --- moves ---------------------------------------------------------------------

    def _apply(self, seat: int, move: str) -> Self:
        text = normalise(move)
        if seat == CHANCE:
            return self._apply_chance(text, move)
        phase = self.phase
        if phase == "play":
            return self._place(seat, text, move)
        if phase == "effect":
            return self._choose_effect(seat, text, move)
        if phase == "draft":
            return self._draft(seat, text, move)
        if phase == "mulligan":
            return self._mulligan(seat, text, move)
        return self._choose_first(seat, text, move)

    def _apply_chance(self, text: str, move: str) -> Self:
        if self.phase == "first":
            match = _FIRST.match(text)
            if match is None or match.group(1) not in ("0", "1"):
                raise IllegalMove(
                    tr("{move} is not a first-player draw; write `first 0` or `first 1`.", move=shown(move))
                )
            return self._set_first(int(match.group(1)), f"first {match.group(1)}", CHANCE)
        match = _SHUFFLE.match(text)
        if match is None:
            raise IllegalMove(
                tr("{move} is not a shuffle; write `shuffle 0` and the pile, top first.", move=shown(move))
            )
        seat = int(match.group(1))
        if not self.shuffle_due[seat]:
            raise IllegalMove(tr("No shuffle of seat {seat}'s pile is due now.", seat=seat))
        order = tuple(_parse_tiles(match.group(2)))
        if Counter(order) != Counter(self.piles[seat]):
            raise IllegalMove(tr("A shuffle must list exactly the tiles of that draw pile."))
        return self._shuffle(seat, order)

    # first player and draft ---------------------------------------------------------

    def _choose_first(self, seat: int, text: str, move: str) -> Self:
        match = _FIRST.match(text)
        if match is None:
            raise IllegalMove(
                tr("{move} is not a first-player choice; write `first me` or `first you`.", move=shown(move))
            )
        word = match.group(1)
        first = seat if word == "me" else opponent(seat) if word == "you" else int(word)
        return self._set_first(first, "first me" if first == seat else "first you", seat)

    def _set_first(self, first: int, notation: str, seat: int) -> Self:
        new = self._copy()
        new.first = first
        new.phase = "draft"
        new._record(seat, notation)
        return new

    def _draft(self, seat: int, text: str, move: str) -> Self:
        if text.startswith("draft"):
            return self._whole_draft(seat, text[5:], move)
        match = _WORD_TILE.match(text)
        if match is None or match.group(1) != "pick":
            raise IllegalMove(
                tr("{move} is not a draft move; write `pick 2-5` or `draft` and 8 tiles.", move=shown(move))
            )
        tile = parse_tile(match.group(2))
        if tile.is_double:
            raise IllegalMove(tr("Doubles are not in the pool: pick a tile with two different numbers."))
        if tile not in self._pickable(seat):
            raise IllegalMove(self._why_not_pickable(seat, tile))
        return self._with_draft(seat, tuple(sorted((*self.drafts[seat], tile))))

    def _why_not_pickable(self, seat: int, tile: Tile) -> str:
        if seat not in _holders(self.options["repeat"]):
            return f"You already picked {tile}: a draft has 8 different tiles."
        if self.drafts[seat].count(tile) >= 2:
            return f"You already have {tile} twice."
        return "Domino Repeat lets you copy only one tile, and you already did."

    def _whole_draft(self, seat: int, rest: str, move: str) -> Self:
        try:
            tiles = _parse_tiles(rest)
        except IllegalMove:
            raise IllegalMove(
                tr("{move} is not a draft; write `draft` and 8 tiles like `2-5`.", move=shown(move))
            ) from None
        if len(tiles) != DRAFT_SIZE:
            raise IllegalMove(
                tr("A draft has {draft_size} tiles, not {count}.", draft_size=DRAFT_SIZE, count=len(tiles))
            )
        if any(t.is_double for t in tiles):
            raise IllegalMove(tr("Doubles are not in the pool: draft tiles with two different numbers."))
        counts = Counter(tiles)
        copies = sum(n - 1 for n in counts.values())
        allowed = 1 if seat in _holders(self.options["repeat"]) else 0
        if copies > allowed:
            if allowed:
                raise IllegalMove(tr("Domino Repeat allows one tile twice; the other tiles must all differ."))
            raise IllegalMove(tr("A draft has 8 different tiles."))
        if Counter(self.drafts[seat]) - counts:
            raise IllegalMove(tr("Your draft must include the tiles you have already picked."))
        return self._with_draft(seat, tuple(sorted(tiles)))

    def _with_draft(self, seat: int, draft: tuple[Tile, ...]) -> Self:
        new = self._copy()
        new.drafts = _set(self.drafts, seat, draft)
        if len(draft) < DRAFT_SIZE:
            return new  # a single pick changes nothing public
        new._record(seat, "draft")
        if all(len(d) == DRAFT_SIZE for d in new.drafts):
            new.phase = "deal"
            new.piles = new.drafts
            new.known = ((False,) * DRAFT_SIZE, (False,) * DRAFT_SIZE)
            new.shuffle_due = (True, True)
        return new

    # shuffles and mulligans -----------------------------------------------------------

    def _shuffle(self, seat: int, order: tuple[Tile, ...]) -> Self:
        new = self._copy()
        new.piles = _set(self.piles, seat, order[OPENING_HAND:])
        new.known = _set(self.known, seat, (False,) * len(order[OPENING_HAND:]))
        new.hands = _set(self.hands, seat, tuple(sorted(order[:OPENING_HAND])))
        new.shuffle_due = _set(self.shuffle_due, seat, False)
        new.deciding = _set(new.deciding, seat, new.mulligans_left[seat] > 0)
        new.last_move, new.last_seat = f"shuffle {seat}", CHANCE
        if new.phase == "deal" and not any(new.shuffle_due):
            new.phase = "mulligan"
        return new._maybe_begin_play()

    def _mulligan(self, seat: int, text: str, move: str) -> Self:
        if text not in ("mulligan", "keep"):
            raise IllegalMove(tr("{move} is not a mulligan decision; write `mulligan` or `keep`.", move=shown(move)))
        new = self._copy()
        new._record(seat, text)
        if text == "keep":
            new.deciding = _set(self.deciding, seat, False)
            return new._maybe_begin_play()
        new.mulligans_left = _set(self.mulligans_left, seat, self.mulligans_left[seat] - 1)
        new.piles = _set(self.piles, seat, tuple(sorted(self.piles[seat] + self.hands[seat])))
        new.known = _set(self.known, seat, (False,) * len(new.piles[seat]))
        new.hands = _set(self.hands, seat, ())
        new.shuffle_due = _set(self.shuffle_due, seat, True)
        return new

    def _maybe_begin_play(self) -> Self:
        """Start the play once both piles are dealt and no mulligan decision is open."""
        if self.phase != "mulligan" or any(self.shuffle_due) or any(self.deciding):
            return self
        assert self.first is not None
        self.phase = "play"
        self._pass_turn_to(self.first)
        return self

    # placement and effects ------------------------------------------------------------

    def _place(self, seat: int, text: str, move: str) -> Self:
        match = _PLACE.match(text)
        if match is None:
            raise IllegalMove(tr("{move} is not a placement; write it like `5-3 b2-b3`.", move=shown(move)))
        a, b = int(match.group(1)), int(match.group(2))
        i = self._square(match.group(3))
        j = self._square(match.group(4))
        if i > j:
            i, j, a, b = j, i, b, a
        if a == b:
            raise IllegalMove(tr("There are no doubles in Domino Wars."))
        tile = Tile.of(a, b)
        if tile not in self.hands[seat]:
            raise IllegalMove(tr("You have no {tile} in your hand.", tile=tile))
        if (i, j) not in self._pairs(seat):
            vertical = seat == self.first
            raise IllegalMove(
                tr(
                    "You place vertically: {square} and {square2} are not such a pair of squares.",
                    square=NAMES[i],
                    square2=NAMES[j],
                )
                if vertical
                else tr(
                    "You place horizontally: {square} and {square2} are not such a pair of squares.",
                    square=NAMES[i],
                    square2=NAMES[j],
                )
            )
        for square, number in ((i, a), (j, b)):
            if number <= self.tops[square]:
                raise IllegalMove(
                    tr(
                        "{square} shows a {tops}: you may cover it only with a higher number.",
                        square=NAMES[square],
                        tops=self.tops[square],
                    )
                )
        new = self._copy()
        tops, owners, under = list(self.tops), list(self.owners), list(self.under)
        for square, number in ((i, a), (j, b)):
            if tops[square] >= 0:
                under[square] += 1
            tops[square], owners[square] = number, seat
        partners = list(self.partners)
        for square in (i, j):  # a covered half leaves its old partner a lone half
            if partners[square] >= 0:
                partners[partners[square]] = -1
        partners[i], partners[j] = j, i
        new.tops, new.owners, new.under, new.partners = tuple(tops), tuple(owners), tuple(under), tuple(partners)
        new.hands = _set(self.hands, seat, _remove_one(self.hands[seat], tile))
        new.discards = _set(self.discards, seat, (*self.discards[seat], tile))
        new.effects = (tile.low, tile.high)
        new.no_draw = False
        new.skipped = ()
        new.last_placement = (seat, i, j)
        new._record(seat, f"{a}-{b} {NAMES[i]}-{NAMES[j]}")
        return new._resolve(seat)

    @staticmethod
    def _square(text: str) -> int:
        f, r = parse_square(text, SIZE, SIZE)
        return f + SIZE * r

    def _resolve(self, seat: int) -> Self:
        """Run queued effects until one needs a choice or the turn ends (mutates `self`,
        which is always a fresh copy here)."""
        while self.effects:
            effect, self.effects = self.effects[0], self.effects[1:]
            if effect == 0 or (effect == 2 and self.piles[seat]) or (effect == 4 and self.hands[seat]):
                self.phase, self.pending = "effect", effect
                return self
            if effect in (1, 4):
                self._draw(seat)
            elif effect == 5:
                self.no_draw = True
            elif effect == 6:
                self.skips = _set(self.skips, seat, self.skips[seat] + 1)
        self.phase, self.pending = "play", None
        if not self.no_draw:
            self._draw(seat)
        self.no_draw = False
        self._pass_turn_to(opponent(seat))
        return self

    def _draw(self, seat: int) -> None:
        pile = self.piles[seat]
        if pile:
            self.hands = _set(self.hands, seat, tuple(sorted((*self.hands[seat], pile[0]))))
            self.piles = _set(self.piles, seat, pile[1:])
            self.known = _set(self.known, seat, self.known[seat][1:])

    def _choose_effect(self, seat: int, text: str, move: str) -> Self:
        word = EFFECT_WORDS[self.pending] if self.pending is not None else ""
        match = _WORD_TILE.match(text)
        if match is None or match.group(1) != word:
            raise IllegalMove(
                tr(
                    "Effect {pending} needs a choice first: write `{word}` and a tile, like `{word} 2-5`.",
                    pending=self.pending,
                    word=word,
                )
            )
        tile = parse_tile(match.group(2))
        new = self._copy()
        new.pending = None
        if self.pending == 0:
            self._recycle(new, seat, tile)
            new._record(seat, f"recycle {tile}")
        elif self.pending == 2:
            self._to_top(new, seat, tile)
            new._record(seat, "top")  # the chosen tile is a secret of the pile
        else:
            if tile not in self.hands[seat]:
                raise IllegalMove(tr("You have no {tile} in your hand to discard.", tile=tile))
            new.hands = _set(self.hands, seat, _remove_one(self.hands[seat], tile))
            new.discards = _set(self.discards, seat, (*self.discards[seat], tile))
            new._draw(seat)
            new._record(seat, f"discard {tile}")
        return new._resolve(seat)

    def _recycle(self, new: Self, seat: int, tile: Tile) -> None:
        discards = self.discards[seat]
        if tile not in discards:
            raise IllegalMove(tr("{tile} is not in your discard pile.", tile=tile))
        last = len(discards) - 1 - discards[::-1].index(tile)
        new.discards = _set(self.discards, seat, discards[:last] + discards[last + 1 :])
        new.piles = _set(self.piles, seat, (*self.piles[seat], tile))
        new.known = _set(self.known, seat, (*self.known[seat], True))

    def _to_top(self, new: Self, seat: int, tile: Tile) -> None:
        pile, known = self.piles[seat], self.known[seat]
        if tile not in pile:
            raise IllegalMove(tr("{tile} is not in your draw pile.", tile=tile))
        i = pile.index(tile)
        new.piles = _set(self.piles, seat, (tile, *pile[:i], *pile[i + 1 :]))
        new.known = _set(self.known, seat, (True, *known[:i], *known[i + 1 :]))

    # turn order and the end -------------------------------------------------------------

    def _pass_turn_to(self, seat: int) -> None:
        """Give the turn to `seat`, skipping turns by effect 6 and rule 7; end the game
        when neither player can place (rule 11).  Mutates a fresh copy."""
        can = (self.has_placement(0), self.has_placement(1))
        if not can[0] and not can[1]:
            self._finish()
            return
        skipped: list[int] = []
        while True:
            if self.skips[seat]:
                self.skips = _set(self.skips, seat, self.skips[seat] - 1)
            elif can[seat]:
                break
            skipped.append(seat)
            seat = opponent(seat)
        self.to_move = seat
        self.skipped = (*self.skipped, *skipped)

    def _finish(self) -> None:
        scores = self.scores()
        names = SEAT_NAMES
        tally = {"first": names[0], "shown": scores[0], "second": names[1], "other": scores[1]}
        if scores[0] != scores[1]:
            winner = 0 if scores[0] > scores[1] else 1
            reason = tr("Neither player can place. {first} shows {shown} squares, {second} {other}.", **tally)
            self._outcome = Outcome(frozenset((winner,)), reason, scores)
        elif self.tie_holder is not None:
            reason = tr(
                "Neither player can place. {first} shows {shown} squares, {second} {other}. "
                "Tie Advantage breaks the tie.",
                **tally,
            )
            self._outcome = Outcome(frozenset((self.tie_holder,)), reason, scores)
        else:
            reason = tr("Neither player can place. {first} shows {shown} squares, {second} {other}. A draw.", **tally)
            self._outcome = Outcome(frozenset(), reason, scores)
        self.phase = "over"

    def _record(self, seat: int, notation: str) -> None:
        self.last_move, self.last_seat = notation, seat
        self.ply += 1


_slot_values = operator.attrgetter(*DominoWarsState.__slots__)


def _tiles(text: str) -> tuple[Tile, ...]:
    return tuple(_parse_tiles(text))


class DominoWarsRules(Rules):
    info = GameInfo(
        key="domino_wars",
        name="Domino Wars",
        seat_names=SEAT_NAMES,
        blurb=tr("Draft eight dominoes in secret, then cover the 4×4 board with higher numbers and their effects."),
        how_to_play=HOW_TO_PLAY,
        options=(
            Option(
                "repeat",
                "none",
                tr("Domino Repeat: the holder may draft one tile twice (optional: 8 different tiles are fine too)"),
                ("none", "0", "1", "both"),
            ),
            Option(
                "mulligan",
                "none",
                tr("Hand Mulligan: the holder may redraw the opening hand up to twice"),
                ("none", "0", "1", "both"),
            ),
            Option(
                "tie",
                "none",
                tr("Tie Advantage: the holder chooses the first player and wins ties"),
                ("none", "0", "1"),
            ),
        ),
        button_moves=re.compile(r"^(mulligan|keep|first (me|you))$"),
        move_pattern=re.compile(
            r"^\s*(pick|draft|first|mulligan|keep|recycle|top|discard)\b|^\s*[0-6]\s*-\s*[0-6]\s+[a-z]\d", re.I
        ),
        has_private_info=True,
    )

    def _start(self, options: dict[str, OptionValue]) -> DominoWarsState:
        return DominoWarsState(options)

    def load(self, data: Mapping[str, Any], later: Sequence[str] = ()) -> DominoWarsState:
        state = DominoWarsState(self.resolve_options(data.get("options", {})))
        state.phase = str(data["phase"])
        state.first = None if data["first"] is None else int(data["first"])
        state.to_move = int(data["to_move"])
        board = data["board"]
        state.tops = tuple(int(cell[0]) for cell in board)
        state.owners = tuple(int(cell[1]) for cell in board)
        state.under = tuple(int(cell[2]) for cell in board)
        state.partners = tuple(int(p) for p in data.get("partners", (-1,) * SQUARES))  # older snapshots: unknown
        state.drafts = _pair(*(_tiles(x) for x in data["drafts"]))
        state.hands = _pair(*(_tiles(x) for x in data["hands"]))
        state.piles = _pair(*(_tiles(x) for x in data["piles"]))
        state.known = _pair(*(tuple(c == "1" for c in x) for x in data["known"]))
        state.discards = _pair(*(_tiles(x) for x in data["discards"]))
        state.skips = _pair(*(int(x) for x in data["skips"]))
        state.shuffle_due = _pair(*(bool(x) for x in data["shuffle_due"]))
        state.mulligans_left = _pair(*(int(x) for x in data["mulligans_left"]))
        state.deciding = _pair(*(bool(x) for x in data["deciding"]))
        state.effects = tuple(int(x) for x in data["effects"])
        state.pending = None if data["pending"] is None else int(data["pending"])
        state.no_draw = bool(data["no_draw"])
        state.skipped = tuple(int(x) for x in data["skipped"])
        state.last_move = data["last_move"]
        state.last_seat = None if data["last_seat"] is None else int(data["last_seat"])
        placement = data["last_placement"]
        state.last_placement = None if placement is None else (int(placement[0]), int(placement[1]), int(placement[2]))
        state.ply = int(data["ply"])
        outcome = data.get("outcome")
        state._outcome = Outcome.from_json(outcome) if outcome else None
        return state


DominoWarsState.rules = DominoWarsRules()
