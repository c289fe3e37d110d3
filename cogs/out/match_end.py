"""The end of a match played in a thread, as stored announcements: the result in the channel
that holds the thread, then the thread archived.

Both rows are stored with the ending itself (bot/services/matches/commit.py), so a crash at
any point of the ending leaves them owed, and the outbox drain completes them after the
restart: the channel is told once and the thread archived, never deleted.  The result is a
post like a board (text, last board, Verify dice and Rematch); archiving is an action the
dispatcher performs once the thread's final board, an earlier row of the same channel, is
done.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import discord

from bot.i18n import tr, translate
from bot.services.outbox import MATCH_RESULT, THREAD_ARCHIVE, Announcement
from cogs.out.outbox import Act, Post, Renderer, board_update
from cogs.speech import localize_view
from cogs.ui.lobby_buttons import add_rematch
from cogs.ui.moves_list import moves_button
from cogs.ui.verify_button import verify_view

if TYPE_CHECKING:
    from bot.app.client import Boneyard


async def render_result(bot: Boneyard, row: Announcement) -> Post | None:
    """`🏁 Match #12 in #thread:` and the final board's text, picture and buttons."""
    update = await board_update(bot, row)
    if update is None:
        return None
    match = update.match
    shown = bot.presenter
    told = ([update.intro] if update.intro else []) + await shown.told_lines(update)
    text = await shown.describe(update, told=told)
    buttons = verify_view(match)
    buttons.add_item(moves_button(match.id))
    await add_rematch(bot, match, buttons)
    localize_view(buttons, await shown.public_locale(match))

    async def picture() -> discord.File:
        return await shown.board_file(match, update.public_view)

    heading = translate(
        await shown.public_locale(match),
        tr("🏁 Match #{match} in <#{channel}>:", match=match.id, channel=match.channel_id),
    )
    return Post(
        f"{heading}\n{text}"[:2000],
        picture,
        buttons,
        mentions=discord.AllowedMentions.none(),
    )


async def render_archive(bot: Boneyard, row: Announcement) -> Act | None:
    """Archive the match's thread (nothing to do when it is no thread any more)."""

    async def archive() -> None:
        thread = await bot.presenter.channel(row.channel_id)
        if isinstance(thread, discord.Thread) and not thread.archived:
            await thread.edit(archived=True)

    return Act(archive)


MATCH_END_POSTS: Final[dict[str, Renderer]] = {MATCH_RESULT: render_result, THREAD_ARCHIVE: render_archive}
