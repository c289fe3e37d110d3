"""Time controls for matches: per-move time plus a reserve, reminders, timeouts.

- `model`: pure values.  `TimeControl` (what a match allows) and `ClockState` (both
  seats' clocks, immutable; every transition returns the next state), the events
  `Reminder` / `Timeout`, presets and parsing, `format_clock`.
- `scheduler`: `ClockScheduler`, one asyncio task sleeping until the nearest due time.
- `keeper`: `ClockKeeper`, the clocks of all running matches: re-armed from the store at
  start-up, events handed to the match service.
- `store`: the `ClockStore` protocol the SQLite store implements, and an in-memory one.

Nothing here imports Discord or the rules engines.
"""

from __future__ import annotations

from bot.clocks.keeper import ClockGate, ClockKeeper, EventHandler, Gate, LockFor
from bot.clocks.model import (
    PRESETS,
    TIMEOUT_REASON,
    TOURNAMENT_DRAFT_TIME,
    ClockEvent,
    ClockState,
    InvalidTimeControl,
    Reminder,
    SeatClock,
    TimeControl,
    Timeout,
    format_clock,
    format_duration,
    parse_duration,
    parse_time_control,
    timeout_move,
)
from bot.clocks.scheduler import ClockScheduler
from bot.clocks.store import ClockStore, InMemoryClockStore, MatchId

__all__ = [
    "PRESETS",
    "TIMEOUT_REASON",
    "TOURNAMENT_DRAFT_TIME",
    "ClockEvent",
    "ClockGate",
    "ClockKeeper",
    "ClockScheduler",
    "ClockState",
    "ClockStore",
    "EventHandler",
    "Gate",
    "InMemoryClockStore",
    "InvalidTimeControl",
    "LockFor",
    "MatchId",
    "Reminder",
    "SeatClock",
    "TimeControl",
    "Timeout",
    "format_clock",
    "format_duration",
    "parse_duration",
    "parse_time_control",
    "timeout_move",
]
