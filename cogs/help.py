"""`/help`: the commands grouped by what a player wants to do, each with an example.

Why by task and not alphabetically: a newcomer asks "how do I start a game?", not "what
does /claim do?".  A test walks the command tree and checks every command is listed here,
so a new command cannot be forgotten.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.i18n import DEFAULT, Locale, tr, translate
from cogs.common import BoneyardCog
from cogs.speech import reader_locale

if TYPE_CHECKING:
    from bot.app.client import Boneyard

TASKS: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    (
        tr("Start a match"),
        (
            ("/play", tr("`/play game:Focus opponent:@bob` challenges bob; leave the opponent empty for anyone")),
            ("/challenges", tr("the open challenges of this server, with Accept (or Withdraw for yours) buttons")),
            ("/games", tr("the games and their options, e.g. `/play game:Focus options:setup=drop`")),
            ("/rules", tr("`/rules game:Domineering`: how to play, with a picture of a move")),
        ),
    ),
    (
        tr("Play your move"),
        (
            ("/move", tr("`/move d2-d1` (start typing: the legal moves are offered); or just type `d2-d1`")),
            ("/board", tr("shows the current board again")),
            ("/hand", tr("your private view (hand, draft, pool), only for you")),
        ),
    ),
    (
        tr("Clocks"),
        (
            ("/clock", tr("both players' time; `/play ... clock:blitz` starts a match with one")),
            ("/pause", tr("pause the clock (both players ask); `/resume` restarts it")),
            ("/resume", tr("restart a paused clock (both players ask)")),
            ("/claim", tr("win on time when the opponent's clock ran out")),
        ),
    ),
    (
        tr("Notices and holidays"),
        (
            ("/notify", tr("`/notify how:dm quiet:22-7 zone:Europe/Berlin`: how (and when) you hear it is your turn")),
            ("/vacation", tr("`/vacation start days:5`: pause your daily-clock matches; `end`, `status`")),
            ("/nudge", tr("in a match without a clock, remind your opponent of their move (once a day)")),
        ),
    ),
    (
        tr("End a match"),
        (
            ("/resign", tr("give up (asks you to confirm)")),
            ("/draw", tr("offer a draw; your opponent accepts with the button or `/draw`, any move declines it")),
            ("/takeback", tr("ask your opponent to undo your last move; they allow or refuse with a button")),
            ("/abort", tr("end without a result: both players use it, or a moderator")),
        ),
    ),
    (
        tr("Your matches and ratings"),
        (
            ("/matches", tr("your running matches and open challenges")),
            ("/match info", tr("players, options and fairness seed of this channel's match")),
            ("/leaderboard", tr("`/leaderboard game:Focus`: the best rated players here")),
            ("/stats", tr("`/stats member:@bob`: ratings and results (you by default)")),
        ),
    ),
    (
        tr("Records and replays"),
        (
            ("/history", tr("`/history member:@bob game:Focus`: finished matches, newest first")),
            ("/moves", tr("`/moves`: this match's moves so far, numbered as in its record (also a button at the end)")),
            ("/export", tr("`/export match:12`: the match record as a text file (this channel's match by default)")),
            ("/replay", tr("`/replay match:12`: an animated replay; the final board's Verify dice button checks it")),
            ("/analyse", tr("`/analyse match:12`: the computer judges every move of a finished match")),
        ),
    ),
    (
        tr("Tournaments"),
        (("/tournament", tr("`/tournament create name:Cup game:Focus format:Swiss`, then `join`, `start`")),),
    ),
    (
        tr("Server settings (Manage Server)"),
        (
            (
                "/settings",
                tr(
                    "`/settings venue:threads clock:daily notify:dm vacation_days:14 server_language:pt_BR`: matches "
                    "in threads or channels, default clock, default notice, vacation days, the server's language; "
                    "without options it shows them"
                ),
            ),
            ("/status", tr("how the bot's background duties are doing, and when each last succeeded")),
        ),
    ),
    (
        tr("Your language"),
        (("/settings", tr("`/settings language:de`: your replies and DMs in German (`auto`: your Discord's)")),),
    ),
    (
        tr("Help"),
        (("/help", tr("this list")),),
    ),
)


def listed_commands() -> set[str]:
    """Every command `/help` mentions (without the slash), for the completeness test."""
    return {name.lstrip("/") for _task, commands in TASKS for name, _example in commands}


def help_embed(locale: Locale = DEFAULT) -> discord.Embed:
    """The help in `locale` (the asker's: it is only for them)."""
    embed = discord.Embed(
        title=translate(locale, tr("Boneyard: play domino board games by post")),
        colour=discord.Colour.from_rgb(0, 114, 178),
    )
    for task, commands in TASKS:
        lines = [f"**{name}** — {translate(locale, example)}" for name, example in commands]
        embed.add_field(name=translate(locale, task), value="\n".join(lines)[:1024], inline=False)
    embed.set_footer(text=translate(locale, tr("Commands that act on a match work in its channel (or thread).")))
    return embed


class HelpCog(BoneyardCog):
    @app_commands.command(name="help", description="What Boneyard can do, command by command, with examples.")
    async def help(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(embed=help_embed(await reader_locale(interaction)), ephemeral=True)


async def setup(bot: Boneyard) -> None:
    await bot.add_cog(HelpCog(bot))
