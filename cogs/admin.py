"""Owner-only maintenance: syncing slash commands on demand instead of at every start.

Discord rate-limits command registration, so Boneyard syncs only when `SYNC_COMMANDS` says
so or an owner types `@Boneyard sync` (`sync guild` for this server only, instantly).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord.ext import commands

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

    @sync.error
    async def sync_error(self, ctx: commands.Context[Boneyard], error: commands.CommandError) -> None:
        if isinstance(error, commands.NotOwner):
            await ctx.reply("Only the bot's owner can sync commands.", mention_author=False)
        else:
            raise error


async def setup(bot: Boneyard) -> None:
    await bot.add_cog(AdminCog(bot))
