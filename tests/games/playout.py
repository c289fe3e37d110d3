"""Random legal play for tests: the one driver every contract test uses."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence

from bot.games import CHANCE, GAMES, GameState

PLAYOUT_OPTIONS: dict[str, dict[str, object]] = {"focus": {"ply_limit": 400}}
"""A bound of their own for random test playouts of games that need not end: Focus has no
move limit by default, and random players almost never run out of stacks and reserve."""


def start(key: str, options: dict[str, object] | None = None) -> GameState:
    """A new game for a random test playout: `options` over the playout bound."""
    return GAMES[key].start(options={**PLAYOUT_OPTIONS.get(key, {}), **(options or {})})


def step(state: GameState, rng: random.Random) -> tuple[int, str]:
    """One (seat, move) a random player or the chance seat would play now."""
    if CHANCE in state.turn:
        return CHANCE, state.sample_chance(rng)
    seat = rng.choice(sorted(state.turn))
    moves = state.legal_moves(seat)
    assert moves, f"seat {seat} must act but has no legal move"
    return seat, rng.choice(moves)


def playout(state: GameState, rng: random.Random, max_plies: int = 20_000) -> Iterator[tuple[GameState, int, str]]:
    """Yield (state before, seat, move) until the game ends; fails if it never ends."""
    for _ in range(max_plies):
        if state.outcome is not None:
            return
        seat, move = step(state, rng)
        yield state, seat, move
        state = state.play(seat, move)
    raise AssertionError(f"no outcome after {max_plies} plies")


def final(state: GameState, rng: random.Random) -> GameState:
    for before, seat, move in playout(state, rng):
        state = before.play(seat, move)
    return state


def reload(state: GameState, log: Sequence[str]) -> GameState:
    """`state` stored and loaded as the match service does: its dump through JSON, plus the
    texts of the log moves (`log`: every `applied` entry since the start) after the ones
    `log_needed` says the snapshot holds."""
    rules = type(state).rules
    data = json.loads(json.dumps(state.dump()))
    needed = rules.log_needed(data)
    return rules.load(data, log[needed:] if needed is not None else ())
