"""The lobby's commands: `/challenges`, `/draw`, `/takeback`, `/settings`, and expiring challenges.

Expiry runs as a small poll (every `EXPIRY_POLL` seconds, and the deadline is stored), so a
restart loses nothing: a challenge past its deadline is refused at accept time whether or not
the poll already closed it; the poll closes it and edits its message to say so.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.games import GAMES
from bot.services.matches import VENUES, Offered, ServiceError
from bot.services.notices import SERVER_MODES
from cogs.acknowledge import answer, defer
from cogs.common import BoneyardCog, bot_of, service_of
from cogs.playing import announce_move
from cogs.ui.lobby_buttons import (
    LOBBY_ITEMS,
    AcceptButton,
    AcceptDrawButton,
    TakebackNoButton,
    TakebackYesButton,
    WithdrawButton,
    single_button,
)

if TYPE_CHECKING:
    from bot.app.client import Boneyard

log = logging.getLogger(__name__)

EXPIRY_POLL = 60.0
EXPIRY_DUTY = "challenge expiry"
VENUE_CHOICES = [app_commands.Choice(name=v, value=v) for v in VENUES]
NOTIFY_CHOICES = [app_commands.Choice(name=m, value=m) for m in SERVER_MODES]


class LobbyCog(BoneyardCog):
    async def cog_load(self) -> None:
        self.bot.duties.start(EXPIRY_DUTY, self.expire_due, every=EXPIRY_POLL, before=self.bot.wait_until_ready)

    async def cog_unload(self) -> None:
        await self.bot.duties.stop(EXPIRY_DUTY)

    async def expire_now(self) -> int:
        """Close the challenges past their deadline and say so on their messages; how many
        (0 when the store failed: logged, and the supervised poll tries again)."""
        try:
            return await self.expire_due()
        except Exception:
            log.exception("could not expire challenges")
            return 0

    async def expire_due(self) -> int:
        """`expire_now`, raising when the store fails (the supervised duty's step)."""
        expired = await self.bot.lobby.expire_due(self.bot.leases.current)
        for row in expired:
            message_id = await self.bot.lobby.message_of(row.id)
            channel = await self.bot.presenter.channel(row.channel_id) if message_id else None
            if channel is None or message_id is None or not isinstance(channel, discord.abc.Messageable):
                continue
            info = GAMES[row.game].info
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(message_id).edit(  # type: ignore[attr-defined]
                    content=f"⌛ <@{row.challenger_id}>'s challenge to **{info.name}** (#{row.id}) expired.",
                    view=None,
                    allowed_mentions=discord.AllowedMentions.none(),
                )
        return len(expired)

    # --- challenges --------------------------------------------------------------------

    @app_commands.command(name="challenges", description="Open challenges in this server, with Accept buttons.")
    @app_commands.guild_only()
    async def challenges(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        await defer(interaction, ephemeral=True)
        found = await bot_of(interaction).lobby.open_challenges(interaction.guild_id)
        if not found:
            await answer(interaction, "No open challenges here. Start one with `/play`.", ephemeral=True)
            return
        lines, view = [], discord.ui.View(timeout=None)
        for row, placement in found:
            info = GAMES[row.game].info
            who = f"<@{row.opponent_id}>" if row.opponent_id else "anyone"
            deadline = f", expires <t:{int(placement.expires_at)}:R>" if placement.expires_at else ""
            lines.append(
                f"• #{row.id} **{info.name}**: <@{row.challenger_id}> → {who} in <#{row.channel_id}>{deadline}"
            )
            mine = row.challenger_id == interaction.user.id
            if len(view.children) >= 25:
                continue
            if mine:
                withdraw = WithdrawButton(row.id)
                withdraw.item.label = f"Withdraw #{row.id}"
                view.add_item(withdraw)
            elif row.opponent_id in (None, interaction.user.id):
                button = AcceptButton(row.id)
                button.item.label = f"Accept #{row.id}"
                view.add_item(button)
        await answer(
            interaction,
            "\n".join(lines)[:2000],
            view=view if view.children else discord.utils.MISSING,
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    # --- agreements --------------------------------------------------------------------

    @app_commands.command(name="draw", description="Offer a draw, or accept your opponent's offer.")
    @app_commands.guild_only()
    async def draw(self, interaction: discord.Interaction) -> None:
        await defer(interaction)
        row = await service_of(interaction).match_in_channel(interaction.channel_id or 0, interaction.user.id)
        bot = bot_of(interaction)
        result = await bot.agreements.draw(row.id, interaction.user.id)
        if isinstance(result, Offered):
            await answer(
                interaction,
                f"🤝 {interaction.user.mention} offers a draw. <@{result.to_user}>, accept with the button or "
                "`/draw`; any move declines it.",
                view=single_button(AcceptDrawButton(row.id)),
                allowed_mentions=discord.AllowedMentions(users=True),
                ephemeral=False,
            )
            return
        await announce_move(bot, result, mover_id=interaction.user.id, interaction=interaction)

    @app_commands.command(name="takeback", description="Ask your opponent to undo your last move.")
    @app_commands.guild_only()
    async def takeback(self, interaction: discord.Interaction) -> None:
        await defer(interaction)
        row = await service_of(interaction).match_in_channel(interaction.channel_id or 0, interaction.user.id)
        offered = await bot_of(interaction).agreements.request_takeback(row.id, interaction.user.id)
        moves = "your last move" if offered.undo == 1 else f"the last {offered.undo} moves"
        await answer(
            interaction,
            f"↩️ {interaction.user.mention} asks to take back {moves.replace('your', 'their')}. "
            f"<@{offered.to_user}>, allow it?",
            view=single_button(TakebackYesButton(row.id), TakebackNoButton(row.id)),
            allowed_mentions=discord.AllowedMentions(users=True),
            ephemeral=False,
        )

    # --- settings ----------------------------------------------------------------------

    @app_commands.command(name="settings", description="Server settings: where matches are played, default clock.")
    @app_commands.describe(
        venue="threads: each match in its own thread (default); channel: one match per channel",
        clock="Default time control of casual matches (daily, rapid, none, 2h+1d, ...)",
        notify="How players who never used /notify are told it is their turn",
        vacation_days="Vacation days a year each player may use (default 14)",
    )
    @app_commands.choices(venue=VENUE_CHOICES, notify=NOTIFY_CHOICES)
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def settings(
        self,
        interaction: discord.Interaction,
        venue: app_commands.Choice[str] | None = None,
        clock: str | None = None,
        notify: app_commands.Choice[str] | None = None,
        vacation_days: app_commands.Range[int, 0, 366] | None = None,
    ) -> None:
        assert interaction.guild_id is not None
        await defer(interaction, ephemeral=True)
        bot = bot_of(interaction)
        lobby = bot.lobby
        if venue is None and clock is None and notify is None and vacation_days is None:
            current = await lobby.settings(interaction.guild_id)
            notices = await bot.notices.server(interaction.guild_id)
        elif not interaction.permissions.manage_guild:
            raise ServiceError("Only members with Manage Server can change the server settings.")
        else:
            # the clock is checked first: a bad one changes nothing (the other two come from choices)
            current = await lobby.configure(interaction.guild_id, venue=venue.value if venue else None, clock=clock)
            notices = await bot.notices.server(interaction.guild_id)
            if notify is not None or vacation_days is not None:
                notices = await bot.notices.configure_server(
                    interaction.guild_id, mode=notify.value if notify else None, vacation_days=vacation_days
                )
        await answer(
            interaction,
            f"Matches are played in: **{current.venue}** · default clock of casual matches: "
            f"**{current.default_clock}** (`/play clock:none` still plays without one).\n"
            f"Players who never used `/notify` are told of their turn by: **{notices.default_mode or 'ping'}** · "
            f"vacation days a year: **{notices.vacation_days}**.",
            ephemeral=True,
        )


async def setup(bot: Boneyard) -> None:
    bot.add_dynamic_items(*LOBBY_ITEMS)
    await bot.add_cog(LobbyCog(bot))
