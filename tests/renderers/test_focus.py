"""Focus pictures: start, middle and end positions render valid PNGs of a sane size."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from bot.games import GAMES
from bot.games.focus import FocusRules, FocusState
from renderers import Header, render
from renderers.focus import CELL, LEFT, TOP, board
from renderers.kit import Chrome

RULES = FocusRules()


def start(options: dict[str, object] | None = None) -> FocusState:
    """A new game, typed as the Focus state it is."""
    state = RULES.start(options=options)
    assert isinstance(state, FocusState)
    return state


HEADER = Header(players=("Ada", "Grace"), ply=12)


def _position(board_: dict[str, str], **extra: Any) -> FocusState:
    data: dict[str, Any] = {
        "board": board_,
        "reserves": [0, 0],
        "captured": [0, 0],
        "to_move": 0,
        "setup_left": [0, 0],
        "ply": 57,
        "seen": {},
        "last_move": None,
        "outcome": None,
        "options": {},
    }
    return RULES.load(data | extra)


def _middle() -> FocusState:
    """Stacks of five, reserves on both sides and captures, last move a jump."""
    stacks = {"c3": "10101", "d4": "00", "e5": "11100", "b5": "01", "f2": "1", "g6": "00011", "h4": "1"}
    return _position(stacks, reserves=[2, 1], captured=[3, 1]).play(0, "d4-d6")


def _end() -> FocusState:
    state = _position({"d4": "1", "d5": "0", "c3": "1010"}, captured=[3, 1]).play(0, "d5-d4")
    assert state.outcome is not None
    return state


def _decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


@pytest.mark.parametrize(
    "state",
    [start(), _middle(), _end(), start(options={"setup": "drop"}).play(0, "*d4")],
    ids=["start", "middle", "end", "setup"],
)
def test_positions_render_valid_pngs(state: FocusState) -> None:
    png = render("focus", state.view(None), HEADER)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(png) < 150 * 1024
    image = _decode(png)
    body = board(state.view(None))
    assert image.format == "PNG" and image.mode in ("RGB", "P")
    chrome = Chrome(body.width, state.view(None), HEADER, GAMES["focus"].info.seat_names)
    assert image.size == (body.width, chrome.header_height + body.height + chrome.footer_height)
    assert image.width >= 800


def test_a_seat_view_renders_like_the_public_view() -> None:
    state = _middle()
    assert render("focus", state.view(1), HEADER) == render("focus", state.view(None), HEADER)


def test_cut_corners_are_not_drawn_as_squares() -> None:
    body = board(start().view(None))
    rank1_y = TOP + 7 * CELL + CELL // 2
    inside_a1 = body.getpixel((LEFT + 10, rank1_y))
    inside_c1 = body.getpixel((LEFT + 2 * CELL + 10, rank1_y))
    assert inside_a1 == body.getpixel((2, 2))  # background, not board
    assert inside_c1 != inside_a1


def test_the_last_move_changes_the_picture() -> None:
    state = _middle()
    data = state.dump() | {"last_move": None}
    unmarked = RULES.load(data, ["d4-d6"])  # with the move since its position, as from the log
    assert board(state.view(None)).tobytes() != board(unmarked.view(None)).tobytes()
