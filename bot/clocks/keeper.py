"""The clocks of all running matches, kept in memory and re-armed from the store.

`ClockKeeper` owns one `ClockScheduler` keyed by match id.  When a match's nearest
event is due it takes that match's lock (the match service's, so a move and a reminder
never interleave), computes the due events with `ClockState.take_due`, stores the clock
with those events marked as sent, re-arms the match, and only then hands the events to
the service's `on_event`.  Saving before announcing makes reminders at-most-once (a
crash in between loses one reminder rather than sending it twice); timeouts are
at-least-once because `rearm_after_downtime` un-marks them at start-up, and the
service re-checks `ClockState.expired` before acting on one.

Who writes what: the match service computes every clock transition (`on_move`,
`pause`, ...) under its lock, saves it with the move in one transaction, and then calls
`track`; the keeper itself only saves "reminder sent" marks and start-up re-arming.

A heartbeat (one more scheduler entry) records every `HEARTBEAT_SECONDS` that the bot is
alive, so that after a restart the keeper knows when it went down to within those seconds
(downtime forgiveness must not hand back time a player used before the crash).  It beats
only while some clock runs: with every clock stopped or paused, downtime costs nobody.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Literal

from bot.clocks.model import ClockEvent, ClockState
from bot.clocks.scheduler import ClockScheduler, Now, Sleep
from bot.clocks.store import ClockStore, MatchId

log = logging.getLogger(__name__)

EventHandler = Callable[[MatchId, ClockEvent], Awaitable[None]]
LockFor = Callable[[MatchId], AbstractAsyncContextManager[object]]
Gate = Literal["fire", "later", "drop"]
ClockGate = Callable[[MatchId], Awaitable[Gate]]
"""Asked before a due clock is touched: fire it, retry after a while, or drop it from this
keeper (another process runs its match's shard now; the stored clock is left to it)."""

HeartbeatReport = Callable[[BaseException | None], None]

_HEARTBEAT = "heartbeat"
HEARTBEAT_SECONDS = 2.0
"""How stale the durable "alive at" record may be when the bot is killed."""
MAX_SLEEP_SECONDS = 60.0
"""The scheduler's cap on one sleep: how late a wall-clock jump may make a due clock."""


class ClockKeeper:
    """Fires reminders and timeouts of every running match through `on_event`."""

    def __init__(
        self,
        store: ClockStore,
        on_event: EventHandler,
        *,
        now: Now = time.time,
        sleep: Sleep = asyncio.sleep,
        forgive_downtime_over: float | None = None,
        heartbeat_every: float = HEARTBEAT_SECONDS,
        max_sleep: float = MAX_SLEEP_SECONDS,
        retry_after: float = 5.0,
        lock_for: LockFor | None = None,
        gate: ClockGate | None = None,
        report: HeartbeatReport | None = None,
    ) -> None:
        """`report`: told after every heartbeat whether it was stored (None) or what failed
        (and of a due clock that could not be stored);
        the bot's supervisor (bot/infra/duties.py) records and logs it for `/status`."""
        self._store = store
        self._on_event = on_event
        self.now = now
        """The keeper's clock; the service uses it too so that both agree on "now"."""
        self._forgive_over = forgive_downtime_over
        self._heartbeat_every = heartbeat_every
        self._retry_after = retry_after
        self._locks: dict[MatchId, asyncio.Lock] = {}
        self._lock_for = lock_for or self._own_lock
        self._gate = gate
        self._report = report
        self._clocks: dict[MatchId, ClockState] = {}
        self._beating = False
        self._scheduler: ClockScheduler[MatchId | str] = ClockScheduler(
            self._due, now=now, sleep=sleep, max_sleep=max_sleep
        )

    # --- life cycle -----------------------------------------------------------------

    async def start(self) -> None:
        """Load every running clock, charge or forgive the downtime, arm, and start the task."""
        now = self.now()
        down_since = await self._store.load_heartbeat()
        changed = []
        for match_id, stored in await self._store.load_all():
            clock = stored.rearm_after_downtime(now, down_since, self._forgive_over)
            if clock != stored:
                changed.append((match_id, clock))
            self._clocks[match_id] = clock
            self._arm(match_id, clock, now)
        if changed:
            await self._store.save_many(changed)
        await self._store.save_heartbeat(now)
        if self._any_running():
            self._beating = True
            self._scheduler.arm(_HEARTBEAT, now + self._heartbeat_every)
        self._scheduler.start()
        log.info("clocks re-armed for %d matches (down since %s)", len(self._clocks), down_since)

    async def close(self, *, last_heartbeat: bool = True) -> None:
        """Stop the task; the last heartbeat marks when the bot went down (tests of a crash
        stop without it: the last record is then the last periodic beat)."""
        await self._scheduler.close()
        if last_heartbeat:
            await self._store.save_heartbeat(self.now())

    # --- what the match service calls ---------------------------------------------

    def get(self, match_id: MatchId) -> ClockState | None:
        """The match's current clock (None when it has none or is not running)."""
        return self._clocks.get(match_id)

    def track(self, match_id: MatchId, clock: ClockState) -> None:
        """Adopt `clock` as the match's clock after the service saved it, and re-arm."""
        self._clocks[match_id] = clock
        self._arm(match_id, clock, self.now())
        if not self._beating and clock.running_seats and not clock.paused:
            self._beating = True
            self._scheduler.arm(_HEARTBEAT, self.now())  # at once: the last record may be old

    def forget(self, match_id: MatchId) -> None:
        """The match ended or was aborted: no more events for it."""
        self._clocks.pop(match_id, None)
        self._locks.pop(match_id, None)
        self._scheduler.disarm(match_id)

    def __len__(self) -> int:
        return len(self._clocks)

    # --- internals ------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _own_lock(self, match_id: MatchId) -> AsyncIterator[None]:
        lock = self._locks.setdefault(match_id, asyncio.Lock())
        async with lock:
            yield

    def _arm(self, match_id: MatchId, clock: ClockState, now: float) -> None:
        due = clock.next_due(now)
        if due is None:
            self._scheduler.disarm(match_id)
        else:
            self._scheduler.arm(match_id, due)

    async def _due(self, key: MatchId | str) -> None:
        if isinstance(key, str):
            await self._beat()
            return
        if self._gate is not None and not await self._open_gate(key):
            return
        try:
            events = await self._take_due(key)
        except Exception as error:
            if self._report is None:
                log.exception("clock of match %s could not be updated; retrying", key)
            else:
                self._report(error)  # logged there, rate-limited
            self._scheduler.arm(key, self.now() + self._retry_after)
            return
        for event in events:
            try:
                await self._on_event(key, event)
            except Exception:
                log.exception("clock event %r of match %s failed", event, key)

    async def _open_gate(self, match_id: MatchId) -> bool:
        """Ask the gate before marking anything sent: a clock this process may not fire now
        stays as stored, for whoever may."""
        assert self._gate is not None
        try:
            verdict = await self._gate(match_id)
        except Exception:
            log.exception("could not tell whether to fire the clock of match %s; retrying", match_id)
            verdict = "later"
        if verdict == "later":
            self._scheduler.arm(match_id, self.now() + self._retry_after)
        elif verdict == "drop":
            self.forget(match_id)
        return verdict == "fire"

    async def _take_due(self, match_id: MatchId) -> list[ClockEvent]:
        async with self._lock_for(match_id):
            clock = self._clocks.get(match_id)
            if clock is None:
                return []
            now = self.now()
            marked, events = clock.take_due(now)
            if events:
                await self._store.save(match_id, marked)
                self._clocks[match_id] = marked
            self._arm(match_id, marked, now)
            return events

    def _any_running(self) -> bool:
        return any(clock.running_seats and not clock.paused for clock in self._clocks.values())

    async def _beat(self) -> None:
        """Store "alive at now"; a failure (the database away) is reported, and the next beat
        comes as usual: the keeper outlives the outage."""
        now = self.now()
        try:
            await self._store.save_heartbeat(now)
        except Exception as error:
            if self._report is None:
                raise  # the scheduler logs it
            self._report(error)
        else:
            if self._report is not None:
                self._report(None)
        finally:
            self._beating = self._any_running()
            if self._beating:
                self._scheduler.arm(_HEARTBEAT, now + self._heartbeat_every)
