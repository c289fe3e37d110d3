"""`determinize(seat, rng)`: a full state a seat cannot tell from the real one.

Checked over random playouts of every game with every item/option variant that adds
secrets: the determinized state shows `seat` exactly the same view, plays on to an end
with legal moves, depends on that view only (two states with the same view give the same
determinization for the same rng), and different rngs vary the hidden parts.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping

import pytest

from bot.games import GAMES, GameState
from tests.games.playout import playout, start, step
from tests.slow import slow_cases

GAME_KEYS = sorted(GAMES)
SECRET_GAMES = ["domino_wars", "wonderland"]
VARIANTS: dict[str, list[dict[str, object]]] = {
    "domino_wars": [{}, {"repeat": "both", "mulligan": "both", "tie": "1"}],
    "wonderland": [{}, {"hidden_factors": "on"}],
}


def _key(state: GameState) -> str:
    return json.dumps(state.dump(), sort_keys=True)


def _sampled_positions(key: str, options: Mapping[str, object], seed: int, every: int) -> list[GameState]:
    """Every `every`-th position of a random game started with the shared playout bound (random
    Focus would otherwise run to the 20,000-ply limit here: it draws at ply 400 instead)."""
    rng = random.Random(seed)
    found = []
    limit = 600 if key == "wonderland" else 20_000
    for ply, (before, _seat, _move) in enumerate(playout(start(key, options), rng, max_plies=10**6)):
        if ply % every == 0:
            found.append(before)
        if ply >= limit:
            break
    return found


@pytest.mark.parametrize("key", slow_cases(GAME_KEYS, {"wonderland"}))
def test_determinized_state_shows_the_seat_the_same_view_and_plays_on(key: str) -> None:
    rng = random.Random(5)
    for options in VARIANTS.get(key, [{}]):
        for seed in (1, 2):
            for state in _sampled_positions(key, options, seed, every=7):
                for seat in (0, 1):
                    guess = state.determinize(seat, rng)
                    assert guess.view(seat) == state.view(seat)
                    assert guess.view(None) == state.view(None)
                    # It is a legal position: a few random moves from it are accepted.
                    current = guess
                    for _ in range(12):
                        if current.outcome is not None:
                            break
                        mover, move = step(current, rng)
                        current = current.play(mover, move)


def test_perfect_information_games_determinize_to_themselves() -> None:
    for key in ("focus", "domineering", "dominance"):
        for state in _sampled_positions(key, {}, 3, every=25):
            assert state.determinize(0, random.Random(1)) is state


@pytest.mark.parametrize("key", SECRET_GAMES)
def test_determinization_depends_on_the_view_only(key: str) -> None:
    for options in VARIANTS[key]:
        for state in _sampled_positions(key, options, 4, every=11):
            for seat in (0, 1):
                # `other` differs from `state` only in what `seat` cannot see.
                other = state.determinize(seat, random.Random(99))
                assert other.view(seat) == state.view(seat)
                assert _key(state.determinize(seat, random.Random(3))) == _key(
                    other.determinize(seat, random.Random(3))
                )


@pytest.mark.parametrize("key", SECRET_GAMES)
def test_different_rngs_vary_the_hidden_parts(key: str) -> None:
    varied = 0
    positions = _sampled_positions(key, {}, 6, every=5)
    for state in positions:
        guesses = {_key(state.determinize(0, random.Random(s))) for s in range(6)}
        varied += len(guesses) > 1
    assert varied >= len(positions) // 2


def test_domino_wars_opponent_tiles_avoid_its_discards_and_own_pile_keeps_its_known_ends() -> None:
    rng = random.Random(8)
    checked = 0
    for state in _sampled_positions("domino_wars", {}, 12, every=1):
        if state.phase not in ("play", "effect"):
            continue
        for seat in (0, 1):
            guess = state.determinize(seat, rng)
            other = 1 - seat
            hidden = [*guess.hands[other], *guess.piles[other]]  # type: ignore[attr-defined]
            assert len(set(hidden)) == len(hidden)
            assert not set(hidden) & set(guess.discards[other])  # type: ignore[attr-defined]
            mine = state.view(seat)["private"]
            pile = [str(t) for t in guess.piles[seat]]  # type: ignore[attr-defined]
            assert pile[: len(mine["known_top"])] == mine["known_top"]
            assert pile[len(pile) - len(mine["known_bottom"]) :] == mine["known_bottom"]
            checked += 1
    assert checked > 10
