"""`/export`, `/replay`, `/analyse` and `/history`: every match as a record, a replay, the
computer's analysis, and a list.

`/export` and `/replay` take a match number, or default to this channel's running match,
else the caller's latest finished one.  While a match runs they show only what the
channel has seen (secret moves and the seed are withheld; the replay is drawn from public
views); after the end, everything.  Both answer privately: a record is for its reader,
who may share it.  Replays are drawn in the bot's worker processes (`Boneyard.pictures`), never on
the loop.

Who may read what is cogs/access.py: a match's server and its players.

`/analyse` (finished matches only) answers with a progress message, edited at most once a
second while the computer works (bot/services/analysis.py queues the request fairly with
every other server's), then replaced by the winning-chance picture and each player's
accuracy and costliest moves.  Once made, an analysis is kept: `/export` writes it into the
record as comments, `/replay` marks the costly moves, and asking again is instant.

`/history` lists a player's finished matches played in this server (in DMs: your own, all)
newest first, five a page, with Previous and
Next buttons whose custom ids carry the player, game and page (they work after restarts).
"""

from __future__ import annotations

import io
import re
from typing import TYPE_CHECKING, Any, ClassVar, Self

import discord
from discord import app_commands

from bot.ai.analysis import Analysis
from bot.games import GAMES
from bot.i18n import DEFAULT, Locale, Percent, joined, tr, tr_n, translate
from bot.records.annotations import annotated
from bot.records.format import format_record
from bot.services.analysis import NotFinished
from bot.services.matches import MatchRow, MatchStatus, NoMatchHere, ServiceError, build_record, job_for
from cogs.access import check_readable, history_scope
from cogs.acknowledge import answer, defer
from cogs.common import BoneyardCog, bot_of, channel_match, presenter_of, report_error
from cogs.out.presenter import channel_link
from cogs.play import GAME_CHOICES
from cogs.speech import localize_view, reader_locale, say
from cogs.ui.moves_list import LAST_PAGE, MovesButton, moves_page
from cogs.ui.verify_button import VerifyButton
from renderers.analysis import analysis_png
from renderers.replay_frames import render_replay

if TYPE_CHECKING:
    from bot.app.client import Boneyard

PAGE_SIZE = 5
ATTACHMENT_LIMIT = 8 * 1024 * 1024
ALL_GAMES = "all"


async def _names(bot: Boneyard, row: MatchRow) -> tuple[str, str]:
    assert row.seats is not None
    return (await bot.presenter.name(row.seats[0]), await bot.presenter.name(row.seats[1]))


async def find_match(interaction: discord.Interaction, match: int | None) -> MatchRow:
    """The match a record command is about; raises ServiceError when there is none."""
    bot = bot_of(interaction)
    found = await bot.service.get(match) if match is not None else None
    if found is None:
        found = await channel_match(interaction)
    if found is None:
        latest = await bot.service.history(interaction.user.id, limit=1)
        if not latest:
            raise NoMatchHere(tr("There is no match here and you have no finished match; give a match number."))
        found = latest[0][0]
    row = found
    check_readable(interaction, row)
    if row.seats is None:
        raise ServiceError(tr("Match #{id} has not started yet.", id=row.id))
    return row


def analysis_text(analysis: Analysis, row: MatchRow, names: tuple[str, str]) -> str:
    """Each player's accuracy and costliest moves with the move the computer preferred."""
    info = GAMES[row.game].info
    labels = {"blunder": tr("blunder"), "mistake": tr("mistake"), "inaccuracy": tr("inaccuracy")}
    lines: list[str] = [tr("🔍 **The computer's analysis of match #{match}** ({game})", match=row.id, game=info.name)]
    for seat in (0, 1):
        accuracy = analysis.accuracy(seat)
        who = {"name": names[seat], "seat": info.seat_names[seat]}
        if accuracy is not None:
            lines.append(tr("**{name}** ({seat}): accuracy **{accuracy} %**", accuracy=f"{accuracy:.0f}", **who))
        else:
            lines.append(tr("**{name}** ({seat}): no choice to judge", **who))
        costly = analysis.costliest(seat)
        for j in costly:
            lines.append(
                tr(
                    "  · move {ply} `{move}` ({label}): winning chance {before} → {after}; better `{best}`",
                    ply=j.ply,
                    move=j.move,
                    label=labels.get(j.label or "", j.label or ""),
                    before=Percent(j.before),
                    after=Percent(j.after),
                    best=j.best,
                )
            )
        if accuracy is not None and not costly:
            lines.append(tr("  · no costly move"))
    lines.append(
        tr(
            "_Estimates of the computer's search ({budget}), from each player's own information._",
            budget=analysis.budget,
        )
    )
    return joined("\n", lines)


