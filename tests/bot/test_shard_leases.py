"""Shard leases (bot/services/shard_leases.py, bot/store/leases.py): one live process per shard.

Each "process" is a `ShardLeases` over its own store connection (its own pool on
PostgreSQL) on one database, with a fake wall clock and a fake monotonic clock, so the
cases run in milliseconds: a live process refuses a second one on its shards, a restart
after a crash takes over once the dead lease lapsed, a clean stop lets a restart in at
once, another SHARD_COUNT is refused while the old layout runs, a process that could not
renew stops acting, and one whose shard was taken over stops for good.  Claims raced from
two connections: exactly one wins each time.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from bot.infra.shards import ShardLayout
from bot.services.shard_leases import LEASE_SECONDS, MARGIN, RENEW_EVERY, ShardLeases, ShardsTaken
from bot.store import Store
from bot.store.leases import LeaseStore
from tests.bot.conftest import BACKENDS
from tests.conftest import fresh_database

T0 = 1_000_000.0


def guild_on(shard: int, count: int) -> int:
    """A guild id that Discord routes to `shard` of `count` (its timestamp bits, modulo)."""
    return ((1_000 * count + shard) << 22) | 12345


class Clocks:
    """A fake wall clock and monotonic clock moving together; `sleep` advances both and
    first runs `while_asleep` (what other processes do meanwhile)."""

    def __init__(self) -> None:
        self.wall = T0
        self.mono = 50.0
        self.slept: list[float] = []
        self.while_asleep: Callable[[], Awaitable[None]] | None = None

    def now(self) -> float:
        return self.wall

    def monotonic(self) -> float:
        return self.mono

    def advance(self, seconds: float) -> None:
        self.wall += seconds
        self.mono += seconds

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.advance(seconds)
        if self.while_asleep is not None:
            await self.while_asleep()


@pytest.fixture(params=BACKENDS)
async def stores(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[tuple[Store, Store]]:
    """Two connections to one database: two processes' stores."""

    async def pair(where: Path | str) -> AsyncIterator[tuple[Store, Store]]:
        one = await Store.open(where)
        two = await Store.open(where)
        try:
            yield one, two
        finally:
            await one.close()
            await two.close()

    if request.param == "sqlite":
        async for both in pair(tmp_path / "db.sqlite3"):
            yield both
        return
    async with fresh_database(request.getfixturevalue("postgres_server")) as url:
        async for both in pair(url):
            yield both


def leases(store: Store, clocks: Clocks, count: int, *ids: int) -> ShardLeases:
    layout = ShardLayout(count, frozenset(ids))
    return ShardLeases(store, layout, now=clocks.now, monotonic=clocks.monotonic, sleep=clocks.sleep)


async def test_a_second_process_on_a_live_shard_is_refused_naming_it(stores: tuple[Store, Store]) -> None:
    clocks = Clocks()
    first = leases(stores[0], clocks, 4, 0, 1)
    await first.claim()
    assert first.held == {0, 1} and clocks.slept == []
    second = leases(stores[1], clocks, 4, 1, 2)
    clocks.while_asleep = first.renew  # the first process is alive: it renews on time
    with pytest.raises(ShardsTaken, match=r"shards \[1\] are run by another live process") as refused:
        await second.claim()
    assert "SHARD_IDS" in str(refused.value)
    assert sum(clocks.slept) <= RENEW_EVERY + 0.1  # refused within about one renewal
    rows = await LeaseStore(stores[0]).leases()
    assert {(r.shard, r.owner) for r in rows} == {(0, first.owner), (1, first.owner)}  # nothing written
    assert second.held == frozenset() and not second.holds(guild_on(2, 4))


async def test_a_restart_after_a_crash_takes_over_once_the_dead_lease_lapsed(
    stores: tuple[Store, Store], caplog: pytest.LogCaptureFixture
) -> None:
    clocks = Clocks()
    crashed = leases(stores[0], clocks, 2, 0)
    await crashed.claim()
    clocks.advance(3)  # it dies 3 s after its last renewal, without releasing anything
    restarted = leases(stores[1], clocks, 2, 0)
    with caplog.at_level(logging.WARNING, "bot.services.shard_leases"):
        await restarted.claim()
    waited = clocks.wall - (T0 + 3)
    assert LEASE_SECONDS - 3 <= waited <= LEASE_SECONDS - 3 + RENEW_EVERY  # until it lapsed, not longer
    assert "lapse in 27 s" in caplog.text  # the operator is told how long the wait is
    assert restarted.held == {0} and restarted.holds(guild_on(0, 2))
    rows = await LeaseStore(stores[0]).leases()
    assert [(r.shard, r.owner, r.refreshed_at) for r in rows] == [(0, restarted.owner, clocks.wall)]


async def test_a_clean_stop_releases_so_a_restart_does_not_wait(stores: tuple[Store, Store]) -> None:
    clocks = Clocks()
    first = leases(stores[0], clocks, 2, 0, 1)
    await first.claim()
    await first.close()
    assert await LeaseStore(stores[0]).leases() == []
    second = leases(stores[1], clocks, 2, 0, 1)
    await second.claim()
    assert clocks.slept == [] and second.held == {0, 1}


