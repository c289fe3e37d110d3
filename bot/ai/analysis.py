"""The computer's analysis of a finished game: every move judged by the search it plays with.

For each decision of a player (a move the player chose, not one the rules forced, not a
chance move), the analysis asks the search (`bot.ai.search.move_values`) from that
player's own information — only `determinize(seat, ...)` of the position is searched,
so an opponent's hand or a draw pile's order never counts — which move it prefers among
the guide's `analysis_moves` and the move actually played.  Then two focused searches of
`FOCUSED` iterations each value the computer's preferred move and the played move alike
(like against like: the best of many noisy means would be biased upward), and

* `before`: the mover's winning chance with the preferred move (what the position offered),
* `after`: the mover's winning chance after the played move,
* `loss = before - after` (never below 0): what the move cost.

A move with a single legal choice is never a mistake: it is valued (for the graph) and
not judged.  Winning chances are the search's values: expected score with a draw as half,
valued by the guide's evaluation where a rollout is cut off (so "chance" is the search's
estimate at the stated budget, `Analysis.budget`, not a proof).

Accuracy: 100 minus the mean loss in percentage points over a player's judged moves.
Costliest moves: the three with the largest loss that cost at least `INACCURACY`.

Deterministic: the search of the decision at place `index` of the log uses
`random.Random(f"{seed}:{index}")`, so any span of a game (`analyse_span`, what a worker
is given) gives the same judgements as the whole, and a game the same analysis every time.
Pure: standard library and the engines only; runs in a worker process.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final, NamedTuple

from bot.ai.guides import guide_for
from bot.ai.search import move_values
from bot.games import CHANCE, GAMES, GameState
from bot.i18n import tr

WIDE: Final = 200
"""Iterations of the search that picks the preferred move among all the candidates."""
FOCUSED: Final = 100
"""Iterations of each focused search that values one move (the preferred and the played)."""
INACCURACY: Final = 0.07
MISTAKE: Final = 0.15
BLUNDER: Final = 0.30
"""Losses of winning chance from which a move is called an inaccuracy, a mistake, a blunder."""
COSTLIEST: Final = 3
PLACES: Final = 4
"""Chances are kept to this many decimals (as stored), so a stored analysis equals a fresh one."""


class Played(NamedTuple):
    """One line of the effective move log: its ply in the record, seat and move text."""

    ply: int
    seat: int
    move: str


@dataclass(frozen=True, slots=True)
class Judgement:
    """One decision of a player, judged from that player's information."""

    ply: int
    """The move's ply in the record (`/export`, `/moves` number moves the same way)."""
    seat: int
    move: str
    best: str
    """The search's preferred move (the played one when they agree)."""
    before: float
    """The mover's winning chance with `best`."""
    after: float
    """The mover's winning chance after `move`."""
    forced: bool = False
    """The only legal move: valued, never judged."""

    @property
    def loss(self) -> float:
        return 0.0 if self.forced or self.best == self.move else max(0.0, self.before - self.after)

    @property
    def label(self) -> str | None:
        """`blunder`, `mistake`, `inaccuracy` or None, by `loss`."""
        loss = self.loss
        if loss >= BLUNDER:
            return "blunder"
        if loss >= MISTAKE:
            return "mistake"
        return "inaccuracy" if loss >= INACCURACY else None

    @property
    def seat0_after(self) -> float:
        """Seat 0's winning chance after the move (the graph's line)."""
        return self.after if self.seat == 0 else 1.0 - self.after

    def to_json(self) -> list[Any]:
        return [self.ply, self.seat, self.move, self.best, self.before, self.after, self.forced]

    @classmethod
    def from_json(cls, data: Sequence[Any]) -> Judgement:
        ply, seat, move, best, before, after, forced = data
        return cls(int(ply), int(seat), str(move), str(best), float(before), float(after), bool(forced))


