"""The "Verify dice" button under a finished match, and the worker pool records use.

The button carries the match id in its custom id (a `DynamicItem`), so it works after any
restart.  It runs the same check as `python -m bot.verify` on the match's full record, in
a worker process (replaying a long match holds the GIL), and answers the clicker privately
with the checker's one sentence.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any, Self, TypeVar

import discord

from bot.match_records import build_record
from bot.matches import ServiceError
from bot.records import format_record
from bot.verify import verify_text
from bot.workers import process_pool
from cogs.common import bot_of, presenter, presenter_of, report_error

if TYPE_CHECKING:
    from bot.client import Boneyard

log = logging.getLogger(__name__)
A = TypeVar("A")
R = TypeVar("R")


def pool_of(bot: Boneyard) -> ProcessPoolExecutor:
    """The bot's record worker pool, started on first use (shut down with `close_pool`)."""
    pool = getattr(bot, "record_pool", None)
    if pool is None:
        pool = process_pool()
        bot.record_pool = pool  # type: ignore[attr-defined]
    return pool


def close_pool(bot: Boneyard) -> None:
    pool = getattr(bot, "record_pool", None)
    if pool is not None:
        pool.shutdown(wait=False, cancel_futures=True)
        bot.record_pool = None  # type: ignore[attr-defined]


async def run_in_pool(bot: Boneyard, function: Callable[[A], R], argument: A) -> R:
    """`function(argument)` in the worker pool; a pool whose worker died (killed for memory,
    say) is replaced and the call tried once more, so one crash does not break the command
    until a restart."""
    loop = asyncio.get_running_loop()
    try:
        return await loop.run_in_executor(pool_of(bot), function, argument)
    except BrokenProcessPool:
        log.warning("the record worker pool broke; starting a new one")
        close_pool(bot)
        return await loop.run_in_executor(pool_of(bot), function, argument)


async def full_record_text(bot: Boneyard, match_id: int) -> str:
    """The complete record of a match that ended (ServiceError while it runs)."""
    row = await bot.service.get(match_id)
    if row.seats is None:
        raise ServiceError("That match never started, so there is nothing to check.")
    if row.status == "active":
        raise ServiceError("The seed is revealed when the match ends; verify it then.")
    names = (await presenter(bot).name(row.seats[0]), await presenter(bot).name(row.seats[1]))
    return format_record(build_record(row, await bot.store.moves(match_id), names))


class VerifyButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"boneyard:verify:(?P<id>[0-9]+)"):
    def __init__(self, match_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Verify dice",
                emoji="🎲",
                style=discord.ButtonStyle.secondary,
                custom_id=f"boneyard:verify:{match_id}",
            )
        )
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        presenter_of(interaction).remember(interaction.user)
        bot = bot_of(interaction)
        try:
            text = await full_record_text(bot, self.match_id)
            await interaction.response.defer(ephemeral=True, thinking=True)
            verdict = await run_in_pool(bot, verify_text, text)
        except Exception as error:
            await report_error(interaction, error)
            return
        mark = "✅" if verdict.ok else "❌"
        await interaction.followup.send(f"{mark} {verdict.sentence}", ephemeral=True)


def verify_view(match_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(VerifyButton(match_id))
    return view
