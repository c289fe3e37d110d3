"""ClockKeeper: reminders and timeouts through the scheduler, restarts, pause/resume."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from bot.clocks import PRESETS, ClockEvent, ClockKeeper, ClockState, Gate, InMemoryClockStore, Reminder, Timeout
from tests.clocks.fake_time import FakeTime

T0 = 1_000_000.0
MATCH = 7


class Service:
    """Stands in for the match service: records what it was asked to announce."""

    def __init__(self, time: FakeTime, store: InMemoryClockStore) -> None:
        self.time = time
        self.store = store
        self.events: list[tuple[float, int, str]] = []
        self.fail_timeouts = False

    async def on_event(self, match_id: int, event: ClockEvent) -> None:
        stored = self.store.rows[match_id]["seats"]
        assert isinstance(stored, list)
        assert event.key in stored[event.seat]["sent"]  # marked as sent before it is announced
        label = event.label if isinstance(event, Reminder) else "TIMEOUT"
        self.events.append((self.time.now() - T0, event.seat, label))
        if isinstance(event, Timeout) and self.fail_timeouts:
            raise RuntimeError("crashed while ending the match")


def keeper_for(
    time: FakeTime, store: InMemoryClockStore, service: Service, forgive_downtime_over: float | None = None
) -> ClockKeeper:
    return ClockKeeper(
        store, service.on_event, now=time.now, sleep=time.sleep, forgive_downtime_over=forgive_downtime_over
    )


async def start_blitz(store: InMemoryClockStore, keeper: ClockKeeper) -> None:
    clock = ClockState.new(PRESETS["blitz"]).start_turn({0}, keeper.now())
    await store.save(MATCH, clock)  # the service saves with the move, then tracks
    keeper.track(MATCH, clock)


async def test_each_reminder_fires_once_in_order_and_on_time() -> None:
    time, store = FakeTime(T0), InMemoryClockStore()
    service = Service(time, store)
    keeper = keeper_for(time, store, service)
    await keeper.start()
    await start_blitz(store, keeper)
    await time.advance(1000)
    await keeper.close()
    assert [(at, label) for at, _, label in service.events] == [
        (30, "30 s left"),
        (45, "15 s left"),
        (55, "5 s left"),
        (60, "entering reserve"),
        (90, "2:30 of reserve left"),
        (120, "2:00 of reserve left"),
        (150, "1:30 of reserve left"),
        (180, "1:00 of reserve left"),
        (210, "0:30 of reserve left"),
        (240, "TIMEOUT"),
    ]


async def test_a_move_rearms_the_match_and_the_other_seat_is_reminded() -> None:
    time, store = FakeTime(T0), InMemoryClockStore()
    service = Service(time, store)
    keeper = keeper_for(time, store, service)
    await keeper.start()
    await start_blitz(store, keeper)
    await time.advance(40)
    clock = keeper.get(MATCH)
    assert clock is not None
    moved = clock.on_move(0, {1}, keeper.now())
    await store.save(MATCH, moved)
    keeper.track(MATCH, moved)
    await time.advance(40)
    await keeper.close()
    assert service.events == [(30, 0, "30 s left"), (70, 1, "30 s left")]


async def test_a_finished_match_is_forgotten() -> None:
    time, store = FakeTime(T0), InMemoryClockStore()
    service = Service(time, store)
    keeper = keeper_for(time, store, service)
    await keeper.start()
    await start_blitz(store, keeper)
    keeper.forget(MATCH)
    await time.advance(1000)
    await keeper.close()
    assert service.events == [] and len(keeper) == 0


async def test_restart_counts_downtime_and_does_not_resend_reminders() -> None:
    time, store = FakeTime(T0), InMemoryClockStore()
    service = Service(time, store)
    first = keeper_for(time, store, service)
    await first.start()
    await start_blitz(store, first)
    await time.advance(35)
    await first.close()  # down at +35, after "30 s left"
    await time.advance(5)
    second = keeper_for(time, store, service)
    await second.start()
    await time.advance(19)
    await second.close()
    assert service.events == [(30, 0, "30 s left"), (45, 0, "15 s left"), (55, 0, "5 s left")]


async def test_restart_after_a_long_outage_forgives_the_excess() -> None:
    time, store = FakeTime(T0), InMemoryClockStore()
    service = Service(time, store)
    first = keeper_for(time, store, service)
    await first.start()
    await start_blitz(store, first)
    await time.advance(35)
    await first.close()
    await time.advance(465)  # down 465 s; only 60 s of it count
    second = keeper_for(time, store, service, forgive_downtime_over=60)
    await second.start()
    clock = second.get(MATCH)
    assert clock is not None and clock.remaining(0, time.now()) == (0, 145)
    await time.advance(30)
    await second.close()
    # the overdue 15 s / 5 s / entering reserve / 2:30 reminders collapse into the latest one
    assert service.events == [(30, 0, "30 s left"), (500, 0, "2:30 of reserve left"), (525, 0, "2:00 of reserve left")]


async def test_restart_after_a_long_outage_without_forgiveness_times_out() -> None:
    time, store = FakeTime(T0), InMemoryClockStore()
    service = Service(time, store)
    first = keeper_for(time, store, service)
    await first.start()
    await start_blitz(store, first)
    await time.advance(35)
    await first.close()
    await time.advance(465)
    second = keeper_for(time, store, service)
    await second.start()
    await time.settle()
    await second.close()
    assert service.events == [(30, 0, "30 s left"), (500, 0, "TIMEOUT")]


async def test_a_timeout_lost_in_a_crash_fires_again_after_restart() -> None:
    time, store = FakeTime(T0), InMemoryClockStore()
    service = Service(time, store)
    service.fail_timeouts = True
    first = keeper_for(time, store, service)
    await first.start()
    await start_blitz(store, first)
    await time.advance(300)
    await first.close()
    service.fail_timeouts = False
    second = keeper_for(time, store, service)
    await second.start()
    await time.settle()
    await second.close()
    assert [e for e in service.events if e[2] == "TIMEOUT"] == [(240, 0, "TIMEOUT"), (300, 0, "TIMEOUT")]


async def test_pause_and_resume() -> None:
    time, store = FakeTime(T0), InMemoryClockStore()
    service = Service(time, store)
    keeper = keeper_for(time, store, service)
    await keeper.start()
    await start_blitz(store, keeper)
    await time.advance(20)
    clock = keeper.get(MATCH)
    assert clock is not None
    keeper.track(MATCH, clock.pause(keeper.now()))
    await time.advance(10_000)
    assert service.events == []
    paused = keeper.get(MATCH)
    assert paused is not None
    keeper.track(MATCH, paused.resume(keeper.now()))
    await time.advance(30)
    await keeper.close()
    assert service.events == [(10_030, 0, "30 s left"), (10_045, 0, "15 s left")]


async def test_simultaneous_draft_reminds_both_seats() -> None:
    time, store = FakeTime(T0), InMemoryClockStore()
    service = Service(time, store)
    keeper = keeper_for(time, store, service)
    await keeper.start()
    clock = ClockState.new(PRESETS["blitz"]).on_move(1, {0, 1}, keeper.now(), draft=True)
    await store.save(MATCH, clock)
    keeper.track(MATCH, clock)
    await time.advance(95)
    drafting = keeper.get(MATCH)
    assert drafting is not None
    done = drafting.on_move(0, {1}, keeper.now(), draft=True)  # seat 0 submitted its draft
    await store.save(MATCH, done)
    keeper.track(MATCH, done)
    await time.advance(24)
    await keeper.close()
    assert service.events == [(90, 0, "30 s left"), (90, 1, "30 s left"), (105, 1, "15 s left"), (115, 1, "5 s left")]


async def test_the_service_lock_serialises_due_events() -> None:
    time, store = FakeTime(T0), InMemoryClockStore()
    service = Service(time, store)
    locked: list[int] = []

    @contextlib.asynccontextmanager
    async def lock_for(match_id: int) -> AsyncIterator[None]:
        locked.append(match_id)
        yield

    keeper = ClockKeeper(store, service.on_event, now=time.now, sleep=time.sleep, lock_for=lock_for)
    await keeper.start()
    await start_blitz(store, keeper)
    await time.advance(31)
    await keeper.close()
    assert locked == [MATCH] and service.events == [(30, 0, "30 s left")]


async def test_a_gate_that_says_later_leaves_the_clock_untouched_until_it_opens() -> None:
    """A process unsure of its shard's lease (bot/services/shard_leases.py) must neither fire nor mark a
    reminder sent: the stored clock stays for whoever may fire it, and it fires once later."""
    time, store = FakeTime(T0), InMemoryClockStore()
    service = Service(time, store)
    verdicts = {"now": "later"}
    asked: list[float] = []

    async def gate(match_id: int) -> Gate:
        assert match_id == MATCH
        asked.append(time.now() - T0)
        return "fire" if verdicts["now"] == "fire" else "later"

    keeper = ClockKeeper(store, service.on_event, now=time.now, sleep=time.sleep, retry_after=5.0, gate=gate)
    await keeper.start()
    await start_blitz(store, keeper)
    before = dict(store.rows[MATCH])
    await time.advance(40)
    assert service.events == [] and store.rows[MATCH] == before  # nothing fired, nothing marked sent
    assert asked == [30, 35, 40]  # asked again every `retry_after`
    verdicts["now"] = "fire"
    await time.advance(5)
    await keeper.close()
    assert service.events == [(45, 0, "15 s left")]  # late, it says only what is true now (as after a restart)


async def test_a_gate_that_says_drop_forgets_the_clock_and_leaves_it_stored() -> None:
    time, store = FakeTime(T0), InMemoryClockStore()
    service = Service(time, store)

    async def gate(match_id: int) -> Gate:
        return "drop"

    keeper = ClockKeeper(store, service.on_event, now=time.now, sleep=time.sleep, gate=gate)
    await keeper.start()
    await start_blitz(store, keeper)
    stored = dict(store.rows[MATCH])
    await time.advance(1000)
    await keeper.close()
    assert service.events == [] and len(keeper) == 0 and store.rows[MATCH] == stored
