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
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import discord
import pytest

import renderers
from bot.app.client import PICTURE_MODULES, Boneyard
from bot.app.config import Settings
from bot.infra.worker_pool import WorkerPool
from tests.fake_discord import (
    FakeChannel,
    FakeDiscord,
    FakeInteraction,
    FakeMessage,
    FakeUser,
    Mark,
    restore_discord_defaults,
)
from tests.fake_discord.bot_wiring import HANDLER_TASKS, sequences_read, tasks_running

WORKING_TASKS = (*HANDLER_TASKS, "computer-")
"""discord.py's handler tasks and the tasks the bot's computer player thinks and moves in."""
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
CHALLENGE_ID = re.compile(r"boneyard:accept:(\d+)")


def is_png(data: bytes) -> bool:
    return data.startswith(PNG_SIGNATURE) and len(data) > 100


BLITZ_REMINDERS = (
    "30 s left",
    "15 s left",
    "5 s left",
    "entering reserve",
    "2:30 of reserve left",
    "2:00 of reserve left",
    "1:30 of reserve left",
    "1:00 of reserve left",
    "0:30 of reserve left",
)
"""What a blitz player who never moves is told, once each, before losing on time: the
source's reminder schedule written out here, not taken from `bot.clocks`."""


class _KeptPool(WorkerPool):
    """A picture pool that a bot's `close` leaves running for the next bot of this process."""

    async def close(self) -> None:
        """Kept: its workers end with this process (concurrent.futures stops them at exit,
        and each worker watches this process, bot/infra/worker_pool.py)."""


_kept_pool: _KeptPool | None = None


def pictures_at_test_priority(bot: Boneyard) -> None:
    """Give `bot` the picture pool of this test process, whose workers run at its priority.

    The product lowers its workers' priority so that a busy machine serves the event loop
    first.  In a test that waits for a picture, a lowered worker waits in turn for whatever
    else runs, such as the other test worker's CPU-bound test (pytest-xdist).
    `tests/bot/test_worker_pool.py` checks the product's own priority.

    Why one pool for every bot of the process: starting a bot's two workers and stopping them
    at its close took about 0.06 s of each bot's start and stop, for some 110 bots of the
    quick loop.  The workers draw pure functions of their arguments (their layer caches are
    checked against fresh draws in tests/renderers/test_layer_caches.py), so a test learns
    the same from them whichever bot started them; each test still has its own bot, database
    and fake Discord."""
    global _kept_pool
    if _kept_pool is None:
        _kept_pool = _KeptPool(preload=PICTURE_MODULES, niceness=0)
    bot.pictures = _kept_pool


class _UntilEveryGuildArrived(asyncio.Queue[discord.Guild]):
    """discord.py's queue of one shard's GUILD_CREATEs before `on_ready`, ended by a condition.

    discord.py announces `on_ready` only once no GUILD_CREATE came for `guild_ready_timeout`
    (2 s), because Discord never says how many will come.  The fake sends every guild right
    behind READY, so that wait waits for nothing, and every test that needs `on_ready` (the
    duties that start after it, a restarted bot's resume) paid the 2 s per start.  This queue
    says "no more" (the timeout discord.py expects) as soon as it is empty and every guild that
    READY announced on this shard has arrived: the same `on_ready`, after the same guilds."""

    def __init__(self, state: Any, shard_id: int) -> None:
        super().__init__()
        self._state = state
        self._shard_id = shard_id

    def _every_guild_arrived(self) -> bool:
        guilds = self._state._guilds.values()
        return not any(guild.unavailable for guild in guilds if guild.shard_id == self._shard_id)

    async def get(self) -> discord.Guild:
        if self.empty() and self._every_guild_arrived():
            raise TimeoutError
        return await super().get()


class _GuildQueues(dict[int, "asyncio.Queue[discord.Guild]"]):
    """`AutoShardedConnectionState._ready_states` whose queues are `_UntilEveryGuildArrived`."""

    def __init__(self, state: Any) -> None:
        super().__init__()
        self._state = state

    def __setitem__(self, shard_id: int, queue: asyncio.Queue[discord.Guild]) -> None:
        super().__setitem__(shard_id, _UntilEveryGuildArrived(self._state, shard_id))


