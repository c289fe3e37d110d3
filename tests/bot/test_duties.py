"""The supervisor of background duties (bot/infra/duties.py): any exception is outlived,
logged once in full and then rate-limited, and the recovery is recorded."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from pathlib import Path

import pytest

from bot.infra.duties import Duties
from bot.infra.log_limits import RateLimitedLog
from bot.store.health import damaged


async def test_a_duty_outlives_sqlite_raising_and_records_its_recovery(caplog: pytest.LogCaptureFixture) -> None:
    duties = Duties(backoff_first=0.001, backoff_max=0.01)
    failures = [sqlite3.OperationalError("database is locked")] * 5 + [RuntimeError("anything at all")] * 5
    runs = 0

    async def step() -> None:
        nonlocal runs
        runs += 1
        if failures:
            raise failures.pop(0)

    with caplog.at_level(logging.INFO, logger="bot.infra.duties"):
        duties.start("drain", step, every=0.001)
        await asyncio.wait_for(duties.wait_for(lambda: runs >= 12), 30)
        health = duties.of("drain")
        assert health is not None and health.running and not health.failing
        assert health.last_success is not None and health.last_failure is not None
        assert health.last_error == "RuntimeError: anything at all"
        await duties.close()
    assert health.running is False
    lines = [r for r in caplog.records if r.name == "bot.infra.duties"]
    assert lines[0].levelname == "ERROR" and lines[0].exc_info is not None  # the first one in full
    assert [r for r in lines if r.exc_info is not None] == [lines[0]]  # only the first
    assert len([r for r in lines if r.levelname == "WARNING"]) <= 1  # the rest within the quiet period
    assert any("works again after 10 failures" in r.getMessage() for r in lines)


async def test_a_run_until_done_duty_stops_after_its_first_success() -> None:
    duties = Duties(backoff_first=0.001, backoff_max=0.01)
    tries = 0

    async def resume() -> None:
        nonlocal tries
        tries += 1
        if tries < 3:
            raise OSError("connection refused")

    duties.start("resume", resume, every=None)
    await asyncio.wait_for(duties.wait_for(lambda: (h := duties.of("resume")) is not None and h.done), 30)
    await asyncio.sleep(0.05)
    assert tries == 3
    duties.start("resume", resume, every=None)  # a later start runs it again (a reconnect)
    await asyncio.wait_for(duties.wait_for(lambda: tries == 4), 30)
    await duties.close()


def test_a_rate_limited_log_says_how_many_lines_it_held_back(caplog: pytest.LogCaptureFixture) -> None:
    now = [0.0]
    limited = RateLimitedLog(logging.getLogger("test.limits"), 60.0, now=lambda: now[0])
    with caplog.at_level(logging.WARNING, logger="test.limits"):
        for second in range(120):
            now[0] = float(second)
            limited.warning("checkpoint failed: %s", "disk full")
    assert [r.getMessage() for r in caplog.records] == [
        "checkpoint failed: disk full",
        "checkpoint failed: disk full (59 similar lines suppressed)",
    ]


async def test_a_fault_said_in_one_line_is_logged_without_a_traceback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A damaged file met by a duty (the scan beside a large file's bot names it and stops the
    bot): one line, no traceback; any other first failure is still logged in full."""
    broken = tmp_path / "broken.sqlite3"
    broken.write_bytes(b"this is not a database at all" * 200)
    with pytest.raises(sqlite3.DatabaseError) as raised:
        sqlite3.connect(broken).execute("SELECT * FROM sqlite_master").fetchall()
    assert damaged(raised.value)
    assert not damaged(sqlite3.OperationalError("database is locked")) and not damaged(RuntimeError("x"))
    duties = Duties(backoff_first=0.001, backoff_max=0.01, said_in_one_line=damaged)
    outcomes: list[Exception | None] = [raised.value, None, RuntimeError("anything at all")]  # None: a success
    runs = 0

    async def step() -> None:
        nonlocal runs
        runs += 1
        if outcomes and (outcome := outcomes.pop(0)) is not None:
            raise outcome

    with caplog.at_level(logging.INFO, logger="bot.infra.duties"):
        duties.start("scan", step, every=0.001)
        await asyncio.wait_for(duties.wait_for(lambda: runs >= 5), 30)
        await duties.close()
    first = [r for r in caplog.records if r.name == "bot.infra.duties" and r.levelname == "ERROR"]
    assert len(first) == 2
    assert first[0].exc_info is None and "not a database" in first[0].getMessage()
    assert first[1].exc_info is not None  # an error the supervisor can't name in one line: in full
