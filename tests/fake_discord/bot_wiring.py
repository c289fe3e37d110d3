"""Point discord.py at a Discord-compatible server (the fake, in tests) instead of discord.com.

The bot's configuration does the same from the ``DISCORD_API_BASE`` environment variable, before
``login()``: login already calls ``GET /users/@me`` and ``GET /oauth2/applications/@me``. The
gateway lives at the root of the same host (``http://host:port`` -> ``ws://host:port/``), which is
where :class:`~tests.fake_discord.FakeDiscord` serves it.
"""

from __future__ import annotations

import asyncio

import discord
import discord.gateway
import discord.http
import yarl

HANDLER_TASKS = ("discord.py: ", "discord-ui-", "CommandTree-invoker")
"""Name prefixes of the tasks discord.py runs a client's handlers in (events, views and dynamic
items, slash commands)."""


def gateway_url_for(base_url: str) -> yarl.URL:
    """The gateway websocket URL served next to the REST API at ``base_url``."""
    base = yarl.URL(base_url.rstrip("/"))
    scheme = "wss" if base.scheme == "https" else "ws"
    return base.with_scheme(scheme).with_path("/")


def point_discord_at(base_url: str) -> None:
    """Send every REST call to ``{base_url}/api/v10`` and open the gateway at ``gateway_url_for(base_url)``.

    Process-wide (class attributes of discord.py), so call :func:`restore_discord_defaults` afterwards.
    """
    discord.http.Route.BASE = f"{base_url.rstrip('/')}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway_url_for(base_url)


_DEFAULT_BASE = discord.http.Route.BASE
_DEFAULT_GATEWAY = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY


def restore_discord_defaults() -> None:
    """Undo :func:`point_discord_at` (back to discord.com)."""
    discord.http.Route.BASE = _DEFAULT_BASE
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = _DEFAULT_GATEWAY


def tasks_running(prefixes: tuple[str, ...] = HANDLER_TASKS) -> list[asyncio.Task[object]]:
    """The unfinished tasks of this event loop whose names start with one of `prefixes`."""
    return [task for task in asyncio.all_tasks() if not task.done() and task.get_name().startswith(prefixes)]


def sequences_read(client: discord.Client) -> dict[str, int | None]:
    """The last sequence number `client` read on each of its gateway sessions, by session id:
    what ``FakeDiscord.unread_events`` compares with what it sent."""
    shard_ids: list[int | None] = list(client.shards) if isinstance(client, discord.AutoShardedClient) else [None]
    read: dict[str, int | None] = {}
    for shard_id in shard_ids:
        ws = client._get_websocket(shard_id=shard_id)
        if ws is not None and ws.session_id is not None:
            read[ws.session_id] = ws.sequence
    return read
