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
import io
import logging
from typing import TYPE_CHECKING, Final

import discord

from bot.games import GAMES
from bot.matches import ServiceError
from bot.tournament_service import Progress, loaded
from bot.tournament_store import TournamentRow
from bot.tournaments import GameToStart, Pairing
from cogs.common import presenter
from renderers import tournament as pictures

if TYPE_CHECKING:
    from bot.client import Boneyard

log = logging.getLogger(__name__)

THREAD_ARCHIVE_MINUTES: Final = 10080  # a week: the longest Discord allows
MENTIONS = discord.AllowedMentions(users=True, everyone=False, roles=False)


def round_label(row: TournamentRow, pairing_id: int) -> str:
    """ "Semi-finals", "Losers R2", "Round 3"...: what players call the round of a pairing."""
    tournament = loaded(row)
    return pictures.round_names(tournament).get(pairing_id, "Game") if tournament is not None else "Game"


def picture_png(row: TournamentRow, standings: bool, whole: bool | None = None) -> tuple[bytes, str] | None:
    """The bracket (or table) picture of a started event as PNG bytes and its alt text; None
    before it starts.  A big bracket is drawn as the round being played and the next unless
    `whole` is true.  CPU work: run it in the bot's worker processes (`picture_file` does)."""
    tournament = loaded(row)
    if tournament is None:
        return None
    info = GAMES[row.game].info
    subtitle = f"{info.name} · {row.format.replace('_', ' ')} · best of {row.best_of}"
    data = pictures.picture_data(tournament, row.name, subtitle)
    png = pictures.standings_png(data) if standings else pictures.bracket_png(data, whole=whole)
    return png, pictures.describe(data, standings=standings)


async def picture_file(
    bot: Boneyard, row: TournamentRow, *, standings: bool, whole: bool | None = None
) -> discord.File | None:
    """`picture_png` rendered in the bot's worker processes, as an attachment with alt text."""
    drawn = await bot.pictures.run(picture_png, row, standings, whole)
    if drawn is None:
        return None
    png, description = drawn
    return discord.File(
        io.BytesIO(png), filename="standings.png" if standings else "bracket.png", description=description
    )


class TournamentRunner:
    def __init__(self, bot: Boneyard) -> None:
        self.bot = bot
        self._locks: dict[int, asyncio.Lock] = {}

    async def advance(self, tournament_id: int) -> Progress:
        """Sync, announce, and open every game now due (one at a time per tournament)."""
        async with self._locks.setdefault(tournament_id, asyncio.Lock()):
            progress = await self.bot.tournaments.sync(tournament_id)
            await self._announce(progress)
            for game in progress.to_open:
                await self._open(progress, game)
            return progress

    async def resume_all(self) -> None:
        """After a (re)start: results that arrived while the bot was down, games not opened."""
        for row in await self.bot.tournaments.running():
            try:
                await self.advance(row.id)
            except Exception:
                log.exception("could not resume tournament %d", row.id)

    # --- opening games -----------------------------------------------------------------

    async def _open(self, progress: Progress, game: GameToStart) -> None:
        row = progress.tournament
        channel = await presenter(self.bot).channel(row.channel_id)
        if not isinstance(channel, discord.TextChannel):
            log.warning("tournament %d: channel %d is gone or not a text channel", row.id, row.channel_id)
            return
        a, b = (progress.name(p) for p in game.seats)
        number = f" · game {game.game_number}" if row.best_of > 1 else ""
        title = f"{round_label(row, game.pairing_id)}: {a} vs {b}{number}"[:100]
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
                "⚠️ I could not open a thread for the next game. I need the **Create Public Threads** and "
                "**Send Messages in Threads** permissions here; a host can then run `/tournament resume`.",
            )
            return
        try:
            update = await self.bot.tournaments.open_game(row.id, game, channel_id=thread.id)
        except ServiceError as exc:  # opened meanwhile (a race the link table refused)
            log.info("tournament %d: game not opened: %s", row.id, exc)
            await thread.delete()
            return
        players = " vs ".join(f"<@{p}>" for p in game.seats)
        intro = f"**{row.name}** — {title}\n{players}, your match is here. Good luck!"
        await presenter(self.bot).announce(update, intro=intro)
        await self._post(row.channel_id, f"▶️ {title} → {thread.mention}")

    # --- announcements -----------------------------------------------------------------

    async def _announce(self, progress: Progress) -> None:
        row = progress.tournament
        lines = []
        for pairing in progress.decided:
            lines.append(self._result_line(row, progress, pairing))
        for pairing_id in progress.replayed:
            lines.append(f"↩️ A game of pairing {pairing_id} was aborted: it will be played again.")
        if progress.new_round is not None and not progress.just_finished:
            lines.append(f"📣 **Round {progress.new_round}** of {row.name} is paired.")
        if lines:
            await self._post(row.channel_id, "\n".join(lines)[:2000], mentions=False)
        if progress.just_finished:
            champion = progress.champion
            text = (
                f"🏆 **{row.name}** is over. Champion: <@{champion}>! Congratulations!"
                if champion is not None
                else f"🏁 **{row.name}** is over."
            )
            file = await picture_file(self.bot, row, standings=True)
            await self._post(row.channel_id, text, file=file)

    @staticmethod
    def _result_line(row: TournamentRow, progress: Progress, pairing: Pairing) -> str:
        label = round_label(row, pairing.id)
        if pairing.method == "bye":
            return f"• {label}: {progress.name(pairing.winner)} has a bye."
        if pairing.method == "unneeded":
            return f"• {label}: not needed."
        if pairing.winner is None:
            a, b = (progress.name(p) for p in pairing.participants)
            return f"• {label}: {a} and {b} draw."
        loser = pairing.opponent(pairing.winner)
        wins = sum(1 for g in pairing.games if g.finished and g.winner == pairing.winner)
        losses = sum(1 for g in pairing.games if g.finished and g.winner == loser)
        score = f" ({wins}–{losses})" if row.best_of > 1 and pairing.method == "games" else ""
        how = {"forfeit": " by forfeit", "host": " (reported by the host)"}.get(pairing.method, "")
        return f"• {label}: **{progress.name(pairing.winner)}** beats {progress.name(loser)}{score}{how}."

    async def _post(
        self, channel_id: int, text: str, *, file: discord.File | None = None, mentions: bool = True
    ) -> None:
        channel = await presenter(self.bot).channel(channel_id)
        if channel is None:
            return
        allowed = MENTIONS if mentions else discord.AllowedMentions.none()
        try:
            if file is not None:
                await channel.send(text, file=file, allowed_mentions=allowed)
            else:
                await channel.send(text, allowed_mentions=allowed)
        except discord.HTTPException:
            log.warning("could not post in tournament channel %d", channel_id)
