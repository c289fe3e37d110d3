"""`python -m bench`: the numbers behind the performance targets.

Timing goals are checked here, by a developer on a quiet machine, never by timed unit
tests (those would be flaky on a loaded CI box).  Every figure is printed in one table.

    python -m bench            # everything
    python -m bench games      # only playout and render figures
    python -m bench service    # only service latency, event-loop lag and memory
    python -m bench clocks     # idle cost of 10,000 running clocks, reminder latency
    python -m bench tournaments  # Swiss pairing of a 512-player event
    python -m bench threads    # /play -> thread -> first board, through the fake Discord
    python -m bench throughput   # moves/s with pictures (processes vs threads), CPU per move and picture
    python -m bench render     # every picture against a peer pipeline (needs the bench extra)
    python -m bench replay     # /replay of a 400-ply Focus and a long Wonderland game
    python -m bench history    # /history page time with 1k, 10k and 100k stored matches
    python -m bench scale      # start-up and memory with 100k matches and 10k clocks (bench/scale.py)
    python -m bench scale-postgres  # the same start-up on PostgreSQL
    python -m bench snapshots  # largest snapshot at any ply of random complete games, every variant
    python -m bench processes  # moves/s of 1 vs 2 bot processes on one PostgreSQL (no pictures)
    python -m bench ai         # computer players: strength, thinking time, loop stall (hours)
    python -m bench attention  # posts, pings and DMs a complete game of each sends each player
    python -m bench joins      # 1,000 /tournament join at once: how soon each is acknowledged
    python -m bench roundtrips # statements, commits and latency of a move on a durable PostgreSQL
    python -m bench analysis   # /analyse: CPU per 100 plies per game, a 2,000-ply Focus game
"""

from __future__ import annotations

import asyncio
import json
import os
import pickle
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import renderers
from bench import render as render_bench
from bench.clocks import bench_idle_clocks
from bench.moves import play_random_move, timed_random_moves
from bench.tournaments import bench_swiss_pairing
from bot.clocks import PRESETS, ClockEvent, ClockKeeper, ClockState
from bot.games import CHANCE, GAMES, GameState
from bot.infra.worker_pool import WorkerPool, machine_workers
from bot.services.matches import MatchService
from bot.store import Store
from bot.store.clocks import HEARTBEAT_KEY, MatchClockStore
from bot.tournaments import Tournament
from renderers import tournament as tournament_pictures


@dataclass(frozen=True)
class Row:
    what: str
    value: str
    target: str = ""


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


BOUNDED_PLAYOUTS: dict[str, dict[str, object]] = {"focus": {"ply_limit": 400}}
"""Options that give random playouts of a game a bound of their own: Focus has no move
limit by default, and random players almost never run out of stacks and reserve."""


def start_bounded(key: str) -> GameState:
    return GAMES[key].start(options=BOUNDED_PLAYOUTS.get(key, {}))


def random_positions(state: GameState, rng: random.Random) -> Iterator[GameState]:
    """Every state of one random game, start to end."""
    while True:
        yield state
        if state.outcome is not None:
            return
        if CHANCE in state.turn:
            state = state.play(CHANCE, state.sample_chance(rng))
            continue
        seat = rng.choice(sorted(state.turn))
        state = state.play(seat, rng.choice(state.legal_moves(seat)))


def playout_speed(key: str, seconds: float = 2.0) -> float:
    """Moves per second of random play, legal move generation included."""
    rng = random.Random(1)
    moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in random_positions(start_bounded(key), rng):
            moves += 1
    return moves / (time.perf_counter() - start)


