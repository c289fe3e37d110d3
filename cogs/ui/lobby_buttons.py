"""The lobby's persistent buttons and the steps they share with its commands.

Accepting a challenge makes the match's thread first (`start_accepted`), so the Accept button
of a challenge message and of `/challenges` behave the same.  Rematch, draw and takeback
answers are `DynamicItem`s whose custom id carries the match id: they work after a restart.
Kept apart from cogs/ui/buttons.py so the two features can change independently.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Final

import discord

from bot.games import GAMES
from bot.i18n import tr, translate
from bot.services.matches import MatchRow, MatchStatus, Offered, Update, clock_of
from cogs.acknowledge import answer, defer
from cogs.common import bot_of, presenter_of, report_error, service_of
from cogs.playing import announce_move
from cogs.speech import guild_locale, localize_view, reader_locale, say
from cogs.ui.buttons import ChannelButton
from cogs.ui.match_button import MatchButton

if TYPE_CHECKING:
    from bot.app.client import Boneyard

log = logging.getLogger(__name__)

THREAD_ARCHIVE_MINUTES: Final = 10080  # a week: play-by-post matches pause for days


def thread_name(game: str, first: str, second: str) -> str:
    return f"{GAMES[game].info.name} · {first} vs {second}"[:100]


def threads_possible(channel: object, permissions: discord.Permissions) -> bool:
    """A public thread can be made here: a plain text channel (not a thread, a forum or a
    voice channel's chat) and the bot may create public threads and post in them."""
    return (
        isinstance(channel, discord.TextChannel)
        and permissions.create_public_threads
        and permissions.send_messages_in_threads
    )


async def start_accepted(interaction: discord.Interaction, match_id: int) -> None:
    """Accept a challenge for the clicker: its match in a new thread of the challenge's
    channel when the challenge asked for one, else in the channel itself."""
    bot = bot_of(interaction)
    shown = presenter_of(interaction)
    row, placement = await bot.lobby.check_accept(match_id, interaction.user.id)
    thread: discord.Thread | None = None
    if not placement.occupies_channel:
        parent = await shown.channel(row.channel_id)
        if isinstance(parent, discord.TextChannel):
            name = thread_name(row.game, await shown.name(row.challenger_id), interaction.user.display_name)
            try:
                thread = await parent.create_thread(
                    name=name,
                    type=discord.ChannelType.public_thread,
                    auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                    reason=f"Boneyard match #{row.id}",
                )
            except discord.HTTPException as exc:
                log.info("match %d: no thread in channel %d (%s); playing in the channel", row.id, parent.id, exc)
    intro = tr(
        "Match #{match} · seed hash `{hash}…` (the seed is revealed at the end).", match=row.id, hash=row.seed_hash[:16]
    )
    try:
        update = await bot.lobby.accept(
            match_id, interaction.user.id, thread_id=thread.id if thread else None, intro=intro
        )
    except BaseException:
        if thread is not None:
            await _quietly(thread.delete())
        raise
    locale = await reader_locale(interaction, public=True)
    who = interaction.user.mention
    if thread is not None:
        begins = tr(
            "✅ {who} accepted. Match #{match} begins in {thread}!", who=who, match=match_id, thread=thread.mention
        )
        closed = tr("✅ Accepted by {who} in {thread}.", who=who, thread=thread.mention)
    else:
        begins = tr("✅ {who} accepted. Match #{match} begins!", who=who, match=match_id)
        closed = tr("✅ Accepted by {who}.", who=who)
    try:  # the click was acknowledged first (the button defers before any database work)
        await interaction.edit_original_response(content=translate(locale, begins), view=None)
    except discord.HTTPException:
        log.warning("could not mark the challenge of match %d as accepted", match_id, exc_info=True)
    await _close_challenge_message(interaction, match_id, translate(locale, closed))
    await announce_move(bot, update, mover_id=interaction.user.id, told=interaction)


async def _close_challenge_message(interaction: discord.Interaction, match_id: int, text: str) -> None:
    """Accepted from another message (`/challenges`): the challenge's own message loses its buttons too."""
    bot = bot_of(interaction)
    message_id = await bot.lobby.message_of(match_id)
    if message_id is None or interaction.message is None or interaction.message.id == message_id:
        return
    row = await bot.service.get(match_id)
    placement = await bot.lobby.placement(match_id)
    channel = await bot.presenter.channel(placement.lobby_channel_id or row.channel_id)
    if isinstance(channel, discord.abc.Messageable):
        await _quietly(
            channel.get_partial_message(message_id).edit(  # type: ignore[attr-defined]
                content=text, view=None, allowed_mentions=discord.AllowedMentions.none()
            )
        )


async def _quietly(call: Any) -> None:
    try:
        await call
    except discord.HTTPException:
        log.warning("cleanup after a failed accept did not work", exc_info=True)


# --- the end of a match ------------------------------------------------------------------


async def add_rematch(bot: Boneyard, row: MatchRow, view: discord.ui.View) -> None:
    """Add the Rematch button under a final board (none for tournament games)."""
    if row.seats is not None and not await bot.lobby.is_tournament_game(row.id):
        view.add_item(RematchButton(row.id))


# --- buttons -------------------------------------------------------------------------------


class _LobbyButton(MatchButton, template=r"boneyard:(?P<action>lb\w+):(?P<id>[0-9]+)"):
    async def callback(self, interaction: discord.Interaction) -> None:
        """Acknowledged before any database work (`cogs.acknowledge`); the clicked message is
        then edited, and anything else is a follow-up."""
        presenter_of(interaction).remember(interaction.user)
        try:
            await defer(interaction)
            await self.act(interaction)
        except Exception as error:
            await report_error(interaction, error)

    async def act(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError


class RematchButton(_LobbyButton, template=r"boneyard:lbrematch:(?P<id>[0-9]+)"):
    action, label, style = "lbrematch", tr("Rematch"), discord.ButtonStyle.primary

    async def act(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        old = await bot.service.get(self.match_id)
        placement = await bot.lobby.placement(self.match_id)
        lobby_id = placement.lobby_channel_id or old.channel_id
        lobby = await bot.presenter.channel(lobby_id)
        possible = threads_possible(lobby, interaction.app_permissions)
        row = await bot.lobby.rematch(self.match_id, interaction.user.id, threads_possible=possible)
        text = await challenge_text(bot, row, interaction.user.mention, f"<@{row.opponent_id}>", rematch=True)
        pings = discord.AllowedMentions(users=True)
        message: discord.Message | None = None
        buttons = localize_view(challenge_view(row.id), await guild_locale(bot, row.guild_id))
        if interaction.channel_id == lobby_id:
            message = await interaction.followup.send(text, view=buttons, allowed_mentions=pings, wait=True)
        else:
            await answer(interaction, tr("Rematch offered in <#{lobby_id}>.", lobby_id=lobby_id), ephemeral=True)
            if lobby is not None:
                message = await lobby.send(text, view=buttons, allowed_mentions=pings)
        if message is not None:  # like any challenge: marked when accepted, withdrawn or expired
            await bot.lobby.set_message(row.id, message.id)


class AcceptDrawButton(_LobbyButton, template=r"boneyard:lbdraw:(?P<id>[0-9]+)"):
    action, label, style = "lbdraw", tr("Accept draw"), discord.ButtonStyle.success

    async def act(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        result = await bot.agreements.draw(self.match_id, interaction.user.id, accept_only=True)
        if isinstance(result, Offered):  # accept_only: the service never makes a new offer here
            raise AssertionError("a draw button made an offer")
        await _edit_clicked(interaction, view=None)
        await announce_move(bot, result, mover_id=interaction.user.id, told=interaction)


class TakebackYesButton(_LobbyButton, template=r"boneyard:lbtbyes:(?P<id>[0-9]+)"):
    action, label, style = "lbtbyes", tr("Allow takeback"), discord.ButtonStyle.success

    async def act(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        result = await bot.agreements.answer_takeback(self.match_id, interaction.user.id, accept=True)
        await _edit_clicked(
            interaction,
            content=await say(
                interaction, tr("↩️ {who} allowed the takeback.", who=interaction.user.mention), public=True
            ),
            view=None,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        if isinstance(result, Update):
            await announce_move(bot, result, mover_id=interaction.user.id, told=interaction)


class TakebackNoButton(_LobbyButton, template=r"boneyard:lbtbno:(?P<id>[0-9]+)"):
    action, label, style = "lbtbno", tr("Refuse"), discord.ButtonStyle.danger

    async def act(self, interaction: discord.Interaction) -> None:
        await bot_of(interaction).agreements.answer_takeback(self.match_id, interaction.user.id, accept=False)
        await _edit_clicked(
            interaction,
            content=await say(
                interaction,
                tr("🚫 {who} refused the takeback; the position stands.", who=interaction.user.mention),
                public=True,
            ),
            view=None,
        )


class WithdrawButton(_LobbyButton, template=r"boneyard:lbwithdraw:(?P<id>[0-9]+)"):
    """`/challenges`: the challenger withdraws a challenge; its own message says so too."""

    action, label, style = "lbwithdraw", tr("Withdraw"), discord.ButtonStyle.danger

    async def act(self, interaction: discord.Interaction) -> None:
        await bot_of(interaction).lobby.withdraw(self.match_id, interaction.user.id)
        text = await say(interaction, tr("❌ {who} withdrew the challenge.", who=interaction.user.mention), public=True)
        await _edit_clicked(interaction, content=text, view=None)
        await _close_challenge_message(interaction, self.match_id, text)


async def _edit_clicked(interaction: discord.Interaction, **fields: Any) -> None:
    """Edit the clicked message after the change was saved: a failure here changes nothing
    saved, so it is logged rather than reported as a refusal."""
    try:
        await interaction.edit_original_response(**fields)
    except discord.HTTPException:
        log.warning("could not edit the message of interaction %s", interaction.id, exc_info=True)


class AcceptButton(ChannelButton, template=r"boneyard:accept:(?P<id>[0-9]+)"):
    action, label, style = "accept", tr("Accept"), discord.ButtonStyle.success

    def belongs_to(self, row: MatchRow, interaction: discord.Interaction) -> bool:
        """Accept works from any channel of the challenge's server (the `/challenges` list is
        read anywhere); the match still starts where it was challenged."""
        return row.guild_id is not None and row.guild_id == interaction.guild_id

    async def act(self, interaction: discord.Interaction) -> None:
        await start_accepted(interaction, self.match_id)


class DeclineButton(ChannelButton, template=r"boneyard:decline:(?P<id>[0-9]+)"):
    action, label, style = "decline", tr("Decline"), discord.ButtonStyle.danger

    async def act(self, interaction: discord.Interaction) -> None:
        row = await service_of(interaction).decline(self.match_id, interaction.user.id)
        who = interaction.user.mention
        said = (
            tr("❌ {who} withdrew the challenge.", who=who)
            if row.status == MatchStatus.CANCELLED
            else tr("❌ {who} declined.", who=who)
        )
        await interaction.edit_original_response(content=await say(interaction, said, public=True), view=None)


def challenge_view(match_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(AcceptButton(match_id))
    view.add_item(DeclineButton(match_id))
    return view


LOBBY_ITEMS = (
    AcceptButton,
    DeclineButton,
    RematchButton,
    AcceptDrawButton,
    TakebackYesButton,
    TakebackNoButton,
    WithdrawButton,
)


def single_button(item: discord.ui.Item[Any], *more: discord.ui.Item[Any]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for one in (item, *more):
        view.add_item(one)
    return view


async def challenge_text(bot: Boneyard, row: MatchRow, challenger: str, opponent: str, *, rematch: bool = False) -> str:
    """The challenge message: game, options, seats, clock, deadline and where it is played."""
    info = GAMES[row.game].info
    game = info.name
    if rematch:
        first = tr(
            "🎲 {challenger} asks {opponent} for a rematch of **{game}**, seats swapped!",
            challenger=challenger,
            opponent=opponent,
            game=game,
        )
    else:
        first = tr(
            "🎲 {challenger} challenges {opponent} to **{game}**!", challenger=challenger, opponent=opponent, game=game
        )
    lines: list[str] = [first, tr("_{blurb}_", blurb=info.blurb)]
    if row.options:
        lines.append(tr("Options: {options}", options=", ".join(f"`{k}={v}`" for k, v in row.options.items())))
    first_mover = {
        "random": tr("Who moves first: decided at random."),
        "first": tr("Who moves first: the challenger."),
        "second": tr("Who moves first: the opponent."),
    }[row.seat_pref]
    lines.append(first_mover if row.rated else tr("{first_mover} Unrated.", first_mover=first_mover))
    stopped = clock_of(row)
    lines.append(tr("Clock: {clock}.", clock=stopped.control.describe()) if stopped is not None else tr("Clock: none."))
    placement = await bot.lobby.placement(row.id)
    if placement.expires_at is not None:
        lines.append(tr("Expires <t:{at}:R>.", at=int(placement.expires_at)))
    if not placement.occupies_channel:
        lines.append(tr("The match will be played in a thread of this channel."))
    locale = await guild_locale(bot, row.guild_id)
    return "\n".join(translate(locale, line) for line in lines)
