"""Runs tournaments on Discord: a thread per game, announcements, pictures, keep-alive.

Why separate from the commands: results arrive from many places (a move that ends a
match, a resignation, a clock, a host's report, a restart) and every one of them must do
the same thing: `TournamentService.sync`, announce what changed, open the games now due.
`advance` is that one routine, serialised per tournament so two triggers never open the
same game in two threads.

Threads: each game is played in a public thread of the tournament channel, named after
the round and players, with the longest auto-archive delay; a thread that archives while
its match runs is unarchived at once (`on_thread_update`), and every board posted there
counts as activity anyway.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

import discord

from bot.i18n import tr, translate
from bot.infra import crashpoints
from bot.services.matches import ServiceError
from bot.services.tournaments import Progress
from bot.tournaments import GameToStart
from cogs.out.tournament_posts import MENTIONS, round_label
from cogs.speech import guild_locale

if TYPE_CHECKING:
    from bot.app.client import Boneyard

log = logging.getLogger(__name__)

THREAD_ARCHIVE_MINUTES: Final = 10080  # a week: the longest Discord allows


class ResumeIncomplete(RuntimeError):
    """Some running tournaments could not be resumed (each failure was logged)."""


class TournamentRunner:
    def __init__(self, bot: Boneyard) -> None:
        self.bot = bot
        self._locks: dict[int, asyncio.Lock] = {}

    async def advance(self, tournament_id: int) -> Progress:
        """Sync, announce, and open every game now due (one at a time per tournament)."""
        async with self._locks.setdefault(tournament_id, asyncio.Lock()):
            progress = await self.bot.tournaments.sync(tournament_id)
            await self._deliver(progress.announcements)
            for game in progress.to_open:
                await self._open(progress, game)
            return progress

    async def _deliver(self, keys: Iterable[str]) -> None:
        """Post stored announcements in order (each one once, through the dispatcher)."""
        for key in keys:
            await self.bot.outbox.deliver(key)

    async def resume_all(self) -> None:
        """After a (re)start: results that arrived while the bot was down, games not opened.
        Every tournament is tried; when any failed, this raises afterwards, so the supervised
        duty tries again (`advance` is safe to repeat).  Logs once it succeeded: until then
        the bot may still owe a tournament its results and games."""
        failed: list[int] = []
        resumed = 0
        for row in await self.bot.tournaments.running():
            if not self.bot.owns(row.guild_id):
                continue  # another shard process runs this guild's events
            try:
                await self.advance(row.id)
            except Exception:
                log.exception("could not resume tournament %d", row.id)
                failed.append(row.id)
            else:
                resumed += 1
        if failed:
            raise ResumeIncomplete(f"tournaments {failed} not resumed")
        log.info("resumed %d running tournaments", resumed)

    # --- opening games -----------------------------------------------------------------

    async def _open(self, progress: Progress, game: GameToStart) -> None:
        row = progress.tournament
        channel = await self.bot.presenter.channel(row.channel_id)
        if not isinstance(channel, discord.TextChannel):
            log.warning("tournament %d: channel %d is gone or not a text channel", row.id, row.channel_id)
            return
        a, b = (progress.name(p) for p in game.seats)
        locale = await guild_locale(self.bot, row.guild_id)
        label = round_label(row, game.pairing_id)
        title = translate(
            locale,
            tr("{label}: {a} vs {b} · game {n}", label=label, a=a, b=b, n=game.game_number)
            if row.best_of > 1
            else tr("{label}: {a} vs {b}", label=label, a=a, b=b),
        )[:100]
        try:
            thread = await channel.create_thread(
                name=title,
                type=discord.ChannelType.public_thread,
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                reason=f"Boneyard tournament {row.name}",
            )
        except discord.HTTPException as exc:
            log.warning("tournament %d: cannot create a thread: %s", row.id, exc)
            await self._post(
                row.channel_id,
                translate(
                    locale,
                    tr(
                        "⚠️ I could not open a thread for the next game. I need the **Create Public Threads** and "
                        "**Send Messages in Threads** permissions here; a host can then run `/tournament resume`."
                    ),
                ),
            )
            return
        crashpoints.reached("tournament.thread_created")
        players = " vs ".join(f"<@{p}>" for p in game.seats)
        intro = f"**{row.name}** — {title}\n" + translate(
            locale, tr("{players}, your match is here. Good luck!", players=players)
        )
        try:
            opened = await self.bot.tournaments.open_game(row.id, game, channel_id=thread.id, intro=intro, title=title)
        except ServiceError as exc:  # opened meanwhile (a race the link table refused)
            log.info("tournament %d: game not opened: %s", row.id, exc)
            await thread.delete()
            return
        await self.bot.presenter.announce(opened.update)
        await self._deliver([opened.link] if opened.link else [])
        await self._deliver(opened.later)

    # --- announcements -----------------------------------------------------------------

    async def _post(self, channel_id: int, text: str, *, mentions: bool = True) -> None:
        channel = await self.bot.presenter.channel(channel_id)
        if channel is None:
            return
        allowed = MENTIONS if mentions else discord.AllowedMentions.none()
        try:
            await channel.send(text, allowed_mentions=allowed)
        except discord.HTTPException:
            log.warning("could not post in tournament channel %d", channel_id)
