"""What the clocks need from persistence, kept tiny so the SQLite store can provide it
next to the match row (the clock is one JSON column: `ClockState.to_json()`).

`InMemoryClockStore` is the reference implementation used by the tests and the bench;
the production one is `bot/store/clocks.py`, over the store of `bot/store/`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.clocks.model import ClockState

MatchId = int


class ClockStore(Protocol):
    """Persistence of running clocks and of the bot's last sign of life."""

    async def load_all(self) -> list[tuple[MatchId, ClockState]]:
        """The clocks of every match still running (finished matches are not returned)."""
        ...

    async def save(self, match_id: MatchId, clock: ClockState) -> None:
        """Store `clock` as the match's current clock (reminders marked as sent included)."""
        ...

    async def save_many(self, clocks: Sequence[tuple[MatchId, ClockState]]) -> None:
        """`save` of many clocks at once (the start-up re-arming after a long outage changes
        every running clock: one write, not ten thousand)."""
        ...

    async def load_heartbeat(self) -> float | None:
        """Wall time of the last heartbeat, i.e. roughly when the bot went down; None at first start."""
        ...

    async def save_heartbeat(self, at: float) -> None:
        """Record that the bot was alive at `at` (every few seconds while a clock runs)."""
        ...


class InMemoryClockStore:
    """A `ClockStore` in a dict; stores JSON so that tests exercise the round trip."""

    def __init__(self) -> None:
        self.rows: dict[MatchId, dict[str, object]] = {}
        self.heartbeat: float | None = None
        self.saves = 0

    async def load_all(self) -> list[tuple[MatchId, ClockState]]:
        return [(match_id, ClockState.from_json(row)) for match_id, row in sorted(self.rows.items())]

    async def save(self, match_id: MatchId, clock: ClockState) -> None:
        self.saves += 1
        self.rows[match_id] = clock.to_json()

    async def save_many(self, clocks: Sequence[tuple[MatchId, ClockState]]) -> None:
        for match_id, clock in clocks:
            await self.save(match_id, clock)

    async def load_heartbeat(self) -> float | None:
        return self.heartbeat

    async def save_heartbeat(self, at: float) -> None:
        self.heartbeat = at

    def forget(self, match_id: MatchId) -> None:
        """What the real store does when a match ends: its clock is no longer loaded."""
        self.rows.pop(match_id, None)
