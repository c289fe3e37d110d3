"""The per-game knowledge the search uses: evaluations stay in [0, 1] and point the right
way, and Domineering's "can this tile be played" agrees with the rules engine."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.ai.domineering import can_play
from bot.ai.guides import guide_for
from bot.games import CHANCE, GAMES
from bot.games.domineering import DomineeringState
from tests.games.playout import playout


def test_domineering_playable_test_agrees_with_the_engine_on_random_positions() -> None:
    checked = 0
    for seed in range(6):
        options = {"pieces": "4", "setup": "centre"} if seed % 2 else {}
        for before, _seat, _move in playout(GAMES["domineering"].start(options=options), random.Random(seed)):
            if CHANCE not in before.turn:
                continue
            state = before
            assert isinstance(state, DomineeringState)
            seat = state.to_move
            for tile in sorted(state.pool):
                after = state.play(CHANCE, f"draw {tile}")
                engine = after.outcome is None
                assert can_play(state.pieces[seat], state.occupied(), tile.low, tile.high) == engine, (seed, tile)
                checked += 1
    assert checked > 200


@pytest.mark.parametrize("key", sorted(GAMES))
def test_evaluations_are_probabilities(key: str) -> None:
    guide = guide_for(key)
    for ply, (before, _seat, _move) in enumerate(playout(GAMES[key].start(), random.Random(1), max_plies=10**6)):
        assert 0.0 <= guide.evaluate(before) <= 1.0
        if ply > 400:
            break


def test_focus_evaluation_prefers_the_side_with_more_reserve_and_captures() -> None:
    guide = guide_for("focus")
    start = GAMES["focus"].start()
    assert guide.evaluate(start) == pytest.approx(0.5)
    data = {k: v for k, v in start.dump().items() if k not in ("anchor", "anchor_moves")}  # a made-up position
    data["reserves"] = [3, 0]
    data["captured"] = [2, 0]
    assert guide.evaluate(GAMES["focus"].load(data)) > 0.8
    data["reserves"], data["captured"] = [0, 3], [0, 2]
    assert guide.evaluate(GAMES["focus"].load(data)) < 0.2


def _wonderland_midgame(seed: int) -> dict[str, Any]:
    """A Wonderland position some turns in, dumped so tests can edit its public counts."""
    for before, _seat, _move in playout(GAMES["wonderland"].start(), random.Random(seed), max_plies=10**6):
        data = before.dump()
        if data["phase"] == "dice" and data["turn_no"] >= 6:
            return data
    raise AssertionError("no mid-game position")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_wonderland_evaluation_follows_ruling_14_life_then_summons(seed: int) -> None:
    """At the turn limit more life wins, then more beings summoned: the evaluation ranks
    positions the same way, life first, and the same lead counts for more near the limit."""
    guide = guide_for("wonderland")
    data = _wonderland_midgame(seed)
    data["beings"] = []  # nothing in play: only the counts the tie-break uses differ
    cards = [c for c in sorted(data["pools"][0]) if c not in data["summoned"][0]]
    data["summoned"] = [list(data["summoned"][0]) + cards[:2], list(data["summoned"][1])]
    data["lives"] = [3, 3]
    more_summons = guide.evaluate(GAMES["wonderland"].load(data))
    assert more_summons > 0.5
    data["lives"] = [2, 3]
    assert guide.evaluate(GAMES["wonderland"].load(data)) < 0.5  # a life outweighs two summons
    data["lives"] = [3, 3]
    data["turn_no"] = 195
    assert guide.evaluate(GAMES["wonderland"].load(data)) > more_summons
