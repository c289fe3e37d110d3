"""ClockScheduler driven by a fake clock: order, early wake-up, disarm, failures."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.clocks import ClockScheduler
from tests.clocks.fake_time import FakeTime

T0 = 1_000_000.0


class Recorder:
    def __init__(self, time: FakeTime) -> None:
        self.time = time
        self.fired: list[tuple[str, float]] = []

    async def __call__(self, key: str) -> None:
        if key == "boom":
            raise RuntimeError("handler failed")
        self.fired.append((key, self.time.now() - T0))


@pytest.fixture
def time() -> FakeTime:
    return FakeTime(T0)


@pytest.fixture
async def setup(time: FakeTime) -> AsyncIterator[tuple[ClockScheduler[str], Recorder]]:
    recorder = Recorder(time)
    scheduler: ClockScheduler[str] = ClockScheduler(recorder, now=time.now, sleep=time.sleep)
    scheduler.start()
    yield scheduler, recorder
    await scheduler.close()


async def test_keys_fire_once_in_due_order_at_their_due_time(
    time: FakeTime, setup: tuple[ClockScheduler[str], Recorder]
) -> None:
    scheduler, recorder = setup
    for key, offset in [("c", 300.0), ("a", 10.0), ("b", 45.5)]:
        scheduler.arm(key, T0 + offset)
    await time.advance(1000)
    assert recorder.fired == [("a", 10.0), ("b", 45.5), ("c", 300.0)]
    assert len(scheduler) == 0


async def test_arming_a_nearer_key_wakes_the_sleeping_task(
    time: FakeTime, setup: tuple[ClockScheduler[str], Recorder]
) -> None:
    scheduler, recorder = setup
    scheduler.arm("far", T0 + 50)
    await time.advance(1)
    scheduler.arm("near", T0 + 5)
    await time.advance(10)
    assert recorder.fired == [("near", 5.0)]


async def test_a_key_armed_in_the_past_fires_at_once(
    time: FakeTime, setup: tuple[ClockScheduler[str], Recorder]
) -> None:
    scheduler, recorder = setup
    scheduler.arm("late", T0 - 100)
    await time.settle()
    assert recorder.fired == [("late", 0.0)]


async def test_disarm_and_rearm(time: FakeTime, setup: tuple[ClockScheduler[str], Recorder]) -> None:
    scheduler, recorder = setup
    scheduler.arm("gone", T0 + 5)
    scheduler.arm("moved", T0 + 5)
    scheduler.disarm("gone")
    scheduler.arm("moved", T0 + 20)
    assert scheduler.due_of("moved") == T0 + 20 and scheduler.due_of("gone") is None
    await time.advance(100)
    assert recorder.fired == [("moved", 20.0)]


async def test_a_failing_callback_does_not_stop_the_scheduler(
    time: FakeTime, setup: tuple[ClockScheduler[str], Recorder]
) -> None:
    scheduler, recorder = setup
    scheduler.arm("boom", T0 + 1)
    scheduler.arm("after", T0 + 2)
    await time.advance(5)
    assert recorder.fired == [("after", 2.0)]


async def test_rearming_many_times_keeps_the_heap_small(
    time: FakeTime, setup: tuple[ClockScheduler[str], Recorder]
) -> None:
    scheduler, recorder = setup
    for i in range(10_000):
        scheduler.arm("busy", T0 + 1 + i)
    assert len(scheduler._heap) < 3_000  # stale entries are compacted away
    await time.advance(20_000)
    assert recorder.fired == [("busy", 10_000.0)]
