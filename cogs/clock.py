"""Match clocks: `/clock`, `/pause`, `/resume`, and announcing what the clocks decide.

The `ClockKeeper` (started by the bot) hands due reminders and timeouts to the service;
the bot dispatches the service's answer as the `clock_result` event, announced here:
a reminder as a mention in the match channel (short controls) or a DM (long ones), a
timeout as a new board message like any other update.

Pause and resume need both players (each types the command), like `/abort`; a member
with Manage Channels who is not playing, or the host of the match's tournament, does it
alone, as a moderator.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.clocks import ClockState
from bot.games import GAMES
from bot.i18n import joined, tr, translate
from bot.services.matches import (
    TIME_UP,
    ClockChange,
    ClockNotice,
    ClockResult,
    MatchRow,
    MatchStatus,
    NoClock,
    NotStarted,
    Update,
    clock_of,
)
from cogs.acknowledge import answer, defer
from cogs.authority import moderates
from cogs.common import BoneyardCog, presenter_of, service_of
from cogs.playing import announce_move
from cogs.speech import reader_locale

if TYPE_CHECKING:
    from bot.app.client import Boneyard

log = logging.getLogger(__name__)


def clock_lines(row: MatchRow, clock: ClockState, names: tuple[str, str], now: float) -> list[str]:
    """`/clock`: the control, then each seat's clock, the running one marked (sentences to be
    said line by line in the reader's language)."""
    info = GAMES[row.game].info
    lines: list[str] = [
        tr("**{game}** · match #{match} · {control}", game=info.name, match=row.id, control=clock.control.describe())
    ]
    for seat, name in enumerate(names):
        running = clock.seats[seat].running
        mark = "⏸" if running and clock.paused else ("▶" if running else "·")
        # parts, not words glued: the seat's colour and a long clock's units are said in the reader's language
        lines.append(joined("", [f"{mark} {name} (", info.seat_names[seat], "): `", clock.display(seat, now), "`"]))
    if clock.paused:
        lines.append(tr("The clock is paused; `/resume` (both players) restarts it."))
    return lines


class ClockCog(BoneyardCog):
    @commands.Cog.listener()
    async def on_clock_result(self, result: ClockResult) -> None:
        """Announce what the service decided for a due reminder or timeout."""
        if isinstance(result, ClockNotice):
            await self.bot.presenter.announce_clock(result)
        elif isinstance(result, Update):
            await self.bot.presenter.announce(result, intro=TIME_UP)

    @app_commands.command(name="clock", description="Both players' clocks in this channel's match.")
    @app_commands.guild_only()
    async def clock(self, interaction: discord.Interaction) -> None:
        await defer(interaction, ephemeral=True)
        service = service_of(interaction)
        row = await service.match_in_channel(interaction.channel_id or 0, interaction.user.id)
        clock = clock_of(row)
        if clock is None or row.status != MatchStatus.ACTIVE or row.seats is None:
            raise NoClock() if row.status == MatchStatus.ACTIVE else NotStarted()
        shown = presenter_of(interaction)
        names = (await shown.name(row.seats[0]), await shown.name(row.seats[1]))
        locale = await reader_locale(interaction)
        text = "\n".join(translate(locale, line) for line in clock_lines(row, clock, names, service.now()))
        await answer(interaction, text, ephemeral=True)

    @app_commands.command(name="pause", description="Pause this match's clock (both players must ask).")
    @app_commands.guild_only()
    async def pause(self, interaction: discord.Interaction) -> None:
        await self._vote(interaction, "pause")

    @app_commands.command(name="resume", description="Restart this match's paused clock (both players must ask).")
    @app_commands.guild_only()
    async def resume(self, interaction: discord.Interaction) -> None:
        await self._vote(interaction, "resume")

    @app_commands.command(name="claim", description="Claim a win on time if your opponent's clock ran out.")
    @app_commands.guild_only()
    async def claim(self, interaction: discord.Interaction) -> None:
        await defer(interaction)
        service = service_of(interaction)
        row = await service.match_in_channel(interaction.channel_id or 0, interaction.user.id)
        update = await service.claim_time(row.id, interaction.user.id, reply_to=interaction.id)
        await announce_move(self.bot, update, mover_id=interaction.user.id, interaction=interaction)

    async def _vote(self, interaction: discord.Interaction, action: str) -> None:
        await defer(interaction)
        service = service_of(interaction)
        row = await service.match_in_channel(interaction.channel_id or 0, interaction.user.id)
        moderator = await moderates(interaction, row)
        if action == "pause":
            change = await service.pause(row.id, interaction.user.id, moderator=moderator)
        else:
            change = await service.resume(row.id, interaction.user.id, moderator=moderator)
        await answer(
            interaction,
            self._vote_text(interaction.user, change),
            allowed_mentions=discord.AllowedMentions(users=True),
            ephemeral=False,
        )

    @staticmethod
    def _vote_text(user: discord.abc.User, change: ClockChange) -> str:
        match, who = change.match.id, user.mention
        if not change.done:
            other = change.waiting_for
            if change.action == "pause":
                if other:
                    return tr(
                        "{who} asks to pause the clock of match #{match}. <@{other}>, use `/pause` too to agree.",
                        who=who,
                        match=match,
                        other=other,
                    )
                return tr("{who} asks to pause the clock of match #{match}.", who=who, match=match)
            if other:
                return tr(
                    "{who} asks to resume the clock of match #{match}. <@{other}>, use `/resume` too to agree.",
                    who=who,
                    match=match,
                    other=other,
                )
            return tr("{who} asks to resume the clock of match #{match}.", who=who, match=match)
        if change.action == "pause":
            return tr("⏸ The clock of match #{match} is paused. `/resume` (both players) restarts it.", match=match)
        return tr("▶ The clock of match #{match} runs again.", match=match)


async def setup(bot: Boneyard) -> None:
    await bot.add_cog(ClockCog(bot))
