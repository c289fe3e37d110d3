"""Say a sentence in the language of whoever reads it.

Private answers and DMs are in the user's language (bot/services/languages.py: their
`/settings language:`, else their Discord client's); public posts in the server's.  Sentences
are `bot.i18n.Text`s (or plain English a catalogue template recognises); anything else (a
name, a move) is shown as it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, overload

import discord

from bot.i18n import DEFAULT, Locale, translate

if TYPE_CHECKING:
    from bot.services.languages import Languages


def _languages(client: Any) -> Languages | None:
    return getattr(client, "languages", None)


def notice(interaction: discord.Interaction) -> None:
    """Remember the language of the user's Discord client (every handler acknowledges first,
    so a DM sent while handling it, or later, is in the user's language)."""
    languages = _languages(interaction.client)
    if languages is not None:
        languages.seen(interaction.user.id, interaction.locale)


async def reader_locale(interaction: discord.Interaction, *, public: bool = False) -> Locale:
    """The language `interaction`'s answer is read in: the server's when `public` (in a
    server), else the user's."""
    languages = _languages(interaction.client)
    if languages is None:
        return DEFAULT
    languages.seen(interaction.user.id, interaction.locale)
    if public and interaction.guild_id is not None:
        return await languages.for_guild(interaction.guild_id, interaction.guild_locale)
    return await languages.for_user(interaction.user.id, interaction.locale)


async def say(interaction: discord.Interaction, text: str, *, public: bool = False) -> str:
    """`text` in the language of `interaction`'s reader (see `reader_locale`)."""
    return translate(await reader_locale(interaction, public=public), text)


async def guild_locale(client: Any, guild_id: int | None) -> Locale:
    """The language of a server's public posts, outside any interaction."""
    languages = _languages(client)
    if languages is None or guild_id is None:
        return DEFAULT
    guild = client.get_guild(guild_id)
    return await languages.for_guild(guild_id, guild.preferred_locale if guild is not None else None)


async def user_locale(client: Any, user_id: int, guild_id: int | None = None) -> Locale:
    """The language of a DM to `user_id` (their choice, else their client's as last seen,
    else the server's)."""
    languages = _languages(client)
    if languages is None:
        return DEFAULT
    return await languages.for_user(user_id, guild=await guild_locale(client, guild_id))


@overload
def localize_view(view: discord.ui.View, locale: Locale) -> discord.ui.View: ...
@overload
def localize_view(view: discord.ui.View | None, locale: Locale) -> discord.ui.View | None: ...
def localize_view(view: discord.ui.View | None, locale: Locale) -> discord.ui.View | None:
    """Say `view`'s words in `locale`: button labels, select placeholders and option labels
    and descriptions (moves and tile names are left as they are: they are no sentences).
    The view is changed in place (each message builds its own) and returned."""
    if view is None or locale == DEFAULT:
        return view
    for child in view.children:
        item = child.item if isinstance(child, discord.ui.DynamicItem) else child
        if isinstance(item, discord.ui.Button) and item.label:
            item.label = translate(locale, item.label)
        elif isinstance(item, discord.ui.Select):
            if item.placeholder:
                item.placeholder = translate(locale, item.placeholder)
            for option in item.options:
                option.label = translate(locale, option.label)
                if option.description:
                    option.description = translate(locale, option.description)
    return view
