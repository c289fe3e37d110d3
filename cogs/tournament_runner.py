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
from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

import discord

from bot.games import GAMES
from bot.infra import crashpoints
from bot.services.matches import ServiceError
from bot.services.tournaments import Progress, loaded
from bot.store.outbox import CHAMPION, GAME_LINK, TOURNAMENT_PROGRESS, Announcement
from bot.store.tournaments import TournamentRow
from bot.tournaments import GameToStart, Pairing
from cogs.common import presenter
from cogs.out.outbox import Post, Renderer, dispatcher
from renderers import tournament as pictures

if TYPE_CHECKING:
    from bot.app.client import Boneyard

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
            await self._deliver(progress.announcements)
            for game in progress.to_open:
                await self._open(progress, game)
            return progress

    async def _deliver(self, keys: Iterable[str]) -> None:
        """Post stored announcements in order (each one once, through the dispatcher)."""
        for key in keys:
            await dispatcher(self.bot).deliver(key)

    async def resume_all(self) -> None:
        """After a (re)start: results that arrived while the bot was down, games not opened."""
        for row in await self.bot.tournaments.running():
            if not self.bot.owns(row.guild_id):
                continue  # another shard process runs this guild's events
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
        crashpoints.reached("tournament.thread_created")
        players = " vs ".join(f"<@{p}>" for p in game.seats)
        intro = f"**{row.name}** — {title}\n{players}, your match is here. Good luck!"
        try:
            opened = await self.bot.tournaments.open_game(row.id, game, channel_id=thread.id, intro=intro, title=title)
        except ServiceError as exc:  # opened meanwhile (a race the link table refused)
            log.info("tournament %d: game not opened: %s", row.id, exc)
            await thread.delete()
            return
        await presenter(self.bot).announce(opened.update)
        await self._deliver([opened.link] if opened.link else [])
        await self._deliver(opened.later)

    # --- announcements -----------------------------------------------------------------

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

    async def _post(self, channel_id: int, text: str, *, mentions: bool = True) -> None:
        channel = await presenter(self.bot).channel(channel_id)
        if channel is None:
            return
        allowed = MENTIONS if mentions else discord.AllowedMentions.none()
        try:
            await channel.send(text, allowed_mentions=allowed)
        except discord.HTTPException:
            log.warning("could not post in tournament channel %d", channel_id)


# --- rendering stored announcements (the outbox dispatcher calls these) -----------------


async def _tournament(bot: Boneyard, row: Announcement) -> tuple[TournamentRow, Progress] | None:
    """The tournament an announcement is about, and a `Progress` that names its players."""
    if row.tournament_id is None:
        return None
    tournament_row = await bot.tournaments.store.get(row.tournament_id)
    tournament = loaded(tournament_row) if tournament_row is not None else None
    if tournament_row is None or tournament is None:
        return None
    return tournament_row, Progress(tournament_row, names={p.id: p.name for p in tournament.players})


async def render_progress(bot: Boneyard, row: Announcement) -> Post | None:
    """Series decided, games replayed, a new round (one message, no pings)."""
    found = await _tournament(bot, row)
    if found is None:
        return None
    tournament_row, progress = found
    tournament = loaded(tournament_row)
    assert tournament is not None
    lines = [
        TournamentRunner._result_line(tournament_row, progress, tournament.pairing(pairing_id))
        for pairing_id in row.payload.get("decided", [])
    ]
    lines += [
        f"↩️ A game of pairing {pairing_id} was aborted: it will be played again."
        for pairing_id in row.payload.get("replayed", [])
    ]
    if row.payload.get("new_round") is not None:
        lines.append(f"📣 **Round {row.payload['new_round']}** of {tournament_row.name} is paired.")
    if not lines:
        return None
    return Post("\n".join(lines)[:2000], mentions=discord.AllowedMentions.none())


async def render_champion(bot: Boneyard, row: Announcement) -> Post | None:
    """The end of the event: the champion and the final standings picture."""
    found = await _tournament(bot, row)
    if found is None:
        return None
    tournament_row, _progress = found
    champion = row.payload.get("champion")
    text = (
        f"🏆 **{tournament_row.name}** is over. Champion: <@{champion}>! Congratulations!"
        if champion is not None
        else f"🏁 **{tournament_row.name}** is over."
    )

    async def picture() -> discord.File | None:
        return await picture_file(bot, tournament_row, standings=True)

    return Post(text, picture, mentions=MENTIONS)


async def render_link(bot: Boneyard, row: Announcement) -> Post | None:
    """`▶️ Final: alice vs bob → #thread` in the tournament channel."""
    return Post(f"▶️ {row.payload['title']} → <#{row.payload['thread_id']}>", mentions=MENTIONS)


RENDERERS: Final[dict[str, Renderer]] = {
    TOURNAMENT_PROGRESS: render_progress,
    CHAMPION: render_champion,
    GAME_LINK: render_link,
}
