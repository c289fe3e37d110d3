"""The "Verify dice" button under a finished match.

The button carries the match id in its custom id (a `DynamicItem`), so it works after any
restart.  It runs the same check as `python -m bot.verify` on the match's full record, in one
of the bot's worker processes (`Boneyard.pictures`: replaying a long match holds the GIL), and
answers the clicker privately with the checker's one sentence.  The click is acknowledged with
a private "thinking…" before any database work, as every interaction is (`cogs.acknowledge`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.games import GAMES
from bot.i18n import DEFAULT, Locale, joined, tr, tr_n, translate
from bot.records.format import format_record
from bot.records.verify import Verdict, verify_text
from bot.services.matches import MatchRow, MatchStatus, ServiceError, build_record
from cogs.access import check_readable
from cogs.acknowledge import answer
from cogs.common import bot_of, presenter_of, report_error
from cogs.speech import reader_locale
from cogs.ui.match_button import MatchButton

if TYPE_CHECKING:
    from bot.app.client import Boneyard


async def full_record_text(bot: Boneyard, match_id: int) -> str:
    """The complete record of a match that ended (ServiceError while it runs)."""
    row = await bot.service.get(match_id)
    if row.seats is None:
        raise ServiceError(tr("That match never started, so there is nothing to check."))
    if row.status == MatchStatus.ACTIVE:
        raise ServiceError(tr("The seed is revealed when the match ends; verify it then."))
    names = (await bot.presenter.name(row.seats[0]), await bot.presenter.name(row.seats[1]))
    return format_record(build_record(row, await bot.service.log(match_id), names))


class VerifyButton(MatchButton, template=r"boneyard:verify:(?P<id>[0-9]+)"):
    action, label, emoji = "verify", tr("Verify dice"), "🎲"

    async def callback(self, interaction: discord.Interaction) -> None:
        presenter_of(interaction).remember(interaction.user)
        bot = bot_of(interaction)
        try:
            # acknowledged first; "thinking…" rather than a silent defer: the check can take seconds
            await interaction.response.defer(ephemeral=True, thinking=True)
            check_readable(interaction, await bot.service.get(self.match_id))
            text = await full_record_text(bot, self.match_id)
            verdict = await bot.pictures.run(verify_text, text)
        except Exception as error:
            await report_error(interaction, error)
            return
        locale = await reader_locale(interaction)
        await answer(interaction, verdict_words(verdict, self.match_id, locale), ephemeral=True)


def verdict_words(verdict: Verdict, match_id: int, locale: Locale) -> str:
    """The checker's answer for the clicker: in English its own full sentence (what
    `python -m bot.verify` prints); in another language the same facts from the catalogue, and
    for a record that does not hold, the checker's finding quoted in English after a sentence
    in the reader's language (the command-line checker speaks English only)."""
    mark = "✅" if verdict.ok else "❌"
    if locale == DEFAULT:
        return f"{mark} {verdict.sentence}"
    if not verdict.ok:
        finding = tr(
            "The record of match #{match} does not hold. The checker says (in English): {finding}",
            match=match_id,
            finding=verdict.sentence,
        )
        return f"{mark} {translate(locale, finding)}"
    sentences = [
        tr_n(
            "The record of match #{match} holds: its only move is legal.",
            "The record of match #{match} holds: all {n} moves are legal.",
            verdict.moves,
            match=match_id,
        )
        if verdict.moves
        else tr("The record of match #{match} holds: it has no moves to check.", match=match_id),
        tr_n(
            "Its only chance move is the one the revealed seed gives.",
            "All {n} chance moves are the ones the revealed seed gives.",
            verdict.chance,
        )
        if verdict.chance
        else tr("There are no chance moves."),
    ]
    if verdict.seat_draw:
        sentences.append(tr("The seat draw is the one the revealed seed gives."))
    return f"{mark} {translate(locale, joined(' ', sentences))}"


def verify_view(row: MatchRow) -> discord.ui.View:
    """The buttons under a final board: the dice check, for a game that has dice (others get an
    empty view the Rematch button may join)."""
    view = discord.ui.View(timeout=None)
    if GAMES[row.game].info.has_chance:
        view.add_item(VerifyButton(row.id))
    return view
