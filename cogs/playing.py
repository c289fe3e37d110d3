"""One move from Discord, told truthfully: played, announced, and every failure explained.

Why one module: `/move`, the move buttons and typed moves end the same way, and what a
player is told after a failure must match what happened.  A refusal (illegal move, not
your turn, an old button) changed nothing and says so; once the service returned, the move
is saved, so any later failure says "your move was saved, but…".  A bug before that point
is checked against the match's version before the player is told anything.

When the board cannot be posted (Missing Permissions, a locked thread, a deleted channel),
the mover is told (ephemerally when they used a command or a button, else by DM) and the
opponent by DM, each once until a board of that match is posted again.
"""

from __future__ import annotations

import logging
import secrets
from typing import TYPE_CHECKING

import discord

from bot.games import GAMES
from bot.i18n import tr, translate
from bot.services.matches import MatchRow, StalePosition, Update, database_unavailable
from cogs.acknowledge import answer
from cogs.common import DATABASE_AWAY, USER_ERRORS, sentence_of
from cogs.speech import say, user_locale

if TYPE_CHECKING:
    from bot.app.client import Boneyard

log = logging.getLogger(__name__)


async def play_and_announce(
    bot: Boneyard,
    interaction: discord.Interaction,
    row: MatchRow,
    text: str,
    *,
    expected_version: int | None = None,
) -> None:
    """Play `text` for the interaction's user in `row`'s match (already deferred), post the
    board as the interaction's reply, and tell the truth about anything that failed."""
    user_id = interaction.user.id
    try:
        update = await bot.service.play(
            row.id,
            user_id,
            text,
            expected_version=expected_version,
            channel_id=interaction.channel_id,
            looked_up=row,
            reply_to=interaction.id,
        )
    except USER_ERRORS as error:
        await answer(
            interaction,
            f"⚠️ {await say(interaction, sentence_of(error))}"
            f"{await say(interaction, await _current_board_hint(bot, row, error))}",
            ephemeral=True,
        )
        return
    except Exception as error:
        if database_unavailable(error):
            log.warning("move in match %d not played: the database is unavailable (%s)", row.id, type(error).__name__)
            await answer(interaction, DATABASE_AWAY, ephemeral=True)
            return
        reference = secrets.token_hex(3)
        log.exception("move %r in match %d failed [ref %s]", text, row.id, reference)
        try:
            saved: bool | None = (await bot.service.get(row.id)).version != row.version
        except Exception:
            log.exception("could not check whether move %r in match %d was saved [ref %s]", text, row.id, reference)
            saved = None
        said = {
            True: tr(
                "⚠️ Something went wrong on my side (reference `{reference}`); your move may have been saved: "
                "`/board` shows the position.",
                reference=reference,
            ),
            False: tr(
                "⚠️ Something went wrong on my side (reference `{reference}`); nothing changed.", reference=reference
            ),
            None: tr(
                "⚠️ Something went wrong on my side (reference `{reference}`); I cannot tell whether your move was "
                "saved: `/board` shows the position.",
                reference=reference,
            ),
        }[saved]
        await answer(interaction, said, ephemeral=True)
        return
    await announce_move(bot, update, mover_id=user_id, interaction=interaction)


async def announce_move(
    bot: Boneyard,
    update: Update,
    *,
    mover_id: int,
    interaction: discord.Interaction | None = None,
    intro: str | None = None,
    told: discord.Interaction | None = None,
) -> bool:
    """Announce a saved move (as `interaction`'s reply when given, else in the channel); if
    the board cannot be posted, tell the mover (ephemerally through `told` or `interaction`
    when given) and the opponent.  Whether the channel was told."""
    try:
        reason = await bot.presenter.announce(update, intro=intro, interaction=interaction)
    except Exception:
        reference = secrets.token_hex(3)
        log.exception("announcing match %d failed [ref %s]", update.match.id, reference)
        reason = tr("something went wrong on my side (reference `{reference}`)", reference=reference)
    if reason is None:
        bot.presenter.blocked_boards.posted(update.match.id)
        return True
    await board_not_posted(bot, update, reason, mover_id=mover_id, interaction=told or interaction)
    return False


async def board_not_posted(
    bot: Boneyard, update: Update, reason: str, *, mover_id: int | None, interaction: discord.Interaction | None
) -> None:
    """Tell the mover (ephemerally if possible, else by DM) and the other players (by DM)
    that the move is saved but its board could not be posted; each once per outage."""
    row = update.match
    told = bot.presenter.blocked_boards
    where = f"<#{row.channel_id}>"
    info = GAMES[row.game].info
    for user_id in row.seats or ():
        if not told.first_time(row.id, user_id):
            continue
        locale = await user_locale(bot, user_id, row.guild_id)
        said_reason = translate(locale, reason)
        if user_id == mover_id:
            text = tr(
                "⚠️ Your move was saved, but I could not post the board in {where} ({reason}). "
                "Ask a moderator to let me post there; `/board` shows the position meanwhile.",
                where=where,
                reason=said_reason,
            )
            if interaction is not None:
                try:
                    await answer(interaction, text, ephemeral=True)
                    continue
                except discord.HTTPException:
                    log.info("could not tell %d ephemerally that the board is missing", user_id)
        else:
            text = tr(
                "♟️ Your opponent moved in **{game}** (match #{match} in {where}), but I could not post "
                "the board there ({reason}). `/board` in that channel shows it; ask a moderator to let me post.",
                game=info.name,
                match=row.id,
                where=where,
                reason=said_reason,
            )
        await _dm(bot, user_id, translate(locale, text))


async def _dm(bot: Boneyard, user_id: int, text: str) -> None:
    try:
        user = bot.get_user(user_id) or await bot.fetch_user(user_id)
        await user.send(text)
    except discord.HTTPException:
        log.info("could not DM %d that the board of a match is missing", user_id)


async def _current_board_hint(bot: Boneyard, row: MatchRow, error: BaseException) -> str:
    """For an old button: a link to the newest board of the match, so nobody hunts for it."""
    if not isinstance(error, StalePosition):
        return ""
    link = await newest_board_link(bot, row.channel_id)
    return tr(" The current board: {link}", link=link) if link else tr(" `/board` shows the current one.")


async def newest_board_link(bot: Boneyard, channel_id: int) -> str | None:
    """The jump link of the newest board picture the bot posted in a channel (None: none
    found, or the history cannot be read)."""
    channel = await bot.presenter.channel(channel_id)
    if not isinstance(channel, discord.abc.Messageable):
        return None
    try:
        async for message in channel.history(limit=50):
            if message.author.id == getattr(bot.user, "id", None) and any(
                a.filename == "board.png" for a in message.attachments
            ):
                return message.jump_url
    except discord.HTTPException:
        log.info("could not read the history of channel %d", channel_id)
    return None