async def _analysis_picture(
    bot: Boneyard, analysis: Analysis, row: MatchRow, names: tuple[str, str], locale: Locale = DEFAULT
) -> discord.File:
    """The winning-chance picture, drawn in a worker process."""
    info = GAMES[row.game].info
    title = tr("Match #{match} · {game}: the computer's analysis", match=row.id, game=info.name)
    png = await bot.pictures.run(analysis_png, analysis, names, info.seat_names, title, locale)
    return discord.File(io.BytesIO(png), filename=f"boneyard-analysis-{row.id}.png")


def _outcome_word(row: MatchRow, member_id: int) -> str:
    winners = (row.outcome or {}).get("winners") or []
    if not winners:
        return tr("🤝 draw")
    return tr("🏆 won") if row.seats is not None and row.seats[winners[0]] == member_id else tr("💀 lost")


async def history_page(
    bot: Boneyard,
    member_id: int,
    member_name: str,
    game: str,
    page: int,
    *,
    guild_id: int | None,
    locale: Locale = DEFAULT,
) -> tuple[discord.Embed, discord.ui.View | None]:
    """One page of `member_id`'s finished matches played in `guild_id`'s server (None: all),
    in `locale` (the asker's)."""

    def say(text: str) -> str:
        return translate(locale, text)

    rows = await bot.service.history(
        member_id,
        game=None if game == ALL_GAMES else game,
        guild_id=guild_id,
        offset=page * PAGE_SIZE,
        limit=PAGE_SIZE + 1,
    )
    if game == ALL_GAMES:
        title = tr("{name} — finished matches", name=member_name)
    else:
        title = tr("{name} — finished matches of {game}", name=member_name, game=GAMES[game].info.name)
    embed = discord.Embed(title=say(title))
    if not rows:
        embed.description = say(tr("No finished matches yet.") if page == 0 else tr("No more matches."))
    lines = []
    for row, changes in rows[:PAGE_SIZE]:
        assert row.seats is not None
        opponent = row.seats[1] if row.seats[0] == member_id else row.seats[0]
        change = next((after - before for user, before, after in changes if user == member_id), None)
        rating = say(tr(" · rating {change}", change=f"{change:+.0f}") if change is not None else tr(" · unrated"))
        reason = say((row.outcome or {}).get("reason", ""))
        line = tr(
            "**#{match} {game}** vs {opponent} · {result}{rating} · <t:{at}:d> · [channel]({link})",
            match=row.id,
            game=GAMES[row.game].info.name,
            opponent=await bot.presenter.name(opponent),
            result=_outcome_word(row, member_id),
            rating=rating,
            at=int(row.updated_at),
            link=channel_link(row),
        )
        lines.append(f"{say(line)}\n  _{reason}_")
    if lines:
        embed.description = "\n".join(lines)
    embed.set_footer(text=say(tr("Page {page} · /export or /replay a match by its number", page=page + 1)))
    previous, following = page > 0, len(rows) > PAGE_SIZE
    if not previous and not following:
        return embed, None
    view = discord.ui.View(timeout=None)
    view.add_item(HistoryPageButton(member_id, game, max(page - 1, 0), "n", disabled=not previous))
    view.add_item(HistoryPageButton(member_id, game, page + 1, "o", disabled=not following))
    return embed, view


class HistoryPageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"boneyard:hist:(?P<member>[0-9]+):(?P<game>\w+):(?P<page>[0-9]+):(?P<way>[no])",
):
    """The Newer/Older button of a `/history` list; anyone may page it, within the server it is
    clicked in (cogs/access.py).
    `way` (`n` newer, `o` older) keeps the two buttons' custom ids apart."""

    LABELS: ClassVar[dict[str, str]] = {"n": tr("◀ Newer"), "o": tr("Older ▶")}

    def __init__(self, member_id: int, game: str, page: int, way: str, *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=self.LABELS[way],
                style=discord.ButtonStyle.secondary,
                custom_id=f"boneyard:hist:{member_id}:{game}:{page}:{way}",
                disabled=disabled,
            )
        )
        self.member_id, self.game, self.page = member_id, game, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["member"]), match["game"], int(match["page"]), match["way"])

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        try:
            await defer(interaction)
            if self.game != ALL_GAMES and self.game not in GAMES:
                raise ServiceError(tr("That list is out of date; run `/history` again."))
            scope = history_scope(interaction, self.member_id)
            name = await bot.presenter.name(self.member_id)
            locale = await reader_locale(interaction)
            embed, view = await history_page(
                bot, self.member_id, name, self.game, self.page, guild_id=scope, locale=locale
            )
            localize_view(view, locale)
        except Exception as error:
            await report_error(interaction, error)
            return
        await interaction.edit_original_response(embed=embed, view=view)


