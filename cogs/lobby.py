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
from bot.i18n import LANGUAGE_NAMES, tr, tr_n, translate
from bot.services.languages import AUTOMATIC
from bot.services.matches import VENUES, Offered, ServiceError
from bot.services.notices import SERVER_MODES
from cogs.acknowledge import answer, defer
from cogs.common import BoneyardCog, bot_of, service_of
from cogs.playing import announce_move
from cogs.speech import guild_locale, reader_locale
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
LANGUAGE_CHOICES = [
    app_commands.Choice(name="auto", value=AUTOMATIC),
    *(app_commands.Choice(name=name, value=code) for code, name in LANGUAGE_NAMES.items()),
]
"""Each language in its own words (never translated: a reader looks for their own)."""
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
                    content=translate(
                        await guild_locale(self.bot, row.guild_id),
                        tr(
                            "⌛ <@{challenger}>'s challenge to **{game}** (#{match}) expired.",
                            challenger=row.challenger_id,
                            game=info.name,
                            match=row.id,
                        ),
                    ),
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
            await answer(interaction, tr("No open challenges here. Start one with `/play`."), ephemeral=True)
            return
        locale = await reader_locale(interaction)
        lines, view = [], discord.ui.View(timeout=None)
        for row, placement in found:
            info = GAMES[row.game].info
            who = f"<@{row.opponent_id}>" if row.opponent_id else tr("anyone")
            line = tr(
                "• #{match} **{game}**: <@{challenger}> → {who} in <#{channel}>",
                match=row.id,
                game=info.name,
                challenger=row.challenger_id,
                who=who,
                channel=row.channel_id,
            )
            if placement.expires_at:
                line = tr("{line}, expires <t:{at}:R>", line=line, at=int(placement.expires_at))
            lines.append(translate(locale, line))
            mine = row.challenger_id == interaction.user.id
            if len(view.children) >= 25:
                continue
            if mine:
                withdraw = WithdrawButton(row.id)
                withdraw.item.label = tr("Withdraw #{match}", match=row.id)
                view.add_item(withdraw)
            elif row.opponent_id in (None, interaction.user.id):
                button = AcceptButton(row.id)
                button.item.label = tr("Accept #{match}", match=row.id)
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
        result = await bot.agreements.draw(row.id, interaction.user.id, reply_to=interaction.id)
        if isinstance(result, Offered):
            await answer(
                interaction,
                tr(
                    "🤝 {mention} offers a draw. <@{to_user}>, accept with the button or `/draw`; "
                    "any move declines it.",
                    mention=interaction.user.mention,
                    to_user=result.to_user,
                ),
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
        await answer(
            interaction,
            tr_n(
                "↩️ {mention} asks to take back their last move. <@{to_user}>, allow it?",
                "↩️ {mention} asks to take back the last {n} moves. <@{to_user}>, allow it?",
                offered.undo,
                mention=interaction.user.mention,
                to_user=offered.to_user,
            ),
            view=single_button(TakebackYesButton(row.id), TakebackNoButton(row.id)),
            allowed_mentions=discord.AllowedMentions(users=True),
            ephemeral=False,
        )

    # --- settings ----------------------------------------------------------------------

    @app_commands.command(name="settings", description="Your language; the server's venue, clock and language.")
    @app_commands.describe(
        venue="threads: each match in its own thread (default); channel: one match per channel",
        clock="Default time control of casual matches (daily, rapid, none, 2h+1d, ...)",
        notify="How players who never used /notify are told it is their turn",
        vacation_days="Vacation days a year each player may use (default 14)",
        language="Your language for replies and DMs (auto: your Discord's)",
        server_language="The language of this server's public posts and pictures (auto: the server's Discord one)",
    )
    @app_commands.choices(
        venue=VENUE_CHOICES, notify=NOTIFY_CHOICES, language=LANGUAGE_CHOICES, server_language=LANGUAGE_CHOICES
    )
    @app_commands.guild_only()
    async def settings(
        self,
        interaction: discord.Interaction,
        venue: app_commands.Choice[str] | None = None,
        clock: str | None = None,
        notify: app_commands.Choice[str] | None = None,
        vacation_days: app_commands.Range[int, 0, 366] | None = None,
        language: app_commands.Choice[str] | None = None,
        server_language: app_commands.Choice[str] | None = None,
    ) -> None:
        """Anyone may read the settings and choose their own language; changing the server's
        settings needs Manage Server."""
        assert interaction.guild_id is not None
        await defer(interaction, ephemeral=True)
        bot = bot_of(interaction)
        lobby, languages = bot.lobby, bot.languages
        server_change = any(v is not None for v in (venue, clock, notify, vacation_days, server_language))
        if server_change and not interaction.permissions.manage_guild:
            raise ServiceError(tr("Only members with Manage Server can change the server settings."))
        if venue is None and clock is None and notify is None and vacation_days is None:
            current = await lobby.settings(interaction.guild_id)
            notices = await bot.notices.server(interaction.guild_id)
        else:
            # the clock is checked first: a bad one changes nothing (the other two come from choices)
            current = await lobby.configure(interaction.guild_id, venue=venue.value if venue else None, clock=clock)
            notices = await bot.notices.server(interaction.guild_id)
            if notify is not None or vacation_days is not None:
                notices = await bot.notices.configure_server(
                    interaction.guild_id, mode=notify.value if notify else None, vacation_days=vacation_days
                )
        if language is not None:
            await languages.choose_for_user(interaction.user.id, language.value)
        if server_language is not None:
            await languages.choose_for_guild(interaction.guild_id, server_language.value)
        mine = await languages.user_choice(interaction.user.id)
        server = await languages.for_guild(interaction.guild_id, interaction.guild_locale)
        venue_words = tr("threads") if current.venue == "threads" else tr("channel")
        await answer(
            interaction,
            tr(
                "Matches are played in: **{venue}** · default clock of casual matches: **{clock}** "
                "(`/play clock:none` still plays without one).\n"
                "Players who never used `/notify` are told of their turn by: **{mode}** · "
                "vacation days a year: **{days}**.\n"
                "Server language: **{server}** · your language: **{mine}**.",
                venue=venue_words,
                clock=current.default_clock,
                mode=notices.default_mode or "ping",
                days=notices.vacation_days,
                server=LANGUAGE_NAMES[server],
                mine=LANGUAGE_NAMES[mine] if mine is not None else tr("your Discord's"),
            ),
            ephemeral=True,
        )


async def setup(bot: Boneyard) -> None:
    bot.add_dynamic_items(*LOBBY_ITEMS)
    await bot.add_cog(LobbyCog(bot))