@dataclass(frozen=True)
class Analysis:
    """A whole game's judgements, in the order of the log."""

    game: str
    judgements: tuple[Judgement, ...]
    wide: int = WIDE
    focused: int = FOCUSED

    @property
    def budget(self) -> str:
        """The budget in words, for the reader: the figures are estimates at this budget."""
        return tr(
            "{wide} search iterations to choose, {focused} to value each move", wide=self.wide, focused=self.focused
        )

    def judged(self, seat: int) -> list[Judgement]:
        return [j for j in self.judgements if j.seat == seat and not j.forced]

    def accuracy(self, seat: int) -> float | None:
        """100 minus `seat`'s mean loss in percentage points (None: it made no choice)."""
        judged = self.judged(seat)
        if not judged:
            return None
        return 100.0 * (1.0 - sum(j.loss for j in judged) / len(judged))

    def costliest(self, seat: int, count: int = COSTLIEST) -> list[Judgement]:
        """`seat`'s `count` costliest moves that cost at least INACCURACY, costliest first."""
        costly = [j for j in self.judged(seat) if j.loss >= INACCURACY]
        return sorted(costly, key=lambda j: (-j.loss, j.ply))[:count]

    def turning_points(self) -> list[Judgement]:
        """The moves the picture and the replay mark: each player's costliest."""
        return sorted(self.costliest(0) + self.costliest(1), key=lambda j: j.ply)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "wide": self.wide,
            "focused": self.focused,
            "judgements": [j.to_json() for j in self.judgements],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Analysis:
        return cls(
            game=str(data["game"]),
            judgements=tuple(Judgement.from_json(j) for j in data["judgements"]),
            wide=int(data["wide"]),
            focused=int(data["focused"]),
        )


def decisions(game: str, options: Mapping[str, str], log: Sequence[Played]) -> Iterator[tuple[int, GameState]]:
    """(place in `log`, the state before it) of every player's decision: a move of a seat due
    to act that the rules did not apply by themselves (forced and chance moves skipped)."""
    state = GAMES[game].start(options=options)
    index = 0
    while index < len(log):
        entry = log[index]
        if entry.seat != CHANCE and entry.seat in state.turn:
            yield index, state
        state = state.play(entry.seat, entry.move)
        index += max(1, len(state.applied))


def judge(
    state: GameState, seat: int, played: str, rng: random.Random, wide: int = WIDE, focused: int = FOCUSED
) -> Judgement:
    """The judgement of `seat` playing `played` in `state`, from `seat`'s information only."""
    moves = state.legal_moves(seat)
    if len(moves) == 1:
        value = _value_of(state, seat, moves[0], focused, rng)
        return Judgement(-1, seat, played, played, round(value, PLACES), round(value, PLACES), forced=True)
    candidates = guide_for(state.rules.info.key).analysis_moves(state, seat)
    if played not in candidates:
        candidates = [*candidates, played]
    values = move_values(state, seat, candidates, wide, rng)
    best = max(values, key=lambda m: (values[m][0], values[m][1], m == played))
    after = _value_of(state, seat, played, focused, rng)
    before = after if best == played else _value_of(state, seat, best, focused, rng)
    return Judgement(-1, seat, played, best, round(before, PLACES), round(after, PLACES))


def _value_of(state: GameState, seat: int, move: str, iterations: int, rng: random.Random) -> float:
    return move_values(state, seat, [move], iterations, rng)[move][1]


def analyse_span(
    game: str,
    options: Mapping[str, str],
    log: Sequence[Played],
    seed: int,
    start: int,
    stop: int,
    wide: int = WIDE,
    focused: int = FOCUSED,
) -> list[Judgement]:
    """The judgements of the decisions at places `start` <= place < `stop` of `log`: what
    one worker call computes (the service splits a game into spans)."""
    judged = []
    for index, state in decisions(game, options, log):
        if index >= stop:
            break
        if index < start:
            continue
        entry = log[index]
        verdict = judge(state, entry.seat, entry.move, random.Random(f"{seed}:{index}"), wide, focused)
        judged.append(replace(verdict, ply=entry.ply))
    return judged


def analyse(
    game: str,
    options: Mapping[str, str],
    log: Sequence[Played],
    seed: int,
    *,
    wide: int = WIDE,
    focused: int = FOCUSED,
) -> Analysis:
    """The whole game's analysis in this process (tests, the bench)."""
    judged = analyse_span(game, options, log, seed, 0, len(log), wide, focused)
    return Analysis(game, tuple(judged), wide, focused)
