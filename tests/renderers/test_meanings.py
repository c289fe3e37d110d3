"""One meaning per colour, and pictures in players' words: Dominance's yellow says only
"lit by the roll" (the last move is white, what may act green, as the header's turn
outline), no picture shows notation's backticks, and phases read as English."""

from __future__ import annotations

import random

import pytest

from bot.games import GAMES
from renderers import Header, describe, picture
from renderers.dominance import ACTIVE_FACE
from renderers.kit import PALETTE, recording
from tests.renderers.positions import sample


def _count(img_colours: list[tuple[int, tuple[int, int, int]]] | None, colour: tuple[int, int, int]) -> int:
    return sum(n for n, c in img_colours or [] if c == colour)


def test_dominance_yellow_means_only_lit_by_the_roll() -> None:
    lit = 0
    for state in sample("dominance", 3, 12):
        view = state.view(None)
        colours = picture("dominance", view, Header(players=("Ada", "Bob"), ply=9)).getcolors(1 << 20)
        assert _count(colours, PALETTE.highlight) == 0  # the last-move yellow is not used here
        lit += _count(colours, ACTIVE_FACE)
        if view["last_path"]:
            assert _count(colours, PALETTE.text) > 0
    assert lit > 0


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_seat_to_move_is_outlined_green_and_no_text_shows_backticks(game: str) -> None:
    rng = random.Random(game)
    for state in sample(game, 4, 6):
        view = state.view(None)
        with recording() as records:
            img = picture(game, view, Header(players=("Ada", "Bob"), ply=rng.randrange(1, 300)))
        assert not [r.content for r in records if "`" in r.content]
        if not view.get("outcome") and any(s in (0, 1) for s in view["turn"]):
            assert _count(img.getcolors(1 << 20), PALETTE.turn) > 0


@pytest.mark.parametrize("game", ["domino_wars", "dominance", "wonderland"])
def test_alt_text_names_phases_in_english(game: str) -> None:
    for state in sample(game, 8, 8):
        text = describe(game, state.view(None), Header(players=("Ada", "Bob")))
        assert "phase draft" not in text and f"{state.view(None)['phase']} phase" not in text
