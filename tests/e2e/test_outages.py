"""Background duties outlive a database outage: the real PostgreSQL stopped under the running
bot, then started again, and every duty resumes by itself (bot/infra/duties.py).

The server is this module's own (the session's shared one must not go away under other
tests).  The duties run with short periods and backoffs (`Duties.max_interval`), so each
one meets the outage within a fraction of a second; every wait is on the supervisor's own
records (`Duties.wait_for`), bounded by generous timeouts, never a fixed sleep.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.app.client import CLOCK_DUTY, Boneyard
from bot.infra.duties import Duties
from bot.services.shard_leases import RENEWAL_DUTY
from cogs.drain import DUTY as DRAIN_DUTY
from cogs.lobby import EXPIRY_DUTY
from cogs.out.notices import NOTICE_DUTY
from cogs.tournaments import CHECKIN_DUTY, RESUME_DUTY
from tests.conftest import fresh_database
from tests.e2e.harness import Harness, assert_board_for
from tests.fake_discord import FakeDiscord, restore_discord_defaults
from tests.postgres import PostgresServer, running_server

pytestmark = [pytest.mark.e2e, pytest.mark.slow]  # a PostgreSQL server of its own, stopped and restarted

EVERY_DUTY = (DRAIN_DUTY, CHECKIN_DUTY, EXPIRY_DUTY, RENEWAL_DUTY, CLOCK_DUTY, RESUME_DUTY, NOTICE_DUTY)
BOUND = 60.0
"""Seconds any wait may take before the test fails (the duties need well under a second)."""


@pytest.fixture(scope="module")
def own_server() -> Iterator[PostgresServer]:
    """A server of this module's own: the test stops and restarts it under the bot."""
    with running_server() as server:
        yield server


def quick_duties(bot: Boneyard) -> None:
    bot.duties = Duties(backoff_first=0.05, backoff_max=0.3, max_interval=0.2)


async def wait_for(duties: Duties, condition: str, test: object) -> None:
    try:
        await asyncio.wait_for(duties.wait_for(test), BOUND)  # type: ignore[arg-type]
    except TimeoutError:
        states = {h.name: (h.failures_in_a_row, h.last_success, h.last_error) for h in duties.health()}
        raise AssertionError(f"not within {BOUND} s: {condition}; duties: {states}") from None


async def test_every_duty_resumes_after_postgresql_restarts(tmp_path: Path, own_server: PostgresServer) -> None:
    async with fresh_database(own_server) as url, FakeDiscord() as fake:
        harness = Harness(fake, tmp_path / "unused.sqlite3", clock="blitz")
        harness.database_url = url
        harness.prepare.append(quick_duties)
        harness.expected_errors += [f"{name} failed" for name in EVERY_DUTY]
        halted = False
        try:
            bot = await harness.start()
            alice, bob, _ = fake.players
            _, board = await harness.start_match("focus", alice, bob)  # a running clock: the keeper beats
            assert_board_for(board, alice)
            duties = bot.duties

            def all_fine() -> bool:
                found = {h.name: h for h in duties.health()}
                return all(n in found and found[n].last_success is not None for n in EVERY_DUTY)

            await wait_for(duties, "every duty succeeded once", all_fine)

            own_server.halt()
            halted = True
            bot.dispatch("ready")  # a reconnect during the outage: the tournament resume must wait it out

            def all_failing() -> bool:
                return all((h := duties.of(n)) is not None and h.failures_in_a_row > 0 for n in EVERY_DUTY)

            await wait_for(duties, "every duty met the outage", all_failing)
            await asyncio.sleep(0.5)  # several failed tries each: the supervisor keeps them alive
            assert all(h.running for h in duties.health() if h.name != RESUME_DUTY)
            assert all((h := duties.of(n)) is not None and h.last_error for n in EVERY_DUTY)
            status = await harness.ephemeral_reply(await harness.command("status", user=fake.world.owner))
            for name in EVERY_DUTY:  # told by /status while the database is away
                assert f"🔴 **{name}**: failing" in status, status

            own_server.resume()
            halted = False
            back = time.time()

            def all_resumed() -> bool:
                return all(
                    (h := duties.of(n)) is not None
                    and h.failures_in_a_row == 0
                    and h.last_success is not None
                    and h.last_success >= back
                    for n in EVERY_DUTY
                )

            await wait_for(duties, "every duty resumed by itself", all_resumed)
            resume = duties.of(RESUME_DUTY)
            assert resume is not None and resume.done
            assert_board_for(await harness.slash_move(alice, "d2-d1"), bob)  # and the bot plays on
            await harness.stop()
        finally:
            if halted:  # a failed test must not leave the bot and the fixtures without a database
                own_server.resume()
            await harness.stop()
            restore_discord_defaults()
        fake.assert_clean()


async def test_a_move_a_command_and_a_button_during_an_outage_are_told_so(
    tmp_path: Path, own_server: PostgresServer
) -> None:
    async with fresh_database(own_server) as url, FakeDiscord() as fake:
        harness = Harness(fake, tmp_path / "unused.sqlite3")
        harness.database_url = url
        harness.prepare.append(quick_duties)
        harness.expected_errors += [f"{name} failed" for name in EVERY_DUTY]
        halted = False
        try:
            bot = await harness.start()
            alice, bob, _ = fake.players
            match_id, _ = await harness.start_match("focus", alice, bob)
            confirm = fake.original_response(await harness.command("resign", user=bob))
            assert confirm is not None

            own_server.halt()
            halted = True
            away = "My database is unavailable right now"
            told = await harness.ephemeral_reply(await harness.command("move", {"notation": "d2-d1"}, user=alice))
            assert away in told and "nothing was changed" in told
            click = await fake.click_button(confirm, f"boneyard:resign:{match_id}", user=bob)
            await fake.wait_for_response(click)
            assert away in await harness.ephemeral_reply(click)
            dms = len(fake.dms_to(alice))
            await fake.send_message(fake.channel, alice, "d2-d1")
            await fake.wait_until(lambda: len(fake.dms_to(alice)) > dms, "a DM about the typed move")
            assert away in fake.dms_to(alice)[-1].content
            await fake.send_message(fake.channel, alice, "anyone around?")  # chat: no answer
            await harness.wait_for_handlers()
            assert len(fake.dms_to(alice)) == dms + 1

            own_server.resume()
            halted = False
            await asyncio.wait_for(bot.duties.wait_for(lambda: not any(h.failing for h in bot.duties.health())), BOUND)
            assert await harness.move_count(match_id) == 0  # nothing was played meanwhile
            assert_board_for(await harness.slash_move(alice, "d2-d1"), bob)  # the retry works
            await harness.stop()
        finally:
            if halted:
                own_server.resume()
            await harness.stop()
            restore_discord_defaults()
        fake.assert_clean()
