"""The draft and pool-picking DM pictures show the choice itself: every tile or card that
may be picked, the ones already picked, and (Wonderland) the ones the rule now forbids,
exactly as the engine's legal moves say."""

from __future__ import annotations

import random

from bot.games import CHANCE, GAMES, GameState
from renderers import Header, describe, describe_private, private_picture
from renderers.domino_wars import ALL_TILES
from renderers.kit import recording
from renderers.wonderland import pool_choices
from renderers.words import move_words


def _until(game: str, phase: str, picks: int, seed: int) -> GameState:
    rng = random.Random(seed)
    state = GAMES[game].start(players=2, options={})
    while state.view(None)["phase"] != phase:
        seat = CHANCE if CHANCE in state.turn else sorted(state.turn)[0]
        state = state.play(seat, state.sample_chance(rng) if seat == CHANCE else state.legal_moves(seat)[0])
    for _ in range(picks):
        state = state.play(0, rng.choice(state.legal_moves(0)))
    return state


def test_the_draft_picture_shows_every_tile_to_choose_from_and_marks_the_picked_ones() -> None:
    for picks in (0, 3, 7):
        state = _until("domino_wars", "draft", picks, picks)
        view = state.view(0)
        with recording() as records:
            private_picture("domino_wars", view, Header())
        labels = {r.content for r in records}
        drafted = set(view["private"]["draft"])
        free = {move.removeprefix("pick ") for move in state.legal_moves(0)}
        assert free == set(ALL_TILES) - drafted
        assert all(tile in labels for tile in free)
        assert all(f"✓ {tile}" in labels for tile in drafted)
        assert f"Your secret draft ({picks}/8)" in labels


def test_the_pool_picture_shows_the_52_cards_as_the_rule_allows_them() -> None:
    for picks in (0, 5, 12):
        state = _until("wonderland", "pool", picks, picks)
        view = state.view(0)
        choices = pool_choices(view["private"]["pool"])
        legal = {move.removeprefix("pick ") for move in state.legal_moves(0)}
        assert {card for card, kind in choices.items() if kind == "free"} == legal
        assert sum(kind == "picked" for kind in choices.values()) == picks
        with recording() as records:
            private_picture("wonderland", view, Header())
        drawn = {r.content for r in records}
        assert any(line.startswith(f"Pick {15 - picks} more") for line in drawn)
        assert {card for card, kind in choices.items() if kind == "blocked"} <= drawn  # greyed, written out


def test_alt_text_says_chance_moves_and_the_choices_in_words() -> None:
    assert move_words("domino_wars", "shuffle 1") == "Blue's draw pile was shuffled"
    assert move_words("wonderland", "roll A S M") == "dice rolled: Attack, Summon, Move"
    assert move_words("focus", "d4-b4") == "d4-b4"
    state = _until("wonderland", "pool", 5, 2)
    free = len(state.legal_moves(0))
    assert f"{free} cards may still be picked" in describe_private("wonderland", state.view(0))
    draft = _until("domino_wars", "draft", 3, 1)
    assert "3 of 8 picked" in describe_private("domino_wars", draft.view(0))
    for game in GAMES:
        rng = random.Random(game)
        state = GAMES[game].start(players=2, options={})
        for _ in range(40):
            if state.outcome is not None:
                break
            seat = CHANCE if CHANCE in state.turn else rng.choice(sorted(state.turn))
            move = state.sample_chance(rng) if seat == CHANCE else rng.choice(state.legal_moves(seat))
            state = state.play(seat, move)
            text = describe(game, state.view(None))
            assert not any(f"Last move: {word} " in text for word in ("shuffle", "roll", "first", "layout"))
            assert "phase draft" not in text
