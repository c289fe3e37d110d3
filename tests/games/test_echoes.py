"""Player input echoed in a refusal is bounded and cleaned (bot/games/base.py `shown`)."""

from __future__ import annotations

import pytest

from bot.games import GAMES, InvalidOptions
from bot.games.base import Option, shown


def test_an_echo_has_no_control_or_bidi_characters_and_is_bounded() -> None:
    echoed = shown("d2\u202e-e2\u2066\u200b\x00\x1b[31m" + "x" * 6000)
    assert not any(c in echoed for c in "\u202e\u2066\u200b\x00\x1b")
    assert len(echoed) <= 34 and echoed.endswith("…`")


def test_a_6000_character_option_gives_a_short_refusal() -> None:
    for options in ({"no_such_option_\u202e" + "y" * 6000: "1"},):
        with pytest.raises(InvalidOptions) as refused:
            GAMES["focus"].start(players=2, options=options)
        assert len(str(refused.value)) < 500 and "\u202e" not in str(refused.value)


def test_an_option_value_is_echoed_bounded() -> None:
    number = Option("size", 8, "board size", minimum=6, maximum=10)
    choice = Option("variant", "standard", "rules", choices=("standard", "short"))
    for option in (number, choice):
        with pytest.raises(InvalidOptions) as refused:
            option.parse("\u2067" + "z" * 6000)
        assert len(str(refused.value)) < 200 and "\u2067" not in str(refused.value)
