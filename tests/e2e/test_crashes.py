"""SIGKILL at every step of what the bot announces; after a restart nothing is missing and
nothing is posted twice.

The real bot runs as a subprocess (`python -m bot`'s `main()`, forked from a process that
imported the bot once: tests/e2e/bot_zygote.py) against the fake Discord of this test
process.  One crash point (bot/infra/crashpoints.py) is armed per run: the bot sends itself
SIGKILL there, as a power cut would (no rollback, no `finally`).  A fresh process on the
same database then catches up, and the test reads the channels as a player would:
every board, timeout, result, game link and champion is there exactly once.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import re
import signal
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.infra import crashpoints
from bot.store import Store
from bot.store.lobby import LobbyStore
from tests.e2e.bot_zygote import ForkedBot, current_zygote, running_zygote
from tests.e2e.harness import Harness, board_png
from tests.fake_discord import FakeChannel, FakeDiscord, FakeUser, restore_discord_defaults

pytestmark = [pytest.mark.e2e, pytest.mark.slow]  # a real bot process killed at every crash point

START_TIMEOUT = 60.0
SETTLE_TIMEOUT = 120.0
QUIET = 0.3
"""Seconds without a request after which a bot with nothing left unsent is taken to be done
(a bot in another process cannot say that it is idle)."""
UNSENT_POLL = 0.05


class BotProcess:
    """The bot in a child process, started (optionally with a crash point armed) and killed."""

    def __init__(self, fake: FakeDiscord, database: Path) -> None:
        self.fake = fake
        self.database = database
        self.log = database.with_suffix(".log")
        self.proc: ForkedBot | None = None
        self._settled: tuple[int, tuple[tuple[str, int], ...]] | None = None
        """`_traffic()` when the bot last settled."""

    async def start(self, crash_at: str | None = None, *, ready: bool = False, **env: str) -> None:
        """Start the bot; with `ready`, wait until it also resumed the running tournaments
        (which it does at `on_ready`, once discord.py has every guild: bot_zygote).

        The server plays its matches in the channel (`/settings venue:channel`, as the e2e
        harness does by default): these cases read the boards in the channel."""
        if not self.database.exists():
            store = await Store.open(self.database)
            await LobbyStore(store).save_guild_settings(self.fake.guild.id, "channel", "daily")
            await store.close()
        self.fake.gateway.ready.clear()
        environ = {
            **os.environ,
            "DISCORD_TOKEN": "dummy",
            "DATABASE_PATH": str(self.database),
            "DISCORD_API_BASE": self.fake.base_url,
            "SYNC_COMMANDS": str(self.fake.guild.id),
            "TYPED_MOVES": "on",
            "LOG_LEVEL": "INFO",
            **env,
        }
        environ.pop(crashpoints.ENV, None)
        if crash_at is not None:
            environ[crashpoints.ENV] = crash_at
        with self.log.open("ab") as log:
            log.write(f"--- start (crash at {crash_at})\n".encode())
            offset = log.tell()
        self.proc = await current_zygote().start(environ, self.database.parent, self.log)
        proc = self.proc
        identified = asyncio.ensure_future(self.fake.wait_until_ready(timeout=START_TIMEOUT))
        exited = asyncio.ensure_future(proc.wait())
        await asyncio.wait([identified, exited], return_when=asyncio.FIRST_COMPLETED)
        exited.cancel()
        if proc.returncode is not None:  # an armed crash point may be reached during start-up
            identified.cancel()
            return
        await identified
        if not ready:
            return
        for _ in range(int(START_TIMEOUT * 10)):
            if RESUMED.search(self.log.read_bytes()[offset:]) or self.proc.returncode is not None:
                return
            await asyncio.sleep(0.1)
        raise AssertionError(f"the bot never resumed its tournaments:\n{self.log.read_text()[-3000:]}")

    async def killed(self, timeout: float = 30.0) -> None:  # noqa: ASYNC109
        """Wait until the armed crash point killed the bot."""
        assert self.proc is not None
        try:
            code = await asyncio.wait_for(self.proc.wait(), timeout)
        except TimeoutError:
            raise AssertionError(f"the crash point was never reached:\n{self.log.read_text()[-3000:]}") from None
        assert code == -signal.SIGKILL, f"exit {code}:\n{self.log.read_text()[-3000:]}"
        self.proc = None

    async def settle(self) -> None:
        """Wait until the bot posted everything it owes: no unsent outbox rows, then Discord
        quiet for `QUIET` seconds with still none.  Nothing sent to or by the bot since it
        last settled: it still is (a second quiet period would only wait)."""
        if self._settled == self._traffic() and not unsent(self.database):
            return
        deadline = asyncio.get_running_loop().time() + SETTLE_TIMEOUT
        while asyncio.get_running_loop().time() < deadline:
            if unsent(self.database):  # owed for sure: no need to wait for a quiet period yet
                await asyncio.sleep(UNSENT_POLL)
                continue
            await self.fake.wait_until_idle(quiet=QUIET)
            if not unsent(self.database):
                self._settled = self._traffic()
                return
        raise AssertionError(f"announcements left unsent: {unsent(self.database)}")

    def _traffic(self) -> tuple[int, tuple[tuple[str, int], ...]]:
        """How much was said either way so far: the bot's requests, the events sent to it."""
        sessions = tuple((session.id, session.seq) for session in self.fake.gateway.sessions.values())
        return len(self.fake.world.requests), sessions

    async def stop(self) -> None:
        """Kill the bot once it is idle (everything it owed was posted)."""
        if self.proc is None:
            return
        await self.settle()
        self.proc.kill()
        await self.proc.wait()
        self.proc = None


