"""A match's clock as the service sees it: read from the match row, and fired by a keeper.

The time model (`bot.clocks`) is pure and the keeper only schedules; what a due reminder or
timeout *means* for a match is decided by `MatchService.on_clock_event` under the match lock.
`attach_clocks` wires the two together.  It asks only for the few members of the service it
uses (`ClockedService`), so this module need not import the service, whose clock use cases
import `clock_of` from here.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

from bot.clocks import ClockEvent, ClockGate, ClockKeeper, ClockState
from bot.clocks.keeper import HEARTBEAT_SECONDS, MAX_SLEEP_SECONDS, HeartbeatReport
from bot.clocks.scheduler import Now, Sleep
from bot.i18n import tr
from bot.infra.shards import Ownership
from bot.services.matches.updates import ClockResult
from bot.store import MatchRow, Store
from bot.store.clocks import MatchClockStore

TIME_UP = tr("⏰ Time is up.")
"""The line above a board the clock decided (the keeper found a flag fallen)."""

ClockResultHandler = Callable[[ClockResult], Awaitable[None]]


def clock_of(row: MatchRow) -> ClockState | None:
    """The match's clock as stored (None: no time control)."""
    return ClockState.from_json(row.clock) if row.clock is not None else None


class ClockedService(Protocol):
    """What `attach_clocks` needs of the match service."""

    store: Store
    clocks: ClockKeeper | None

    def lock_for(self, match_id: int) -> asyncio.Lock: ...

    async def on_clock_event(self, match_id: int, event: ClockEvent) -> ClockResult | None: ...


def attach_clocks(
    service: ClockedService,
    on_result: ClockResultHandler,
    *,
    now: Now = time.time,
    sleep: Sleep = asyncio.sleep,
    forgive_downtime_over: float | None = None,
    shards: Ownership | None = None,
    gate: ClockGate | None = None,
    heartbeat_every: float = HEARTBEAT_SECONDS,
    max_sleep: float = MAX_SLEEP_SECONDS,
    report: HeartbeatReport | None = None,
) -> ClockKeeper:
    """Create the `ClockKeeper` of `service` (persisted in its store, serialised by its match
    locks), attach it, and return it; the caller starts it with `await keeper.start()` once
    whoever handles `on_result` is ready, and closes it before closing the store.

    Each due event goes to `service.on_clock_event`; a non-None result goes to `on_result`
    (the bot announces it).  `now` / `sleep` are injectable so tests never wait, and so is
    the keeper's wake-up pace, `heartbeat_every` / `max_sleep` (the product keeps the
    defaults), so that a test advancing fake time by days need not wake every few fake
    seconds.  With `shards`, only the clocks of the guilds this process owns are loaded after
    a restart; with `gate`, a due clock is fired only when the gate says so
    (bot/clocks/keeper.py); `report` hears how each heartbeat went."""

    async def on_event(match_id: int, event: ClockEvent) -> None:
        result = await service.on_clock_event(match_id, event)
        if result is not None:
            await on_result(result)

    keeper = ClockKeeper(
        MatchClockStore(service.store, shards),
        on_event,
        now=now,
        sleep=sleep,
        forgive_downtime_over=forgive_downtime_over,
        lock_for=service.lock_for,
        gate=gate,
        heartbeat_every=heartbeat_every,
        max_sleep=max_sleep,
        report=report,
    )
    service.clocks = keeper
    return keeper
