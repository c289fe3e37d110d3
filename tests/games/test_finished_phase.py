"""A finished game's public view says it is over, whatever phase play stopped in: the picture's
status line and the alt text read the view's phase, and a Wonderland game that ended at the
turn limit showed "Choosing dice" under its result."""

from __future__ import annotations

import random

import pytest

from renderers.kit import phase_words
from tests.games.playout import final, start

GAMES_WITH_PHASES = ("dominance", "domino_wars", "wonderland")


@pytest.mark.parametrize("game", GAMES_WITH_PHASES)
@pytest.mark.parametrize("seed", [3, 41])
def test_a_finished_game_is_over_in_every_view(game: str, seed: int) -> None:
    state = final(start(game), random.Random(f"{game}:{seed}"))
    assert state.outcome is not None
    for seat in (None, 0, 1):
        assert state.view(seat)["phase"] == "over"
    assert phase_words(state.view(None)["phase"]) == "Game over"