def ready_once_every_guild_arrived(bot: Boneyard) -> None:
    """`bot` announces `on_ready` as soon as it read every guild READY listed, instead of 2 s
    after the last one (`_UntilEveryGuildArrived`).  In `Harness.prepare` by default; a test
    of what the product does during that wait removes it."""
    bot._connection._ready_states = _GuildQueues(bot._connection)


class Harness:
    """One fake Discord, one database file, and the bot currently running on them."""

    def __init__(self, fake: FakeDiscord, database: Path, *, venue: str = "channel", clock: str | None = None) -> None:
        self.fake = fake
        self.database = database
        self.venue = venue
        """The fake server's match venue (`/settings venue`): the tests written before threads
        existed play in the channel; `threads` (the product's default) is tested on its own."""
        self.clock = clock
        """The server's default clock for casual matches, when a test sets one."""
        self._bot: Boneyard | None = None
        self._runner: asyncio.Task[None] | None = None
        self.database_url: str | None = None
        """A PostgreSQL URL: the bot uses it instead of the SQLite file (DATABASE_URL)."""
        self.prepare: list[Callable[[Boneyard], None]] = [ready_once_every_guild_arrived]
        """Called on each new bot before it starts (a test shortens its duties' periods)."""
        self.expected_errors: list[str] = []
        """Beginnings of ERROR log messages a test provokes on purpose; any other ERROR fails the test."""
        self._unwatch: Callable[[], None] | None = None

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
        pictures_at_test_priority(bot)
        for prepare in self.prepare:
            prepare(bot)
        self.adopt(bot)
        self._runner = asyncio.create_task(bot.start(bot.settings.token))
        await self.fake.wait_until_ready()
        await bot.lobby.configure(self.fake.guild.id, venue=self.venue, clock=self.clock)
        return bot

    async def stop(self) -> None:
        """Let running handlers finish, close the bot, and surface any crash of its task."""
        if self._bot is None or self._runner is None:
            return
        await self.wait_for_handlers()
        await self._bot.close()
        await asyncio.wait_for(self._runner, 5)
        # A closed bot leaves no discord.py `on_ready` announcer behind to fail later (issue 14).
        assert self._bot._connection._ready_task is None, "the bot closed with its ready task pending"
        self._bot, self._runner = None, None
        if self._unwatch is not None:
            self._unwatch()
            self._unwatch = None

    def adopt(self, bot: Boneyard) -> None:
        """Make `bot` this harness's running bot, and let the fake ask it whether it is busy
        (`busy`): only a bot started here is watched, one in another process is not."""
        self._bot = bot
        if self._unwatch is None:
            self._unwatch = self.fake.watch_client(self.busy)

    def busy(self) -> bool:
        """Whether the running bot is still at work, for `FakeDiscord.wait_until_idle`: a gateway
        event it has not read yet, a handler or a computer's move running, a clock callback
        running, or a picture being drawn (each of these ends in requests, or in nothing)."""
        bot = self._bot
        if bot is None:
            return False
        if bot.pictures.in_flight:
            return True
        if tasks_running(WORKING_TASKS):
            return True
        clocks = bot.clocks
        if clocks is not None and clocks._scheduler._callbacks:
            return True
        return self.fake.unread_events(sequences_read(bot))

    async def wait_for_handlers(self, timeout: float = 10.0) -> None:  # noqa: ASYNC109
        """Wait until no handler of the bot runs and the fake saw no request for a moment.

        The fake's quiet period alone is not enough: a handler rendering a picture in a worker
        process makes no request for a while, and on a loaded machine longer than the quiet period;
        closing the bot then fails its announcement against a closed HTTP session.  A picture
        still being drawn (`pictures.in_flight`) counts as running too: it is followed by a request.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            await self.fake.wait_until_idle()
            busy = tasks_running()
            if not busy and not (self._bot is not None and self._bot.pictures.in_flight):
                return
            if loop.time() > deadline:
                raise AssertionError(f"handlers still running after {timeout} s: {[t.get_name() for t in busy]}")
            if busy:
                await asyncio.wait(busy, timeout=max(0.0, deadline - loop.time()))
            else:
                await asyncio.sleep(0.01)

    async def restart(self) -> Boneyard:
        """Close the bot and start a fresh client on the same database file (as after a deploy)."""
        await self.stop()
        return await self.start()

    # --- acting as users ---------------------------------------------------------------

    async def command(
        self, name: str, options: dict[str, Any] | None = None, *, user: FakeUser, channel: FakeChannel | None = None
    ) -> FakeInteraction:
        """Run a slash command and wait until the bot answered it: commands acknowledge first
        ("thinking…") and answer after their work, so a test's next step never races it."""
        interaction = await self.fake.slash_command(name, options or {}, user=user, channel=channel)
        await self.fake.wait_for_response(interaction)
        if interaction.callback_type == 5:
            await self.fake.wait_until(lambda: self._answered(interaction), f"the answer to /{name}")
        return interaction

    def _answered(self, interaction: FakeInteraction) -> bool:
        """A deferred interaction whose "thinking…" message was replaced, or deleted and followed up."""
        original = self.fake.world.messages.get(interaction.original_message_id or 0)
        if original is not None and not original.deleted and not original.loading:
            return True
        return bool(interaction.followup_ids)

    async def error_reply(
        self, name: str, options: dict[str, Any] | None = None, *, user: FakeUser, channel: FakeChannel | None = None
    ) -> str:
        """Run a slash command that must fail: the text of its ephemeral error reply."""
        interaction = await self.command(name, options, user=user, channel=channel)
        return await self.ephemeral_reply(interaction)

    async def settled(self, interaction: FakeInteraction) -> FakeInteraction:
        """Wait until the bot acknowledged `interaction` and finished answering it (its message
        edited, its follow-ups sent): handlers defer first and do the work afterwards."""
        await self.fake.wait_for_response(interaction)
        await self.fake.wait_until(
            lambda: self._edited(interaction) or bool(interaction.followup_ids), "the click's edit or answer"
        )
        await self.fake.wait_until_idle()
        return interaction

    @staticmethod
    def _edited(interaction: FakeInteraction) -> bool:
        return interaction.callback_type == 7 or any(
            r.method == "PATCH" and r.path.endswith("/messages/@original") and r.status == 200
            for r in interaction.requests
        )

    def updated(self, interaction: FakeInteraction) -> bool:
        """A settled component click that changed its own message and was not refused."""
        refused = any(self.fake.world.messages[i].ephemeral for i in interaction.followup_ids)
        return self._edited(interaction) and not refused

    def refusal(self, interaction: FakeInteraction) -> str:
        """The text of the ephemeral refusal of a settled interaction (fails when there is none)."""
        answers = [m for m in self._answers(interaction) if m.ephemeral]
        assert len(answers) == 1, (interaction.callback_data, [m.content for m in self._answers(interaction)])
        return answers[0].content

    def answer(self, interaction: FakeInteraction) -> FakeMessage:
        """The one message answering a settled interaction, of either visibility (fresh
        controls in a DM are an ordinary message; a refusal in a channel is ephemeral)."""
        answers = self._answers(interaction)
        assert len(answers) == 1, (interaction.callback_data, [m.content for m in answers])
        return answers[0]

    async def public_reply(self, interaction: FakeInteraction) -> FakeMessage:
        """The public answer to an interaction, whether it came at once or after a defer."""
        return await self.fake.wait_for_answer(interaction, ephemeral=False)

    async def ephemeral_reply(self, interaction: FakeInteraction) -> str:
        """The text of the private answer to an interaction (an error, a confirmation), whether it
        came at once or after a defer; nobody else saw anything: no public answer is left."""
        message = await self.fake.wait_for_answer(interaction, ephemeral=True)
        await self.fake.wait_until_idle()
        public = [m.id for m in self._answers(interaction) if not m.ephemeral]
        assert public == [], f"a public answer was left next to the private one: {public}"
        return message.content

    def _answers(self, interaction: FakeInteraction) -> list[FakeMessage]:
        ids = list(interaction.followup_ids)
        if interaction.callback_type in (4, 5) and interaction.original_message_id is not None:
            ids.insert(0, interaction.original_message_id)
        return [m for m in (self.fake.world.messages[i] for i in ids) if not m.deleted]

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
        message = await self.fake.wait_for_answer(interaction, ephemeral=False)
        challenge_match_id(message)  # it carries the Accept button
        return message

    async def accept(self, challenge: FakeMessage, user: FakeUser) -> tuple[int, FakeMessage]:
        """Click Accept: the match id and the first board message."""
        match_id = challenge_match_id(challenge)
        channel = self.fake.world.channels[challenge.channel_id]
        mark = self.fake.mark()
        click = await self.fake.click_button(challenge, f"boneyard:accept:{match_id}", user=user)
        await self.fake.wait_for_response(click)
        assert click.callback_type == 6, click.callback_data  # acknowledged before any database work
        board = await self.fake.wait_for_message(channel, lambda m: bool(m.attachments), since=mark)
        assert challenge.content.startswith(f"✅ {user.mention} accepted"), challenge.content
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

    async def slash_move_answered_privately(
        self, user: FakeUser, notation: str, *, channel: FakeChannel | None = None
    ) -> FakeMessage:
        """`/move` that is played but answered only to the player: a move the game keeps secret
        (a draft pick), or one that is added to the turn's post in the channel (Wonderland)."""
        interaction = await self.command("move", {"notation": notation}, user=user, channel=channel)
        reply = await self.fake.wait_for_answer(interaction, ephemeral=True)
        await self.fake.wait_until_idle()
        public = [m.id for m in self._answers(interaction) if not m.ephemeral]
        assert public == [], f"a public answer was left next to the private one: {public}"
        return reply

    async def typed_move(self, user: FakeUser, text: str, *, channel: FakeChannel | None = None) -> FakeMessage:
        """A plain message that must be played: the board message the bot posts after it."""
        channel = channel or self.fake.channel
        mark = self.fake.mark()
        await self.fake.send_message(channel, user, text)
        return await self.fake.wait_for_message(channel, lambda m: bool(m.attachments), since=mark)

    async def channel_says(
        self, predicate: Callable[[str], bool], *, since: Mark, channel: FakeChannel | None = None
    ) -> FakeMessage:
        """The bot message in the channel whose text came to satisfy `predicate` after `since`:
        a new post, or one edited since (a turn's post grows in place as the turn goes on)."""
        channel = channel or self.fake.channel
        found: list[FakeMessage] = []

        def check() -> bool:
            for request in self.fake.requests[since.request_index :]:
                body = request.response
                ok = request.method in ("POST", "PATCH") and request.status is not None and request.status < 300
                if not ok or not isinstance(body, dict) or str(body.get("channel_id")) != str(channel.id):
                    continue
                message = self.fake.world.messages.get(int(body.get("id", 0)))
                if message is not None and not message.deleted and predicate(message.content):
                    found.append(message)
                    return True
            return False

        await self.fake.wait_until(check, f"a post in {channel.name} that says it")
        return found[0]

    async def move_count(self, match_id: int) -> int:
        return await self.bot.service.store.move_count(match_id)

    async def to_move(self, match_id: int) -> list[int]:
        """User ids whose turn it is."""
        row = await self.bot.service.get(match_id)
        view = await self.bot.service.view(match_id, None)
        assert row.seats is not None
        return [row.seats[s] for s in view["turn"] if s in (0, 1)]


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


