"""`python -m bench processes`: moves per second of one and of two bot processes on one PostgreSQL.

The target: two processes on one PostgreSQL play ≥ 1.7× the moves per second of
one.  What is measured is the service path only: `MatchService.play` with its transaction
(snapshot, moves, clock and the board's outbox row), with no pictures and no sends, because
pictures already use every core through the render pool whatever the number of bot
processes.  Each process plays its own matches (as shard processes own their guilds'
matches), `CHANNELS` at once, random Focus moves, for `SECONDS` from a shared start time.

The server is a throwaway PostgreSQL on loopback (tests/postgres.py) at its durable defaults
(fsync and synchronous_commit on: each move's commit waits for its WAL flush), as production
runs it; the CPU rows below are what is left once the disk's waits are taken out.  On a 2-core machine two bot
processes and the server share two cores: if one process already keeps the server and
itself busy on more than one core, the second can only add what is left, and a ratio near
1.7 needs cores to spare.  So the rows also give the CPU seconds per move of the bot
processes and of the server (load-independent), and the load average.

The last row is the scaling itself, with the cores taken out of it: process i and every
server backend that serves it are pinned to core i (found by the application name each
process connects with), so one process and each of two get the same single core.  What the
ratio can then lose is what the processes share: the server's common work, its locks and
the database.  Matches are disjoint, as shard processes' are, so no move waits for another.

The section also gives `play`'s latency with 500 live matches on the same server.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

from bench.moves import play_random_move, timed_random_moves
from bot.services.matches import MatchService
from bot.store import Store

CHANNELS = 20
SECONDS = 10.0
PROJECT = str(Path(__file__).resolve().parent.parent)


async def make_matches(url: str, count: int, first_channel: int) -> list[int]:
    store = await Store.open(url)
    service = MatchService(store, cache_size=0)
    ids = []
    for number in range(count):
        row = await service.challenge(
            game="focus",
            channel_id=first_channel + number,
            guild_id=1,
            challenger_id=1,
            opponent_id=2,
            seat_pref="first",
        )
        await service.accept(row.id, 2)
        ids.append(row.id)
    await store.close()
    return ids


async def drive(url: str, match_ids: list[int], start_at: float, seconds: float) -> dict[str, float]:
    """In a bot process: play random moves on `match_ids` from `start_at` for `seconds`."""
    store = await Store.open(url)
    service = MatchService(store, cache_size=256)
    rng = random.Random(os.getpid())
    played = 0
    for match_id in match_ids:  # warm the state cache as a running bot has it
        await service.view(match_id, None)
    await asyncio.sleep(max(0.0, start_at - time.time()))
    cpu = time.process_time()
    until = start_at + seconds

    async def channel(match_id: int) -> None:
        nonlocal played
        while time.time() < until and await play_random_move(service, match_id, rng):
            played += 1

    await asyncio.gather(*(channel(m) for m in match_ids))
    cpu = time.process_time() - cpu
    await store.close()
    return {"moves": float(played), "cpu": cpu}


def _server_ticks(server_root: Path) -> int:
    """CPU ticks of every process of the PostgreSQL server whose data directory is under `server_root`."""
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes()
            if b"postgres" not in command:
                continue
            if str(server_root).encode() not in command and not _child_of_server(entry, server_root):
                continue
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except OSError:
            continue
    return total


def _child_of_server(entry: Path, server_root: Path) -> bool:
    """A backend's command line does not name the data directory; its parent's does."""
    try:
        parent = (entry / "stat").read_text().rsplit(")", 1)[1].split()[1]
        command = Path(f"/proc/{parent}/cmdline").read_bytes()
    except OSError:
        return False
    return str(server_root).encode() in command


def _named(url: str, name: str) -> str:
    """`url` with an application name, by which `_pin` finds the process's server backends."""
    return f"{url}{'&' if '?' in url else '?'}application_name={name}"


async def _pin_until(processes: list[subprocess.Popen[str]], admin_url: str, until: float) -> None:
    """Until `until`, keep bench process i and every server backend serving it on core i.

    Backends are found by the application name each process connects with; the pool of a
    process grows under load, so the new backends are pinned on the next look (every 0.2 s)."""
    import asyncpg

    for core, process in enumerate(processes):
        os.sched_setaffinity(process.pid, {core})
    connection = await asyncpg.connect(admin_url)
    try:
        while time.time() < until:
            for row in await connection.fetch("SELECT pid, application_name FROM pg_stat_activity"):
                name = str(row["application_name"])
                if name.startswith("bench_"):
                    try:
                        os.sched_setaffinity(int(row["pid"]), {int(name.removeprefix("bench_"))})
                    except OSError:
                        continue  # the backend ended meanwhile
            await asyncio.sleep(0.2)
    finally:
        await connection.close()


def _wait(processes: list[subprocess.Popen[str]], admin_url: str | None, until: float) -> None:
    if admin_url is None:
        time.sleep(max(0.0, until - time.time()))
    else:
        asyncio.run(_pin_until(processes, admin_url, until))