class RecordsCog(BoneyardCog):
    @app_commands.command(
        name="export", description="A match's record as a text file (secrets withheld while it runs)."
    )
    @app_commands.describe(match="Match number (default: this channel's match, else your latest)")
    async def export(self, interaction: discord.Interaction, match: int | None = None) -> None:
        presenter_of(interaction).remember(interaction.user)
        await defer(interaction, ephemeral=True)
        row = await find_match(interaction, match)
        record = build_record(
            row, await self.bot.service.log(row.id), await _names(self.bot, row), site=channel_link(row)
        )
        info = GAMES[row.game].info
        analysis = await self.bot.analyses.stored(row.id) if row.status == MatchStatus.FINISHED else None
        if analysis is not None:
            record = annotated(record, analysis)
        if record.ended:
            note = (
                tr(
                    "Everything is in it, the seed too: `python -m bot.verify` checks every move and roll. The "
                    "computer's analysis is in it as comments (`;` lines), which the check ignores."
                )
                if analysis is not None
                else tr("Everything is in it, the seed too: `python -m bot.verify` checks every move and roll.")
            )
        else:
            note = tr(
                "The match is running: {withheld} secret moves and the seed are withheld until the end.",
                withheld=record.withheld,
            )
        file = discord.File(io.BytesIO(format_record(record).encode()), filename=f"boneyard-match-{row.id}.txt")
        await answer(
            interaction,
            tr(
                "📜 Record of match #{id} ({name}, {count} moves). {note}",  # TRANSLATORS: {note} is a sentence
                id=row.id,
                name=info.name,
                count=len(record.moves),
                note=note,
            ),
            file=file,
            ephemeral=True,
        )

    @app_commands.command(name="moves", description="A match's moves, numbered as in its record (secrets withheld).")
    @app_commands.describe(
        match="Match number (default: this channel's match, else your latest)", page="Page (default: the last)"
    )
    async def moves(self, interaction: discord.Interaction, match: int | None = None, page: int | None = None) -> None:
        await defer(interaction, ephemeral=True)
        row = await find_match(interaction, match)
        embed, view = await moves_page(
            self.bot, row, page - 1 if page is not None else LAST_PAGE, await reader_locale(interaction)
        )
        extra: dict[str, Any] = {"view": view} if view is not None else {}
        await answer(interaction, embed=embed, ephemeral=True, **extra)

    @app_commands.command(
        name="replay", description="An animated replay of a match (public information while it runs)."
    )
    @app_commands.describe(match="Match number (default: this channel's match, else your latest)")
    async def replay(self, interaction: discord.Interaction, match: int | None = None) -> None:
        presenter_of(interaction).remember(interaction.user)
        await defer(interaction, ephemeral=True)
        row = await find_match(interaction, match)
        analysis = await self.bot.analyses.stored(row.id) if row.status == MatchStatus.FINISHED else None
        job = job_for(row, await self.bot.service.log(row.id), await _names(self.bot, row), analysis)
        gif = await self.bot.pictures.run(render_replay, job, await reader_locale(interaction))
        if len(gif) > ATTACHMENT_LIMIT:
            raise ServiceError(tr("That replay came out too large to attach; please tell the bot's admin."))
        info = GAMES[row.game].info
        if not job.ended:
            said = tr(
                "🎞️ Replay of match #{match} ({game}): so far, public information only.", match=row.id, game=info.name
            )
        elif info.has_private_info:
            said = tr(
                "🎞️ Replay of match #{match} ({game}): the whole match, hidden information revealed at the end.",
                match=row.id,
                game=info.name,
            )
        else:
            said = tr("🎞️ Replay of match #{match} ({game}): the whole match.", match=row.id, game=info.name)
        if job.ended and job.marks:
            marked = tr_n(
                "The {n} costly move the computer's analysis found is marked ⚠.",
                "The {n} costly moves the computer's analysis found are marked ⚠.",
                len(job.marks),
            )
            said = joined(" ", [said, marked])
        await interaction.followup.send(
            await say(interaction, said),
            file=discord.File(io.BytesIO(gif), filename=f"boneyard-replay-{row.id}.gif"),
            ephemeral=True,
        )

    @app_commands.command(name="analyse", description="The computer's analysis of a finished match: every move judged.")
    @app_commands.describe(match="Match number (default: this channel's match, else your latest)")
    async def analyse(self, interaction: discord.Interaction, match: int | None = None) -> None:
        presenter_of(interaction).remember(interaction.user)
        await defer(interaction, ephemeral=True)
        row = await find_match(interaction, match)
        if row.status != MatchStatus.FINISHED:
            raise NotFinished()
        names = await _names(self.bot, row)
        locale = await reader_locale(interaction)
        analyses = self.bot.analyses
        analysis = await analyses.stored(row.id)
        status: discord.WebhookMessage | None = None  # the progress message, when it is computed now
        if analysis is None:
            ahead = analyses.queued_ahead(row.id)
            keep = tr("The result is kept: if this message stops changing, run `/analyse` again later.")
            started = (
                tr_n(
                    "🔍 The computer is analysing match #{match}, after {n} other request.",
                    "🔍 The computer is analysing match #{match}, after {n} other requests.",
                    ahead,
                    match=row.id,
                )
                if ahead
                else tr("🔍 The computer is analysing match #{match}.", match=row.id)
            )
            status = await interaction.followup.send(
                translate(locale, joined(" ", [started, keep])), ephemeral=True, wait=True
            )

            async def progress(done: int, total: int) -> None:
                said = tr(
                    "🔍 Analysing match #{match}: {percent} % done.", match=row.id, percent=done * 100 // max(total, 1)
                )
                await status.edit(content=translate(locale, said))

            analysis = await analyses.analyse(row.id, progress)
        text = translate(locale, analysis_text(analysis, row, names))
        picture = await _analysis_picture(self.bot, analysis, row, names, locale)
        if status is not None:
            await status.edit(content=text, attachments=[picture])
        else:
            await answer(interaction, text, file=picture, ephemeral=True)

    @app_commands.command(name="history", description="A player's finished matches, newest first.")
    @app_commands.describe(member="Whose matches (default: yours)", game="Only this game")
    @app_commands.choices(game=GAME_CHOICES)
    async def history(
        self,
        interaction: discord.Interaction,
        member: discord.User | None = None,
        game: app_commands.Choice[str] | None = None,
    ) -> None:
        who = member or interaction.user
        presenter_of(interaction).remember(who)
        await defer(interaction, ephemeral=True)
        scope = history_scope(interaction, who.id)
        embed, view = await history_page(
            self.bot,
            who.id,
            who.display_name,
            game.value if game else ALL_GAMES,
            0,
            guild_id=scope,
            locale=await reader_locale(interaction),
        )
        extra: dict[str, Any] = {"view": view} if view is not None else {}
        await answer(interaction, embed=embed, ephemeral=True, **extra)


async def setup(bot: Boneyard) -> None:
    bot.add_dynamic_items(VerifyButton, HistoryPageButton, MovesButton)
    await bot.add_cog(RecordsCog(bot))
