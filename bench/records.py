"""Bench figures of match records (`python -m bench replay` / `history`).

- replay: a 400-ply Focus game and a long Wonderland game rendered as GIFs in a worker
  process (a `WorkerPool`, as the bot's), as `/replay` does: render time (median of 3), file size, and the longest stall
  of the event loop meanwhile (a process, not a thread, so it should stay near zero).
- history: the first `/history` page of a player with 1,000, 10,000 and 100,000 finished
  matches stored: the time must stay flat as the table grows (indexed ranges, no scan).
- endings: the upgrade that writes the ending lines of old matches (store migration 8) on a
  schema-7 SQLite file of 20,000 ended matches and 1.2 million moves: one pass at start-up,
  seconds, not minutes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from bot.games import GAMES
from bot.games.base import LogEntry
from bot.infra.worker_pool import WorkerPool
from bot.records.replay import ReplayJob
from bot.store import MIGRATIONS, Store
from renderers.replay_frames import render_replay

LIMIT_BYTES = 8 * 1024 * 1024


def random_job(game: str, seed: int, options: dict[str, object] | None = None) -> ReplayJob:
    """One random game of `game` as a replay job (`options`: e.g. Focus's `ply_limit`, which
    random play needs, as Focus has no move limit by default)."""
    rules = GAMES[game]
    state, rng = rules.start(options=options), random.Random(seed)
    log: list[LogEntry] = []
    while state.outcome is None:
        if -1 in state.turn:
            state = state.play(-1, state.sample_chance(rng))
        else:
            seat = rng.choice(sorted(state.turn))
            state = state.play(seat, rng.choice(state.legal_moves(seat)))
        log.extend(state.applied)
    resolved = {k: str(v) for k, v in rules.resolve_options(options).items()}
    return ReplayJob(game, resolved, tuple(log), ("alice", "bob"), ended=True)


def longest_job(game: str, seeds: range) -> ReplayJob:
    return max((random_job(game, seed) for seed in seeds), key=lambda job: len(job.log))


def timed_render(job: ReplayJob) -> tuple[int, float]:
    """In the worker: (GIF bytes, CPU seconds the render took there)."""
    start = time.process_time()
    size = len(render_replay(job))
    return size, time.process_time() - start


async def _render_in_pool(pool: WorkerPool, job: ReplayJob) -> tuple[float, int, float, float]:
    """(wall seconds, GIF bytes, longest event-loop stall, worker CPU seconds) of one render in `pool`."""
    stall = 0.0
    done = False

    async def tick() -> None:
        nonlocal stall
        while not done:
            before = time.perf_counter()
            await asyncio.sleep(0.005)
            stall = max(stall, time.perf_counter() - before - 0.005)

    ticker = asyncio.create_task(tick())
    start = time.perf_counter()
    size, cpu = await pool.run(timed_render, job)
    seconds = time.perf_counter() - start
    done = True
    await ticker
    return seconds, size, stall, cpu


async def replay_figures() -> list[tuple[str, float, int, float, float]]:
    jobs = [
        ("400-ply Focus", random_job("focus", 3, {"ply_limit": 400})),
        ("longest of 5 Wonderland", longest_job("wonderland", range(5))),
    ]
    pool = WorkerPool(1, preload=("renderers.replay_frames",))
    try:
        await pool.run(render_replay, jobs[0][1])  # warm the worker
        figures = []
        for label, job in jobs:
            runs = [await _render_in_pool(pool, job) for _ in range(3)]
            figures.append(
                (
                    f"{label} ({len(job.log)} plies)",
                    statistics.median(r[0] for r in runs),
                    max(r[1] for r in runs),
                    max(r[2] for r in runs),
                    statistics.median(r[3] for r in runs),
                )
            )
        return figures
    finally:
        await pool.close()


async def _fill(store: Store, start: int, count: int, rng: random.Random) -> None:
    """`count` finished, rated matches between 1,000 players; player 1 is in one in ten."""
    now = time.time()
    matches, seats, rated = [], [], []
    for match_id in range(start, start + count):
        a = 1 if rng.random() < 0.1 else rng.randrange(2, 1001)
        b = rng.choice([p for p in (rng.randrange(2, 1001), rng.randrange(2, 1001)) if p != a] or [1001])
        at = now - (start + count - match_id)
        game = rng.choice(list(GAMES))
        matches.append((match_id, game, match_id, a, b, at, at, json.dumps({"winners": [0], "reason": "r"})))
        seats += [(match_id, 0, a), (match_id, 1, b)]
        rated.append((match_id, json.dumps([[a, 1500.0, 1520.0], [b, 1500.0, 1480.0]])))
    async with store.transaction() as db:
        await db.executemany(
            "INSERT INTO matches (id, game, options, channel_id, status, challenger_id, opponent_id, seed, "
            "seed_hash, version, created_at, updated_at, outcome) "
            "VALUES (?, ?, '{}', ?, 'finished', ?, ?, 's', 'h', 2, ?, ?, ?)",
            matches,
        )
        await db.executemany("INSERT INTO seats (match_id, seat, user_id) VALUES (?, ?, ?)", seats)
        await db.executemany("INSERT INTO rated_matches (match_id, changes) VALUES (?, ?)", rated)


async def _page_time(store: Store, user_id: int, game: str | None) -> float:
    times = []
    for _ in range(30):
        start = time.perf_counter()
        await store.match_history(user_id, game=game, limit=5)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


async def history_figures() -> list[tuple[int, float, float, float]]:
    """(stored matches, ms for player 1's first page, ms with a game filter, ms for a casual player)."""
    rng = random.Random(7)
    figures = []
    with tempfile.TemporaryDirectory() as directory:
        store = await Store.open(Path(directory) / "history.sqlite3")
        try:
            stored = 0
            for target in (1_000, 10_000, 100_000):
                await _fill(store, stored + 1, target - stored, rng)
                stored = target
                figures.append(
                    (
                        stored,
                        await _page_time(store, 1, None) * 1000,
                        await _page_time(store, 1, "focus") * 1000,
                        await _page_time(store, 500, None) * 1000,
                    )
                )
        finally:
            await store.close()
    return figures


ENDED_MATCHES, MOVES_EACH = 20_000, 60
OLD_OUTCOMES: tuple[tuple[str, list[int], str], ...] = (
    ("finished", [1], "Orange resigned."),
    ("finished", [0], "Blue ran out of time"),
    ("finished", [], "Drawn by agreement."),
    ("aborted", [], "The match was aborted."),
    ("finished", [0], "Orange wins 30-12."),  # ended by the moves: no line
)


def _old_file(path: Path) -> None:
    """A schema-7 file (before ending lines were back-filled) of ended Dominance matches."""
    rng = random.Random(8)
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as db:
        for number, script in enumerate(MIGRATIONS[:7], start=1):
            db.executescript(f"BEGIN;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;")
        db.execute("BEGIN")
        for match_id in range(1, ENDED_MATCHES + 1):
            status, winners, reason = rng.choice(OLD_OUTCOMES)
            outcome = json.dumps({"winners": winners, "reason": reason, "scores": None})
            db.execute(
                "INSERT INTO matches (id, game, options, channel_id, status, challenger_id, opponent_id, seed, "
                "seed_hash, outcome, created_at, updated_at) "
                "VALUES (?, 'dominance', '{}', ?, ?, 1, 2, 's', 'h', ?, 0, 0)",
                (match_id, match_id, status, outcome),
            )
            db.executemany(
                "INSERT INTO seats (match_id, seat, user_id) VALUES (?, ?, ?)", [(match_id, 0, 1), (match_id, 1, 2)]
            )
            db.executemany(
                "INSERT INTO moves (match_id, ply, seat, move, public, forced, at) VALUES (?, ?, 0, 'x', 1, 0, 0)",
                [(match_id, ply) for ply in range(MOVES_EACH)],
            )
        db.execute("COMMIT")


async def ending_lines_figures() -> tuple[float, int]:
    """(seconds to open the schema-7 file with the store, migration 8 included; lines written)."""
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "old.sqlite3"
        _old_file(path)
        start = time.perf_counter()
        store = await Store.open(path)
        seconds = time.perf_counter() - start
        await store.close()
        with contextlib.closing(sqlite3.connect(path)) as db:
            (written,) = db.execute("SELECT count(*) FROM moves WHERE seat = -3").fetchone()
    return seconds, int(written)
