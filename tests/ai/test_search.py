"""The computer player over the game contract: legal moves, finished games, no peeking.

Iteration budgets only (never time), so every test is deterministic and fast.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

import pytest

from bot.ai import search, think
from bot.ai.guide import Guide, never
from bot.ai.levels import LEVELS, think_for
from bot.ai.search import Budget, choose_move
from bot.games import CHANCE, GAMES, GameState
from tests.games.playout import playout
from tests.slow import slow_cases

GAME_KEYS = sorted(GAMES)
TINY = {"wonderland": 3}
"""Iterations per move in the full-game tests (Wonderland's moves cost most)."""


def _play_against_random(key: str, ai_seat: int, seed: int, options: dict[str, object] | None = None) -> GameState:
    rng = random.Random(seed)
    state = GAMES[key].start(options=options or {})
    while state.outcome is None:
        if CHANCE in state.turn:
            state = state.play(CHANCE, state.sample_chance(rng))
            continue
        seat = min(state.turn)
        if seat == ai_seat:
            legal = state.legal_moves(seat)
            move = choose_move(state, seat, Budget(iterations=TINY.get(key, 12), seconds=None), rng)
            # Legal: listed, or (Wonderland's capped summon listing) offered when typed.
            assert move in legal or move in state.suggest_moves(seat, move, 5)
        else:
            move = rng.choice(state.legal_moves(seat))
        state = state.play(seat, move)
    return state


@pytest.mark.parametrize(
    "key",
    # Focus has no move limit: the computer beats a random player after 1,300-1,600 plies of search.
    slow_cases(GAME_KEYS, {"focus", "domineering"}),
)
@pytest.mark.parametrize("ai_seat", [0, 1])  # one test each: the workers share Focus's two long games
def test_it_finishes_games_against_a_random_player_with_legal_moves(key: str, ai_seat: int) -> None:
    final = _play_against_random(key, ai_seat, seed=ai_seat + 3)
    assert final.outcome is not None


def test_simultaneous_secret_draft_and_items_are_played() -> None:
    options = {"repeat": "both", "mulligan": "both", "tie": "0"}
    final = _play_against_random("domino_wars", 0, seed=5, options=options)
    assert final.outcome is not None


def test_same_seed_same_move_and_every_level_gives_a_legal_move() -> None:
    state = GAMES["focus"].start()
    moves = state.legal_moves(0)
    first = think("focus", state.dump(), 0, "normal", 42, iterations=30)
    assert first == think("focus", state.dump(), 0, "normal", 42, iterations=30)
    assert first in moves
    for level in LEVELS:
        assert think_for("domineering", _after_draw(), 0, level, 1, 0.05) in GAMES["domineering"].load(
            _after_draw()
        ).legal_moves(0)


def _after_draw() -> dict[str, object]:
    state = GAMES["domineering"].start()
    while 0 not in state.turn:
        state = state.play(CHANCE, state.sample_chance(random.Random(2)))
    return state.dump()


@pytest.mark.slow  # four whole games, every computer move a 60-iteration search
def test_a_won_position_is_taken() -> None:
    """Against a random player the search wins Domino Wars and Dominance games it plays
    with a modest budget (a weak but failing-when-broken check of the value backup)."""
    wins = 0
    for seed in range(4):
        rng = random.Random(seed)
        state = GAMES["domino_wars"].start()
        while state.outcome is None:
            if CHANCE in state.turn:
                state = state.play(CHANCE, state.sample_chance(rng))
                continue
            seat = min(state.turn)
            if seat == seed % 2:
                move = choose_move(state, seat, Budget(iterations=60, seconds=None), rng)
            else:
                move = rng.choice(state.legal_moves(seat))
            state = state.play(seat, move)
        wins += state.outcome.winners == frozenset((seed % 2,))
    assert wins >= 3


@pytest.mark.parametrize("key", slow_cases(["domino_wars", "wonderland"], {"wonderland"}))
def test_what_its_view_does_not_contain_never_changes_its_move(key: str) -> None:
    """Same seed, states differing only in the computer's hidden information (the
    opponent's hand, draft, pile or pool, its own pile order, hidden factors): same move."""
    options = [{}, {"hidden_factors": "on"}] if key == "wonderland" else [{}, {"repeat": "both", "mulligan": "both"}]
    checked = differing = 0
    every = 3 if key == "domino_wars" else 9
    for variant, opts in enumerate(options * 2):
        for ply, (before, _seat, _move) in enumerate(
            playout(GAMES[key].start(options=opts), random.Random(variant), max_plies=10**6)
        ):
            if ply > 240:
                break
            if ply % every or CHANCE in before.turn:
                continue
            seat = min(before.turn)
            if len(before.legal_moves(seat)) < 2:
                continue
            mine = think(key, before.dump(), seat, "easy", 7, iterations=6)
            for salt in (1, 2):
                twin = before.determinize(seat, random.Random(salt))
                assert twin.view(seat) == before.view(seat)
                differing += twin.dump() != before.dump()
                assert think(key, twin.dump(), seat, "easy", 7, iterations=6) == mine
            checked += 1
    assert checked >= 8
    assert differing >= checked  # the twins really hid something different


class _Planner(Guide):
    """A guide whose plan of a turn is one chosen move; unguided, it offers every move."""

    def __init__(self, favourite: str) -> None:
        self.favourite = favourite
        self.asked: list[bool] = []

    def root_moves(
        self, state: GameState, seat: int, *, guided: bool = True, stop: Callable[[float], bool] = never
    ) -> list[str]:
        self.asked.append(guided)
        return [self.favourite] if guided else state.legal_moves(seat)


def test_a_guides_plan_is_played_and_easy_searches_instead(monkeypatch: pytest.MonkeyPatch) -> None:
    state = GAMES["domineering"].start().play(CHANCE, "draw 2-5")  # short random playouts
    moves = state.legal_moves(0)
    guide = _Planner("")
    monkeypatch.setattr(search, "guide_for", lambda key: guide)
    unguided = Budget(iterations=30, seconds=None, guided=False)
    plain = choose_move(state, 0, unguided, random.Random(4))
    guide.favourite = next(m for m in reversed(moves) if m != plain)
    for level in ("normal", "hard"):
        budget = replace(LEVELS[level], iterations=30, seconds=None)
        assert choose_move(state, 0, budget, random.Random(4)) == guide.favourite
    assert choose_move(state, 0, unguided, random.Random(4)) == plain
    assert guide.asked == [False, True, True, False]
    assert LEVELS["easy"].guided is False and LEVELS["normal"].guided and LEVELS["hard"].guided
