"""The move list of a match in Discord: `/moves` and the "Moves" button under a final board.

It shows the match's record line by line, numbered by ply as the record and `/export` number
them, paged, privately to whoever asked.  It is built from the same record as `/export`
(`build_record`), so while a match runs its secret moves show as "(secret)" and nothing
hidden reaches anyone; after the end every line is there.  The button carries the match and
the page in its custom id, so it works after a restart.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Final, Self

import discord

from bot.games import CHANCE, GAMES
from bot.i18n import DEFAULT, Locale, tr, translate
from bot.records.move_log import COMPLETION_SEAT, ENDING_SEAT, TAKEBACK_SEAT
from bot.services.matches import MatchRow, MatchStatus, build_record
from cogs.access import check_readable
from cogs.acknowledge import defer
from cogs.common import bot_of, report_error
from cogs.speech import localize_view, reader_locale

if TYPE_CHECKING:
    from bot.app.client import Boneyard

PAGE_LINES: Final = 25
"""Lines of the record per page (an embed holds 4,096 characters; a line is short)."""
LAST_PAGE: Final = 10**6
"""A page number past any match's end: `moves_page` shows the last page (the latest moves)."""


async def moves_page(
    bot: Boneyard, row: MatchRow, page: int, locale: Locale = DEFAULT
) -> tuple[discord.Embed, discord.ui.View | None]:
    """Page `page` (0-based; past the end, the last page) of `row`'s move list, and its
    buttons, in `locale` (the reader's)."""

    def say(text: str) -> str:
        return translate(locale, text)

    assert row.seats is not None
    names = (await bot.presenter.name(row.seats[0]), await bot.presenter.name(row.seats[1]))
    record = build_record(row, await bot.service.log(row.id), names)
    info = GAMES[row.game].info
    lines = [say(_line(info.seat_names, move.ply, move.seat, move.move)) for move in record.moves]
    pages = max(1, -(-len(lines) // PAGE_LINES))
    page = min(max(page, 0), pages - 1)
    shown = lines[page * PAGE_LINES : (page + 1) * PAGE_LINES]
    embed = discord.Embed(title=say(tr("{game} · match #{match} · moves", game=info.name, match=row.id)))
    embed.description = "\n".join(shown) if shown else say(tr("No moves yet."))
    if row.status == MatchStatus.ACTIVE:
        footer = tr(
            "Page {page} of {pages} · numbered by ply, as in /export · secret moves withheld while the match runs",
            page=page + 1,
            pages=pages,
        )
    else:
        footer = tr("Page {page} of {pages} · numbered by ply, as in /export", page=page + 1, pages=pages)
    embed.set_footer(text=say(footer))
    if pages == 1:
        return embed, None
    view = discord.ui.View(timeout=None)
    view.add_item(MovesButton(row.id, page - 1, "p", disabled=page == 0))
    view.add_item(MovesButton(row.id, page + 1, "n", disabled=page == pages - 1))
    return embed, localize_view(view, locale)


def _line(seat_names: tuple[str, str], ply: int, seat: int, move: str | None) -> str:
    if seat == TAKEBACK_SEAT:
        return tr("{ply}. ↩️ `{move}` (the moves from that ply on were taken back)", ply=ply, move=move)
    if seat == ENDING_SEAT:
        return f"{ply}. 🏁 `{move}`"
    if seat == COMPLETION_SEAT:
        return tr(
            "{ply}. ⏰ `{move}` (the draft time ran out: the picks below were drawn at random)", ply=ply, move=move
        )
    who = tr("Chance") if seat == CHANCE else seat_names[seat] if seat in (0, 1) else tr("Match")
    if move is None:
        return tr("{ply}. {who}: (secret)", ply=ply, who=who)
    return tr("{ply}. {who}: `{move}`", ply=ply, who=who, move=move)


class MovesButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"boneyard:moves:(?P<id>[0-9]{1,19}):(?P<page>[0-9]{1,6}):(?P<way>[fpn])",
):
    """ "Moves" under a final board (`way` f: first page) and the pages' Previous/Next; anyone
    may read a match's public record, each reader privately."""

    LABELS: Final = {"f": tr("Moves"), "p": tr("◀ Earlier"), "n": tr("Later ▶")}

    def __init__(self, match_id: int, page: int, way: str, *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=self.LABELS[way],
                style=discord.ButtonStyle.secondary,
                custom_id=f"boneyard:moves:{match_id}:{max(page, 0)}:{way}",
                disabled=disabled,
            )
        )
        self.match_id, self.page, self.way = match_id, max(page, 0), way

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["id"]), int(match["page"]), match["way"])

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        try:
            if self.way == "f":  # from a board everyone sees: the list is the clicker's own
                await interaction.response.defer(ephemeral=True, thinking=True)
            else:
                await defer(interaction)
            row = await bot.service.get(self.match_id)
            check_readable(interaction, row)
            embed, view = await moves_page(bot, row, self.page, await reader_locale(interaction))
            extra: dict[str, Any] = {"view": view} if view is not None else {}
            if self.way == "f":
                await interaction.followup.send(embed=embed, ephemeral=True, **extra)
            else:
                await interaction.edit_original_response(embed=embed, view=view)
        except Exception as error:
            await report_error(interaction, error)


def moves_button(match_id: int) -> MovesButton:
    """The "Moves" button for a final board."""
    return MovesButton(match_id, 0, "f")
