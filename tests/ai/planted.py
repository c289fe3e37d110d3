"""Planted blunders for the analysis tests: positions, found by playing, where the mover has a
move that wins at once and another that loses at once.

"At once", checked on the engine itself (not on the search): a move wins at once when,
whatever chance then does (every listed chance move, or `CHANCE_SAMPLES` draws where the
engine lists none), the game is over and the mover won; it loses at once when, whatever
chance does, the game is then over and lost, or the opponent is to move and has a move
that wins at once.  Positions come
from games of a greedy player (the guide's evaluation one ply ahead, with some random moves)
so that endings come within a few hundred plies, from seeded games: the same every run.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from bot.ai.guides import guide_for
from bot.games import CHANCE, GAMES, GameState

CHANCE_SAMPLES = 8
RANDOM_SHARE = 0.3
GREEDY_LOOKS = 24


@dataclass(frozen=True)
class Planted:
    state: GameState
    seat: int
    win: str
    blunder: str


def outcomes(state: GameState, rng: random.Random, depth: int = 3) -> list[GameState]:
    """The states chance can lead to from `state` (through up to `depth` chance moves)."""
    if CHANCE not in state.turn or depth == 0:
        return [state]
    listed = state.legal_moves(CHANCE)
    draws = listed if listed else sorted({state.sample_chance(rng) for _ in range(CHANCE_SAMPLES)})
    return [after for draw in draws for after in outcomes(state.play(CHANCE, draw), rng, depth - 1)]


def wins_at_once(state: GameState, seat: int, move: str, rng: random.Random) -> bool:
    for after in outcomes(state.play(seat, move), rng):
        if after.outcome is None or after.outcome.winners != frozenset({seat}):
            return False
    return True


def loses_at_once(state: GameState, seat: int, move: str, rng: random.Random, looks: int = 400) -> bool:
    other = 1 - seat
    for after in outcomes(state.play(seat, move), rng):
        if after.outcome is not None:
            if after.outcome.winners == frozenset({other}):
                continue  # the move itself ended the game, lost
            return False
        if after.turn != frozenset({other}):
            return False
        if not any(wins_at_once(after, other, reply, rng) for reply in after.legal_moves(other)[:looks]):
            return False
    return True


def _greedy(state: GameState, seat: int, rng: random.Random) -> str:
    moves = state.legal_moves(seat)
    if len(moves) == 1 or rng.random() < RANDOM_SHARE:
        return rng.choice(moves)
    guide = guide_for(state.rules.info.key)
    sign = 1.0 if seat == 0 else -1.0

    def worth(move: str) -> float:
        after = state.play(seat, move)
        while CHANCE in after.turn and after.outcome is None:
            after = after.play(CHANCE, after.sample_chance(rng))
        if after.outcome is not None:
            return 10.0 if after.outcome.winners == frozenset({seat}) else -10.0
        return sign * guide.evaluate(after)

    return max(rng.sample(moves, min(GREEDY_LOOKS, len(moves))), key=worth)


def planted(key: str, seed: int, max_plies: int = 3000, options: dict[str, object] | None = None) -> Iterator[Planted]:
    """Every planted blunder met in the greedy game seeded `seed`, in order."""
    rng = random.Random(seed)
    check = random.Random(seed + 1)
    state = GAMES[key].start(options=options or {})
    for _ in range(max_plies):
        if state.outcome is not None:
            return
        if CHANCE in state.turn:
            state = state.play(CHANCE, state.sample_chance(rng))
            continue
        seat = min(state.turn)
        moves = state.legal_moves(seat)
        if len(moves) > 1 and len(state.turn) == 1:
            wins = [m for m in moves if wins_at_once(state, seat, m, check)]
            if wins:
                for move in moves:
                    if move not in wins and loses_at_once(state, seat, move, check):
                        yield Planted(state, seat, wins[0], move)
                        break
        state = state.play(seat, _greedy(state, seat, rng))
