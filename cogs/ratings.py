"""`/leaderboard` and `/stats`: the ratings every finished rated match feeds (bot.rating_book)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.games import GAMES
from bot.rating_book import PlayerRecord
from cogs.acknowledge import answer, defer
from cogs.common import BoneyardCog
from cogs.play import GAME_CHOICES

if TYPE_CHECKING:
    from bot.client import Boneyard

LEADERBOARD_SIZE = 10
MEDALS = ("🥇", "🥈", "🥉")


def record_text(record: PlayerRecord) -> str:
    """`1520 · 7 W 2 D 3 L` (with a `?` while the rating is provisional)."""
    mark = "?" if record.rating.provisional else ""
    return f"**{record.rating.value:.0f}{mark}** · {record.wins} W {record.draws} D {record.losses} L"


class RatingsCog(BoneyardCog):
    @app_commands.command(name="leaderboard", description="The best rated players of a game on this server.")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        await defer(interaction)
        records = await self.bot.ratings.leaderboard(game.value, guild_id=interaction.guild_id, limit=LEADERBOARD_SIZE)
        info = GAMES[game.value].info
        if not records:
            await answer(
                interaction, f"Nobody has finished a rated {info.name} match here yet. `/play` one!", ephemeral=True
            )
            return
        lines = [
            f"{MEDALS[i] if i < len(MEDALS) else f'`{i + 1:>2}.`'} <@{r.user_id}> — {record_text(r)}"
            for i, r in enumerate(records)
        ]
        embed = discord.Embed(title=f"{info.name} leaderboard", description="\n".join(lines))
        embed.set_footer(text="Elo ratings; ? = provisional (fewer than 30 rated games)")
        await answer(interaction, embed=embed, allowed_mentions=discord.AllowedMentions.none(), ephemeral=False)

    @app_commands.command(name="stats", description="Ratings and results of a player (you by default).")
    async def stats(self, interaction: discord.Interaction, member: discord.Member | None = None) -> None:
        who = member or interaction.user
        await defer(interaction)
        records = await self.bot.ratings.records_of(who.id)
        if not records:
            await answer(interaction, f"{who.display_name} has no rated games yet.", ephemeral=True)
            return
        embed = discord.Embed(title=f"{who.display_name} — ratings")
        for record in records:
            embed.add_field(name=GAMES[record.game].info.name, value=record_text(record), inline=False)
        await answer(interaction, embed=embed, allowed_mentions=discord.AllowedMentions.none(), ephemeral=False)


async def setup(bot: Boneyard) -> None:
    await bot.add_cog(RatingsCog(bot))
