"""The slash commands in each user's language: descriptions and choices, never names."""

from __future__ import annotations

import discord
import pytest
from discord import app_commands

from bot.app.client import EXTENSIONS
from cogs.translator import CatalogueTranslator, command_texts


def _context(location: app_commands.TranslationContextLocation) -> app_commands.TranslationContext:  # type: ignore[type-arg]
    return app_commands.TranslationContext(location=location, data=None)


DESCRIPTION = app_commands.TranslationContextLocation.command_description


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        (discord.Locale.german, "Mach deinen Zug in der Partie dieses Kanals."),
        (discord.Locale.spain_spanish, "Haz tu jugada en la partida de este canal."),
        (discord.Locale.latin_american_spanish, "Haz tu jugada en la partida de este canal."),
        (discord.Locale.brazil_portuguese, "Faça sua jogada na partida deste canal."),
        (discord.Locale.american_english, None),
        (discord.Locale.french, None),
    ],
)
async def test_descriptions_are_translated(locale: discord.Locale, expected: str | None) -> None:
    said = await CatalogueTranslator().translate(
        app_commands.locale_str("Make your move in this channel's match."), locale, _context(DESCRIPTION)
    )
    assert said == expected


async def test_names_stay_english_and_game_names_stay_the_sources() -> None:
    translator = CatalogueTranslator()
    name = app_commands.TranslationContextLocation.command_name
    assert await translator.translate(app_commands.locale_str("move"), discord.Locale.german, _context(name)) is None
    texts = set(command_texts(EXTENSIONS))
    assert "Make your move in this channel's match." in texts
    assert not texts & {"Focus", "Domino Wars", "Deutsch", "Español"}


async def test_a_translation_over_discords_limit_falls_back_to_english(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("cogs.translator.translate", lambda locale, text: "x" * 101)
    said = await CatalogueTranslator().translate(
        app_commands.locale_str("Which game"), discord.Locale.german, _context(DESCRIPTION)
    )
    assert said is None