def run_processes(
    url: str, groups: list[list[int]], seconds: float, server_root: Path, admin_url: str | None = None
) -> dict[str, float]:
    """Moves per second and CPU per move of one bench process per group of matches.

    `admin_url` given: each process and its server backends run on a core of their own
    (process i on core i), so one process and two get the same hardware each."""
    start_at = time.time() + 3.0  # every process has opened its store by then
    code = (
        "import asyncio, json, sys\n"
        "from bench.processes import drive\n"
        "url, ids, start, seconds = json.loads(sys.argv[1])\n"
        "print(json.dumps(asyncio.run(drive(url, ids, start, seconds))))\n"
    )
    environment = {**os.environ, "PYTHONPATH": PROJECT}
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", code, json.dumps([_named(url, f"bench_{i}"), group, start_at, seconds])],
            stdout=subprocess.PIPE,
            text=True,
            env=environment,
        )
        for i, group in enumerate(groups)
    ]
    _wait(processes, admin_url, start_at)
    server_before = _server_ticks(server_root)
    _wait(processes, admin_url, start_at + seconds)
    server_after = _server_ticks(server_root)
    results = []
    for process in processes:
        out, _ = process.communicate(timeout=120)
        if process.returncode != 0:
            raise RuntimeError(f"a bench process failed ({process.returncode})")
        results.append(json.loads(out.strip().splitlines()[-1]))
    moves = sum(r["moves"] for r in results)
    return {
        "moves_per_s": moves / seconds,
        "bot_cpu_ms_per_move": 1000 * sum(r["cpu"] for r in results) / max(moves, 1.0),
        "server_cpu_ms_per_move": 1000 * (server_after - server_before) / os.sysconf("SC_CLK_TCK") / max(moves, 1.0),
    }


async def play_latency(url: str, matches: int = 500, moves: int = 3000) -> tuple[float, float, float]:
    """(median, p99 ms, p99 CPU ms) of `MatchService.play` with `matches` live Focus matches
    on PostgreSQL (the service section measures the same on SQLite)."""
    ids = await make_matches(url, matches, 50_000)
    store = await Store.open(url)
    service = MatchService(store, cache_size=256)
    times, cpu = await timed_random_moves(service, ids, moves, random.Random(3))
    await store.close()
    times.sort()
    cpu.sort()
    return times[len(times) // 2], times[int(0.99 * (len(times) - 1))], cpu[int(0.99 * (len(cpu) - 1))]


def process_rows(rounds: int = 3) -> list[tuple[str, str, str]]:
    """The latency row, and moves per second of one and two processes: free on every core,
    and with a core each (only on a machine with two cores or more)."""
    pinned = len(os.sched_getaffinity(0)) >= 2
    from tests.postgres import PostgresServer  # dev-only: the throwaway server of the tests

    server = PostgresServer(durable=True)
    server.start()
    try:
        url = server.url("bench_processes")
        asyncio.run(_create_database(server.url(), "bench_processes"))
        first = asyncio.run(make_matches(url, CHANNELS, 1_000))
        second = asyncio.run(make_matches(url, CHANNELS, 2_000))
        latency = asyncio.run(play_latency(url))
        latency_load = os.getloadavg()
        one, two, one_core, two_cores = [], [], [], []
        for _ in range(rounds):  # alternating: a shared machine's load drifts
            one.append(run_processes(url, [first], SECONDS, server.root))
            two.append(run_processes(url, [first, second], SECONDS, server.root))
            if pinned:
                one_core.append(run_processes(url, [first], SECONDS, server.root, server.url()))
                two_cores.append(run_processes(url, [first, second], SECONDS, server.root, server.url()))
    finally:
        server.stop()
    load = os.getloadavg()

    def median(runs: list[dict[str, float]], key: str) -> float:
        values = sorted(r[key] for r in runs)
        return values[len(values) // 2]

    ratio = median(two, "moves_per_s") / median(one, "moves_per_s")
    rows = [
        (
            "processes: play median / p99 (CPU p99), 500 live matches, PostgreSQL",
            f"{latency[0]:.2f} / {latency[1]:.2f} ms ({latency[2]:.2f} ms; load {latency_load[0]:.2f})",
            "p99 ≤ 10 ms",
        ),
        (
            "processes: moves/s on one PostgreSQL, 1 / 2 processes (no pictures)",
            f"{median(one, 'moves_per_s'):.0f} / {median(two, 'moves_per_s'):.0f} = {ratio:.2f}x "
            f"(load {load[0]:.2f}/{load[1]:.2f}, {os.cpu_count()} cores)",
            "≥ 1.7x",
        ),
        (
            "processes: CPU ms per move, bot / server, 1 process",
            f"{median(one, 'bot_cpu_ms_per_move'):.2f} / {median(one, 'server_cpu_ms_per_move'):.2f}",
            "",
        ),
        (
            "processes: CPU ms per move, bot / server, 2 processes",
            f"{median(two, 'bot_cpu_ms_per_move'):.2f} / {median(two, 'server_cpu_ms_per_move'):.2f}",
            "",
        ),
    ]
    if pinned:
        per_core = median(two_cores, "moves_per_s") / median(one_core, "moves_per_s")
        rows.append(
            (
                "processes: moves/s, 1 / 2 processes, a core each (with their server backends)",
                f"{median(one_core, 'moves_per_s'):.0f} / {median(two_cores, 'moves_per_s'):.0f} = {per_core:.2f}x",
                "≥ 1.7x",
            )
        )
    return rows


async def _create_database(admin_url: str, name: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(admin_url)
    try:
        await connection.execute(f"CREATE DATABASE {name}")
    finally:
        await connection.close()
