"""Thinking within a budget: CPU time, not wall time, and Domineering's plan of a turn stops
when its next look would overrun (no timing asserts: stop conditions are given, not timed)."""

from __future__ import annotations

import random
import time

import pytest

from bot.ai.domineering import DomineeringGuide, reply_value
from bot.ai.search import Budget, Stopwatch
from bot.games import CHANCE, GAMES
from bot.games.domineering import DomineeringState


def _positions(count: int, seed: int) -> list[tuple[DomineeringState, int]]:
    rng = random.Random(seed)
    found: list[tuple[DomineeringState, int]] = []
    while len(found) < count:
        state = GAMES["domineering"].start(options={"pieces": rng.choice([2, 3, 4])})
        while state.outcome is None and len(found) < count:
            if CHANCE in state.turn:
                state = state.play(CHANCE, state.sample_chance(rng))
                continue
            seat = min(state.turn)
            if len(state.legal_moves(seat)) > 1:
                assert isinstance(state, DomineeringState)
                found.append((state, seat))
            state = state.play(seat, rng.choice(state.legal_moves(seat)))
    return found


@pytest.mark.slow  # whole plans with four pieces, a few seconds
def test_the_domineering_plan_weighs_as_many_looks_as_the_budget_allows() -> None:
    guide = DomineeringGuide()
    for state, seat in _positions(6, 4):
        shortlist = guide.shortlist(state, seat)
        assert guide.root_moves(state, seat, stop=lambda needed: True) == [shortlist[0]]
        for allowed in (2, 5):
            asked: list[float] = []

            def stop(needed: float, asked: list[float] = asked, allowed: int = allowed) -> bool:
                asked.append(needed)
                return len(asked) >= allowed

            (chosen,) = guide.root_moves(state, seat, stop=stop)
            looked = shortlist[:allowed]
            assert chosen == max(looked, key=lambda m: reply_value(state.play(seat, m), seat))
            assert all(needed >= 0.0 for needed in asked) and asked[0] >= 0.0
        unlimited = guide.root_moves(state, seat)
        assert unlimited == [max(shortlist, key=lambda m: reply_value(state.play(seat, m), seat))]


def test_a_cpu_budget_is_not_spent_by_waiting() -> None:
    """Sleeping (what a thread does while other processes have the cores) uses no CPU time:
    a CPU cap outlasts it, a wall cap does not."""
    cpu, wall = Stopwatch(5.0, None), Stopwatch(None, 0.01)
    time.sleep(0.05)
    assert not cpu.expired() and wall.expired()
    assert cpu.expired(needed=10.0) and not Stopwatch(None, None).expired(needed=1e9)


def test_a_budget_needs_a_limit() -> None:
    assert Budget(iterations=None, seconds=None, wall=1.0).stopwatch().expired(needed=2.0)
    with pytest.raises(ValueError, match="limit"):
        Budget(iterations=None, seconds=None)
