"""The outbox drain: posts the announcements nobody posted (bot/store/outbox.py, cogs/out/outbox.py).

A module of its own because discord.py imports an extension afresh: the dispatcher that
presenters and runners share must live in a module that is only ever imported normally.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Final

from discord.ext import commands

if TYPE_CHECKING:
    from bot.app.client import Boneyard

log = logging.getLogger(__name__)

DRAIN_SECONDS: Final = 30.0


DUTY: Final = "outbox drain"


class OutboxCog(commands.Cog):
    """Runs the drain: at once when loaded (the start-up catch-up), then every half minute,
    supervised (bot/infra/duties.py): a database outage delays it, never ends it."""

    def __init__(self, bot: Boneyard) -> None:
        self.bot = bot
        self._caught_up = False

    async def cog_load(self) -> None:
        self.bot.duties.start(DUTY, self.drain, every=DRAIN_SECONDS)

    async def cog_unload(self) -> None:
        await self.bot.duties.stop(DUTY)

    async def drain(self) -> None:
        """One drain; the first one that succeeds posts everything unsent (the catch-up)."""
        everything = not self._caught_up
        posted = await self.bot.outbox.drain(everything=everything)
        self._caught_up = True
        if posted and everything:
            log.info("posted %d announcements left unsent before the restart", posted)


async def setup(bot: Boneyard) -> None:
    await bot.add_cog(OutboxCog(bot))
