"""Owner-only maintenance: syncing slash commands on demand, and `/status` of the duties.

Discord rate-limits command registration, so Boneyard syncs only when `SYNC_COMMANDS` says
so or an owner types `@Boneyard sync` (`sync guild` for this server only, instantly).

`/status` (the bot's owners, and members with Manage Server) tells how each background duty
is doing (bot/infra/duties.py): when it last succeeded and, while it fails, since when and
why.  It reads the supervisor's memory only, so it answers even while the database is away,
which is when it is asked.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import Ago, Locale, joined, tr, tr_n, translate
from bot.infra.duties import DutyHealth
from cogs.acknowledge import answer, defer
from cogs.speech import reader_locale, user_locale

if TYPE_CHECKING:
    from bot.app.client import Boneyard


class AdminCog(commands.Cog):
    def __init__(self, bot: Boneyard) -> None:
        self.bot = bot

    @commands.command(name="sync")
    @commands.is_owner()
    async def sync(self, ctx: commands.Context[Boneyard], scope: str = "global") -> None:
        if scope == "guild" and ctx.guild is not None:
            self.bot.tree.copy_global_to(guild=ctx.guild)
            synced = await self.bot.tree.sync(guild=ctx.guild)
        else:
            synced = await self.bot.tree.sync()
        scope_words = tr("this server") if scope == "guild" and ctx.guild is not None else tr("everywhere")
        reply = tr_n("Synced {n} command ({scope}).", "Synced {n} commands ({scope}).", len(synced), scope=scope_words)
        await ctx.reply(translate(await self._locale(ctx), reply), mention_author=False)

    @app_commands.command(name="status", description="How the bot's background duties are doing (owners, moderators).")
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def status(self, interaction: discord.Interaction) -> None:
        await defer(interaction, ephemeral=True)  # the reader's language may be a database look-up away
        if not (interaction.permissions.manage_guild or await self.bot.is_owner(interaction.user)):
            await answer(interaction, tr("Only the bot's owners and moderators can see its status."), ephemeral=True)
            return
        lines = [status_line(h, now=time.time()) for h in self.bot.duties.health()]
        if not lines:
            await answer(interaction, tr("No background duty runs yet."), ephemeral=True)
            return
        said = translate(await reader_locale(interaction), joined("\n", [tr("**Background duties**"), *lines]))
        await answer(interaction, said[:2000], ephemeral=True)

    async def _locale(self, ctx: commands.Context[Boneyard]) -> Locale:
        """A typed command carries no client language: the owner's own choice, else their client's
        as last seen, else the server's."""
        return await user_locale(self.bot, ctx.author.id, ctx.guild.id if ctx.guild is not None else None)

    @sync.error
    async def sync_error(self, ctx: commands.Context[Boneyard], error: commands.CommandError) -> None:
        if isinstance(error, commands.NotOwner):
            refusal = tr("Only the bot's owner can sync commands.")
            await ctx.reply(translate(await self._locale(ctx), refusal), mention_author=False)
        else:
            raise error


def status_line(health: DutyHealth, *, now: float) -> str:
    """One duty for `/status`: its state, when it last succeeded, and its last error while failing
    (a `tr` sentence: the duty's name and its error stay as the code and the library wrote them)."""
    name, error = health.name, health.last_error
    if health.last_success:
        ago = Ago(now - health.last_success)
        if health.failing:
            return tr(
                "🔴 **{name}**: failing ({n} in a row, retrying), last success {ago}; last error: `{error}`",
                name=name,
                n=health.failures_in_a_row,
                ago=ago,
                error=error,
            )
        if health.done:
            return tr("✅ **{name}**: done, last success {ago}", name=name, ago=ago)
        if not health.running:
            return tr("⚪ **{name}**: stopped, last success {ago}", name=name, ago=ago)
        return tr("🟢 **{name}**: running, last success {ago}", name=name, ago=ago)
    if health.failing:
        return tr(
            "🔴 **{name}**: failing ({n} in a row, retrying), not succeeded yet; last error: `{error}`",
            name=name,
            n=health.failures_in_a_row,
            error=error,
        )
    if health.done:
        return tr("✅ **{name}**: done, not succeeded yet", name=name)
    if not health.running:
        return tr("⚪ **{name}**: stopped, not succeeded yet", name=name)
    return tr("🟢 **{name}**: running, not succeeded yet", name=name)


async def setup(bot: Boneyard) -> None:
    await bot.add_cog(AdminCog(bot))
