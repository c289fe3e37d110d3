"""`/games`' option lines, the clock presets and chance moves' alt text in each language."""

from __future__ import annotations

import pytest

from bot.clocks import PRESETS, parse_time_control
from bot.games import GAMES
from bot.i18n import translate
from renderers.words import move_words

TRANSLATED = ("de", "es", "pt_BR")


@pytest.mark.parametrize("locale", TRANSLATED)
def test_every_option_line_keeps_its_notation_and_says_its_help_in_the_language(locale: str) -> None:
    for rules in GAMES.values():
        for option in rules.info.options:
            english = option.describe()
            said = translate(locale, english)  # type: ignore[arg-type]
            notation = english.split(" ")[0]
            assert said.startswith(notation + " "), said  # `name=values` as typed
            assert f"`{option.default}`" in said
            assert str(option.help) not in said, said


def test_preset_names_and_long_times_in_german() -> None:
    assert translate("de", PRESETS["rapid"].describe()) == "Schnell: 5:00 pro Zug + 15:00 Reserve"
    assert translate("de", PRESETS["daily"].describe()) == "Täglich: 1\u00a0Tg. pro Zug + 3\u00a0Tg. Reserve"
    assert translate("es", PRESETS["blitz"].describe()).startswith("relámpago: 1:00 por jugada")
    custom = parse_time_control("36h+2d")
    assert str(custom.describe()) == "custom: 1d 12h per move + 2d reserve"
    said = translate("pt_BR", custom.describe()).replace("\u00a0", " ")
    assert said == "personalizada: 1 dia 12 h por jogada + 2 dias de reserva"


@pytest.mark.parametrize("locale", TRANSLATED)
def test_chance_moves_are_said_in_the_language_and_players_moves_stay_notation(locale: str) -> None:
    chance = [
        ("domino_wars", "shuffle 1"),
        ("domino_wars", "first 0"),
        ("wonderland", "roll A S M"),
        ("dominance", "draw 3-5"),
        ("dominance", "layout 12 43"),
    ]
    for game, move in chance:
        english = move_words(game, move)
        said = translate(locale, english)  # type: ignore[arg-type]
        assert said != english, (game, move)
    assert translate(locale, move_words("focus", "d4-b4")) == "d4-b4"  # type: ignore[arg-type]
    assert "Attack, Summon, Move" in translate(locale, move_words("wonderland", "roll A S M"))  # type: ignore[arg-type]
