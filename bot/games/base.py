"""The game contract every Boneyard game implements.

Modelled on OpenSpiel and boardgame.io: a game is a pure definition (a `Rules` object)
that makes immutable `GameState` values.  Chance is explicit (the `CHANCE` seat), seats
are explicit, and each seat sees the game only through `view(seat)`.

Why a template method for `play`: the rulings say a choice with exactly one legal option
is applied by the engine itself.  Doing that once here, rather than in five engines, keeps
the behaviour identical everywhere and lets the log record those forced moves
(`GameState.forced`) so that a replay can check them.

Who acts: `turn` is the frozenset of seats that MUST act now ({0}, {1}, {0, 1} for a
simultaneous choice, {CHANCE}, or empty when over); the match waits for them, prompts them
and runs their clocks.  `may_act` is the seats that MAY act without being asked (a
Wonderland opponent's abilities during the active player's action step; empty in most
games).  `play` and `legal_moves` serve the seats of both; clocks, prompts and "to move"
follow `turn` only, so the opponent's clock does not run while it merely may act.
`drafting` says the seats in `turn` are making a secret draft (a set of picks on one
clock, which a time control's `draft=` limit covers); a simultaneous choice that is one
move, such as Domino Wars' keep/mulligan decision, is not a draft.

This module and the whole `bot.games` package use the standard library only.
"""

from __future__ import annotations

import json
import random
import re
import unicodedata
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final, NamedTuple, Self

from bot.i18n import tr

CHANCE: Final = -1
"""The seat that plays chance moves (rolls, draws, shuffles)."""

JSON = dict[str, Any]
OptionValue = str | int


class IllegalMove(ValueError):
    """A move that is malformed or not allowed now; the message is for the player."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class InvalidOptions(ValueError):
    """Match options that a game does not offer or that have a bad value."""


class SnapshotMismatch(ValueError):
    """A snapshot and the log moves given with it to `Rules.load` do not fit together: a
    damaged database or a caller that passed the wrong moves, never a player's mistake."""