RESUMED = re.compile(rb"resumed \d+ running tournaments")
"""What the bot logs once its tournaments resumed after `on_ready` (cogs/tournament_runner.py)."""


CONCURRENT_CASES = 4
"""At most this many cases run side by side in one test (each its own fake Discord, database
and bot process): much of a case is waiting (for the gateway, for quiet periods), so this
divides the wall time, not the work."""


def case_groups(names: Sequence[str], size: int = CONCURRENT_CASES) -> list[Any]:
    """`names` in even groups of at most `size`, one parametrized test each.  One test of
    every case would be the run's long tail (started last, it is a minute alone on one
    worker); as groups, the suite's workers share them, and each group's cases still run
    side by side."""
    count = -(-len(names) // size)
    bounds = [len(names) * i // count for i in range(count + 1)]
    return [
        pytest.param(tuple(names[start:end]), id=f"cases{start + 1}-{end}") for start, end in itertools.pairwise(bounds)
    ]


async def every_case(tmp_path: Path, cases: Mapping[str, tuple[str, ...]], run: Callable[..., Awaitable[None]]) -> None:
    """Run every case (a name and the crash points it arms), side by side; fail listing each
    case that failed."""

    async def one(number: int, args: tuple[str, ...]) -> None:
        folder = tmp_path / f"case{number}"
        folder.mkdir()
        await run(folder, *args)

    async with running_zygote():
        results = await asyncio.gather(*(one(i, args) for i, args in enumerate(cases.values())), return_exceptions=True)
    failed = [f"{name}: {result!r}" for name, result in zip(cases, results, strict=True) if result is not None]
    assert not failed, "\n\n".join(failed)


def query(database: Path, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    with sqlite3.connect(database) as db:
        return list(db.execute(sql, params))


def unsent(database: Path) -> list[tuple[Any, ...]]:
    return query(database, "SELECT id, kind, channel_id FROM outbox WHERE sent_at IS NULL")


def texts(fake: FakeDiscord, channel: FakeChannel) -> list[str]:
    return [m.content for m in fake.bot_messages(channel)]


def count(fake: FakeDiscord, channel: FakeChannel, pattern: str) -> int:
    return sum(1 for text in texts(fake, channel) if re.search(pattern, text))


@asynccontextmanager
async def bot_process(tmp_path: Path) -> AsyncIterator[tuple[FakeDiscord, Harness, BotProcess]]:
    async with FakeDiscord() as fake:
        database = tmp_path / "boneyard.sqlite3"
        process = BotProcess(fake, database)
        try:
            await process.start()
            yield fake, Harness(fake, database), process
        finally:
            if process.proc is not None:
                process.proc.kill()
                await process.proc.wait()
            restore_discord_defaults()
        fake.assert_clean()


async def move(fake: FakeDiscord, user: FakeUser, notation: str, channel: FakeChannel | None = None) -> None:
    """Send `/move` without waiting for an answer (the bot may die before it gives one)."""
    await fake.slash_command("move", {"notation": notation}, user=user, channel=channel)


async def resign(fake: FakeDiscord, user: FakeUser, channel: FakeChannel, match_id: int) -> None:
    """`/resign`, then the confirmation button (the click is not waited for)."""
    interaction = await fake.slash_command("resign", {}, user=user, channel=channel)
    confirm = await fake.wait_for_answer(interaction)  # acknowledged first, answered after its lookup
    await fake.click_button(confirm, f"boneyard:resign:{match_id}", user=user)


# --- a move and its board ------------------------------------------------------------------

MOVE_POINTS = ["moves.commit", "moves.committed", "outbox.prepared", "outbox.posted", "outbox.marked"]


@pytest.mark.parametrize("points", case_groups(MOVE_POINTS))
async def test_a_move_and_its_board_survive_a_kill_at_every_step(tmp_path: Path, points: tuple[str, ...]) -> None:
    await every_case(tmp_path, {point: (point,) for point in points}, move_case)


async def move_case(tmp_path: Path, point: str) -> None:
    async with bot_process(tmp_path) as (fake, harness, process):
        alice, bob, _ = fake.players
        match_id, _ = await harness.start_match("focus", alice, bob)
        await harness.ephemeral_reply(await harness.command("notify", {"how": "dm"}, user=bob))
        await process.stop()

        await process.start(crash_at=point)
        await move(fake, alice, "d2-d1")
        await process.killed()

        await process.start()
        await process.settle()
        committed = query(process.database, "SELECT COUNT(*) FROM moves WHERE match_id = ?", (match_id,))[0][0]
        if point == "moves.commit":
            assert committed == 0  # never acknowledged: the player sends it again
            assert count(fake, fake.channel, "played `d2-d1`") == 0
            await move(fake, alice, "d2-d1")
            await process.settle()
        boards = [m for m in fake.bot_messages(fake.channel) if "played `d2-d1`" in m.content]
        assert len(boards) == 1, texts(fake, fake.channel)
        board_png(boards[0])
        assert f"{bob.mention} to move" in boards[0].content
        # bob's turn notice by DM follows the board's mark: once, whoever posted the board (a
        # kill between the mark and the DM loses it: a DM is never sent twice)
        notices = [m for m in fake.dms_to(bob) if m.content.startswith("♟ Your move")]
        assert len(notices) == (0 if point == "outbox.marked" else 1), [m.content for m in notices]

        # and the match goes on
        await harness.slash_move(bob, "c2-c1")
        await process.settle()
        assert count(fake, fake.channel, "played `c2-c1`") == 1
        await process.stop()


# --- a timeout -----------------------------------------------------------------------------

TIMEOUT_POINTS = ["moves.commit", "moves.committed", "outbox.prepared", "outbox.posted", "outbox.marked"]


@pytest.mark.parametrize("points", case_groups(TIMEOUT_POINTS))
async def test_a_timeout_and_its_announcement_survive_a_kill_at_every_step(
    tmp_path: Path, points: tuple[str, ...]
) -> None:
    await every_case(tmp_path, {point: (point,) for point in points}, timeout_case)


async def timeout_case(tmp_path: Path, point: str) -> None:
    async with bot_process(tmp_path) as (fake, harness, process):
        alice, bob, _ = fake.players
        match_id = await start_with_clock(harness, alice, bob)
        await process.stop()
        # while the bot is down, alice's time runs out (the outage is charged: forgiveness off)
        [(raw,)] = query(process.database, "SELECT clock FROM matches WHERE id = ?", (match_id,))
        clock = json.loads(raw)
        running = [s for s in clock["seats"] if s["running"]]
        assert len(running) == 1
        running[0]["since"] -= 3600
        with sqlite3.connect(process.database) as db:
            db.execute("UPDATE matches SET clock = ? WHERE id = ?", (json.dumps(clock), match_id))

        await process.start(crash_at=point, FORGIVE_DOWNTIME_MINUTES="off")
        await process.killed()
        await process.start(FORGIVE_DOWNTIME_MINUTES="off")
        await process.settle()

        assert count(fake, fake.channel, "ran out of time") == 1, texts(fake, fake.channel)
        assert count(fake, fake.channel, "Time is up") == 1
        [(status,)] = query(process.database, "SELECT status FROM matches WHERE id = ?", (match_id,))
        assert status == "finished"
        await process.stop()


async def start_with_clock(harness: Harness, challenger: FakeUser, opponent: FakeUser) -> int:
    values = {"game": "focus", "opponent": opponent, "seat": "first", "clock": "blitz"}
    interaction = await harness.command("play", values, user=challenger)
    challenge = harness.fake.original_response(interaction)
    assert challenge is not None, interaction.callback_data
    match_id, _ = await harness.accept(challenge, opponent)
    return match_id


# --- a tournament: the round advance and the final -------------------------------------------

ADVANCE_POINTS = [
    "moves.commit",
    "moves.committed",
    "tournament.commit:1",
    "outbox.prepared:2",
    "outbox.posted:2",
    "outbox.marked:2",
    "tournament.thread_created",
    "open.commit",
    "outbox.posted:3",
    "outbox.posted:4",
    "tournament.commit:2",
]
FINAL_POINTS = [
    "moves.commit",
    "moves.committed",
    "tournament.commit",
    "outbox.prepared:1",
    "outbox.prepared:2",
    "outbox.posted:2",
    "outbox.marked:2",
    "outbox.prepared:3",
    "outbox.posted:3",
    "outbox.marked:3",
    "outbox.posted:1",
]


def live_game(database: Path) -> tuple[int, int, tuple[int, int]]:
    """The tournament's running match: id, thread, seats."""
    rows = query(
        database,
        "SELECT m.id, m.channel_id, (SELECT user_id FROM seats WHERE match_id = m.id AND seat = 0), "
        "(SELECT user_id FROM seats WHERE match_id = m.id AND seat = 1) "
        "FROM tournament_games g JOIN matches m ON m.id = g.match_id WHERE m.status = 'active'",
    )
    assert len(rows) == 1, rows
    match_id, thread, a, b = rows[0]
    return match_id, thread, (a, b)


async def resign_game(fake: FakeDiscord, process: BotProcess, crash_at: str) -> int:
    """The second seat of the running game resigns, with `crash_at` armed; then a clean
    restart catches up (and the resignation is sent again if it never committed).

    The resignation goes to a bot that is ready and resumed its tournaments, as a player's
    would: the resume, with nothing new to fold, commits and posts nothing, so the numbered
    crash points count only what follows the resignation.  (Which outbox row a numbered
    `outbox.*` point meets still varies from run to run: the resignation's final board and
    the tournament's rows are posted by two tasks at once.)"""
    match_id, thread_id, seats = live_game(process.database)
    loser = fake.world.users[seats[1]]
    thread = fake.world.channels[thread_id]
    await process.stop()
    await process.start(crash_at=crash_at, ready=True)
    assert process.proc is not None and process.proc.returncode is None, (
        f"{crash_at} was reached before the resignation:\n{process.log.read_text()[-3000:]}"
    )
    await resign(fake, loser, thread, match_id)
    await process.killed()
    await process.start(ready=True)
    await process.settle()
    [(status,)] = query(process.database, "SELECT status FROM matches WHERE id = ?", (match_id,))
    if status == "active":  # killed before the commit: never acknowledged, so resign again
        await resign(fake, loser, thread, match_id)
        await process.settle()
    return match_id


TOURNAMENT_CASES = {f"{a} / {f}": (a, f) for a, f in zip(ADVANCE_POINTS, FINAL_POINTS, strict=True)}


@pytest.mark.parametrize("names", case_groups(list(TOURNAMENT_CASES)))
async def test_a_tournament_round_advance_and_final_survive_kills_at_every_step(
    tmp_path: Path, names: tuple[str, ...]
) -> None:
    await every_case(tmp_path, {name: TOURNAMENT_CASES[name] for name in names}, tournament_case)


async def tournament_case(tmp_path: Path, advance_at: str, final_at: str) -> None:
    async with bot_process(tmp_path) as (fake, harness, process):
        alice, bob, carol = fake.players
        channel = fake.channel
        await harness.command(
            "tournament create", {"name": "Cup", "game": "focus", "format": "single_elimination"}, user=carol
        )
        for player in (alice, bob, carol):
            await harness.command("tournament join", user=player)
        await fake.wait_for_followup(await harness.command("tournament start", user=carol))
        await fake.wait_for_message(channel, lambda m: "▶️" in m.content)
        await process.settle()

        first = await resign_game(fake, process, advance_at)
        final = await resign_game(fake, process, final_at)
        assert first != final

        # The tournament channel reads as it should: each line once.
        assert count(fake, channel, r"beats") == 2, texts(fake, channel)
        assert count(fake, channel, r"^▶️") == 2, texts(fake, channel)
        assert count(fake, channel, r"Champion: <@") == 1, texts(fake, channel)
        champion = next(m for m in fake.bot_messages(channel) if "Champion" in m.content)
        assert "standings.png" in champion.files()
        # Each game's thread: its intro once, its resignation once.
        for match_id in (first, final):
            [(thread_id,)] = query(process.database, "SELECT channel_id FROM matches WHERE id = ?", (match_id,))
            thread = fake.world.channels[thread_id]
            assert count(fake, thread, r"your match is here") == 1, texts(fake, thread)
            assert count(fake, thread, r"resigned") == 1, texts(fake, thread)
        [(status,)] = query(process.database, "SELECT status FROM tournaments")
        assert status == "finished"
        await process.stop()


# --- the end of a match played in a thread ---------------------------------------------------

THREAD_END_POINTS = [
    "moves.commit",
    "moves.committed",
    "outbox.prepared",
    "outbox.posted",
    "outbox.marked",
    "outbox.prepared:2",
    "outbox.posted:2",
    "outbox.marked:2",
]
"""The final board in the thread is the first row posted, the result in the channel holding
the thread the second; archiving the thread follows them."""


@pytest.mark.parametrize("points", case_groups(THREAD_END_POINTS))
async def test_a_thread_match_s_result_and_archive_survive_a_kill_at_every_step(
    tmp_path: Path, points: tuple[str, ...]
) -> None:
    await every_case(tmp_path, {point: (point,) for point in points}, thread_end_case)


async def thread_end_case(tmp_path: Path, point: str) -> None:
    async with FakeDiscord() as fake:
        database = tmp_path / "boneyard.sqlite3"
        store = await Store.open(database)
        await LobbyStore(store).save_guild_settings(fake.guild.id, "threads", "daily")
        await store.close()
        process = BotProcess(fake, database)
        try:
            await process.start()
            alice, bob, _ = fake.players
            harness = Harness(fake, database, venue="threads")
            challenge = await harness.challenge("focus", alice, bob)
            match_id = int(challenge.custom_ids[0].rsplit(":", 1)[1])
            click = await fake.click_button(challenge, f"boneyard:accept:{match_id}", user=bob)
            await fake.wait_for_response(click)
            await process.settle()
            [(thread_id,)] = query(database, "SELECT channel_id FROM matches WHERE id = ?", (match_id,))
            thread = fake.world.channels[thread_id]
            assert thread.is_thread and thread.parent_id == fake.channel.id
            await process.stop()

            await process.start(crash_at=point)
            await resign(fake, bob, thread, match_id)
            await process.killed()
            await process.start()
            await process.settle()
            [(status,)] = query(database, "SELECT status FROM matches WHERE id = ?", (match_id,))
            if status == "active":  # killed before the commit: never acknowledged, so resign again
                await resign(fake, bob, thread, match_id)
                await process.settle()

            assert count(fake, thread, "resigned") == 1, texts(fake, thread)
            results = [
                m for m in fake.bot_messages(fake.channel) if f"Match #{match_id} in {thread.mention}" in m.content
            ]
            assert len(results) == 1, texts(fake, fake.channel)
            assert "resigned" in results[0].content
            board_png(results[0])
            assert thread.archived and not thread.deleted
            assert unsent(database) == []
            await process.stop()
        finally:
            if process.proc is not None:
                process.proc.kill()
                await process.proc.wait()
            restore_discord_defaults()
        fake.assert_clean()
