"""`SqliteClockStore`: the `bot.clocks.ClockStore` protocol on top of the SQLite `Store`.

The clock is one JSON column of the match row (`matches.clock`), so a move and the clock
it started are committed in one transaction by `Store.commit_moves`; this adapter only
covers what the `ClockKeeper` writes on its own (reminders marked as sent, re-arming after
a restart) and the heartbeat, a row of the `meta` table.  Every write goes through the
Store's `transaction()` lock, since all coroutines share one connection.
"""

from __future__ import annotations

from bot.clocks import ClockState, MatchId
from bot.store import Store

HEARTBEAT_KEY = "clock_heartbeat"


class SqliteClockStore:
    """Running clocks are those of active matches with a clock column."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def load_all(self) -> list[tuple[MatchId, ClockState]]:
        return [(match_id, ClockState.from_json(data)) for match_id, data in await self.store.running_clocks()]

    async def save(self, match_id: MatchId, clock: ClockState) -> None:
        await self.store.save_clock(match_id, clock.to_json())

    async def load_heartbeat(self) -> float | None:
        value = await self.store.get_meta(HEARTBEAT_KEY)
        return None if value is None else float(value)

    async def save_heartbeat(self, at: float) -> None:
        await self.store.set_meta(HEARTBEAT_KEY, repr(at))
