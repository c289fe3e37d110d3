"""One task that sleeps until the nearest due time (RoboDanny's timer model).

Why one task and a heap instead of a task per match: 10,000 running clocks must cost
nothing while idle.  The task sleeps until the earliest entry of a heap of
`(due, seq, key)`, fires every entry that is due, and sleeps again; arming a nearer
entry wakes it early through an `asyncio.Event`.  Re-arming or disarming a key leaves
its old heap entry in place ("lazy deletion": `_armed` holds the live `(due, seq)` of
each key, and stale entries are skipped when they surface), so both are O(log n); the
heap is rebuilt when stale entries outnumber live ones.

Time is wall-clock epoch seconds from an injectable `now()`, and waiting goes through
an injectable `sleep()`, so tests drive the scheduler with a fake clock and never sleep.
Sleeps are capped (`max_sleep`) so that a wall-clock jump delays a due entry by at most
that much.  Each due key's callback runs in its own task: a slow Discord call for one
match never delays another match's timeout.
"""

from __future__ import annotations

import asyncio
import heapq
import logging
import time
from collections.abc import Awaitable, Callable, Hashable
from typing import Generic, TypeVar

log = logging.getLogger(__name__)

K = TypeVar("K", bound=Hashable)

Now = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]


class ClockScheduler(Generic[K]):
    """Calls `on_due(key)` once when the wall clock reaches the time a key was armed for."""

    def __init__(
        self,
        on_due: Callable[[K], Awaitable[None]],
        *,
        now: Now = time.time,
        sleep: Sleep = asyncio.sleep,
        max_sleep: float = 60.0,
    ) -> None:
        self._on_due = on_due
        self._now = now
        self._sleep = sleep
        self._max_sleep = max_sleep
        self._heap: list[tuple[float, int, K]] = []
        self._armed: dict[K, tuple[float, int]] = {}
        self._seq = 0
        self._wake = asyncio.Event()
        self._target: float | None = None
        self._task: asyncio.Task[None] | None = None
        self._callbacks: set[asyncio.Task[None]] = set()

    # --- arming ---------------------------------------------------------------------

    def arm(self, key: K, due: float) -> None:
        """Fire `key` at `due` (replacing any earlier arming of the same key)."""
        current = self._armed.get(key)
        if current is not None and current[0] == due:
            return
        self._seq += 1
        self._armed[key] = (due, self._seq)
        heapq.heappush(self._heap, (due, self._seq, key))
        if self._target is None or due < self._target:
            self._wake.set()
        if len(self._heap) > 2 * len(self._armed) + 1024:
            self._compact()

    def disarm(self, key: K) -> None:
        """Forget `key` (no error if it was not armed)."""
        self._armed.pop(key, None)

    def due_of(self, key: K) -> float | None:
        armed = self._armed.get(key)
        return None if armed is None else armed[0]

    def __len__(self) -> int:
        return len(self._armed)

    # --- running --------------------------------------------------------------------

    def start(self) -> None:
        """Start the scheduler task (idempotent)."""
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self.run(), name="clock-scheduler")

    async def close(self) -> None:
        """Stop the task and cancel callbacks still running."""
        tasks = [t for t in (self._task, *self._callbacks) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._task = None

    async def run(self) -> None:
        """The loop: fire what is due, then sleep until the next entry or an earlier arming."""
        while True:
            self._wake.clear()
            due = self._peek()
            if due is None:
                self._target = None
                await self._wake.wait()
                continue
            delay = due - self._now()
            if delay <= 0:
                self._fire_due()
                continue
            self._target = due
            await self._sleep_or_wake(min(delay, self._max_sleep))

    def _peek(self) -> float | None:
        """The earliest live due time, dropping stale heap entries on the way."""
        heap = self._heap
        while heap:
            due, seq, key = heap[0]
            if self._armed.get(key) == (due, seq):
                return due
            heapq.heappop(heap)
        return None

    def _fire_due(self) -> None:
        now = self._now()
        while (due := self._peek()) is not None and due <= now:
            _, _, key = heapq.heappop(self._heap)
            del self._armed[key]
            task = asyncio.create_task(self._call(key))
            self._callbacks.add(task)
            task.add_done_callback(self._callbacks.discard)

    async def _call(self, key: K) -> None:
        try:
            await self._on_due(key)
        except Exception:
            log.exception("clock callback for %r failed", key)

    async def _sleep_or_wake(self, delay: float) -> None:
        sleeper = asyncio.ensure_future(self._sleep(delay))
        waker = asyncio.ensure_future(self._wake.wait())
        try:
            await asyncio.wait((sleeper, waker), return_when=asyncio.FIRST_COMPLETED)
        finally:
            for pending in (sleeper, waker):
                pending.cancel()
            await asyncio.gather(sleeper, waker, return_exceptions=True)

    def _compact(self) -> None:
        self._heap = [(due, seq, key) for key, (due, seq) in self._armed.items()]
        heapq.heapify(self._heap)
