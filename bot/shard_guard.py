"""Refuse a shard layout that would leave guilds without an owner, at start-up.

Each process marks its shards alive in the store every half minute (the outbox drain
does it).  A process that starts with a SHARD_COUNT different from the one the running
processes use would split the guilds differently: some guilds would belong to no process
(their clocks would never fire) and others to two.  So while any shard of the recorded
layout is alive, a different count is refused; stop every process to change it.
"""

from __future__ import annotations

import time
from typing import Final

from bot.shards import ShardLayout
from bot.store import Store

ALIVE_WITHIN: Final = 90.0
"""A shard marked alive this recently (seconds) is taken to be running."""
COUNT_KEY: Final = "shard_count"


class LayoutRefused(RuntimeError):
    """The layout conflicts with processes still running; the message says which."""


def alive_key(shard: int) -> str:
    return f"shard_alive:{shard}"


async def mark_alive(store: Store, shards: ShardLayout, now: float | None = None) -> None:
    at = repr(time.time() if now is None else now)
    for shard in sorted(shards.ids):
        await store.set_meta(alive_key(shard), at)


async def claim_layout(store: Store, shards: ShardLayout, now: float | None = None) -> None:
    """Record this process's shard count, or raise LayoutRefused when running processes use
    another one."""
    moment = time.time() if now is None else now
    recorded = await store.get_meta(COUNT_KEY)
    if recorded is not None and int(recorded) != shards.count:
        running = []
        for shard in range(int(recorded)):
            beat = await store.get_meta(alive_key(shard))
            if beat is not None and moment - float(beat) < ALIVE_WITHIN and shard not in shards.ids:
                running.append(shard)
        if running:
            raise LayoutRefused(
                f"SHARD_COUNT={shards.count}, but processes with SHARD_COUNT={recorded} still run shards {running}: "
                "with two layouts some guilds would have no owner. Stop every process before changing the count."
            )
    await store.set_meta(COUNT_KEY, str(shards.count))
    await mark_alive(store, shards, moment)
