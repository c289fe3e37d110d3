"""The slash commands in each user's language: descriptions, option descriptions and choices.

discord.py asks an `app_commands.Translator` for every string of the command tree when it
syncs, once per Discord locale, and Discord shows each user their client's language.  The
English string is the catalogue key, like every other sentence (bot/i18n).

Command and option names stay English on purpose: every reply, the help and the README name
them (`/move`, `/hand`), moves are written the same in every language, and a player who
switches language finds the same commands.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import GAMES
from bot.i18n import DEFAULT, LANGUAGE_NAMES, from_discord, translate

DISCORD_LIMIT = 100
"""The most characters Discord takes for a description or a choice name."""

KEPT = frozenset(
    {
        app_commands.TranslationContextLocation.command_name,
        app_commands.TranslationContextLocation.group_name,
        app_commands.TranslationContextLocation.parameter_name,
    }
)
"""What stays as it is in every language (see the module doc)."""


UNTRANSLATED_CHOICES = frozenset(
    {*LANGUAGE_NAMES.values(), *(rules.info.name for rules in GAMES.values()), "ping", "dm", "off", "digest"}
)
"""Choices said the same in every language: each language's own name, the games' names, the
notice modes (the words `/notify` and `/settings` take)."""


SPOKEN = {locale: ours for locale in discord.Locale if (ours := from_discord(locale)) != DEFAULT}
"""Discord's locales we have a catalogue for, and which: discord.py asks the translator about
every string of the command tree once per Discord locale (some 8,000 questions a sync), and
most of its 30-odd locales are languages we do not speak yet."""


class CatalogueTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        ours = SPOKEN.get(locale)
        if ours is None or context.location in KEPT:
            return None
        said = translate(ours, string.message)
        if said == string.message or len(said) > DISCORD_LIMIT:
            return None  # Discord refuses the whole sync for one string over its limit
        return said


def command_texts(modules: Iterable[str]) -> Iterator[str]:
    """Every translatable string of the slash commands defined in `modules` (the catalogue's
    keys besides the `tr` calls): descriptions, option descriptions, choice names."""
    for name in modules:
        module = importlib.import_module(name)
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, commands.Cog) and value.__module__ == name:
                for command in value.__cog_app_commands__:
                    yield from _texts(command)


def _texts(command: object) -> Iterator[str]:
    if isinstance(command, app_commands.Group):
        yield command.description
        for sub in command.commands:
            yield from _texts(sub)
    elif isinstance(command, app_commands.Command):
        yield command.description
        for parameter in command.parameters:
            if parameter.description and parameter.description != "…":
                yield parameter.description
            for choice in parameter.choices:
                if choice.name not in UNTRANSLATED_CHOICES:
                    yield choice.name
