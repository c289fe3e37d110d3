"""What every cog shares: reaching the service, and turning errors into replies.

Domain errors (`ServiceError`, `IllegalMove`, `InvalidOptions`) carry a sentence for the
user and become ephemeral replies.  A database outage (recognised in one place,
bot/store/outage.py) is no bug: the user is told the database is unavailable, nothing
changed, and to try again shortly (`DATABASE_AWAY`), and the log gets one warning line.
Anything else is a bug: it is logged with a short reference that the user sees, so an
admin can find it in the log.
"""

from __future__ import annotations

import logging
import secrets
from typing import TYPE_CHECKING, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import IllegalMove, InvalidOptions
from bot.i18n import Text, tr
from bot.services.matches import MatchRow, MatchService, ServiceError, database_unavailable
from cogs.acknowledge import answer
from cogs.speech import say

if TYPE_CHECKING:
    from bot.app.client import Boneyard
    from cogs.out.presenter import Presenter

log = logging.getLogger(__name__)

USER_ERRORS = (ServiceError, IllegalMove, InvalidOptions)
DATABASE_AWAY = tr(
    "🔌 My database is unavailable right now (it may be restarting), so nothing was changed. "
    "Please try again in a moment."
)


def bot_of(interaction: discord.Interaction) -> Boneyard:
    return cast("Boneyard", interaction.client)


def service_of(interaction: discord.Interaction) -> MatchService:
    return bot_of(interaction).service


async def channel_match(interaction: discord.Interaction) -> MatchRow | None:
    """The match a command typed here is about: the channel's running match or open challenge,
    else, in a thread, the match the thread was made for even after it ended."""
    service = service_of(interaction)
    row = await service.running_in(interaction.channel_id or 0)
    if row is None and isinstance(interaction.channel, discord.Thread):
        row = await service.of_thread(interaction.channel.id)
    return row


def presenter_of(interaction: discord.Interaction) -> Presenter:
    return bot_of(interaction).presenter


def sentence_of(error: BaseException) -> str:
    """The error's sentence, still a `Text` when it was made as one (to be translated)."""
    if len(error.args) == 1 and isinstance(error.args[0], Text):
        return error.args[0]
    return str(error)


def user_message(error: BaseException) -> str | None:
    """The sentence to show for a domain error, or None for a bug."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, USER_ERRORS):
        return sentence_of(error)
    if isinstance(error, app_commands.CheckFailure):
        return sentence_of(error) or tr("You cannot use this command here.")
    if database_unavailable(error):
        return DATABASE_AWAY
    return None


async def reply(interaction: discord.Interaction, text: str, *, ephemeral: bool = True) -> None:
    """Answer an interaction whether or not it was already answered or deferred."""
    try:
        await answer(interaction, text, ephemeral=ephemeral)
    except discord.HTTPException:
        log.warning("could not answer interaction %s", interaction.id, exc_info=True)


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    message = user_message(error)
    if message == DATABASE_AWAY:
        log.warning("interaction %s during a database outage: %s", interaction.id, _cause(error))
        await reply(interaction, message)
        return
    if message is None:
        reference = secrets.token_hex(3)
        log.error("unexpected error [ref %s] in interaction %s", reference, interaction.id, exc_info=error)
        message = tr(
            "Something went wrong on my side (reference `{reference}`); nothing was changed.", reference=reference
        )
    await reply(interaction, f"⚠️ {await say(interaction, message)}")


def _cause(error: BaseException) -> str:
    original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    return f"{type(original).__name__}: {original}"[:200]


class BoneyardCog(commands.Cog):
    """Base of the slash-command cogs: one place turns their errors into replies."""

    def __init__(self, bot: Boneyard) -> None:
        self.bot = bot

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await report_error(interaction, error)