def record_board_views(monkeypatch: pytest.MonkeyPatch, harness: Harness) -> list[dict[str, Any]]:
    """Record the view of every board picture (`renderers.render`, run in the bot's worker pool)."""
    seen: list[dict[str, Any]] = []
    pool = harness.bot.pictures
    real = pool.run

    async def recording(fn: Callable[..., Any], *args: Any) -> Any:
        if fn is renderers.render:
            seen.append(args[1])
        return await real(fn, *args)

    monkeypatch.setattr(pool, "run", recording)
    return seen


def unexpected_errors(harness: Harness, records: list[logging.LogRecord]) -> list[str]:
    """ERROR log lines (the bot's bugs, discord.py's reconnects) that the test did not ask for."""
    found = []
    for record in records:
        message = record.getMessage()
        if record.levelno >= logging.ERROR and not message.startswith(tuple(harness.expected_errors)):
            found.append(f"{record.name}: {message}")
    return found


@asynccontextmanager
async def running_bot(database: Path, *, venue: str = "channel", clock: str | None = None) -> AsyncIterator[Harness]:
    """The fake Discord and the real bot on it; shut down cleanly, then check the fake saw no errors."""
    async with FakeDiscord() as fake:
        harness = Harness(fake, database, venue=venue, clock=clock)
        try:
            await harness.start()
            yield harness
        finally:
            await harness.stop()
            restore_discord_defaults()
        fake.assert_clean()
