"""`MatchClockStore`: the `bot.clocks.ClockStore` protocol on top of the `Store` (either backend).

The clock is one JSON column of the match row (`matches.clock`), so a move and the clock
it started are committed in one transaction by `Store.commit_moves`; this adapter only
covers what the `ClockKeeper` writes on its own (reminders marked as sent, re-arming after
a restart) and the heartbeat, a row of the `meta` table.  Every write goes through the
Store's `transaction()`, so it serves SQLite and PostgreSQL alike.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.clocks import ClockState, MatchId
from bot.infra.shards import Ownership, ShardLayout
from bot.store import Store

HEARTBEAT_KEY = "clock_heartbeat"


class MatchClockStore:
    """Running clocks are those of active matches with a clock column (of the guilds this
    process owns: with shards, one heartbeat per shard).  `shards` is asked at every call:
    the shards a process holds can shrink (bot/services/shard_leases.py)."""

    def __init__(self, store: Store, shards: Ownership | None = None) -> None:
        self.store = store
        self.ownership: Ownership = shards or ShardLayout()

    @property
    def shards(self) -> ShardLayout:
        return self.ownership.current

    async def load_all(self) -> list[tuple[MatchId, ClockState]]:
        rows = await self.store.running_clocks(self.shards)
        return [(match_id, ClockState.from_json(data)) for match_id, data in rows]

    async def save(self, match_id: MatchId, clock: ClockState) -> None:
        await self.store.save_clock(match_id, clock.to_json())

    async def save_many(self, clocks: Sequence[tuple[MatchId, ClockState]]) -> None:
        await self.store.save_clocks([(match_id, clock.to_json()) for match_id, clock in clocks])

    async def load_heartbeat(self) -> float | None:
        beats = [await self.store.get_meta(self.shards.heartbeat_key(shard)) for shard in sorted(self.shards.ids)]
        known = [float(b) for b in beats if b is not None]
        return max(known) if known else None

    async def save_heartbeat(self, at: float) -> None:
        shards = self.shards
        for shard in sorted(shards.ids):
            await self.store.set_meta(shards.heartbeat_key(shard), repr(at))
