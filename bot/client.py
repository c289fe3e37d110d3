"""The discord.py Bot subclass: opens the store, loads the cogs, syncs commands on request.

Why `setup_hook`: it runs once before the gateway connects, so the database is open and
every persistent button is registered before the first interaction can arrive.
"""

from __future__ import annotations

import logging

import discord
import yarl
from discord.ext import commands

from bot.config import Settings
from bot.matches import MatchService
from bot.store import Store

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.play", "cogs.moves", "cogs.admin")


def point_discord_at(api_base: str) -> None:
    """Send every REST call and the gateway to `api_base` (the fake Discord of the tests).

    Both are needed: login calls REST before `setup_hook`, and discord.py reconnects to
    `DEFAULT_GATEWAY` after an invalid session even when it asked REST for the URL.
    """
    base = api_base.rstrip("/")
    discord.http.Route.BASE = f"{base}/api/v10"
    ws = base.replace("http://", "ws://", 1).replace("https://", "wss://", 1)
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"{ws}/gateway")


def intents_for(settings: Settings) -> discord.Intents:
    intents = discord.Intents.default()
    intents.message_content = settings.typed_moves
    return intents


class Boneyard(commands.Bot):
    store: Store
    service: MatchService

    def __init__(self, settings: Settings) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned_or("!"),
            intents=intents_for(settings),
            owner_ids=set(settings.owner_ids) or None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False),
            help_command=None,
        )
        self.settings = settings
        if settings.api_base:
            point_discord_at(settings.api_base)

    async def setup_hook(self) -> None:
        self.store = await Store.open(self.settings.database)
        self.service = MatchService(self.store, cache_size=self.settings.state_cache_size)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        await self._sync_commands()

    async def _sync_commands(self) -> None:
        target = self.settings.sync_commands
        if not target:
            return
        if target == "global":
            synced = await self.tree.sync()
        else:
            guild = discord.Object(id=int(target))
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        log.info("synced %d application commands (%s)", len(synced), target)

    async def on_ready(self) -> None:
        log.info("connected as %s to %d servers", self.user, len(self.guilds))

    async def close(self) -> None:
        await super().close()
        store = getattr(self, "store", None)
        if store is not None:
            await store.close()
