"""Domino Wars pictures: start, middle and end render as sane PNGs; private pictures only
for a seat's view, with the known pile positions marked."""

from __future__ import annotations

import io
import random
from typing import Any

from PIL import Image

from bot.games import CHANCE, GAMES, GameState
from renderers import has_private_picture, render, render_private
from renderers.domino_wars import BOARD_X, BOARD_Y, CELL, _pile_rows, board, private
from renderers.kit import PALETTE

RULES = GAMES["domino_wars"]
KEY = "domino_wars"


def _states(seed: int = 3) -> list[GameState]:
    rng = random.Random(seed)
    state = RULES.start(options={"repeat": "0", "mulligan": "1", "tie": "1"})
    states = [state]
    while state.outcome is None:
        if CHANCE in state.turn:
            seat, move = CHANCE, state.sample_chance(rng)
        else:
            seat = rng.choice(sorted(state.turn))
            move = rng.choice(state.legal_moves(seat))
        state = state.play(seat, move)
        states.append(state)
    return states


def _check_png(data: bytes | None) -> Image.Image:
    assert data is not None and data.startswith(b"\x89PNG")
    assert len(data) < 150_000
    image = Image.open(io.BytesIO(data))
    assert image.width >= 800
    return image


def test_every_phase_renders_publicly_and_privately() -> None:
    one_per_phase: dict[str, GameState] = {}
    for state in _states():
        one_per_phase.setdefault(state.view(None)["phase"], state)
    assert {"first", "draft", "mulligan", "play", "over"} <= set(one_per_phase)
    for state in one_per_phase.values():
        _check_png(render(KEY, state.view(None)))
        for seat in (0, 1):
            _check_png(render_private(KEY, state.view(seat)))


def test_the_last_placement_is_highlighted_on_the_board() -> None:
    state = next(s for s in _states() if s.view(None)["last_placement"])
    view = state.view(None)
    image = board(view)
    square = view["last_placement"]["squares"][0]
    col, row = "abcd".index(square[0]), 4 - int(square[1])
    x, y = BOARD_X + col * CELL + 4, BOARD_Y + row * CELL + CELL // 2
    assert image.getpixel((x, y)) == (0xF0, 0xE4, 0x42)


def test_private_picture_is_none_for_the_public_view() -> None:
    view = _states()[-1].view(None)
    assert has_private_picture(KEY)
    assert private(view) is None
    assert render_private(KEY, view) is None


def test_known_pile_positions_are_set_apart_and_labelled() -> None:
    mine: dict[str, Any] = {
        "pile": ["0-1", "1-4", "2-5", "5-6"],
        "known_top": ["5-6"],
        "known_bottom": ["1-4"],
    }
    assert _pile_rows(mine) == [("5-6", "top"), ("0-1", ""), ("2-5", ""), ("1-4", "bottom")]
    view = {**_states()[-1].view(0), "phase": "play"}
    view["private"] = {**view["private"], **mine, "hand": ["3-4"]}
    image = private(view)
    assert image is not None and image.width >= 800


def _centre(name: str) -> tuple[int, int]:
    col, row = "abcd".index(name[0]), 4 - int(name[1:])
    return BOARD_X + col * CELL + CELL // 2, BOARD_Y + row * CELL + CELL // 2


def test_tiles_are_drawn_as_dominoes_with_a_seam_and_a_border() -> None:
    seen_pair = seen_lone = False
    for state in _states()[::3]:
        view = state.view(None)
        img = board(view).convert("RGB")
        paired = {square for pair in view["dominoes"] for square in pair}
        for a, b in view["dominoes"]:
            owner = view["board"][a]["owner"]
            (xa, ya), (xb, yb) = _centre(a), _centre(b)
            seam = ((xa + xb) // 2, (ya + yb) // 2)
            assert img.getpixel(seam) == PALETTE.seat_ink[owner], (a, b)  # the line between the halves
            seen_pair = True
        for name, cell in view["board"].items():
            x, y = _centre(name)
            edge = x - CELL // 2 + 9  # just inside the tile's border, on the side away from any partner
            if name not in paired:
                assert img.getpixel((edge, y)) == PALETTE.pip, name
                assert img.getpixel((x - CELL // 2 + 3, y)) != PALETTE.seats[int(cell["owner"])]  # board between tiles
                seen_lone = True
    assert seen_pair and seen_lone
