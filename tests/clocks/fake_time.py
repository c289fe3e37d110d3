"""A fake wall clock for driving the scheduler without sleeping.

`sleep(d)` parks the caller until `advance` moves time past its wake-up; `advance`
wakes sleepers one by one in time order, letting the event loop run in between, so
callbacks see `now()` equal to the time they were woken at.
"""

from __future__ import annotations

import asyncio
import heapq


class FakeTime:
    def __init__(self, start: float = 1_000_000.0) -> None:
        self.t = start
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._seq = 0

    def now(self) -> float:
        return self.t

    async def sleep(self, delay: float) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._seq += 1
        heapq.heappush(self._sleepers, (self.t + max(0.0, delay), self._seq, future))
        await future

    async def settle(self) -> None:
        """Let every ready task run until the loop is quiet."""
        for _ in range(50):
            await asyncio.sleep(0)

    async def advance(self, seconds: float) -> None:
        target = self.t + seconds
        await self.settle()
        while True:
            while self._sleepers and self._sleepers[0][2].done():
                heapq.heappop(self._sleepers)
            if not self._sleepers or self._sleepers[0][0] > target:
                break
            wake, _, future = heapq.heappop(self._sleepers)
            self.t = max(self.t, wake)
            future.set_result(None)
            await self.settle()
        self.t = target
        await self.settle()

    async def advance_to(self, when: float) -> None:
        await self.advance(when - self.t)
