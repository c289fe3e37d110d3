"""Tournament announcements as posts: progress, the champion, game links, bracket pictures.

The tournament service stores these announcements in the transaction of the change they
tell (bot/store/outbox.py); the outbox dispatcher renders each kind with `TOURNAMENT_POSTS`,
given to it when the bot is wired, so the dispatcher needs no knowledge of tournaments and
the runner that opens games only delivers what was stored.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Final

import discord

from bot.games import GAMES
from bot.i18n import DEFAULT, Locale, tr, translate
from bot.services.outbox import CHAMPION, GAME_LINK, TOURNAMENT_PROGRESS, Announcement
from bot.services.tournaments import Progress, TournamentRow, loaded
from bot.tournaments import Pairing
from cogs.out.outbox import Post, Renderer
from cogs.speech import guild_locale
from renderers import tournament as pictures

if TYPE_CHECKING:
    from bot.app.client import Boneyard

MENTIONS: Final = discord.AllowedMentions(users=True, everyone=False, roles=False)


def round_label(row: TournamentRow, pairing_id: int) -> str:
    """ "Semi-finals", "Losers R2", "Round 3"...: what players call the round of a pairing."""
    tournament = loaded(row)
    return pictures.round_names(tournament).get(pairing_id, tr("Game")) if tournament is not None else tr("Game")


def picture_png(
    row: TournamentRow, standings: bool, whole: bool | None = None, locale: Locale = DEFAULT
) -> tuple[bytes, str] | None:
    """The bracket (or table) picture of a started event as PNG bytes and its alt text; None
    before it starts.  A big bracket is drawn as the round being played and the next unless
    `whole` is true.  CPU work: run it in the bot's worker processes (`picture_file` does)."""
    tournament = loaded(row)
    if tournament is None:
        return None
    info = GAMES[row.game].info
    subtitle = tr("{game} · {format} · best of {n}", game=info.name, format=row.format.replace("_", " "), n=row.best_of)
    data = pictures.picture_data(tournament, row.name, translate(locale, subtitle), locale)
    png = pictures.standings_png(data) if standings else pictures.bracket_png(data, whole=whole)
    return png, pictures.describe(data, standings=standings)


async def picture_file(
    bot: Boneyard, row: TournamentRow, *, standings: bool, whole: bool | None = None
) -> discord.File | None:
    """`picture_png` rendered in the bot's worker processes, as an attachment with alt text."""
    drawn = await bot.pictures.run(picture_png, row, standings, whole, await guild_locale(bot, row.guild_id))
    if drawn is None:
        return None
    png, description = drawn
    return discord.File(
        io.BytesIO(png), filename="standings.png" if standings else "bracket.png", description=description
    )


def result_line(row: TournamentRow, progress: Progress, pairing: Pairing) -> str:
    """One decided pairing as the tournament channel reads it (a sentence to translate)."""
    label = round_label(row, pairing.id)
    if pairing.method == "bye":
        return tr("• {label}: {player} has a bye.", label=label, player=progress.name(pairing.winner))
    if pairing.method == "unneeded":
        return tr("• {label}: not needed.", label=label)
    if pairing.winner is None:
        a, b = (progress.name(p) for p in pairing.participants)
        return tr("• {label}: {a} and {b} draw.", label=label, a=a, b=b)
    loser = pairing.opponent(pairing.winner)
    wins = sum(1 for g in pairing.games if g.finished and g.winner == pairing.winner)
    losses = sum(1 for g in pairing.games if g.finished and g.winner == loser)
    score = f" ({wins}–{losses})" if row.best_of > 1 and pairing.method == "games" else ""
    said = {"label": label, "winner": progress.name(pairing.winner), "loser": progress.name(loser), "score": score}
    if pairing.method == "forfeit":
        return tr("• {label}: **{winner}** beats {loser}{score} by forfeit.", **said)
    if pairing.method == "host":
        return tr("• {label}: **{winner}** beats {loser}{score} (reported by the host).", **said)
    return tr("• {label}: **{winner}** beats {loser}{score}.", **said)


async def _tournament(bot: Boneyard, row: Announcement) -> tuple[TournamentRow, Progress] | None:
    """The tournament an announcement is about, and a `Progress` that names its players."""
    if row.tournament_id is None:
        return None
    tournament_row = await bot.tournaments.find(row.tournament_id)
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
        result_line(tournament_row, progress, tournament.pairing(pairing_id))
        for pairing_id in row.payload.get("decided", [])
    ]
    lines += [
        tr("↩️ A game of pairing {pairing} was aborted: it will be played again.", pairing=pairing_id)
        for pairing_id in row.payload.get("replayed", [])
    ]
    if row.payload.get("new_round") is not None:
        lines.append(tr("📣 **Round {n}** of {name} is paired.", n=row.payload["new_round"], name=tournament_row.name))
    if not lines:
        return None
    locale = await guild_locale(bot, tournament_row.guild_id)
    return Post("\n".join(translate(locale, line) for line in lines)[:2000], mentions=discord.AllowedMentions.none())


async def render_champion(bot: Boneyard, row: Announcement) -> Post | None:
    """The end of the event: the champion and the final standings picture."""
    found = await _tournament(bot, row)
    if found is None:
        return None
    tournament_row, _progress = found
    champion = row.payload.get("champion")
    text = translate(
        await guild_locale(bot, tournament_row.guild_id),
        tr(
            "🏆 **{name}** is over. Champion: <@{champion}>! Congratulations!",
            name=tournament_row.name,
            champion=champion,
        )
        if champion is not None
        else tr("🏁 **{name}** is over.", name=tournament_row.name),
    )

    async def picture() -> discord.File | None:
        return await picture_file(bot, tournament_row, standings=True)

    return Post(text, picture, mentions=MENTIONS)


async def render_link(bot: Boneyard, row: Announcement) -> Post | None:
    """`▶️ Final: alice vs bob → #thread` in the tournament channel."""
    return Post(f"▶️ {row.payload['title']} → <#{row.payload['thread_id']}>", mentions=MENTIONS)


TOURNAMENT_POSTS: Final[dict[str, Renderer]] = {
    # the outbox kinds a tournament stores, each with what posts it
    TOURNAMENT_PROGRESS: render_progress,
    CHAMPION: render_champion,
    GAME_LINK: render_link,
}
