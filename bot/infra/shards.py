"""Which guilds a bot process owns when several processes share one database.

Discord routes a guild's events to shard `(guild_id >> 22) % shard_count`; a process that
runs shards `SHARD_IDS` of `SHARD_COUNT` therefore owns exactly those guilds, and only it
fires their clocks, runs their tournaments and posts their outbox rows (direct messages,
which have no guild, belong to shard 0 as Discord routes them there).  A process may run
several shard ids (`SHARD_IDS=0,1`).  Every shard id must be run by some process, or some
guilds' clocks never fire: a layout whose ids are out of range is refused here, and a
process whose shard count differs from the running ones, or whose shard ids a live
process already runs, is refused at start-up (bot/services/shard_leases.py).

Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """Discord's shard formula; no guild (a DM) is shard 0."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


class BadLayout(ValueError):
    """SHARD_COUNT / SHARD_IDS do not describe a valid set of shards; the message says why."""


@dataclass(frozen=True)
class ShardLayout:
    count: int = 1
    ids: frozenset[int] = frozenset({0})

    @property
    def sharded(self) -> bool:
        return self.count > 1

    @property
    def current(self) -> ShardLayout:
        """A fixed layout is always its own current one (see `Ownership`)."""
        return self

    def owns(self, guild_id: int | None) -> bool:
        return shard_of(guild_id, self.count) in self.ids

    def heartbeat_key(self, shard: int) -> str:
        """The meta key of a shard's heartbeat (one process: the historical single key)."""
        return "clock_heartbeat" if not self.sharded else f"clock_heartbeat:{shard}"

    def sql_filter(self, column: str) -> tuple[str, tuple[int, ...]]:
        """A WHERE condition (and its parameters) keeping rows whose guild `column` this
        process owns: the formula in SQL, which both SQLite and PostgreSQL compute."""
        if self.ids >= frozenset(range(self.count)):
            return "1 = 1", ()
        if not self.ids:
            return "1 = 0", ()
        marks = ", ".join("?" for _ in self.ids)
        return f"((COALESCE({column}, 0) >> 22) % ?) IN ({marks})", (self.count, *sorted(self.ids))

    @classmethod
    def parse(cls, count_text: str, ids_text: str) -> ShardLayout:
        """`SHARD_COUNT` (default 1) and `SHARD_IDS` (comma-separated; default: all of them)."""
        try:
            count = int(count_text.strip() or "1")
        except ValueError:
            raise BadLayout("SHARD_COUNT must be a whole number of shards (1 or more).") from None
        if count < 1:
            raise BadLayout("SHARD_COUNT must be 1 or more.")
        words = [w for w in ids_text.replace(",", " ").split() if w]
        try:
            ids = [int(w) for w in words] if words else list(range(count))
        except ValueError:
            raise BadLayout("SHARD_IDS must be shard numbers separated by commas, e.g. `0,1`.") from None
        outside = sorted(i for i in ids if not 0 <= i < count)
        if outside:
            raise BadLayout(
                f"SHARD_IDS {outside} are outside 0..{count - 1} (SHARD_COUNT={count}): the guilds of the "
                "missing shards would have no owner."
            )
        if len(set(ids)) != len(ids):
            raise BadLayout("SHARD_IDS lists a shard twice.")
        return cls(count, frozenset(ids))


class Ownership(Protocol):
    """Which shards a process may act for right now: a fixed `ShardLayout`, or the process's
    leases (bot/services/shard_leases.py), which shrink to nothing while they cannot be renewed and
    lose a shard for good when another process took it over."""

    @property
    def current(self) -> ShardLayout: ...
