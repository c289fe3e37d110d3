"""Shard leases: which bot process runs which shard (table `shard_leases`, migration 7).

Why a table with an owner token rather than the `meta` heartbeats: two processes started on
one shard id must not both believe they own it, so the claim is a compare-and-set, and that
needs one row per shard naming its holder.  Each process start draws a random token; a
claim succeeds when every row it needs is free, its own, or stale (not renewed within the
alive window), and it fails as a whole, writing nothing, when any is held by a live process.
A live row of another `shard_count` blocks too: two layouts at once would leave some guilds
without an owner and give others two.

Claims, renewals and releases are serialised across processes: SQLite's write transaction
(`BEGIN IMMEDIATE`) excludes every other writer, PostgreSQL takes one advisory lock for the
transaction, so the read of the rows and their rewrite cannot interleave with another
process's.  Times are wall-clock seconds (`time.time()`), written by the holder and compared
by a claimer; bot/services/shard_leases.py keeps a safety margin for hosts whose clocks differ.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any, Final

from bot.store.core import Store

LEASE_LOCK: Final = 0x73686172646C6561  # "shardlea": claims and renewals, one at a time
_COLUMNS: Final = "shard, shard_count, owner, refreshed_at"


@dataclass(frozen=True)
class Lease:
    shard: int
    shard_count: int
    owner: str
    refreshed_at: float

    def alive(self, now: float, alive_within: float) -> bool:
        return now - self.refreshed_at < alive_within


class LeaseStore:
    """The `shard_leases` queries (both backends)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def leases(self) -> list[Lease]:
        rows = await self.store.fetch_all(f"SELECT {_COLUMNS} FROM shard_leases ORDER BY shard")
        return [_lease(r) for r in rows]

    async def claim(
        self, shards: Collection[int], shard_count: int, owner: str, *, now: float, alive_within: float
    ) -> list[Lease]:
        """Take `shards` (of `shard_count`) for `owner`, all or none.  Returns the live leases
        of other owners that stand in the way (nothing was written), or [] once claimed."""
        async with self.store.transaction() as tx:
            await tx.lock(LEASE_LOCK)
            rows = [_lease(r) for r in await tx.fetch_all(f"SELECT {_COLUMNS} FROM shard_leases ORDER BY shard")]
            blocking = [
                lease
                for lease in rows
                if lease.owner != owner
                and lease.alive(now, alive_within)
                and (lease.shard in shards or lease.shard_count != shard_count)
            ]
            if blocking:
                return blocking
            # what is left of another layout is stale (a live row would have blocked): drop it
            await tx.execute("DELETE FROM shard_leases WHERE shard_count <> ?", (shard_count,))
            await tx.executemany(
                "INSERT INTO shard_leases (shard, shard_count, owner, refreshed_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (shard) DO UPDATE SET shard_count = excluded.shard_count, owner = excluded.owner, "
                "refreshed_at = excluded.refreshed_at",
                [(shard, shard_count, owner, now) for shard in sorted(shards)],
            )
        return []

    async def renew(self, shards: Collection[int], owner: str, *, now: float) -> frozenset[int]:
        """Mark `owner`'s leases alive at `now`; returns those of `shards` it still holds (a
        shard whose row now names another owner was taken over while this one was silent)."""
        async with self.store.transaction() as tx:
            await tx.lock(LEASE_LOCK)
            held = {int(r[0]) for r in await tx.fetch_all("SELECT shard FROM shard_leases WHERE owner = ?", (owner,))}
            await tx.execute("UPDATE shard_leases SET refreshed_at = ? WHERE owner = ?", (now, owner))
        return frozenset(held & set(shards))

    async def release(self, owner: str) -> None:
        """Give up `owner`'s leases (a clean stop: the next start need not wait them out)."""
        async with self.store.transaction() as tx:
            await tx.lock(LEASE_LOCK)
            await tx.execute("DELETE FROM shard_leases WHERE owner = ?", (owner,))


def _lease(row: Sequence[Any]) -> Lease:
    shard, count, owner, refreshed_at = row
    return Lease(int(shard), int(count), str(owner), float(refreshed_at))