async def test_another_shard_count_is_refused_while_the_old_layout_runs(stores: tuple[Store, Store]) -> None:
    clocks = Clocks()
    old = leases(stores[0], clocks, 2, 1)
    await old.claim()
    clocks.while_asleep = old.renew
    with pytest.raises(ShardsTaken, match=r"SHARD_COUNT=3, but processes with SHARD_COUNT=2 still run shards \[1\]"):
        await leases(stores[1], clocks, 3, 0).claim()  # shard 0 of 3 is free, yet the layouts clash
    clocks.while_asleep = None  # the old process is stopped (killed: its lease stays, then lapses)
    new = leases(stores[1], clocks, 3, 0, 1, 2)
    await new.claim()
    rows = await LeaseStore(stores[0]).leases()
    assert [(r.shard, r.shard_count, r.owner) for r in rows] == [(s, 3, new.owner) for s in (0, 1, 2)]


async def test_a_process_that_cannot_renew_stops_acting_and_resumes_after_a_renewal(
    stores: tuple[Store, Store],
) -> None:
    clocks = Clocks()
    process = leases(stores[0], clocks, 2, 0, 1)
    await process.claim()
    guild = guild_on(1, 2)
    assert process.holds(guild) and process.current == ShardLayout(2, frozenset({0, 1}))
    clocks.advance(LEASE_SECONDS - MARGIN - 0.5)
    assert process.holds(guild)
    clocks.advance(1.0)  # a stall: no renewal for longer than it may be sure of its lease
    assert not process.valid() and not process.holds(guild)
    assert process.current.ids == frozenset() and process.current.sql_filter("guild_id")[0] == "1 = 0"
    await process.renew()  # nobody took it over meanwhile
    assert process.holds(guild) and process.lost == frozenset()


async def test_a_process_whose_shard_was_taken_over_stops_for_good(
    stores: tuple[Store, Store], caplog: pytest.LogCaptureFixture
) -> None:
    clocks = Clocks()
    paused = leases(stores[0], clocks, 2, 0, 1)
    await paused.claim()
    told: list[frozenset[int]] = []

    async def on_lost(shards: frozenset[int]) -> None:
        told.append(shards)

    paused.lost_listeners.append(on_lost)
    clocks.advance(LEASE_SECONDS + 1)  # paused (SIGSTOP, a frozen VM) past the lease
    successor = leases(stores[1], clocks, 2, 1)
    await successor.claim()
    assert clocks.slept == []  # the lease had lapsed: taken over at once
    assert not paused.holds(guild_on(0, 2)) and not paused.holds(guild_on(1, 2))  # unsure: acts for nothing
    with caplog.at_level(logging.ERROR, "bot.services.shard_leases"):
        await paused.renew()
    assert told == [frozenset({1})] and paused.lost == {1} and paused.held == {0}
    assert "took over shards [1]" in caplog.text
    assert paused.holds(guild_on(0, 2)) and not paused.holds(guild_on(1, 2))
    assert successor.holds(guild_on(1, 2))
    await paused.renew()
    assert paused.held == {0} and told == [frozenset({1})]  # lost once, never regained by renewing


async def test_raced_claims_from_two_processes_give_each_shard_one_owner(stores: tuple[Store, Store]) -> None:
    one, two = LeaseStore(stores[0]), LeaseStore(stores[1])
    for round_number in range(15):
        now = T0 + round_number * 100  # every round starts after the last one's leases lapsed
        shards = [{0, 1}, {1, 2}] if round_number % 2 else [{0}, {0}]
        results = await asyncio.gather(
            one.claim(shards[0], 3, f"a{round_number}", now=now, alive_within=LEASE_SECONDS),
            two.claim(shards[1], 3, f"b{round_number}", now=now, alive_within=LEASE_SECONDS),
        )
        assert sorted(bool(blocking) for blocking in results) == [False, True], results
        winner = f"a{round_number}" if not results[0] else f"b{round_number}"
        rows = await one.leases()
        fresh = [r for r in rows if r.refreshed_at == now]
        assert {r.owner for r in fresh} == {winner}
        assert {r.shard for r in fresh} == shards[0 if winner.startswith("a") else 1]


async def test_the_holder_of_the_sqlite_file_lock_takes_a_dead_lease_over_at_once(stores: tuple[Store, Store]) -> None:
    """`python -m bot` on SQLite holds the file's lock, which no other live process can hold:
    a lease left by a killed process is taken over without waiting it out."""
    clocks = Clocks()
    killed = leases(stores[0], clocks, 1, 0)
    await killed.claim()
    clocks.advance(1)
    restarted = leases(stores[1], clocks, 1, 0)
    await restarted.claim(sole_process=True)
    assert clocks.slept == [] and restarted.held == {0}
    await killed.renew()
    assert killed.lost == {0} and not killed.holds(None)
