"""Run the real Boneyard bot against the fake Discord, and act as its players.

Why a harness class rather than bare fixtures: a restart must close one `Boneyard` and start a
new one on the same database file while the fake Discord (and everything it recorded) stays up,
and the tests share many small user-side steps (challenge, accept, move) whose checks must be
the same everywhere: every move is answered by a NEW message with a PNG board that mentions
the player to move.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from bot.client import Boneyard
from bot.config import Settings
from tests.fake_discord import (
    FakeChannel,
    FakeDiscord,
    FakeInteraction,
    FakeMessage,
    FakeUser,
    restore_discord_defaults,
)

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
CHALLENGE_ID = re.compile(r"boneyard:accept:(\d+)")


def is_png(data: bytes) -> bool:
    return data.startswith(PNG_SIGNATURE) and len(data) > 100


class Harness:
    """One fake Discord, one database file, and the bot currently running on them."""

    def __init__(self, fake: FakeDiscord, database: Path) -> None:
        self.fake = fake
        self.database = database
        self._bot: Boneyard | None = None
        self._runner: asyncio.Task[None] | None = None
        self.database_url: str | None = None
        """A PostgreSQL URL: the bot uses it instead of the SQLite file (DATABASE_URL)."""
        self.expected_errors: list[str] = []
        """Beginnings of ERROR log messages a test provokes on purpose; any other ERROR fails the test."""

    # --- lifecycle ---------------------------------------------------------------------

    @property
    def bot(self) -> Boneyard:
        assert self._bot is not None, "the bot is not running"
        return self._bot

    def settings(self) -> Settings:
        return Settings.load(
            environ={
                "DISCORD_TOKEN": "dummy",
                "DATABASE_PATH": str(self.database),
                "DISCORD_API_BASE": self.fake.base_url,
                "SYNC_COMMANDS": str(self.fake.guild.id),
                "TYPED_MOVES": "on",
                **({"DATABASE_URL": self.database_url} if self.database_url else {}),
            },
            dotenv=None,
        )

    async def start(self) -> Boneyard:
        """Start a NEW bot (commands are synced in its setup hook) and wait until it identified."""
        self.fake.gateway.ready.clear()
        bot = Boneyard(self.settings())
        self._bot = bot
        self._runner = asyncio.create_task(bot.start(bot.settings.token))
        await self.fake.wait_until_ready()
        return bot

    async def stop(self) -> None:
        """Let running handlers finish, close the bot, and surface any crash of its task."""
        if self._bot is None or self._runner is None:
            return
        await self.fake.wait_until_idle()
        await handlers_finished()
        await self._bot.close()
        await asyncio.wait_for(self._runner, 5)
        self._bot, self._runner = None, None

    async def restart(self) -> Boneyard:
        """Close the bot and start a fresh client on the same database file (as after a deploy)."""
        await self.stop()
        return await self.start()

    # --- acting as users ---------------------------------------------------------------

    async def command(
        self, name: str, options: dict[str, Any] | None = None, *, user: FakeUser, channel: FakeChannel | None = None
    ) -> FakeInteraction:
        """Run a slash command and wait until the bot acknowledged it."""
        interaction = await self.fake.slash_command(name, options or {}, user=user, channel=channel)
        return await self.fake.wait_for_response(interaction)

    async def error_reply(
        self, name: str, options: dict[str, Any] | None = None, *, user: FakeUser, channel: FakeChannel | None = None
    ) -> str:
        """Run a slash command that must fail: the text of its ephemeral error reply."""
        interaction = await self.command(name, options, user=user, channel=channel)
        return ephemeral_text(interaction)

    async def challenge(
        self,
        game: str,
        challenger: FakeUser,
        opponent: FakeUser | None,
        *,
        options: str | None = None,
        seat: str = "first",
        channel: FakeChannel | None = None,
    ) -> FakeMessage:
        """`/play`: the challenge message, with its Accept and Decline buttons."""
        values: dict[str, Any] = {"game": game, "seat": seat}
        if opponent is not None:
            values["opponent"] = opponent
        if options is not None:
            values["options"] = options
        interaction = await self.command("play", values, user=challenger, channel=channel)
        message = self.fake.original_response(interaction)
        assert message is not None, interaction.callback_data
        challenge_match_id(message)  # it carries the Accept button
        return message

    async def accept(self, challenge: FakeMessage, user: FakeUser) -> tuple[int, FakeMessage]:
        """Click Accept: the match id and the first board message."""
        match_id = challenge_match_id(challenge)
        channel = self.fake.world.channels[challenge.channel_id]
        mark = self.fake.mark()
        click = await self.fake.click_button(challenge, f"boneyard:accept:{match_id}", user=user)
        await self.fake.wait_for_response(click)
        assert click.callback_type == 7, click.callback_data
        board = await self.fake.wait_for_message(channel, lambda m: bool(m.attachments), since=mark)
        return match_id, board

    async def start_match(
        self,
        game: str,
        challenger: FakeUser,
        opponent: FakeUser,
        *,
        options: str | None = None,
        channel: FakeChannel | None = None,
    ) -> tuple[int, FakeMessage]:
        message = await self.challenge(game, challenger, opponent, options=options, channel=channel)
        return await self.accept(message, opponent)

    async def slash_move(self, user: FakeUser, notation: str, *, channel: FakeChannel | None = None) -> FakeMessage:
        """`/move` that must succeed: the bot's reply, a NEW message with the board."""
        mark = self.fake.mark()
        interaction = await self.command("move", {"notation": notation}, user=user, channel=channel)
        assert not interaction.ephemeral, interaction.callback_data
        reply = await self.fake.wait_for_followup(interaction)
        assert reply.id > mark.snowflake and not reply.edited, "a move is answered by a new message"
        return reply

    async def typed_move(self, user: FakeUser, text: str, *, channel: FakeChannel | None = None) -> FakeMessage:
        """A plain message that must be played: the board message the bot posts after it."""
        channel = channel or self.fake.channel
        mark = self.fake.mark()
        await self.fake.send_message(channel, user, text)
        return await self.fake.wait_for_message(channel, lambda m: bool(m.attachments), since=mark)

    async def move_count(self, match_id: int) -> int:
        return await self.bot.service.store.move_count(match_id)

    async def to_move(self, match_id: int) -> list[int]:
        """User ids whose turn it is."""
        row = await self.bot.service.get(match_id)
        view = await self.bot.service.view(match_id, None)
        assert row.seats is not None
        return [row.seats[s] for s in view["turn"] if s in (0, 1)]


