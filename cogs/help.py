"""`/help`: the commands grouped by what a player wants to do, each with an example.

Why by task and not alphabetically: a newcomer asks "how do I start a game?", not "what
does /claim do?".  A test walks the command tree and checks every command is listed here,
so a new command cannot be forgotten.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from cogs.common import BoneyardCog

if TYPE_CHECKING:
    from bot.app.client import Boneyard

TASKS: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    (
        "Start a match",
        (
            ("/play", "`/play game:Focus opponent:@bob` challenges bob; leave the opponent empty for anyone"),
            ("/challenges", "the open challenges of this server, with Accept (or Withdraw for yours) buttons"),
            ("/games", "the games and their options, e.g. `/play game:Focus options:setup=drop`"),
            ("/rules", "`/rules game:Domineering`: how to play, with a picture of a move"),
        ),
    ),
    (
        "Play your move",
        (
            ("/move", "`/move d2-d1` (start typing: the legal moves are offered); or just type `d2-d1`"),
            ("/board", "shows the current board again"),
            ("/hand", "your private view (hand, draft, pool), only for you"),
        ),
    ),
    (
        "Clocks",
        (
            ("/clock", "both players' time; `/play ... clock:blitz` starts a match with one"),
            ("/pause", "pause the clock (both players ask); `/resume` restarts it"),
            ("/resume", "restart a paused clock (both players ask)"),
            ("/claim", "win on time when the opponent's clock ran out"),
        ),
    ),
    (
        "Notices and holidays",
        (
            ("/notify", "`/notify how:dm quiet:22-7 zone:Europe/Berlin`: how (and when) you hear it is your turn"),
            ("/vacation", "`/vacation start days:5`: pause your daily-clock matches; `end`, `status`"),
            ("/nudge", "in a match without a clock, remind your opponent of their move (once a day)"),
        ),
    ),
    (
        "End a match",
        (
            ("/resign", "give up (asks you to confirm)"),
            ("/draw", "offer a draw; your opponent accepts with the button or `/draw`, any move declines it"),
            ("/takeback", "ask your opponent to undo your last move; they allow or refuse with a button"),
            ("/abort", "end without a result: both players use it, or a moderator"),
        ),
    ),
    (
        "Your matches and ratings",
        (
            ("/matches", "your running matches and open challenges"),
            ("/match info", "players, options and fairness seed of this channel's match"),
            ("/leaderboard", "`/leaderboard game:Focus`: the best rated players here"),
            ("/stats", "`/stats member:@bob`: ratings and results (you by default)"),
        ),
    ),
    (
        "Records and replays",
        (
            ("/history", "`/history member:@bob game:Focus`: finished matches, newest first"),
            ("/moves", "`/moves`: this match's moves so far, numbered as in its record (also a button at the end)"),
            ("/export", "`/export match:12`: the match record as a text file (this channel's match by default)"),
            ("/replay", "`/replay match:12`: an animated replay; the final board's Verify dice button checks it"),
            ("/analyse", "`/analyse match:12`: the computer judges every move of a finished match"),
        ),
    ),
    (
        "Tournaments",
        (("/tournament", "`/tournament create name:Cup game:Focus format:Swiss`, then `join`, `start`"),),
    ),
    (
        "Server settings (Manage Server)",
        (
            (
                "/settings",
                "`/settings venue:threads clock:daily notify:dm vacation_days:14`: matches in threads or "
                "channels, default clock, default notice, vacation days; without options it shows them",
            ),
            ("/status", "how the bot's background duties are doing, and when each last succeeded"),
        ),
    ),
    (
        "Help",
        (("/help", "this list"),),
    ),
)


def listed_commands() -> set[str]:
    """Every command `/help` mentions (without the slash), for the completeness test."""
    return {name.lstrip("/") for _task, commands in TASKS for name, _example in commands}


def help_embed() -> discord.Embed:
    embed = discord.Embed(
        title="Boneyard: play domino board games by post", colour=discord.Colour.from_rgb(0, 114, 178)
    )
    for task, commands in TASKS:
        lines = [f"**{name}** — {example}" for name, example in commands]
        embed.add_field(name=task, value="\n".join(lines)[:1024], inline=False)
    embed.set_footer(text="Commands that act on a match work in its channel (or thread).")
    return embed


class HelpCog(BoneyardCog):
    @app_commands.command(name="help", description="What Boneyard can do, command by command, with examples.")
    async def help(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(embed=help_embed(), ephemeral=True)


async def setup(bot: Boneyard) -> None:
    await bot.add_cog(HelpCog(bot))
