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

from bot.infra.duties import DutyHealth

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
        await ctx.reply(f"Synced {len(synced)} commands ({scope}).", mention_author=False)

    @app_commands.command(name="status", description="How the bot's background duties are doing (owners, moderators).")
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def status(self, interaction: discord.Interaction) -> None:
        if not (interaction.permissions.manage_guild or await self.bot.is_owner(interaction.user)):
            await interaction.response.send_message(
                "Only the bot's owners and moderators can see its status.", ephemeral=True
            )
            return
        lines = [status_line(h, now=time.time()) for h in self.bot.duties.health()]
        text = "**Background duties**\n" + "\n".join(lines) if lines else "No background duty runs yet."
        await interaction.response.send_message(text[:2000], ephemeral=True)

    @sync.error
    async def sync_error(self, ctx: commands.Context[Boneyard], error: commands.CommandError) -> None:
        if isinstance(error, commands.NotOwner):
            await ctx.reply("Only the bot's owner can sync commands.", mention_author=False)
        else:
            raise error


def status_line(health: DutyHealth, *, now: float) -> str:
    """One duty for `/status`: its state, when it last succeeded, and its last error while failing."""
    last = f"last success {_ago(now, health.last_success)}" if health.last_success else "not succeeded yet"
    if health.failing:
        return (
            f"🔴 **{health.name}**: failing ({health.failures_in_a_row} in a row, retrying), {last}; "
            f"last error: `{health.last_error}`"
        )
    if health.done:
        return f"✅ **{health.name}**: done, {last}"
    if not health.running:
        return f"⚪ **{health.name}**: stopped, {last}"
    return f"🟢 **{health.name}**: running, {last}"


def _ago(now: float, then: float) -> str:
    seconds = max(0, round(now - then))
    return f"{seconds} s ago" if seconds < 120 else f"{seconds // 60} min ago"


async def setup(bot: Boneyard) -> None:
    await bot.add_cog(AdminCog(bot))
