"""Playing a match: `/move` with autocomplete, typed moves, and the match commands."""

from __future__ import annotations

import contextlib
import io
import logging
from typing import TYPE_CHECKING, Any, Final

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import GAMES, IllegalMove
from bot.i18n import Text, joined, tr, translate
from bot.records.move_log import COMPLETION_SEAT, ENDING_SEAT
from bot.services.matches import (
    MatchRow,
    MatchService,
    MatchStatus,
    NotInMatch,
    SecretMove,
    ServiceError,
    clock_of,
    database_unavailable,
    where_played,
)
from cogs.acknowledge import answer, defer
from cogs.authority import moderates
from cogs.common import DATABASE_AWAY, BoneyardCog, channel_match, presenter_of, sentence_of, service_of
from cogs.out.presenter import channel_link
from cogs.playing import announce_move, play_and_announce
from cogs.speech import guild_locale, localize_view, reader_locale, user_locale
from cogs.ui import private
from cogs.ui.buttons import ResignButton

if TYPE_CHECKING:
    from bot.app.client import Boneyard

log = logging.getLogger(__name__)

AUTOCOMPLETE_LIMIT = 25  # Discord shows at most 25 choices


PLAYED: Final = "✅"
"""The reaction on a typed move that was added to the turn's post above: no new message
follows it, so without the mark a player cannot tell it was played."""


async def _mark_played(message: discord.Message) -> None:
    try:
        await message.add_reaction(PLAYED)
    except discord.HTTPException:  # no Add Reactions permission: the edited post still shows it
        log.info("could not mark typed move %d as played", message.id)


