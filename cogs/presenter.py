"""Turns service `Update`s into Discord messages: board pictures, DMs, outcomes.

Why a separate module: slash commands, buttons, typed moves and the clock all produce the
same kind of update, and each must be announced the same way.  Pictures are rendered in a
worker thread (`asyncio.to_thread`) so the event loop keeps answering while Pillow works.

Private views go by DM only.  When a player's DMs are closed, the channel gets ONE notice
per match asking them to open DMs or use `/hand`; the notice never contains the private view.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING, Any

import discord

import renderers
from bot.games import GAMES
from bot.matches import ClockNotice, Update, clock_of
from bot.store import MatchRow
from cogs import private
from cogs.buttons import move_buttons
from cogs.outbox import Post, dispatcher

if TYPE_CHECKING:
    from bot.client import Boneyard

log = logging.getLogger(__name__)

DM_CLOSED = 50007
BOARD_FILE = "board.png"


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def channel_link(row: MatchRow) -> str:
    if row.guild_id is None:
        return f"<#{row.channel_id}>"
    return f"https://discord.com/channels/{row.guild_id}/{row.channel_id}"


class Presenter:
    def __init__(self, bot: Boneyard) -> None:
        self.bot = bot
        self._names: dict[int, str] = {}

    # --- names -------------------------------------------------------------------------

    def remember(self, user: discord.abc.User) -> None:
        """Keep a player's display name (seen in an interaction or message) for headers."""
        self._names[user.id] = user.display_name

    async def name(self, user_id: int) -> str:
        if user_id in self._names:
            return self._names[user_id]
        user = self.bot.get_user(user_id)
        if user is None:
            try:
                user = await self.bot.fetch_user(user_id)
            except discord.HTTPException:
                return f"Player {str(user_id)[-4:]}"
        self._names[user_id] = user.display_name
        return user.display_name

    async def header(self, row: MatchRow, view: dict[str, Any]) -> renderers.Header:
        seats = row.seats or (row.challenger_id, row.opponent_id or 0)
        names = (await self.name(seats[0]), await self.name(seats[1]))
        ply = view.get("ply")
        clock = clock_of(row)
        return renderers.Header(
            players=names,
            ply=int(ply) if isinstance(ply, int) else None,
            clocks=self.bot.service.clock_header(row),
            status="clock paused" if clock is not None and clock.paused and row.status == "active" else None,
        )

    # --- pictures ----------------------------------------------------------------------

    async def board_file(self, row: MatchRow, view: dict[str, Any]) -> discord.File:
        header = await self.header(row, view)
        png = await asyncio.to_thread(renderers.render, row.game, view, header)
        return discord.File(io.BytesIO(png), filename=BOARD_FILE)

    async def private_file(self, row: MatchRow, view: dict[str, Any]) -> discord.File | None:
        header = await self.header(row, view)
        png = await asyncio.to_thread(renderers.render_private, row.game, view, header)
        return discord.File(io.BytesIO(png), filename="hand.png") if png else None

    # --- announcements -----------------------------------------------------------------

    async def describe(self, update: Update) -> str:
        """The text under the board: who played what, who is to move, or the result."""
        row = update.match
        info = GAMES[row.game].info
        seats = row.seats or (0, 0)
        lines = []
        for seat, move in update.played[-4:]:
            lines.append(f"{await self.name(seats[seat])} ({info.seat_names[seat]}) played `{move}`.")
        if update.outcome is not None:
            winners = sorted(update.outcome.winners)
            if update.note == "aborted":  # no result at all, which "draw" would misstate
                lines.append(f"⛔ **Aborted**: {update.outcome.reason}")
            elif winners:
                lines.append(f"🏆 **{await self.name(seats[winners[0]])}** wins: {update.outcome.reason}")
            else:
                lines.append(f"🤝 **Draw**: {update.outcome.reason}")
            ratings = await self.rating_line(row)
            if ratings:
                lines.append(ratings)
            lines.append(f"Secret seed (check every roll and draw): `{row.seed}`")
        elif update.to_move:
            if update.note == "timeout":
                lines.append("⏰ Time ran out: that move was played automatically (`timeout=pass`).")
            who = ", ".join(mention(u) for u in update.to_move)
            lines.append(f"{who} to move.")
        return "\n".join(lines)

    async def rating_line(self, row: MatchRow) -> str | None:
        """`Ratings: alice 1520 (+20) · bob 1480 (−20)` for a rated match that just ended."""
        changes = await self.bot.ratings.changes_of(row.id)
        if not changes:
            return None
        parts = [f"{await self.name(c.user_id)} {c.after:.0f} ({c.delta:+.0f})" for c in changes]
        return "📈 Ratings: " + " · ".join(parts)

    async def announce_clock(self, notice: ClockNotice) -> None:
        """A reminder: in the match channel with a mention (short controls), or by DM (long
        ones; the channel is the fallback when DMs are closed)."""
        row = notice.match
        info = GAMES[row.game].info
        if notice.via == "dm":
            text = (
                f"⏰ {notice.text} for your move in **{info.name}** — match #{row.id} in {channel_link(row)} "
                f"(your clock: {notice.display})."
            )
            try:
                user = self.bot.get_user(notice.user_id) or await self.bot.fetch_user(notice.user_id)
                await user.send(content=text)
                return
            except discord.HTTPException:
                log.info("clock reminder DM to %d failed; posting in the channel", notice.user_id)
        channel = await self.channel(row.channel_id)
        if channel is None:
            return
        try:
            await channel.send(
                f"⏰ {mention(notice.user_id)}, {notice.text} for your move (clock {notice.display}).",
                allowed_mentions=discord.AllowedMentions(users=True, everyone=False, roles=False),
            )
        except discord.HTTPException:
            log.warning("could not post a clock reminder in channel %d", row.channel_id)

    async def board_post(self, update: Update, *, intro: str | None = None) -> Post:
        """The board message of an update: text, picture (drawn when posted) and buttons."""
        row = update.match
        text = await self.describe(update)
        intro = intro or update.intro
        if intro:
            text = f"{intro}\n{text}"

        async def picture() -> discord.File:
            return await self.board_file(row, update.public_view)

        return Post(text[:2000], picture, move_buttons(row.id, update.buttons))

    async def announce(
        self, update: Update, *, intro: str | None = None, interaction: discord.Interaction | None = None
    ) -> None:
        """Post a NEW message with the board (old ones stay as they were: a play-by-post
        channel reads like a game record).  With `interaction`, the board is its reply.

        An update the service stored an announcement for goes through the outbox dispatcher,
        which marks it sent (after a crash, the drain posts it instead)."""
        if update.announcement is not None:
            post = await self.board_post(update, intro=intro)
            posted = await dispatcher(self.bot).deliver(update.announcement, post=post, interaction=interaction)
            if not posted and interaction is not None:
                await self._answered_elsewhere(interaction)
            await self.send_private(update)
            return
        row = update.match
        text = await self.describe(update)
        intro = intro or update.intro
        if intro:
            text = f"{intro}\n{text}"
        mentions = discord.AllowedMentions(users=True, everyone=False, roles=False)
        buttons = move_buttons(row.id, update.buttons)
        extra: dict[str, Any] = {"view": buttons} if buttons is not None else {}
        try:
            file = await self.board_file(row, update.public_view)
            if interaction is not None:
                await interaction.followup.send(content=text[:2000], file=file, allowed_mentions=mentions, **extra)
            else:
                channel = await self.channel(row.channel_id)
                if channel is not None:
                    await channel.send(content=text[:2000], file=file, allowed_mentions=mentions, **extra)
        except discord.HTTPException:
            log.exception("could not post the board of match %d in channel %d", row.id, row.channel_id)
        await self.send_private(update)

    @staticmethod
    async def _answered_elsewhere(interaction: discord.Interaction) -> None:
        """A deferred interaction whose board was posted by the drain (or could not be)."""
        try:
            await interaction.followup.send("The board is posted in the channel.", ephemeral=True)
        except discord.HTTPException:
            log.info("could not answer interaction %s", interaction.id)

    async def send_private(self, update: Update) -> None:
        """DM each seat whose private view changed, and each seat prompted to act privately
        (with its controls); a seat gets at most one DM per update."""
        row = update.match
        if row.seats is None:
            return
        prompted = set(update.prompt) if private.has_controls(row.game) else set()
        for seat in sorted(set(update.private_views) | prompted):
            user_id = row.seats[seat]
            view = update.private_views.get(seat) or await self.bot.service.view(row.id, user_id)
            controls = await self.controls(row, user_id, seat, view) if seat in prompted else None
            if seat in update.private_views or controls is not None:
                await self.dm_view(row, user_id, view, controls=controls)

    async def controls(self, row: MatchRow, user_id: int, seat: int, view: dict[str, Any]) -> discord.ui.View | None:
        """The private selects/buttons for a seat that must act now, built from its `view`
        (the one the caller is showing) and its legal moves (None: none to offer)."""
        if not private.has_controls(row.game):
            return None
        moves = await self.bot.service.legal_moves(row.id, user_id)
        return private.controls_for(row.game, row.id, seat, view, moves)

    async def dm_view(
        self, row: MatchRow, user_id: int, view: dict[str, Any], *, controls: discord.ui.View | None = None
    ) -> bool:
        """DM a player their private view (and controls); on closed DMs, one notice in the channel."""
        info = GAMES[row.game].info
        seats = row.seats or (0, 0)
        opponent = seats[1] if seats[0] == user_id else seats[0]
        text = (
            f"**{info.name}** against {await self.name(opponent)} — match #{row.id} in {channel_link(row)}.\n"
            "This is your private view: only you can see it."
        )
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            file = await self.private_file(row, view)
            extra: dict[str, Any] = {"view": controls} if controls is not None else {}
            if file is not None:
                extra["file"] = file
            await user.send(content=text, **extra)
            return True
        except discord.Forbidden as exc:
            if exc.code != DM_CLOSED:
                log.warning("DM to %d refused: %s", user_id, exc)
            if await self.bot.store.first_dm_notice(row.id, user_id):
                channel = await self.channel(row.channel_id)
                if channel is not None:
                    await channel.send(
                        f"{mention(user_id)}, I cannot send you direct messages. Allow DMs from server members "
                        "(Privacy Settings) or use `/hand` to see your private view here, just for you."
                    )
            return False
        except discord.HTTPException:
            log.exception("could not DM the private view of match %d to %d", row.id, user_id)
            return False

    async def channel(self, channel_id: int) -> discord.abc.Messageable | None:
        """A channel the bot can post in, from the cache or by REST (None: gone or hidden)."""
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            try:
                fetched = await self.bot.fetch_channel(channel_id)
            except discord.HTTPException:
                log.warning("match channel %d is gone or hidden from the bot", channel_id)
                return None
            channel = fetched
        if not isinstance(channel, discord.abc.Messageable):
            return None
        return channel
