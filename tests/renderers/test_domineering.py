"""Domineering pictures: start, middle and end positions render as sane PNGs."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.games import CHANCE, GAMES
from renderers import render
from renderers.domineering import _path_points, board
from tests.games.playout import final

RULES = GAMES["domineering"]
WORKED = ["draw 5-2", "d4-b4 e5-e8", "draw 3-0", "h1-h4 a8-b8", "draw 3-1", "e8-h8 b4-b5", "draw 2-3"]


def _middle() -> dict[str, object]:
    state = RULES.start()
    for move in WORKED:
        state = state.play(CHANCE if move.startswith("draw") else next(iter(state.turn)), move)
    return state.view(None)


def _check_png(data: bytes) -> Image.Image:
    assert data.startswith(b"\x89PNG")
    assert len(data) < 150_000
    image = Image.open(io.BytesIO(data))
    assert image.width >= 800
    return image


def test_start_renders() -> None:
    _check_png(render("domineering", RULES.start().view(None)))


def test_middle_renders_with_the_drawn_tile_and_last_move() -> None:
    view = _middle()
    assert view["drawn"] == "2-3"
    _check_png(render("domineering", view))


@pytest.mark.parametrize("options", [{}, {"pieces": "4", "setup": "diagonal", "unplayable": "keep"}])
def test_end_renders(options: dict[str, str]) -> None:
    state = final(RULES.start(options=options), random.Random(2))
    _check_png(render("domineering", state.view(None)))


def test_body_differs_when_a_piece_moves() -> None:
    start = RULES.start().view(None)
    moved = {**start, "pieces": [["d5", "e5"], ["h1", "a8"]]}
    assert board(start).tobytes() != board(moved).tobytes()


def test_a_wrapping_path_is_split_at_the_edge() -> None:
    assert len(_path_points(["e5", "e4", "e3", "e2", "e1", "e8"])) == 2
    assert len(_path_points(["d4", "c4", "b4"])) == 1
