"""A running match's seed never reaches a log, at any level, from any logger.

The seed is the one secret the bot holds about a match until it ends (every roll and draw is
derived from it).  aiosqlite logs each call with its statement parameters at DEBUG, which once
put the seed of every new match into the log of a bot run with LOG_LEVEL=DEBUG.
"""

from __future__ import annotations

import logging

import pytest

from tests.e2e.harness import Harness

pytestmark = pytest.mark.e2e


def everything_logged(records: list[logging.LogRecord]) -> str:
    formatter = logging.Formatter("%(name)s %(levelname)s %(message)s")
    return "\n".join(formatter.format(record) for record in records)


async def test_a_running_match_seed_is_in_no_log_at_debug_level(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)  # the root logger and every logger without its own level
    caplog.set_level(logging.DEBUG, logger="aiosqlite")  # even when asked for explicitly
    alice, bob, _ = harness.fake.players
    match_id, _ = await harness.start_match("focus", alice, bob)
    for user, notation in [(alice, "d2-d1"), (bob, "c2-c1"), (alice, "e2-e1")]:
        await harness.slash_move(user, notation)
    row = await harness.bot.service.get(match_id)
    assert row.status == "active"

    logged = everything_logged(caplog.get_records("setup") + caplog.records)
    assert row.seed not in logged
    assert "discord.http DEBUG" in logged, "DEBUG records were captured: the check above could have failed"
    assert row.seed_hash[:16] in logged, "what the bot posts publicly (the seed's hash) is in the log"