class LogEntry(NamedTuple):
    """One applied move as the match log keeps it."""

    seat: int
    move: str
    public: bool
    forced: bool


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended.  `winners` is empty for a draw."""

    winners: frozenset[int]
    reason: str
    scores: tuple[int, ...] | None = None

    @property
    def is_draw(self) -> bool:
        return not self.winners

    def to_json(self) -> JSON:
        return {
            "winners": sorted(self.winners),
            "reason": self.reason,
            "scores": list(self.scores) if self.scores is not None else None,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        scores = data.get("scores")
        return cls(
            winners=frozenset(int(s) for s in data["winners"]),
            reason=str(data["reason"]),
            scores=tuple(int(s) for s in scores) if scores is not None else None,
        )


@dataclass(frozen=True, slots=True)
class Option:
    """One match option a game offers at `/play` time.

    `choices` lists the allowed values of a text option; an integer option leaves it
    empty and gives `minimum`/`maximum` instead.
    """

    name: str
    default: OptionValue
    help: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    def parse(self, raw: object) -> OptionValue:
        """Return the canonical value of `raw`; raises InvalidOptions for a bad one."""
        if isinstance(self.default, int):
            try:
                value = int(str(raw).strip())
            except ValueError:
                raise InvalidOptions(
                    tr("Option `{name}` takes a whole number, not {raw}.", name=self.name, raw=shown(raw))
                ) from None
            if self.minimum is not None and value < self.minimum:
                raise InvalidOptions(
                    tr("Option `{name}` must be at least {minimum}.", name=self.name, minimum=self.minimum)
                )
            if self.maximum is not None and value > self.maximum:
                raise InvalidOptions(
                    tr("Option `{name}` must be at most {maximum}.", name=self.name, maximum=self.maximum)
                )
            return value
        text = str(raw).strip().lower()
        if text not in self.choices:
            allowed = ", ".join(f"`{c}`" for c in self.choices)
            raise InvalidOptions(
                tr(
                    "Option `{name}` must be one of {allowed}, not {raw}.",
                    name=self.name,
                    allowed=allowed,
                    raw=shown(raw),
                )
            )
        return text

    def describe(self) -> str:
        """One line for `/games` and the README: values, default and help (`help` is a `tr` sentence,
        so `/games` says it in the reader's language; the option's name and values are notation)."""
        values = "|".join(self.choices) if self.choices else f"{self.minimum}..{self.maximum}"
        return tr(
            "`{name}={values}` (default `{default}`): {help}",
            name=self.name,
            values=values,
            default=self.default,
            help=self.help,
        )


@dataclass(frozen=True)
class GameInfo:
    """What the bot shows about a game before any state exists."""

    key: str
    name: str
    seat_names: tuple[str, str]
    blurb: str
    how_to_play: str
    options: tuple[Option, ...] = ()
    move_pattern: re.Pattern[str] = field(default=re.compile(r"(?!)"))
    """Text that looks like an attempt at a move, so a typed chat message that fails to
    parse gets an answer while ordinary chatter is left alone."""
    has_private_info: bool = False
    button_moves: re.Pattern[str] | None = None
    """Moves short and public enough to offer as buttons under the board (e.g. `done`),
    when they are among the few legal moves.  Never a move that reveals a secret."""
    draw_by_agreement: bool = False
    """The rulings let the players agree a draw (`/draw`); games without it end drawn only
    by their own rules."""
    has_chance: bool = True
    """The game rolls, draws or shuffles (CHANCE moves): its final board offers the dice check.
    Focus has none."""


class Rules(ABC):
    """A game definition: makes start states and loads dumped ones."""

    info: ClassVar[GameInfo]

    @property
    def key(self) -> str:
        return self.info.key

    def resolve_options(self, options: Mapping[str, object] | None = None) -> dict[str, OptionValue]:
        """Validate `options` and fill in defaults; raises InvalidOptions."""
        given = dict(options or {})
        known = {opt.name: opt for opt in self.info.options}
        unknown = sorted(set(given) - set(known))
        if unknown:
            offered = ", ".join(f"`{n}`" for n in known) or "none"
            raise InvalidOptions(
                tr(
                    "{name} has no option {value} (options: {offered}).",
                    name=self.info.name,
                    value=", ".join(shown(u) for u in unknown[:5]),
                    offered=offered,
                )
            )
        return {name: opt.parse(given[name]) if name in given else opt.default for name, opt in known.items()}

    def start(self, players: int = 2, options: Mapping[str, object] | None = None) -> GameState:
        """A new game; deterministic for given options.  Raises InvalidOptions."""
        if players != 2:
            raise InvalidOptions(tr("{name} is a game for two players.", name=self.info.name))
        return self._start(self.resolve_options(options))._settle(())

    @abstractmethod
    def _start(self, options: dict[str, OptionValue]) -> GameState: ...

    @abstractmethod
    def load(self, data: Mapping[str, Any], later: Sequence[str] = ()) -> GameState:
        """Rebuild a state from `GameState.dump()`.

        `later`: when `log_needed(data)` is a number n, the texts of the match's effective log
        moves after the first n (`bot.records.move_log.effective`: takebacks applied; forced and chance
        moves as the log holds them), which the snapshot leaves out; raises SnapshotMismatch
        when they do not lead to the dumped position.  Ignored when the snapshot is complete."""

    def log_needed(self, data: Mapping[str, Any]) -> int | None:
        """How many of the match's effective log moves the snapshot `data` already contains,
        when `load` must also be given the moves after them; None when it is complete.

        Why: a snapshot is stored after every move and must stay small at any ply, but a rule
        may depend on history the move log already keeps (Focus's repetition draw counts the
        positions since the last capture).  Such a game dumps the position and where in the
        log its history starts, and `load` rebuilds the history from the log's moves."""
        return None