class MovesCog(BoneyardCog):
    async def _match_id(self, interaction: discord.Interaction) -> int:
        assert interaction.channel_id is not None
        return (await service_of(interaction).match_in_channel(interaction.channel_id, interaction.user.id)).id

    @app_commands.command(name="move", description="Make your move in this channel's match.")
    @app_commands.describe(notation="Your move; start typing to see the legal ones")
    @app_commands.guild_only()
    async def move(self, interaction: discord.Interaction, notation: str) -> None:
        presenter_of(interaction).remember(interaction.user)
        await defer(interaction)  # public "thinking…": a private reply replaces it (`cogs.acknowledge.answer`)
        row = await service_of(interaction).match_in_channel(interaction.channel_id or 0, interaction.user.id)
        # a secret move (or one that only extends the turn's post) is answered privately
        await play_and_announce(self.bot, interaction, row, notation)

    @move.autocomplete("notation")
    async def move_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            match_id = await self._match_id(interaction)
            moves = await service_of(interaction).suggest_moves(
                match_id, interaction.user.id, current, limit=AUTOCOMPLETE_LIMIT
            )
        except ServiceError:
            return []
        return [app_commands.Choice(name=m[:100], value=m[:100]) for m in moves]

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        """Typed moves: a plain message that reads as a move, from a player who may act now
        (the service checks `state.may_act`: e.g. a Wonderland opponent's `ability ...`)."""
        if message.author.bot or message.guild is None or not self.bot.settings.typed_moves:
            return
        text = message.content.strip()
        if not text or len(text) > 200 or text.startswith(("/", "!")):
            return
        service = self.bot.service
        try:
            row = await service.running_in(message.channel.id)
        except Exception as error:
            if not database_unavailable(error):
                raise
            await self._tell_database_away(message, text)
            return
        if row is None:
            await self._point_to_threads(message, text)
            return
        if row.status != MatchStatus.ACTIVE or row.seat_of(message.author.id) is None:
            return
        looks_like_move = bool(GAMES[row.game].info.move_pattern.match(text))
        self.bot.presenter.remember(message.author)
        try:
            update = await service.play(row.id, message.author.id, text, in_public=True, looked_up=row)
        except SecretMove as refusal:
            if looks_like_move or refusal.legal:
                await self._refuse_secret(message, str(refusal))
            return
        except (IllegalMove, ServiceError) as error:
            if looks_like_move:
                said = translate(await guild_locale(self.bot, message.guild.id), sentence_of(error))
                await message.reply(f"⚠️ {said}", mention_author=False)
            return
        except Exception as error:
            if database_unavailable(error):
                await self._tell_database_away(message, text)
                return
            log.exception("typed move %r in match %d failed", text, row.id)
            return
        adds_to_turn_post = not update.quiet and self.bot.presenter.turn_posts.continuing(update) is not None
        if await announce_move(self.bot, update, mover_id=message.author.id) and adds_to_turn_post:
            await _mark_played(message)

    async def _point_to_threads(self, message: discord.Message, text: str) -> None:
        """A move typed in the channel that holds the player's match thread(s): say where the
        match is played instead of ignoring it (chatter that reads as no move stays unanswered)."""
        threads = await self.bot.service.threads_of(message.author.id, message.channel.id)
        if any(GAMES[r.game].info.move_pattern.match(text) for r in threads):
            said = translate(
                await guild_locale(self.bot, message.guild.id if message.guild else None), where_played(threads)
            )
            await message.reply(f"↪️ {said}", mention_author=False)

    async def _tell_database_away(self, message: discord.Message, text: str) -> None:
        """A message typed while the database is away: when it reads as a move of some game,
        its author is told privately (by DM; a reply only if DMs are closed) that nothing was
        played and to try again shortly.  Chat that reads as no move gets no answer."""
        if not any(rules.info.move_pattern.match(text) for rules in GAMES.values()):
            return
        log.warning("typed move in channel %d not played: the database is unavailable", message.channel.id)
        guild_id = message.guild.id if message.guild else None
        mine = await user_locale(self.bot, message.author.id, guild_id)
        not_played = tr("(Your move in {link} was not played.)", link=message.jump_url)
        try:
            await message.author.send(f"{translate(mine, DATABASE_AWAY)}\n{translate(mine, not_played)}")
        except discord.HTTPException:
            with contextlib.suppress(discord.HTTPException):
                await message.reply(
                    translate(await guild_locale(self.bot, guild_id), DATABASE_AWAY), mention_author=False
                )

    async def _refuse_secret(self, message: discord.Message, refusal: str) -> None:
        """A secret move typed in the channel: not played; its message is deleted when the bot
        may (Manage Messages), else the player is asked to delete it.  The answer never
        repeats the move."""
        try:
            await message.delete()
            done = tr("I deleted your message so your opponent cannot read it.")
        except discord.HTTPException:
            done = tr("Please delete your message: your opponent can read it.")
        locale = await guild_locale(self.bot, message.guild.id if message.guild else None)
        said = tr("🤫 {who}: {refusal} {done}", who=message.author.mention, refusal=Text(refusal), done=done)
        try:
            await message.channel.send(
                translate(locale, said),
                allowed_mentions=discord.AllowedMentions(users=[message.author]),
            )
        except discord.HTTPException:
            log.warning("could not answer a secret move typed in channel %d", message.channel.id)

    @app_commands.command(name="board", description="Show this channel's match board again.")
    @app_commands.describe(text="Lay the position out in characters (for screen readers and copying)")
    @app_commands.guild_only()
    async def board(self, interaction: discord.Interaction, text: bool = False) -> None:
        await defer(interaction)
        service = service_of(interaction)
        row = await channel_match(interaction)
        if row is None:
            row = await service.match_in_channel(interaction.channel_id or 0, interaction.user.id)
        if row.status == MatchStatus.CHALLENGE:
            raise ServiceError(tr("The challenge has not been accepted yet."))
        view = await service.view(row.id, None)
        if text:
            board = await presenter_of(interaction).text_board(row, view)
            if len(board) <= 2000:
                await interaction.followup.send(board, allowed_mentions=discord.AllowedMentions.none())
            else:  # a big Wonderland crop: too long for one message, so a text file to open or copy
                plain = io.BytesIO(board.strip("`\n").encode())
                await interaction.followup.send(file=discord.File(plain, filename="board.txt"))
            return
        file = await presenter_of(interaction).board_file(row, view)
        running = row.status == MatchStatus.ACTIVE
        turn = [row.seats[s] for s in view.get("turn", []) if row.seats and s in (0, 1)] if running else []
        game, match = GAMES[row.game].info.name, row.id
        if turn:
            who = ", ".join(f"<@{u}>" for u in turn)
            line = tr("{game} · match #{match} · {who} to move", game=game, match=match, who=who)
        elif not running:
            reason = (row.outcome or {}).get("reason") or row.status.value
            line = tr("{game} · match #{match} · ended: {reason}", game=game, match=match, reason=Text(reason))
        else:
            line = tr("{game} · match #{match}", game=game, match=match)
        await answer(interaction, line, file=file, allowed_mentions=discord.AllowedMentions.none(), ephemeral=False)

    @app_commands.command(name="hand", description="Your private view of this channel's match (only you see it).")
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction) -> None:
        await defer(interaction, ephemeral=True)
        service = service_of(interaction)
        row = await service.match_in_channel(interaction.channel_id or 0, interaction.user.id)
        seat = row.seat_of(interaction.user.id)
        if seat is None:
            raise NotInMatch()
        info = GAMES[row.game].info
        if not info.has_private_info:
            raise ServiceError(tr("{name} has no hidden information: `/board` shows everything.", name=info.name))
        view = await service.view(row.id, interaction.user.id)
        shown = presenter_of(interaction)
        shown.dms_reopened(interaction.user.id, row.id)
        controls = await shown.controls(row, interaction.user.id, seat, view)
        locale = await reader_locale(interaction)
        files = await shown.private_files(row, view, with_board=controls is not None, locale=locale)
        text = translate(
            locale,
            tr("Your private view (only you can see this).")
            if files
            else tr("Your private view (only you can see this). Nothing is hidden right now."),
        )
        summary = private.summary(row.game, view)
        if summary:
            text += "\n" + translate(locale, summary)
        extra: dict[str, Any] = {"view": localize_view(controls, locale)} if controls is not None else {}
        await interaction.followup.send(text, files=files, ephemeral=True, **extra)

    @app_commands.command(name="resign", description="Resign this channel's match.")
    @app_commands.guild_only()
    async def resign(self, interaction: discord.Interaction) -> None:
        await defer(interaction, ephemeral=True)
        service = service_of(interaction)
        row = await service.match_in_channel(interaction.channel_id or 0, interaction.user.id)
        if row.seat_of(interaction.user.id) is None:
            raise NotInMatch()
        view = discord.ui.View(timeout=None)
        view.add_item(ResignButton(row.id))
        await answer(interaction, tr("Really resign? This ends the match."), view=view, ephemeral=True)

    @app_commands.command(name="abort", description="End this channel's match without a result (both players agree).")
    @app_commands.guild_only()
    async def abort(self, interaction: discord.Interaction) -> None:
        await defer(interaction)
        service = service_of(interaction)
        row = await service.match_in_channel(interaction.channel_id or 0, interaction.user.id)
        moderator = await moderates(interaction, row)
        update = await service.abort(row.id, interaction.user.id, moderator=moderator, reply_to=interaction.id)
        if update is None:
            other = [u for u in (row.seats or ()) if u != interaction.user.id]
            who = interaction.user.mention
            asked = (
                tr(
                    "{who} asks to abort match #{match}. <@{other}>, use `/abort` too to agree.",
                    who=who,
                    match=row.id,
                    other=other[0],
                )
                if other
                else tr("{who} asks to abort match #{match}.", who=who, match=row.id)
            )
            await answer(
                interaction,
                asked,
                allowed_mentions=discord.AllowedMentions(users=True),
                ephemeral=False,
            )
            return
        await announce_move(self.bot, update, mover_id=interaction.user.id, interaction=interaction)

    @app_commands.command(name="matches", description="Your running matches and open challenges.")
    async def matches(self, interaction: discord.Interaction) -> None:
        await defer(interaction, ephemeral=True)
        rows = await service_of(interaction).of_player(interaction.user.id)
        if not rows:
            await answer(interaction, tr("You have no running matches. Start one with `/play`."), ephemeral=True)
            return
        service = service_of(interaction)
        locale = await reader_locale(interaction)
        lines = [translate(locale, await _match_line(service, row, interaction.user.id)) for row in rows[:20]]
        await answer(interaction, "\n".join(lines), ephemeral=True)

    match = app_commands.Group(name="match", description="About this channel's match.", guild_only=True)

    @match.command(name="info", description="Game, players, options and fairness seed of this channel's match.")
    async def match_info(self, interaction: discord.Interaction) -> None:
        await defer(interaction, ephemeral=True)
        service = service_of(interaction)
        row = await service.match_in_channel(interaction.channel_id or 0, interaction.user.id)
        info = GAMES[row.game].info
        locale = await reader_locale(interaction)

        def say(text: str) -> str:
            return translate(locale, text)

        embed = discord.Embed(
            title=say(tr("{game} · match #{match}", game=info.name, match=row.id)), description=say(info.blurb)
        )
        if row.seats:
            for seat, user_id in enumerate(row.seats):
                embed.add_field(name=say(info.seat_names[seat]), value=f"<@{user_id}>")
        embed.add_field(name=say(tr("Status")), value=row.status)
        public_moves = sum(
            1 for move in await service.log(row.id) if move.public and move.seat not in (ENDING_SEAT, COMPLETION_SEAT)
        )
        embed.add_field(name=say(tr("Moves everyone knows")), value=str(public_moves))
        if row.options:
            options = " ".join(f"`{k}={v}`" for k, v in row.options.items())
            embed.add_field(name=say(tr("Options")), value=options, inline=False)
        embed.add_field(name=say(tr("Seed hash (sha256)")), value=f"`{row.seed_hash}`", inline=False)
        await answer(interaction, embed=embed, ephemeral=True)


