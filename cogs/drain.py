"""The outbox drain: posts the announcements nobody posted (bot/store/outbox.py, cogs/out/outbox.py).

A module of its own because discord.py imports an extension afresh: the dispatcher that
presenters and runners share must live in a module that is only ever imported normally.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Final

from discord.ext import commands, tasks

if TYPE_CHECKING:
    from bot.app.client import Boneyard

log = logging.getLogger(__name__)

DRAIN_SECONDS: Final = 30.0


class OutboxCog(commands.Cog):
    """Runs the drain: at once when loaded (the start-up catch-up), then every half minute."""

    def __init__(self, bot: Boneyard) -> None:
        self.bot = bot
        self._started = False

    async def cog_load(self) -> None:
        self.drain.start()

    async def cog_unload(self) -> None:
        self.drain.cancel()

    @tasks.loop(seconds=DRAIN_SECONDS)
    async def drain(self) -> None:
        everything, self._started = not self._started, True
        posted = await self.bot.outbox.drain(everything=everything)
        if posted and everything:
            log.info("posted %d announcements left unsent before the restart", posted)


async def setup(bot: Boneyard) -> None:
    await bot.add_cog(OutboxCog(bot))
