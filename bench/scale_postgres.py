"""`python -m bench scale-postgres`: the scale bench's start-up (bench/scale.py) on PostgreSQL.

The cached SQLite bench database (100,000 matches, 10,000 running clocks) is copied into a
throwaway PostgreSQL server (tests/postgres.py, loopback, fsync off) with the copy the
`migrate` command uses, once per run of this section; each start then gets a fresh database
made from it with `CREATE DATABASE ... TEMPLATE`, its clocks moved to "now" and its heartbeat
set, and the real `python -m bot` starts on it with `DATABASE_URL`.  No file check and no
page scan here: PostgreSQL is checked for reach, schema and write access only.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from bench.scale import StartUp, cached_database, start_once
from bot.clocks import ClockState
from bot.store import Store
from bot.store.copy import copy_into

TEMPLATE = "bench_scale"


async def _admin(url: str, *statements: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(url)
    try:
        for statement in statements:
            await connection.execute(statement)
    finally:
        await connection.close()


async def load_template(source: Path, admin_url: str, url: str) -> float:
    """Copy the SQLite bench database into the template database; returns seconds."""
    await _admin(admin_url, f"CREATE DATABASE {TEMPLATE}")
    started = time.perf_counter()
    sqlite, postgres = await Store.open(source), await Store.open(url)
    try:
        await copy_into(sqlite, postgres)
    finally:
        await sqlite.close()
        await postgres.close()
    return time.perf_counter() - started


async def prepare_run(admin_url: str, url: str, name: str, downtime: float) -> None:
    """A fresh database from the template whose clocks run as of now, down for `downtime` s."""
    await _admin(admin_url, f"DROP DATABASE IF EXISTS {name}", f"CREATE DATABASE {name} TEMPLATE {TEMPLATE}")
    store = await Store.open(url)
    try:
        built = await store.get_meta("bench_built_at")
        assert built is not None
        shift = time.time() - float(built)
        moved = []
        for match_id, data in await store.running_clocks():
            clock = ClockState.from_json(data)
            seats = tuple(replace(s, since=s.since + shift) if s.since is not None else s for s in clock.seats)
            moved.append((match_id, replace(clock, seats=seats).to_json()))
        await store.save_clocks(moved)
        await store.set_meta("clock_heartbeat", repr(time.time() - downtime))
    finally:
        await store.close()


def scale_postgres_rows(runs: int = 3) -> list[tuple[str, str, str]]:
    from tests.postgres import PostgresServer  # dev-only: the throwaway server of the tests

    source, _ = cached_database()
    server = PostgresServer()
    server.start()
    rows = []
    try:
        loaded = asyncio.run(load_template(source, server.url(), server.url(TEMPLATE)))
        rows.append(("scale-postgres: copy 100k matches into PostgreSQL (migrate's copy)", f"{loaded:.0f} s", ""))
        with tempfile.TemporaryDirectory() as scratch:
            for label, downtime in (("down 1 min", 60.0), ("down 2 h", 7200.0)):
                results: list[StartUp] = []
                for number in range(runs):
                    name = f"bench_run_{number}"
                    asyncio.run(prepare_run(server.url(), server.url(name), name, downtime))
                    results.append(asyncio.run(start_once(server.url(name), Path(scratch))))
                one, five, _ = os.getloadavg()
                identify = statistics.median(r.identify_s for r in results)
                cpu = statistics.median(r.identify_cpu_s for r in results)
                rss = statistics.median(r.peak_rss_mb for r in results)
                rows.append(
                    (
                        f"scale-postgres: start-up to IDENTIFY (CPU), 100k matches, 10k clocks, {label}",
                        f"{identify:.2f} s ({cpu:.2f} s CPU; load {one:.2f}/{five:.2f})",
                        "≤ 2 s",
                    )
                )
                rows.append((f"scale-postgres: peak RSS of the bot, {label}", f"{rss:.0f} MB", "≤ 200 MB per process"))
    finally:
        server.stop()
    return rows