async def setup(bot: Boneyard) -> None:
    await bot.add_cog(MovesCog(bot))


async def _match_line(service: MatchService, row: MatchRow, user_id: int) -> str:
    """`• Focus #12 vs @bob — your turn (⏱ 23:59:10 + 3d) — #thread`: what a player needs to
    know of each of their matches at a glance."""
    info = GAMES[row.game].info
    link = channel_link(row)
    game, match = info.name, row.id
    if row.status == MatchStatus.CHALLENGE or row.seats is None:
        towards = row.opponent_id if row.challenger_id == user_id else row.challenger_id
        if towards is not None:
            return tr(
                "• **{game}** #{match} — challenge with <@{towards}> — {link}",
                game=game,
                match=match,
                towards=towards,
                link=link,
            )
        return tr("• **{game}** #{match} — challenge (open to anyone) — {link}", game=game, match=match, link=link)
    opponent = row.seats[1] if row.seats[0] == user_id else row.seats[0]
    turn = [s for s in (await service.view(row.id, None)).get("turn", []) if s in (0, 1)]
    if row.seat_of(user_id) in turn:
        whose = tr("**your turn**")
    elif turn:
        whose = tr("<@{player}>'s turn", player=row.seats[turn[0]])
    else:
        whose = tr("waiting")
    clock = clock_of(row)
    left = ""
    if clock is not None and turn and not clock.paused:
        shown = clock.display(turn[0], service.now())
        left = joined("", [" (⏱ ", shown, ")"]) if shown else ""  # a long clock's units in the reader's language
    elif clock is not None and clock.paused:
        left = tr(" (clock paused)")
    return tr(
        "• **{game}** #{match} vs <@{opponent}> — {whose}{left} — {link}",
        game=game,
        match=match,
        opponent=opponent,
        whose=whose,
        left=left,
        link=link,
    )