HANDLER_TASKS = ("CommandTree-invoker", "discord-ui-view-dispatch-", "discord-ui-modal-dispatch-", "discord.py: ")
"""Names discord.py gives the tasks that run commands, component callbacks and event listeners."""


async def handlers_finished(timeout: float = 10.0) -> None:  # noqa: ASYNC109
    """Wait until no command, component or event handler of the bot is running.

    A quiet spell of requests is not enough: a handler may be between two requests for
    longer (a picture being drawn in a thread, a commit), and closing the bot then fails it
    with "Session is closed"."""
    deadline = asyncio.get_running_loop().time() + timeout
    me = asyncio.current_task()
    while True:
        busy = [
            task
            for task in asyncio.all_tasks()
            if task is not me and not task.done() and task.get_name().startswith(HANDLER_TASKS)
        ]
        left = deadline - asyncio.get_running_loop().time()
        if not busy or left <= 0:
            return
        await asyncio.wait(busy, timeout=left)


def challenge_match_id(message: FakeMessage) -> int:
    for custom_id in message.custom_ids:
        found = CHALLENGE_ID.fullmatch(custom_id)
        if found:
            return int(found[1])
    raise AssertionError(f"no Accept button on message {message.id}: {message.custom_ids}")


def ephemeral_text(interaction: FakeInteraction) -> str:
    """The content of an interaction's ephemeral reply (the way errors are answered)."""
    assert interaction.callback_type == 4, interaction.callback_data
    assert interaction.ephemeral, interaction.callback_data
    assert interaction.callback_data is not None
    return str(interaction.callback_data.get("content", ""))


def board_png(message: FakeMessage) -> bytes:
    files = message.files()
    assert "board.png" in files, f"no board.png on message {message.id}: {list(files)}"
    data = files["board.png"]
    assert is_png(data), data[:16]
    return data


def assert_board_for(message: FakeMessage, user: FakeUser) -> None:
    """A board message: a PNG attachment and a mention of the player to move."""
    board_png(message)
    assert f"{user.mention} to move" in message.content, message.content


def unexpected_errors(harness: Harness, records: list[logging.LogRecord]) -> list[str]:
    """ERROR log lines (the bot's bugs, discord.py's reconnects) that the test did not ask for."""
    found = []
    for record in records:
        message = record.getMessage()
        if record.levelno >= logging.ERROR and not message.startswith(tuple(harness.expected_errors)):
            found.append(f"{record.name}: {message}")
    return found


@asynccontextmanager
async def running_bot(database: Path) -> AsyncIterator[Harness]:
    """The fake Discord and the real bot on it; shut down cleanly, then check the fake saw no errors."""
    async with FakeDiscord() as fake:
        harness = Harness(fake, database)
        try:
            await harness.start()
            yield harness
        finally:
            await harness.stop()
            restore_discord_defaults()
        fake.assert_clean()