class GameState(ABC):
    """An immutable position.  Subclasses implement the underscore hooks."""

    rules: ClassVar[Rules]
    forced: tuple[tuple[int, str], ...] = ()
    """Moves the engine applied by itself at the end of the last `play` (seat, move)."""
    applied: tuple[LogEntry, ...] = ()
    """Everything the last `play` applied, the player's move first: what the move log keeps."""

    # --- the public contract -------------------------------------------------------

    @property
    @abstractmethod
    def turn(self) -> frozenset[int]:
        """Seats that must act now: {0}, {1}, {0, 1}, {CHANCE}, or empty when over."""

    @property
    def may_act(self) -> frozenset[int]:
        """Seats that MAY act without being asked, besides `turn` (the seats that MUST act),
        e.g. a Wonderland opponent's abilities.  Clocks follow `turn` only."""
        return frozenset()

    @property
    def drafting(self) -> bool:
        """Whether the seats in `turn` are drafting: choosing a secret set of picks that
        may take several moves and runs on one clock (the `draft=` limit of a time control
        covers exactly this).  It stays true for the last seat still drafting."""
        return False

    @property
    @abstractmethod
    def outcome(self) -> Outcome | None: ...

    @abstractmethod
    def legal_moves(self, seat: int) -> list[str]:
        """Every legal move of `seat` now, in canonical notation (may be empty); empty for a
        seat in neither `turn` nor `may_act`."""

    def play(self, seat: int, move: str) -> Self:
        """The state after `seat` plays `move`; raises IllegalMove and changes nothing."""
        if not isinstance(move, str) or not move.strip():
            raise IllegalMove(tr("Type a move, for example one from the autocomplete list."))
        if self.outcome is not None:
            raise IllegalMove(tr("The game is over."))
        if seat not in self.turn and seat not in self.may_act:
            raise IllegalMove(tr("It is not your turn.") if seat != CHANCE else tr("No chance move is due now."))
        state = self._apply(seat, move)
        return state._settle((state._entry(seat, move, forced=False, before=self),))

    def suggest_moves(self, seat: int, typed: str, limit: int) -> list[str]:
        """Up to `limit` legal moves of `seat` for what a player has typed (autocomplete):
        those starting with it (ignoring case and spaces) first, then those containing it.
        A game whose `legal_moves` leaves moves out (a capped listing) overrides this so
        that every move stays reachable by typing its beginning."""
        wanted = normalise(typed).replace(" ", "")
        squeezed = [(m, normalise(m).replace(" ", "")) for m in self.legal_moves(seat)]
        starts = [m for m, s in squeezed if s.startswith(wanted)]
        inside = [m for m, s in squeezed if wanted in s and not s.startswith(wanted)]
        return (starts + inside)[:limit]

    def sample_chance(self, rng: random.Random) -> str:
        """One chance move drawn with `rng`; only when CHANCE is in `turn`."""
        if CHANCE not in self.turn:
            raise IllegalMove(tr("No chance move is due now."))
        return self._sample_chance(rng)

    def determinize(self, seat: int, rng: random.Random) -> Self:
        """A full state consistent with `view(seat)`: what a computer player of `seat`
        searches instead of the real state, whose secrets it must not use.

        Contract: the result's `view(seat)` equals this state's `view(seat)`; it is a
        legal state that plays on; and it depends on `view(seat)` and `rng` only, so two
        states that `seat` cannot tell apart give the same result for the same `rng`
        state.  Hidden parts (an opponent's hand, draft, pool, pile order, secret rolls)
        are drawn with `rng`.  Perfect-information games keep this default: the state
        itself, which `seat` sees entirely."""
        return self

    @abstractmethod
    def view(self, seat: int | None) -> JSON:
        """What `seat` may know (None: the public).  A seat's view is the public view plus
        `you` (the seat) and `private` (its own secrets)."""

    @abstractmethod
    def dump(self) -> JSON:
        """JSON-able data from which `rules.load` rebuilds this state exactly."""

    # --- hooks ---------------------------------------------------------------------

    @abstractmethod
    def _apply(self, seat: int, move: str) -> Self:
        """Parse, check and apply one move; raise IllegalMove with a readable reason."""

    def _sample_chance(self, rng: random.Random) -> str:
        raise IllegalMove(tr("{name} has no chance moves.", name=self.rules.info.name))

    def is_public_move(self, seat: int, move: str) -> bool:
        """Whether `move`, which `seat` just made (leading to this state), may be shown to
        everyone.  Games with secrets override this: a draft pick or a shuffle is not."""
        return not self.rules.info.has_private_info

    def describe(self, before: GameState, entry: LogEntry) -> str | None:
        """A sentence for everyone about `entry`, the move that led from `before` to this
        state, or None to let the caller show the entry's notation (public moves) or nothing
        (secret ones).

        Why here: only the engine knows what a move did ("7♠ attacks the Image — Blue has 2
        lives"), while the cogs only format.  An override must use public information only,
        whatever `entry.public` says: for a secret entry it may say THAT something happened
        ("Blue has drafted"), never what.  Chance entries are described too (a roll, a draw),
        so notifications and screen readers carry them."""
        return None

    def narrate(self, entries: Iterable[LogEntry]) -> list[tuple[LogEntry, str | None]]:
        """Each of `entries` (what `play` applied from this state: the next state's `applied`)
        with its `describe` sentence, found by replaying them one by one from this state.

        A separate replay rather than work inside `play`: computer players and benchmarks play
        millions of moves that nobody reads, and keeping the states in between would chain
        every position of a game in memory."""
        told: list[tuple[LogEntry, str | None]] = []
        state: GameState = self
        for entry in entries:
            after = state._apply(entry.seat, entry.move)
            told.append((entry, after.describe(state, entry)))
            state = after
        return told

    def _entry(self, seat: int, move: str, *, forced: bool, before: GameState | None = None) -> LogEntry:
        """The log entry of the move that led to this state (from `before`, when known).

        A public player move is logged in the canonical notation the engine recorded as
        `last_move` (so `C3 - C5` is kept as `c3-c5`); any other player move as the legal move
        of `before` it names (`PICK 4-0` is kept as `pick 0-4`: `canonical`); what names none
        (a shorthand such as `draft ...`, a chance move) as given, which `play` accepts again.
        """
        public = self.is_public_move(seat, move)
        text = " ".join(move.split())
        last = getattr(self, "last_move", None)
        if public and seat != CHANCE and isinstance(last, str) and last:
            text = last
        elif before is not None and seat != CHANCE:
            text = before.canonical(seat, text)
        return LogEntry(seat, text, public, forced)

    def canonical(self, seat: int, move: str) -> str:
        """`move` as the legal move of `seat` it names, ignoring case, spaces and the order of a
        domino's two numbers; `move` itself when it names none."""
        moves = self.legal_moves(seat)
        # A move picked from the listing (a button, the computer) is the move it names, even
        # where two listed moves share a key (Domino Wars's `1-5 a1-a2` and `5-1 a1-a2`),
        # which the search by key below would take for the first of them.
        if move in moves:
            return move
        wanted = move_key(move)
        return next((m for m in moves if move_key(m) == wanted), move)

    def forced_move(self, seat: int) -> str | None:
        """The move `seat` must make when it has exactly one, else None."""
        moves = self.legal_moves(seat)
        return moves[0] if len(moves) == 1 else None

    def _settle(self, applied: tuple[LogEntry, ...]) -> Self:
        """Apply single-option choices of player seats until a real choice is due.

        Sets `applied` and `forced` on the final state (a fresh object no one else holds).
        """
        state = self
        while state.outcome is None:
            seats = sorted(s for s in state.turn if s != CHANCE)
            if not seats or CHANCE in state.turn:
                break
            for seat in seats:
                only = state.forced_move(seat)
                if only is not None:
                    state = state._apply(seat, only)
                    applied += (state._entry(seat, only, forced=True),)
                    break
            else:
                break
        state.applied = applied
        state.forced = tuple((e.seat, e.move) for e in applied if e.forced)
        return state

    # --- helpers shared by every game ------------------------------------------------

    def public_base(self) -> JSON:
        """Keys every public view carries, so renderers and cogs can rely on them."""
        outcome = self.outcome
        return {
            "game": self.rules.info.key,
            "turn": sorted(self.turn),
            "outcome": outcome.to_json() if outcome is not None else None,
        }

    def seat_view(self, public: JSON, seat: int | None, private: JSON) -> JSON:
        """Combine a public view with a seat's own secrets (`view` implementations)."""
        if seat is None:
            return public
        if seat not in (0, 1):
            raise ValueError(f"no seat {seat}")
        return {**public, "you": seat, "private": private}

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and json.dumps(self.dump(), sort_keys=True) == json.dumps(
            other.dump(), sort_keys=True
        )

    def __hash__(self) -> int:
        return hash(json.dumps(self.dump(), sort_keys=True))


