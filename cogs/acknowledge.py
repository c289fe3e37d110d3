"""Acknowledge first: every command and component is answered before any database work.

Why: Discord forgets an interaction that is not acknowledged within 3 seconds, and a
database commit can wait longer than that (SQLite waits up to `busy_timeout` for another
writer).  A move acknowledged only after its commit could be saved and yet never shown.
So handlers call `defer` first, then do the work, then `answer` (or post the board as the
interaction's follow-up).

Slash commands defer with Discord's "thinking…" message, public when the real answer will
be public.  A refusal must still be private: when the thinking message has the other
visibility and was not replaced yet, `answer` deletes it and sends the answer as a new
message, the only way Discord allows to change the visibility after a defer.  Components
defer silently (the clicked message stays as it is), and their follow-ups may be
ephemeral or not at will.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.i18n import translate
from cogs.speech import localize_view, notice, reader_locale

log = logging.getLogger(__name__)


async def defer(interaction: discord.Interaction, *, ephemeral: bool = False) -> None:
    """Acknowledge `interaction` now (nothing happens if it already was), and remember the
    language of the user's client."""
    notice(interaction)
    if interaction.response.is_done():
        return
    if interaction.type is discord.InteractionType.component:
        await interaction.response.defer()
    else:
        await interaction.response.defer(thinking=True, ephemeral=ephemeral)


async def answer(
    interaction: discord.Interaction, content: str | None = None, *, ephemeral: bool, **fields: Any
) -> None:
    """Send the answer to `interaction`, with the visibility asked for, whether or not it
    was deferred (`fields`: `embed`, `file`, `view`, `allowed_mentions`...).  `content` is
    said in the reader's language: the user's when ephemeral, else the server's."""
    if content is not None or fields.get("view") is not None:
        locale = await reader_locale(interaction, public=not ephemeral)
        if content is not None:
            content = translate(locale, content)
        localize_view(fields.get("view"), locale)
    if not interaction.response.is_done():
        await interaction.response.send_message(content, ephemeral=ephemeral, **fields)
        return
    if interaction.response.type is discord.InteractionResponseType.deferred_channel_message:
        await _drop_thinking_of_other_visibility(interaction, ephemeral=ephemeral)
    await interaction.followup.send(content or "", ephemeral=ephemeral, **fields)


async def _drop_thinking_of_other_visibility(interaction: discord.Interaction, *, ephemeral: bool) -> None:
    """Delete the "thinking…" message if it is still loading and would show the answer with
    the wrong visibility (the first follow-up replaces it and keeps its visibility)."""
    try:
        original = await interaction.original_response()
    except discord.NotFound:
        return  # already deleted: the follow-up is a new message
    if original.flags.loading and original.flags.ephemeral != ephemeral:
        await interaction.delete_original_response()
