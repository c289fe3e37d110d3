"""Alt text and text boards: they say whose turn it is and the last move, fit Discord's limit,
show every piece where the view puts it, and never more than the public view holds."""

from __future__ import annotations

import pytest

from bot.games import GAMES
from renderers import Header, describe, describe_private, text_board
from renderers.words import move_words
from tests.renderers.positions import sample

GAME_KEYS = sorted(GAMES)
HEADER = Header(players=("Ada", "李小龍"))


@pytest.mark.parametrize("game", GAME_KEYS)
def test_alt_text_says_whose_turn_and_the_last_move(game: str) -> None:
    seats = GAMES[game].info.seat_names
    for state in sample(game, 11, 12):
        view = state.view(None)
        alt = describe(game, view, HEADER)
        assert len(alt) <= 1000
        if view.get("outcome"):
            assert "Game over" in alt
        else:
            for seat in view["turn"]:
                if seat in (0, 1):
                    assert f"{HEADER.players[seat]} ({seats[seat]})" in alt and "to move" in alt
        if view.get("last_move"):
            assert f"Last move: {move_words(game, view['last_move'])}" in alt


@pytest.mark.parametrize("game", GAME_KEYS)
def test_words_from_a_seat_view_say_no_more_than_the_public_view(game: str) -> None:
    for state in sample(game, 12, 8):
        public = state.view(None)
        for seat in (0, 1):
            assert describe(game, state.view(seat), HEADER) == describe(game, public, HEADER)
            assert text_board(game, state.view(seat), HEADER) == text_board(game, public, HEADER)


def test_focus_text_board_shows_every_stack_owner_and_height() -> None:
    for state in sample("focus", 13, 6):
        view = state.view(None)
        board = text_board("focus", view)
        lines = board.splitlines()
        rows = [line for line in lines if line[:1].isdigit()]
        for line in rows:
            rank = line[0]
            cells = [line[2 + 3 * i : 2 + 3 * i + 2].strip() for i in range(8)]
            for i, cell in enumerate(cells):
                square = f"{'abcdefgh'[i]}{rank}"
                stack = view["stacks"].get(square)
                if square in view["cut"]:
                    assert cell == ""
                elif stack:
                    assert cell == f"{'OB'[stack[-1]]}{len(stack)}", (square, cell)
                else:
                    assert cell == "."


def test_domino_wars_private_alt_text_lists_the_seats_hand() -> None:
    for state in sample("domino_wars", 14, 6):
        for seat in (0, 1):
            view = state.view(seat)
            alt = describe_private("domino_wars", view)
            shown = (view.get("private") or {}).get("draft" if view.get("phase") == "draft" else "hand", [])
            assert all(tile in alt for tile in shown)
            assert len(alt) <= 1000