def render_figures(key: str, samples: int = 40) -> tuple[float, float, int, float | None]:
    """(median ms, p95 ms, largest PNG bytes, private median ms or None) over positions
    taken from the start, middle and end of random games."""
    rng = random.Random(2)
    views: list[dict[str, Any]] = []
    privates: list[dict[str, Any]] = []
    while len(views) < samples:
        states = list(random_positions(start_bounded(key), rng))
        for state in (states[0], states[len(states) // 2], states[-1]):
            views.append(state.view(None))
            privates.append(state.view(0))
    header = renderers.Header(players=("Alice", "Bob"), ply=12)
    times, sizes = [], []
    for view in views[:samples]:
        t = time.perf_counter()
        png = renderers.render(key, view, header)
        times.append((time.perf_counter() - t) * 1000)
        sizes.append(len(png))
    private_ms = None
    if renderers.has_private_picture(key):
        private_times = []
        for view in privates[:samples]:
            t = time.perf_counter()
            renderers.render_private(key, view, header)
            private_times.append((time.perf_counter() - t) * 1000)
        private_ms = statistics.median(private_times)
    return statistics.median(times), percentile(times, 0.95), max(sizes), private_ms


def largest_snapshot(key: str, games: int = 10, max_plies: int = 2_500) -> tuple[int, int]:
    """(largest `json.dumps(state.dump())` in bytes, the ply where it was seen) over every
    position of `games` random games with default options, each cut at `max_plies`."""
    rng = random.Random(5)
    largest, where = 0, 0
    for _ in range(games):
        for ply, state in enumerate(random_positions(GAMES[key].start(), rng)):
            size = len(json.dumps(state.dump()))
            if size > largest:
                largest, where = size, ply
            if ply >= max_plies:
                break
    return largest, where


def game_rows() -> list[Row]:
    rows = []
    for key in GAMES:
        size, ply = largest_snapshot(key)
        rows.append(Row(f"{key}: largest snapshot (random games)", f"{size / 1024:.1f} KB at ply {ply}", "≤ 4 KB"))
        rows.append(Row(f"{key}: random playout", f"{playout_speed(key):,.0f} moves/s"))
        median, p95, size, private_ms = render_figures(key)
        rows.append(Row(f"{key}: render median / p95", f"{median:.1f} / {p95:.1f} ms"))
        rows.append(Row(f"{key}: largest PNG", f"{size / 1024:.0f} KB"))
        if private_ms is not None:
            rows.append(Row(f"{key}: private picture median", f"{private_ms:.1f} ms"))
    return rows


async def _service_with_matches(path: Path, count: int) -> tuple[Store, MatchService, list[int]]:
    store = await Store.open(path)
    service = MatchService(store, cache_size=256)
    ids = []
    for i in range(count):
        row = await service.challenge(
            game="focus", channel_id=10_000 + i, guild_id=1, challenger_id=1, opponent_id=2, seat_pref="first"
        )
        await service.accept(row.id, 2)
        ids.append(row.id)
    return store, service, ids


async def service_latency(directory: Path, matches: int = 500, moves: int = 1500) -> tuple[float, float]:
    store, service, ids = await _service_with_matches(directory / "latency.sqlite3", matches)
    times, _cpu = await timed_random_moves(service, ids, moves, random.Random(3))
    await store.close()
    return statistics.median(times), percentile(times, 0.99)


async def service_move_at_plies(
    directory: Path, plies: tuple[int, ...] = (50, 2_000), samples: int = 30
) -> dict[int, tuple[float, float]]:
    """Median ms of one Focus move through the service at each of `plies` of a random game
    with no move limit: (state cached, state loaded from its snapshot).  The second figure
    includes reading the log's moves since the last capture and rebuilding the repetition
    counts from them."""
    store = await Store.open(directory / "long.sqlite3")
    warm = MatchService(store, cache_size=256)
    cold = MatchService(store, cache_size=0)
    row = await warm.challenge(
        game="focus", channel_id=1, guild_id=1, challenger_id=1, opponent_id=2, seat_pref="first"
    )
    await warm.accept(row.id, 2)
    rng = random.Random(6)
    figures: dict[int, tuple[float, float]] = {}
    ply = 0
    for target in plies:
        while ply < target:
            await play_random_move(warm, row.id, rng)
            ply += 1
        timed: list[list[float]] = [[], []]
        for which, service in enumerate((warm, cold)):
            for _ in range(samples):
                view = await service.view(row.id, None)
                user = 1 if view["turn"][0] == 0 else 2
                move = rng.choice(await service.legal_moves(row.id, user))
                t = time.perf_counter()
                await service.play(row.id, user, move)
                timed[which].append((time.perf_counter() - t) * 1000)
                ply += 1
        figures[target] = (statistics.median(timed[0]), statistics.median(timed[1]))
    await store.close()
    return figures


async def loop_lag_during_burst(directory: Path, moves: int = 200) -> float:
    """The longest the event loop was blocked (ms) while 200 moves were played and drawn
    (in worker processes, as the bot draws them)."""
    store, service, ids = await _service_with_matches(directory / "burst.sqlite3", 20)
    pool = WorkerPool(preload=("renderers", "renderers.focus"))
    await pool.warm()
    worst = 0.0
    done = asyncio.Event()

    async def watch() -> None:
        nonlocal worst
        while not done.is_set():
            t = time.perf_counter()
            await asyncio.sleep(0.005)
            worst = max(worst, (time.perf_counter() - t) * 1000 - 5)

    watcher = asyncio.create_task(watch())
    rng = random.Random(4)

    async def one(match_id: int) -> None:
        await play_random_move(service, match_id, rng)
        view = await service.view(match_id, None)
        await pool.run(renderers.render, "focus", view, renderers.Header())

    for start in range(0, moves, 20):
        await asyncio.gather(*(one(ids[i % len(ids)]) for i in range(start, start + 20)))
    done.set()
    await watcher
    await pool.close()
    await store.close()
    return worst


@dataclass(frozen=True)
class Throughput:
    moves_per_second: float
    lag_median_ms: float
    lag_p99_ms: float
    loop_cpu_ms: float
    """CPU of the bot's own process per move (event loop, service, database thread, sending to workers)."""
    worker_cpu_ms: float | None
    """CPU of the worker processes per move, its picture (None: drawn in threads, inside `loop_cpu_ms`)."""
    load: float
    """The machine's 1-minute load average at the end of the run."""

    @property
    def quiet_rate(self) -> float:
        """Moves/s this CPU per move allows on a machine whose cores do nothing else: the
        cores divided by the CPU of one move, and no more than the one event loop manages."""
        total = self.loop_cpu_ms + (self.worker_cpu_ms or 0.0)
        return min(machine_workers() * 1000 / total, 1000 / self.loop_cpu_ms)


async def moves_with_pictures(
    directory: Path, *, processes: bool, matches: int = 40, seconds: float = 8.0
) -> Throughput:
    """Moves per second through `MatchService.play` in one process, each followed by its
    board picture (drawn as the presenter draws it) and a stubbed send, with `matches`
    channels busy at once; and the event-loop lag meanwhile (how late a 5 ms sleep wakes).
    CPU time is counted in the timed window only, for this process and for the workers.

    `processes` draws in a `WorkerPool` (the bot today), else in threads (the bot before)."""
    store, service, ids = await _service_with_matches(directory / f"throughput-{processes}.sqlite3", matches)
    pool = WorkerPool(preload=("renderers", "renderers.focus")) if processes else None
    if pool is not None:
        await pool.warm()
    lags: list[float] = []
    done = asyncio.Event()

    async def watch() -> None:
        while not done.is_set():
            t = time.perf_counter()
            await asyncio.sleep(0.005)
            lags.append(max(0.0, (time.perf_counter() - t) * 1000 - 5))

    async def stubbed_send(png: bytes) -> None:
        await asyncio.sleep(0)

    played = 0
    rng = random.Random(5)

    async def channel(match_id: int, until: float) -> None:
        nonlocal played
        while time.perf_counter() < until:
            view = await service.view(match_id, None)
            if not view["turn"]:
                return
            user = 1 if view["turn"][0] == 0 else 2
            update = await service.play(match_id, user, rng.choice(await service.legal_moves(match_id, user)))
            header = renderers.Header(players=("alice", "bob"), ply=update.ply)
            if pool is not None:
                png = await pool.run(renderers.render, "focus", update.public_view, header)
            else:
                png = await asyncio.to_thread(renderers.render, "focus", update.public_view, header)
            await stubbed_send(png)
            played += 1

    watcher = asyncio.create_task(watch())
    workers_before = pool.cpu_seconds() if pool is not None else None
    cpu_before = time.process_time()
    start = time.perf_counter()
    await asyncio.gather(*(channel(match_id, start + seconds) for match_id in ids))
    elapsed = time.perf_counter() - start
    loop_cpu = time.process_time() - cpu_before
    workers_after = pool.cpu_seconds() if pool is not None else None
    done.set()
    await watcher
    if pool is not None:
        await pool.close()
    await store.close()
    worker_cpu = None
    if workers_before is not None and workers_after is not None:
        worker_cpu = (workers_after - workers_before) * 1000 / played
    return Throughput(
        played / elapsed,
        statistics.median(lags),
        percentile(lags, 0.99),
        loop_cpu * 1000 / played,
        worker_cpu,
        os.getloadavg()[0],
    )


async def throughput_rows(rounds: int = 3) -> list[Row]:
    """Each mode `rounds` times, alternating (a shared machine's load drifts); medians."""
    runs: dict[bool, list[Throughput]] = {False: [], True: []}
    with tempfile.TemporaryDirectory() as tmp:
        for index in range(rounds):
            for processes in (False, True):
                directory = Path(tmp) / f"{index}"
                directory.mkdir(exist_ok=True)
                runs[processes].append(await moves_with_pictures(directory, processes=processes, seconds=5.0))
    rows = []
    for processes, label in ((False, "threads (before)"), (True, "worker processes")):
        figures = runs[processes]
        rows.append(
            Row(
                f"moves/s with pictures, stubbed sends, one process: {label}",
                f"{statistics.median(f.moves_per_second for f in figures):.0f} "
                f"(runs {', '.join(f'{f.moves_per_second:.0f}' for f in figures)}; "
                f"load {', '.join(f'{f.load:.1f}' for f in figures)})",
                "≥ 150" if processes else "",
            )
        )
        rows.append(
            Row(
                f"  event-loop lag meanwhile, median / p99: {label}",
                f"{statistics.median(f.lag_median_ms for f in figures):.1f} / "
                f"{statistics.median(f.lag_p99_ms for f in figures):.1f} ms",
                "p99 ≤ 5 ms" if processes else "",
            )
        )
        workers = [f.worker_cpu_ms for f in figures if f.worker_cpu_ms is not None]
        rows.append(
            Row(
                f"  CPU per move, bot process{' / workers' if workers else ''}: {label}",
                f"{statistics.median(f.loop_cpu_ms for f in figures):.2f}"
                + (f" / {statistics.median(workers):.2f}" if workers else "")
                + " ms",
            )
        )
        rows.append(
            Row(
                f"  moves/s that CPU allows on {machine_workers()} quiet cores: {label}",
                f"{statistics.median(f.quiet_rate for f in figures):.0f}",
                "≥ 150" if processes else "",
            )
        )
    return rows + picture_cpu_rows()


def picture_cpu(key: str, samples: int = 24) -> tuple[float, float]:
    """(median CPU ms, median PNG KB) of one board picture of `key` as a worker makes it:
    unpickle the view, draw, quantise, encode, pickle the PNG.  Process time, so it does not
    depend on the load; positions from random games, drawn in a shuffled order."""
    rng = random.Random(9)
    views: list[dict[str, Any]] = []
    while len(views) < samples:
        states = list(random_positions(start_bounded(key), rng))
        views += [states[int(len(states) * f)].view(None) for f in (0.1, 0.4, 0.7, 0.99)]
    rng.shuffle(views)
    header = renderers.Header(players=("alice", "bob"), ply=57, clocks=("4:12", "11:40"))
    for view in views[:4]:  # warm: fonts, sprites, layers of these games
        renderers.render(key, view, header)
    times, sizes = [], []
    for view in views[:samples]:
        job = pickle.dumps((key, view, header))
        t = time.process_time()
        png = renderers.render(*pickle.loads(job))
        pickle.dumps(png)
        times.append((time.process_time() - t) * 1000)
        sizes.append(len(png) / 1024)
    return statistics.median(times), statistics.median(sizes)


def picture_cpu_rows() -> list[Row]:
    rows = []
    for key in GAMES:
        ms, kb = picture_cpu(key)
        rows.append(Row(f"CPU per board picture in a worker: {key}", f"{ms:.1f} ms, {kb:.0f} KB"))
    return rows


def resident_mb() -> float:
    with Path("/proc/self/status").open() as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


async def memory_with_stored_matches(directory: Path, count: int = 10_000) -> float:
    """Resident memory after creating `count` matches and touching each once."""
    store, service, ids = await _service_with_matches(directory / "memory.sqlite3", count)
    for match_id in ids:
        await service.view(match_id, None)
    await store.close()
    return resident_mb()


def memory_in_fresh_process(count: int = 10_000) -> float:
    """Resident MB of a new interpreter holding the service and `count` stored matches.

    Why a subprocess: measured in this process the figure would include whatever the
    playout, render and latency benchmarks left allocated, not what the bot needs.  It runs
    in the checkout's root, where `bench` is importable whatever the caller's directory.
    """
    code = (
        "import asyncio, tempfile, pathlib\n"
        "from bench.sections import memory_with_stored_matches\n"
        "with tempfile.TemporaryDirectory() as d:\n"
        f"    print(asyncio.run(memory_with_stored_matches(pathlib.Path(d), {count})))\n"
    )
    root = Path(__file__).resolve().parent.parent
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root)
    return float(result.stdout.split()[-1])


async def service_rows() -> list[Row]:
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        median, p99 = await service_latency(directory)
        lag = await loop_lag_during_burst(directory)
        long_game = await service_move_at_plies(directory)
    memory = memory_in_fresh_process()
    return [
        *(
            Row(
                f"focus move at ply {ply:,}, cached / from snapshot",
                f"{cached:.2f} / {loaded:.2f} ms",
                "no worse at 2,000 than at 50",
            )
            for ply, (cached, loaded) in long_game.items()
        ),
        Row("service move latency median / p99 (500 matches)", f"{median:.2f} / {p99:.2f} ms", "p99 ≤ 5 ms"),
        Row("event-loop lag, burst of 200 moves + renders", f"{lag:.1f} ms", "≤ 50 ms"),
        Row("resident memory, 10,000 stored matches", f"{memory:.0f} MB", "≤ 200 MB"),
    ]


async def sqlite_clock_restart(directory: Path, count: int = 10_000) -> float:
    """Seconds for a restarted bot's `ClockKeeper.start()` to load, re-arm and save `count`
    running clocks from SQLite (the rows are inserted directly: only the start-up is timed)."""
    store = await Store.open(directory / "clocks.sqlite3")
    now = time.time()
    clock = json.dumps(ClockState.new(PRESETS["daily"]).start_turn({0}, now - 3600).to_json())
    async with store.transaction() as db:
        await db.executemany(
            "INSERT INTO matches (game, options, channel_id, status, challenger_id, seed, seed_hash, created_at, "
            "updated_at, clock) VALUES ('focus', '{}', ?, 'active', 1, 's', 'h', ?, ?, ?)",
            [(i, now, now, clock) for i in range(count)],
        )
    await store.set_meta(HEARTBEAT_KEY, repr(now - 60))

    async def ignore(match_id: int, event: ClockEvent) -> None:
        return None

    keeper = ClockKeeper(MatchClockStore(store), ignore, forgive_downtime_over=300.0)
    started = time.perf_counter()
    await keeper.start()
    elapsed = time.perf_counter() - started
    await keeper.close()
    await store.close()
    return elapsed


async def _sqlite_clock_restart() -> float:
    with tempfile.TemporaryDirectory() as tmp:
        return await sqlite_clock_restart(Path(tmp))


def clock_rows() -> list[Row]:
    """10,000 idle clocks through the real keeper and scheduler, with real time (~5 s)."""
    result = asyncio.run(bench_idle_clocks(n=10_000, seconds=5.0))
    restart = asyncio.run(_sqlite_clock_restart())
    return [
        Row("clocks: restart, re-arm 10,000 clocks from SQLite", f"{restart * 1000:.0f} ms"),
        Row("clocks: idle CPU, 10,000 running clocks", f"{result['idle_cpu_fraction'] * 100:.2f} % of a core", "≤ 1 %"),
        Row(
            "clocks: reminder latency max / mean",
            f"{result['latency_max_s'] * 1000:.0f} / {result['latency_mean_s'] * 1000:.0f} ms"
            f" ({result['events_fired']:.0f} fired)",
            "≤ 1 s",
        ),
        Row("clocks: start-up, load and arm 10,000", f"{result['start_s'] * 1000:.0f} ms"),
    ]


def tournament_rows() -> list[Row]:
    seconds = bench_swiss_pairing(players=512)
    rows = [Row("tournaments: Swiss pairing, 512 players (round 5)", f"{seconds * 1000:.0f} ms", "≤ 200 ms")]
    for label, fmt, players in (
        ("8-player bracket", "single_elimination", 8),
        ("64-player double elim", "double_elimination", 64),
    ):
        event = Tournament.new(fmt, [(i, f"Player {i}") for i in range(1, players + 1)])
        data = tournament_pictures.picture_data(event, "Bench Cup", "bench")
        times = []
        for _ in range(5):
            start = time.perf_counter()
            tournament_pictures.bracket_png(data)
            times.append(time.perf_counter() - start)
        rows.append(
            Row(
                f"tournaments: {label} picture median",
                f"{statistics.median(times) * 1000:.0f} ms",
                "off the event loop",
            )
        )
    return rows


TARGETS = {
    "focus: random playout": "≥ 10,000 moves/s",
    "focus: render median / p95": "median ≤ 25 ms",
    "focus: largest PNG": "≤ 150 KB",
    "domineering: random playout": "≥ 2,000 moves/s",
    "domineering: render median / p95": "median ≤ 25 ms",
    "domineering: largest PNG": "≤ 150 KB",
    "domino_wars: random playout": "≥ 5,000 moves/s",
    "domino_wars: render median / p95": "median ≤ 25 ms",
    "domino_wars: private picture median": "≤ 25 ms",
    "dominance: random playout": "≥ 2,000 moves/s",
    "dominance: render median / p95": "median ≤ 30 ms",
    "dominance: largest PNG": "≤ 200 KB",
    "wonderland: random playout": "≥ 500 moves/s",
    "wonderland: render median / p95": "median ≤ 40 ms",
}


def ai_bench_rows() -> list[Row]:
    """Computer players (bench.ai; `python -m bench.ai --games N --scale F` for a
    shorter run): the event-loop stall, then win rates and thinking times."""
    from bench import ai as ai_bench

    rows = [Row(*r) for r in ai_bench.stall_rows()]
    return rows + [Row(*r) for r in ai_bench.ai_rows()]


def analysis_rows() -> list[Row]:
    """The computer's analysis (bench.analysis): time per 100 plies, and a 2,000-ply Focus game."""
    from bench.analysis import analysis_rows as rows

    return [Row(*r) for r in rows()]


def print_table(rows: list[Row]) -> None:
    width = max(len(r.what) for r in rows)
    value_width = max(len(r.value) for r in rows)
    print(f"{'measure':<{width}}  {'value':>{value_width}}  target")
    print("-" * (width + value_width + 20))
    for row in rows:
        target = row.target or TARGETS.get(row.what, "")
        print(f"{row.what:<{width}}  {row.value:>{value_width}}  {target}")


def thread_rows() -> list[Row]:
    from bench.thread import play_to_first_board

    timings = asyncio.run(play_to_first_board())
    median, p95 = statistics.median(timings), percentile(timings, 0.95)
    return [Row("/play -> thread -> first board median / p95 (40)", f"{median:.0f} / {p95:.0f} ms", "p95 reported")]


def render_rows() -> list[Row]:
    """Our pictures' median time as a ratio of the peer pipeline's (see bench/render.py)."""
    ratios = render_bench.measure()
    if ratios is None:
        return [Row("render vs peer", "not measured", f"install the peer first: {render_bench.INSTALL_HINT}")]
    rows = []
    for r in ratios:
        verdict = "ok" if r.ratio <= r.target else "MISSED"
        value = f"{r.ours_ms:.1f} / {r.peer_ms:.1f} ms = {r.ratio:.2f}x"
        rows.append(Row(f"render vs peer: {r.what}", value, f"<= {r.target:.2f}x  {verdict}"))
    return rows


def replay_rows() -> list[Row]:
    from bench.records import LIMIT_BYTES, replay_figures

    rows = []
    for label, seconds, size, stall, cpu in asyncio.run(replay_figures()):
        rows.append(Row(f"replay: {label} render median", f"{seconds:.2f} s", "≤ 3 s, in a worker process"))
        rows.append(Row(f"replay: {label} worker CPU median", f"{cpu:.2f} s", "wall time also waits for a busy core"))
        rows.append(Row(f"replay: {label} GIF", f"{size / 1e6:.2f} MB", f"≤ {LIMIT_BYTES / 2**20:.0f} MB"))
        rows.append(Row(f"replay: {label} longest loop stall", f"{stall * 1000:.0f} ms", "near 0: not on the loop"))
    return rows


def history_rows() -> list[Row]:
    from bench.records import history_figures

    figures = asyncio.run(history_figures())
    rows = [
        Row(f"history: page 1, {stored:,} matches stored", f"{busy:.2f} / {game:.2f} / {casual:.2f} ms", "flat")
        for stored, busy, game, casual in figures
    ]
    first, last = figures[0], figures[-1]
    rows.append(Row("history: 100,000 vs 1,000 stored (busy player)", f"{last[1] / first[1]:.2f}x", "≈ 1x"))
    return rows


def ending_rows() -> list[Row]:
    from bench.records import ENDED_MATCHES, MOVES_EACH, ending_lines_figures

    seconds, written = asyncio.run(ending_lines_figures())
    what = f"{ENDED_MATCHES:,} ended matches, {ENDED_MATCHES * MOVES_EACH:,} moves"
    return [
        Row(f"endings: upgrade to migration 8, {what}", f"{seconds:.2f} s", "seconds, once, at start-up"),
        Row("endings: lines written (4 of 5 outcomes prove one)", f"{written:,}", f"≈ {ENDED_MATCHES * 4 // 5:,}"),
    ]


def attention_rows() -> list[Row]:
    from bench.attention import attention_rows as rows

    return [Row(*r) for r in rows()]


def scale_rows() -> list[Row]:
    from bench.scale import scale_rows as rows

    return [Row(*r) for r in rows()]


def snapshot_rows() -> list[Row]:
    from bench.snapshots import snapshot_rows as rows

    return [Row(*r) for r in rows()]


def process_rows() -> list[Row]:
    from bench.processes import process_rows as rows

    return [Row(*r) for r in rows()]


def join_rows() -> list[Row]:
    from bench.joins import join_rows as rows

    return [Row(*r) for r in rows()]


def roundtrip_rows() -> list[Row]:
    from bench.roundtrips import roundtrip_rows as rows

    return [Row(*r) for r in rows()]


def scale_postgres_rows() -> list[Row]:
    from bench.scale_postgres import scale_postgres_rows as rows

    return [Row(*r) for r in rows()]


SECTIONS: dict[str, Callable[[], list[Row]]] = {
    "games": game_rows,
    "service": lambda: asyncio.run(service_rows()),
    "clocks": clock_rows,
    "tournaments": tournament_rows,
    "threads": thread_rows,
    "throughput": lambda: asyncio.run(throughput_rows()),
    "render": render_rows,
    "replay": replay_rows,
    "history": history_rows,
    "endings": ending_rows,
    "scale": scale_rows,
    "scale-postgres": scale_postgres_rows,
    "snapshots": snapshot_rows,
    "processes": process_rows,
    "ai": ai_bench_rows,
    "attention": attention_rows,
    "joins": join_rows,
    "roundtrips": roundtrip_rows,
    "analysis": analysis_rows,
}


def main(argv: list[str]) -> int:
    wanted = argv or list(SECTIONS)
    unknown = [w for w in wanted if w not in SECTIONS]
    if unknown:
        print(f"unknown section(s) {unknown}; choose from {list(SECTIONS)}", file=sys.stderr)
        return 2
    rows: list[Row] = []
    for name in wanted:
        rows.extend(SECTIONS[name]())
    print_table(rows)
    return 0
