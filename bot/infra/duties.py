"""Supervised background duties: loops that outlive any exception, and say how they are doing.

Why not `discord.ext.tasks`: a task loop retries only OS-level errors (`OSError`, aiohttp's,
gateway reconnects); anything else ends it for good.  A PostgreSQL restart raises asyncpg's
`CannotConnectNowError` / `ConnectionDoesNotExistError`, and SQLite says "database is locked":
each of those ended the outbox drain or the tournament check-ins until the bot was restarted,
silently.  Every background duty of the bot (outbox drain, tournament check-ins, challenge
expiry, lease renewal, tournament resume, and the clock keeper's heartbeat, which reports
here) runs under this one supervisor instead:

- a step that raises anything but cancellation is logged and retried after a backoff that
  doubles from `BACKOFF_FIRST` up to `BACKOFF_MAX` (a database coming back is found within
  `BACKOFF_MAX`), never given up;
- the traceback is logged for the first failure of a run of failures only; later ones are
  one line, at most one per `QUIET_SECONDS` (an outage must not flood the log), and the
  recovery is logged once;
- each duty records when it last succeeded and how it last failed (`health()`), which the
  owners' `/status` shows.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Final

from bot.infra.log_limits import RateLimitedLog

log = logging.getLogger(__name__)

BACKOFF_FIRST: Final = 1.0
BACKOFF_MAX: Final = 60.0
QUIET_SECONDS: Final = 60.0
"""A failing duty logs one line at most this often after its first traceback."""

Step = Callable[[], Awaitable[object]]
Sleep = Callable[[float], Awaitable[None]]
Now = Callable[[], float]


@dataclass
class DutyHealth:
    """What `/status` tells about one duty (times are wall-clock seconds)."""

    name: str
    every: float | None
    """Seconds between runs; None for a duty that runs until it once succeeds."""
    last_success: float | None = None
    last_failure: float | None = None
    last_error: str | None = None
    failures_in_a_row: int = 0
    running: bool = False
    done: bool = False
    """A run-until-done duty that succeeded (it runs no more)."""

    @property
    def failing(self) -> bool:
        return self.failures_in_a_row > 0


def describe(error: BaseException) -> str:
    """One line naming an error: its class and first line, bounded (no traceback)."""
    text = str(error).strip().splitlines()[0] if str(error).strip() else ""
    line = f"{type(error).__name__}: {text}" if text else type(error).__name__
    return line[:160]


class Duties:
    """The bot's background duties (`Boneyard.duties`), each supervised by the same loop."""

    def __init__(
        self,
        *,
        now: Now = time.time,
        sleep: Sleep = asyncio.sleep,
        backoff_first: float = BACKOFF_FIRST,
        backoff_max: float = BACKOFF_MAX,
        max_interval: float | None = None,
        said_in_one_line: Callable[[BaseException], bool] = lambda error: False,
    ) -> None:
        """`max_interval`: run every duty at least this often, and start it within it (tests
        shorten half-minute polls).  `said_in_one_line`: faults whose one line tells the
        operator everything (a damaged database file, which start-up names in its own
        sentence): their first failure is logged without a traceback, like the later ones."""
        self._now = now
        self._said_in_one_line = said_in_one_line
        self._sleep = sleep
        self.backoff_first = backoff_first
        self.backoff_max = backoff_max
        self.max_interval = max_interval
        self._health: dict[str, DutyHealth] = {}
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._logs: dict[str, RateLimitedLog] = {}
        self._changed = asyncio.Event()

    # --- starting and stopping ------------------------------------------------------

    def start(
        self,
        name: str,
        step: Step,
        *,
        every: float | None,
        first_delay: float = 0.0,
        before: Step | None = None,
        backoff_max: float | None = None,
    ) -> None:
        """Run `step` now (after `before` and `first_delay`), then every `every` seconds; with
        `every=None`, until it once succeeds.  `backoff_max`: this duty's longest wait after a
        failure (default: the supervisor's).  A duty already running under `name` is left
        alone (a second `on_ready` does not start a second resume)."""
        task = self._tasks.get(name)
        if task is not None and not task.done():
            return
        self._health[name] = DutyHealth(name, every)
        self._logs.setdefault(name, RateLimitedLog(log, QUIET_SECONDS, now=time.monotonic))
        self._tasks[name] = asyncio.create_task(
            self._run(name, step, every, first_delay, before, backoff_max), name=f"duty:{name}"
        )

    async def stop(self, name: str) -> None:
        task = self._tasks.pop(name, None)
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        health = self._health.get(name)
        if health is not None:
            health.running = False

    async def close(self) -> None:
        for name in list(self._tasks):
            await self.stop(name)

    # --- what duties run elsewhere report -------------------------------------------

    def watch(self, name: str, every: float | None) -> None:
        """Register a duty run by its own loop (the clock keeper's scheduler) that reports
        through `succeeded` / `failed`."""
        self._health.setdefault(name, DutyHealth(name, every, running=True))
        self._logs.setdefault(name, RateLimitedLog(log, QUIET_SECONDS, now=time.monotonic))

    def succeeded(self, name: str) -> None:
        health = self._health.setdefault(name, DutyHealth(name, None, running=True))
        if health.failures_in_a_row:
            log.info("%s works again after %d failures", name, health.failures_in_a_row)
        health.failures_in_a_row = 0
        health.last_success = self._now()
        limited = self._logs.get(name)
        if limited is not None:
            limited.reset()
        self._notify()

    def failed(self, name: str, error: BaseException, retry_in: float | None = None) -> None:
        health = self._health.setdefault(name, DutyHealth(name, None, running=True))
        health.failures_in_a_row += 1
        health.last_failure = self._now()
        health.last_error = describe(error)
        limited = self._logs.setdefault(name, RateLimitedLog(log, QUIET_SECONDS, now=time.monotonic))
        again = f"; retrying in {retry_in:.0f} s" if retry_in is not None else "; retrying"
        if health.failures_in_a_row == 1 and self._said_in_one_line(error):
            limited.error("%s failed (%s)%s", name, health.last_error, again)
        elif health.failures_in_a_row == 1:
            limited.error("%s failed%s", name, again, exc_info=error)
        else:
            limited.warning(
                "%s still failing (%d in a row: %s)%s", name, health.failures_in_a_row, health.last_error, again
            )
        self._notify()

    # --- what /status and the tests ask ---------------------------------------------

    def health(self) -> list[DutyHealth]:
        return sorted(self._health.values(), key=lambda h: h.name)

    def of(self, name: str) -> DutyHealth | None:
        return self._health.get(name)

    async def wait_for(self, condition: Callable[[], bool]) -> None:
        """Until `condition()` holds; re-checked whenever a duty succeeds or fails."""
        while not condition():
            self._changed.clear()
            await self._changed.wait()

    # --- the supervisor -------------------------------------------------------------

    def _notify(self) -> None:
        self._changed.set()

    async def _run(
        self,
        name: str,
        step: Step,
        every: float | None,
        first_delay: float,
        before: Step | None,
        backoff_max: float | None,
    ) -> None:
        health = self._health[name]
        health.running = True
        try:
            if before is not None:
                await self._until_done(name, before, backoff_max)
            if first_delay:
                await self._sleep(first_delay if self.max_interval is None else min(first_delay, self.max_interval))
            while True:
                await self._until_done(name, step, backoff_max)
                self.succeeded(name)
                if every is None:
                    health.done = True
                    return
                await self._sleep(every if self.max_interval is None else min(every, self.max_interval))
        finally:
            health.running = False
            self._notify()

    async def _until_done(self, name: str, step: Step, backoff_max: float | None) -> None:
        """Run `step` until it returns, each failure recorded and followed by a backoff."""
        health = self._health[name]
        while True:
            try:
                await step()
            except Exception as error:  # any failure: the duty outlives it
                longest = self.backoff_max if backoff_max is None else min(backoff_max, self.backoff_max)
                wait = min(longest, self.backoff_first * 2 ** min(health.failures_in_a_row, 30))
                self.failed(name, error, retry_in=wait)
                await self._sleep(wait)
            else:
                return
