"""A fake wall clock for tests that run a real `ClockKeeper` on SQLite (service and e2e tests)."""

from __future__ import annotations

import asyncio

from bot.clocks import ClockKeeper
from tests.clocks.fake_time import FakeTime


class SettlingTime(FakeTime):
    """FakeTime that also waits (in real time) for the keepers' running callbacks.

    The callbacks touch SQLite, which aiosqlite runs in a thread: yielding to the event
    loop a fixed number of times is not enough for them to finish, and a callback that has
    not re-armed its match yet would let `advance` jump over the match's next due time.
    So `settle` repeats until two whole passes changed nothing: no callback running, and
    no arming, sleeper or time change (a callback that ran entirely within one pass still
    re-armed its key, which changes the scheduler's sequence number)."""

    def __init__(self, start: float) -> None:
        super().__init__(start)
        self.keepers: list[ClockKeeper] = []

    def _progress(self) -> tuple[object, ...]:
        return (self.t, len(self._sleepers), *(keeper._scheduler._seq for keeper in self.keepers))

    async def settle(self) -> None:
        quiet = 0
        for _ in range(10_000):
            before = self._progress()
            await super().settle()
            busy = [task for keeper in self.keepers for task in keeper._scheduler._callbacks]
            if busy:
                await asyncio.wait(busy, timeout=1.0)
                quiet = 0
            else:
                quiet = quiet + 1 if self._progress() == before else 0
            if quiet >= 2:
                return
        raise AssertionError("the clocks never settled")