_DOMINO = re.compile(r"\b(\d+)-(\d+)\b")


def move_key(text: str) -> str:
    """What two spellings of one move share: `normalise`d, each domino `a-b` written low-high."""
    return _DOMINO.sub(lambda m: "-".join(sorted((m[1], m[2]), key=int)), normalise(text))


def normalise(text: str) -> str:
    """Lower-case `text` and collapse its white space: the first step of every parser."""
    return " ".join(text.lower().split())


def shown(text: object, limit: int = 32) -> str:
    """Player input quoted for an error message, cut short so a pasted novel stays out, and
    without control or format characters: a bidi override (U+202E, U+2066...) in an echo would
    reorder the bot's own sentence around it, a zero-width one hide what was typed."""
    kept = "".join(c for c in str(text) if unicodedata.category(c) not in ("Cc", "Cf") or c in "\t\n ")
    kept = " ".join(kept.split()).replace("`", "'")
    return f"`{kept if len(kept) <= limit else kept[: limit - 1] + '…'}`"


def opponent(seat: int) -> int:
    return 1 - seat


def only(items: Iterable[str]) -> str | None:
    """The single element of `items`, or None when there are zero or several."""
    it = iter(items)
    first = next(it, None)
    if first is None or next(it, None) is not None:
        return None
    return first
