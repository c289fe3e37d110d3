"""`/leaderboard` and `/stats`: the ratings every finished rated match feeds (bot.services.ratings).

`/stats` also shows each game's trend: the rating before and after each of the player's
latest rated matches (`RatingBook.trend`), as a text sparkline and a small chart picture."""

from __future__ import annotations

import datetime as dt
import io
from functools import partial
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.games import GAMES
from bot.i18n import tr, translate
from bot.services.ratings import PlayerRecord
from cogs.acknowledge import answer, defer
from cogs.common import BoneyardCog
from cogs.play import GAME_CHOICES
from cogs.speech import reader_locale
from renderers.bidi import isolate
from renderers.rating_chart import chart_png

if TYPE_CHECKING:
    from bot.app.client import Boneyard

LEADERBOARD_SIZE = 10
TREND_MATCHES = 30
SPARKS = "▁▂▃▄▅▆▇█"
MEDALS = ("🥇", "🥈", "🥉")


def record_text(record: PlayerRecord) -> str:
    """`1520 · 7 W 2 D 3 L` (with a `?` while the rating is provisional)."""
    mark = "?" if record.rating.provisional else ""
    return tr(
        "**{rating}** · {wins} W {draws} D {losses} L",
        rating=f"{record.rating.value:.0f}{mark}",
        wins=record.wins,
        draws=record.draws,
        losses=record.losses,
    )


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
                interaction,
                tr("Nobody has finished a rated {name} match here yet. `/play` one!", name=info.name),
                ephemeral=True,
            )
            return
        locale = await reader_locale(interaction, public=True)
        lines = [
            f"{MEDALS[i] if i < len(MEDALS) else f'`{i + 1:>2}.`'} <@{r.user_id}> — {translate(locale, record_text(r))}"
            for i, r in enumerate(records)
        ]
        title = translate(locale, tr("{game} leaderboard", game=info.name))
        embed = discord.Embed(title=title, description="\n".join(lines))
        embed.set_footer(text=translate(locale, tr("Elo ratings; ? = provisional (fewer than 30 rated games)")))
        await answer(interaction, embed=embed, allowed_mentions=discord.AllowedMentions.none(), ephemeral=False)

    @app_commands.command(name="stats", description="Ratings and results of a player (you by default).")
    async def stats(self, interaction: discord.Interaction, member: discord.Member | None = None) -> None:
        who = member or interaction.user
        await defer(interaction)
        records = await self.bot.ratings.records_of(who.id)
        if not records:
            await answer(
                interaction, tr("{display_name} has no rated games yet.", display_name=who.display_name), ephemeral=True
            )
            return
        locale = await reader_locale(interaction, public=True)
        embed = discord.Embed(title=translate(locale, tr("{name} — ratings", name=who.display_name)))
        series: dict[str, list[float]] = {}
        dates: dict[str, list[dt.date]] = {}
        for record in records:
            name = GAMES[record.game].info.name
            points = await self.bot.ratings.trend(who.id, record.game, matches=TREND_MATCHES)
            series[name] = [rating for _, rating in points]
            dates[name] = [dt.datetime.fromtimestamp(when, dt.UTC).date() for when, _ in points]
            trend = trend_text(series[name])
            said = translate(locale, record_text(record)) + (f"\n{translate(locale, trend[1:])}" if trend else "")
            embed.add_field(name=name, value=said, inline=False)
        extra: dict[str, Any] = {}
        if any(len(line) > 1 for line in series.values()):
            title = translate(  # the name isolated: any script, left to right
                locale, tr("{name}: rating after each rated match", name=isolate(who.display_name))
            )
            png = await self.bot.pictures.run(partial(chart_png, series, title=title, dates=dates, locale=locale))
            extra["file"] = discord.File(io.BytesIO(png), filename="ratings.png")
            embed.set_image(url="attachment://ratings.png")
        await answer(
            interaction, embed=embed, allowed_mentions=discord.AllowedMentions.none(), ephemeral=False, **extra
        )


def trend_text(values: list[float]) -> str:
    """`\nTrend: 1500 → 1534 ▁▂▅▇` (empty for fewer than two points)."""
    if len(values) < 2:
        return ""
    low, high = min(values), max(values)
    bars = "".join(SPARKS[round((v - low) / (high - low) * (len(SPARKS) - 1)) if high > low else 0] for v in values)
    return "\n" + tr("Trend: {first} → {last} {bars}", first=f"{values[0]:.0f}", last=f"{values[-1]:.0f}", bars=bars)


async def setup(bot: Boneyard) -> None:
    await bot.add_cog(RatingsCog(bot))
