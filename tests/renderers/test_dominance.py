"""Dominance pictures: every phase from the empty table to the end renders a sane PNG."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.games import CHANCE, GAMES, GameState
from renderers import Header, render
from renderers.dominance import ACTIVE_FACE, CELL, LEFT, TOP, WIDTH, board
from renderers.kit import Chrome

RULES = GAMES["dominance"]
HEADER = Header(players=("Ada", "Grace"), ply=40)


def _game(seed: int) -> list[GameState]:
    """Every state of one random game."""
    rng = random.Random(seed)
    state = RULES.start()
    states = [state]
    while state.outcome is None:
        if CHANCE in state.turn:
            state = state.play(CHANCE, state.sample_chance(rng))
        else:
            seat = min(state.turn)
            state = state.play(seat, rng.choice(state.legal_moves(seat)))
        states.append(state)
    return states


def _first(states: list[GameState], phase: str) -> GameState:
    return next(s for s in states if s.view(None)["phase"] == phase)


def _png(state: GameState) -> Image.Image:
    data = render("dominance", state.view(None), HEADER)
    assert 5_000 < len(data) < 200_000
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG" and image.width >= 800
    return image


@pytest.mark.parametrize("phase", ["layout", "setup", "roll", "move", "capture", "return", "enter", "over"])
def test_every_phase_renders(phase: str) -> None:
    for seed in range(6):
        states = _game(seed)
        if any(s.view(None)["phase"] == phase for s in states):
            _png(_first(states, phase))
            return
    pytest.fail(f"no random game reached the {phase} phase")


def test_active_spaces_are_lit_and_others_are_not() -> None:
    layout = "11 12 13 14 15 16 22 23 24 25 26 33 34 35 36 44 45 46 55 56 66"
    state = RULES.start().play(CHANCE, f"layout {layout}")
    for roll in ("1 1", "2 2", "1 2", "6 6"):
        state = state.play(CHANCE, f"roll {roll}")
    state = state.play(CHANCE, "roll 2 2 2 2")  # Blue's a3 can move; c3 is an empty 2, e1 a 1
    assert state.view(None)["phase"] == "move"
    image = board(state.view(None))
    inset = 12  # inside the half's left edge, at mid height: clear of pips and corners
    c3 = image.getpixel((LEFT + 2 * CELL + inset, TOP + 4 * CELL + CELL // 2))
    e1 = image.getpixel((LEFT + 4 * CELL + inset, TOP + 6 * CELL + CELL // 2))
    assert c3 == ACTIVE_FACE
    assert e1 != ACTIVE_FACE


def test_the_picture_keeps_its_size_through_a_game() -> None:
    sizes = {board(s.view(None)).size for s in _game(2)[::25]}
    sizes.add(board(RULES.start().view(None)).size)
    assert len(sizes) == 1
    assert sizes.pop()[0] == WIDTH


def test_header_sits_above_the_board() -> None:
    state = _game(1)[-1]
    image = _png(state)
    chrome = Chrome(WIDTH, state.view(None), HEADER, GAMES["dominance"].info.seat_names)
    assert image.height > chrome.header_height + 600
