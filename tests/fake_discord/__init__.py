"""A protocol-level fake Discord (gateway websocket + REST) for end-to-end tests of the real bot.

Usage::

    async with FakeDiscord() as fake:
        point_discord_at(fake.base_url)
        ...start the bot with any token, await fake.wait_until_ready()...
        interaction = await fake.slash_command("play", {"game": "focus"}, user=fake.players[0])
        await fake.wait_for_response(interaction)
"""

from tests.fake_discord.bot_wiring import gateway_url_for, point_discord_at, restore_discord_defaults
from tests.fake_discord.server import FakeDiscord, Mark
from tests.fake_discord.world import (
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeInteraction,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    RecordedRequest,
    UploadedFile,
)

__all__ = [
    "FakeAttachment",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeInteraction",
    "FakeMember",
    "FakeMessage",
    "FakeRole",
    "FakeUser",
    "Mark",
    "RecordedRequest",
    "UploadedFile",
    "gateway_url_for",
    "point_discord_at",
    "restore_discord_defaults",
]
