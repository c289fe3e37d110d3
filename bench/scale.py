"""`python -m bench scale`: start-up time and memory of a bot holding a large community.

The target: with 100,000 stored matches and 10,000 running clocks, a process starts
in ≤ 2 s and stays ≤ 200 MB.

The database: real rows, multiplied.  A few dozen template matches of every game are played
through the real `MatchService` (random moves; finished ones end by the rules or by a
resignation after 10-80 plies, live ones stop after 5-60 plies with a `daily` clock), then
their rows (match, seats, move log, last outbox row, rating changes) are copied with new ids,
channels, guilds and players in bulk inserts inside one transaction.  The mix: 86 % finished
(rated, with move logs), 10 % live with a running clock, 4 % aborted, declined, cancelled or
open challenges.  Building takes a while, so the file is cached in the temp directory, keyed
by schema version and builder version; every run measures a fresh copy of it.

The measurement: the real `python -m bot` in a fresh process against the protocol-level
fake Discord (tests/fake_discord, imported only when this section runs), with the copy as
its database.  Before the start the copy's clocks are moved to "now" (so that no clock is
overdue) and its heartbeat set to `downtime` seconds ago.  Reported per run:
- to IDENTIFY: process start until the bot identifies on the gateway, i.e. until
  `setup_hook` finished (start-up checks, store open and migration check, rating catch-up,
  cogs, clocks loaded and armed, outbox drain started, render workers warm);
- to on_ready: until discord.py dispatched `on_ready` (the bot's "connected" log line).  This
  always includes discord.py's own wait of `guild_ready_timeout` (2 s) after the last
  GUILD_CREATE, which no bot can shorten, so it is reported but not the target's figure;
- on_ready work: from `on_ready` until the process went idle (its CPU time stopped growing
  for 0.5 s): the `on_ready` listeners (computer opponents, tournaments) are done, and so is
  the page scan of a file over 128 MB, which starts then at the lowest priority
  (bot/store/health.py);
- the CPU time the bot process used until IDENTIFY, which depends little on the load;
- peak RSS (VmHWM) of the bot process, and the largest of its render workers.
Two downtimes: a one-minute restart (no clock changes) and a two-hour outage (every clock
re-armed with forgiven downtime and saved).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from bot.clocks import ClockState
from bot.games import GAMES
from bot.services.matches import MatchService
from bot.services.ratings import RatingBook
from bot.store import MIGRATIONS, MatchRow, Store

BUILDER_VERSION = 1
"""Bump when the mix below changes: cached databases of another version are rebuilt."""
MATCHES = 100_000
CLOCKS = 10_000
TEMPLATES_PER_GAME = 16
"""Finished and live templates per game (each kind)."""
GUILDS = 500
PLAYERS = 20_000
PROJECT = str(Path(__file__).resolve().parent.parent)
"""The checkout, for the bot process's import path (`python -m bot` from a scratch directory)."""


def cache_file(matches: int = MATCHES, clocks: int = CLOCKS) -> Path:
    name = f"boneyard-bench-scale-s{len(MIGRATIONS)}-b{BUILDER_VERSION}-{matches}-{clocks}.sqlite3"
    return Path(tempfile.gettempdir()) / name


@dataclass(frozen=True)
class Template:
    """One played match's rows (column -> value) to be copied."""

    match: dict[str, Any]
    moves: list[tuple[Any, ...]]
    """(ply, seat, move, public, forced, at)"""
    outbox: dict[str, Any] | None
    changes: str | None
    """rated_matches.changes"""


async def _columns(store: Store, table: str) -> list[str]:
    return [str(r[1]) for r in await store.fetch_all(f"PRAGMA table_info({table})")]


async def _play_templates(store: Store, rng: random.Random) -> tuple[list[Template], list[Template]]:
    """(finished, live) templates of every game, played through the service."""
    service = MatchService(store, cache_size=64)
    ratings = RatingBook(store)

    async def rate(row: MatchRow) -> None:
        await ratings.record(row)

    service.finish_listeners.append(rate)
    finished_ids, live_ids = [], []
    channel = 0
    for game in GAMES:
        options = {"ply_limit": "200"} if game == "focus" else {}
        for kind in ("finished", "live") * TEMPLATES_PER_GAME:
            channel += 1
            row = await service.challenge(
                game=game,
                channel_id=channel,
                guild_id=1,
                challenger_id=1,
                opponent_id=2,
                options=options,
                seat_pref="first",
                clock="daily",
            )
            update = await service.accept(row.id, 2)
            plies = rng.randrange(10, 81) if kind == "finished" else rng.randrange(5, 61)
            for _ in range(plies):
                if update.outcome is not None or not update.to_move:
                    break
                user = update.to_move[0]
                update = await service.play(row.id, user, rng.choice(await service.legal_moves(row.id, user)))
            if kind == "finished":
                if update.outcome is None:
                    await service.resign(row.id, rng.choice((1, 2)))
                finished_ids.append(row.id)
            elif update.outcome is None:
                live_ids.append(row.id)
    return [await _template(store, i) for i in finished_ids], [await _template(store, i) for i in live_ids]


async def _template(store: Store, match_id: int) -> Template:
    columns = await _columns(store, "matches")
    row = await store.fetch_one(f"SELECT {', '.join(columns)} FROM matches WHERE id = ?", (match_id,))
    assert row is not None
    moves = await store.fetch_all(
        "SELECT ply, seat, move, public, forced, at FROM moves WHERE match_id = ? ORDER BY ply", (match_id,)
    )
    outbox_columns = await _columns(store, "outbox")
    last = await store.fetch_one(
        f"SELECT {', '.join(outbox_columns)} FROM outbox WHERE match_id = ? ORDER BY id DESC LIMIT 1", (match_id,)
    )
    changes = await store.fetch_one("SELECT changes FROM rated_matches WHERE match_id = ?", (match_id,))
    return Template(
        match=dict(zip(columns, row, strict=True)),
        moves=list(moves),
        outbox=None if last is None else dict(zip(outbox_columns, last, strict=True)),
        changes=None if changes is None else str(changes[0]),
    )


def _shifted_clock(clock_json: str, started: float) -> str:
    """The clock with its running seat's move started at `started`."""
    clock = ClockState.from_json(json.loads(clock_json))
    seats = tuple(replace(s, since=started) if s.running else s for s in clock.seats)
    return json.dumps(replace(clock, seats=seats).to_json())


@dataclass
class _Rows:
    matches: list[tuple[Any, ...]]
    seats: list[tuple[int, int, int]]
    moves: list[tuple[Any, ...]]
    outbox: list[tuple[Any, ...]]
    rated: list[tuple[int, str]]


def _multiply(
    finished: list[Template], live: list[Template], matches: int, clocks: int, rng: random.Random, now: float
) -> tuple[list[str], list[str], _Rows]:
    """Rows of `matches` matches made from the templates (`clocks` of them live)."""
    match_columns = list(finished[0].match)
    outbox_columns = [c for c in (finished[0].outbox or live[0].outbox or {}) if c != "id"]
    rows = _Rows([], [], [], [], [])
    other = ("aborted", "declined", "cancelled", "challenge")
    for match_id in range(1, matches + 1):
        roll = rng.random()
        if match_id <= clocks:
            template, status = rng.choice(live), "active"
        elif roll < 0.04 * matches / (matches - clocks):
            template, status = rng.choice(finished), rng.choice(other)
        else:
            template, status = rng.choice(finished), "finished"
        a, b = rng.sample(range(1, PLAYERS + 1), 2)
        at = now - rng.uniform(0, 365 * 86400) if status != "active" else now - rng.uniform(0, 6 * 3600)
        values = dict(template.match)
        values.update(
            id=match_id,
            guild_id=rng.randrange(1, GUILDS + 1) * 1_000_003,
            channel_id=10_000_000 + match_id,
            challenger_id=a,
            opponent_id=b,
            created_at=at - 3600,
            updated_at=at,
            status=status,
            message_id=None,
        )
        started = status in ("active", "finished", "aborted")
        if status == "active":
            values["clock"] = _shifted_clock(values["clock"], at)
        elif not started:
            values.update(snapshot=None, version=0, outcome=None)
        rows.matches.append(tuple(values[c] for c in match_columns))
        if not started:
            continue
        rows.seats += [(match_id, 0, a), (match_id, 1, b)]
        rows.moves += [(match_id, *move) for move in template.moves]
        if template.outbox is not None:
            box = dict(template.outbox)
            box.update(key=f"bench:{match_id}", match_id=match_id, channel_id=values["channel_id"])
            box.update(guild_id=values["guild_id"], sent_at=at, message_id=match_id, attempts=1)
            rows.outbox.append(tuple(box[c] for c in outbox_columns))
        if status == "finished" and template.changes is not None:
            rows.rated.append((match_id, template.changes))
    return match_columns, outbox_columns, rows


async def build(path: Path, *, matches: int = MATCHES, clocks: int = CLOCKS, seed: int = 15) -> dict[str, float]:
    """Make the bench database at `path` (a new file); returns build figures."""
    rng = random.Random(seed)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch:
        templates = await Store.open(Path(scratch) / "templates.sqlite3")
        try:
            finished, live = await _play_templates(templates, rng)
        finally:
            await templates.close()
    played = time.perf_counter() - started
    now = time.time()
    match_columns, outbox_columns, rows = _multiply(finished, live, matches, clocks, rng, now)
    store = await Store.open(path)
    try:
        inserting = time.perf_counter()
        async with store.transaction() as tx:
            marks = ", ".join("?" for _ in match_columns)
            await tx.executemany(f"INSERT INTO matches ({', '.join(match_columns)}) VALUES ({marks})", rows.matches)
            await tx.executemany("INSERT INTO seats (match_id, seat, user_id) VALUES (?, ?, ?)", rows.seats)
            await tx.executemany(
                "INSERT INTO moves (match_id, ply, seat, move, public, forced, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                rows.moves,
            )
            marks = ", ".join("?" for _ in outbox_columns)
            await tx.executemany(f"INSERT INTO outbox ({', '.join(outbox_columns)}) VALUES ({marks})", rows.outbox)
            await tx.executemany("INSERT INTO rated_matches (match_id, changes) VALUES (?, ?)", rows.rated)
            await tx.executemany(
                "INSERT INTO ratings (user_id, game, value, games, wins, draws, losses) VALUES (?, ?, ?, 10, 5, 0, 5)",
                [(user, game, 1500.0 + rng.uniform(-300, 300)) for user in range(1, PLAYERS + 1) for game in GAMES],
            )
            await tx.execute("INSERT INTO meta (key, value) VALUES ('bench_built_at', ?)", (repr(now),))
        inserted = time.perf_counter() - inserting
    finally:
        await store.close()
    return {
        "templates_s": played,
        "insert_s": inserted,
        "moves": float(len(rows.moves)),
    }


def cached_database(matches: int = MATCHES, clocks: int = CLOCKS) -> tuple[Path, dict[str, float] | None]:
    """The cached bench database, built first when missing (returns the build figures then)."""
    path = cache_file(matches, clocks)
    if path.exists():
        return path, None
    partial = path.with_name(path.name + ".partial")
    partial.unlink(missing_ok=True)
    figures = asyncio.run(build(partial, matches=matches, clocks=clocks))
    figures["bytes"] = float(partial.stat().st_size)
    partial.replace(path)
    return path, figures


def prepare_copy(source: Path, target: Path, downtime: float) -> None:
    """A fresh copy of the bench database whose clocks run as of now, down for `downtime` s."""
    shutil.copyfile(source, target)
    now = time.time()
    with contextlib.closing(sqlite3.connect(target, isolation_level=None)) as db:
        (built,) = db.execute("SELECT value FROM meta WHERE key = 'bench_built_at'").fetchone()
        shift = now - float(built)
        db.execute("BEGIN")
        moved = []
        for match_id, clock in db.execute("SELECT id, clock FROM matches WHERE status = 'active'").fetchall():
            state = ClockState.from_json(json.loads(clock))
            seats = tuple(replace(s, since=s.since + shift) if s.since is not None else s for s in state.seats)
            moved.append((json.dumps(replace(state, seats=seats).to_json()), match_id))
        db.executemany("UPDATE matches SET clock = ? WHERE id = ?", moved)
        db.execute(
            "INSERT INTO meta (key, value) VALUES ('clock_heartbeat', ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (repr(now - downtime),),
        )
        db.execute("COMMIT")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")


@dataclass(frozen=True)
class StartUp:
    identify_s: float
    identify_cpu_s: float
    """CPU seconds the bot process used until IDENTIFY (hardly depends on the box's load)."""
    on_ready_s: float
    settled_s: float
    peak_rss_mb: float
    worker_peak_rss_mb: float


def _status_kb(pid: int, field: str) -> int:
    with contextlib.suppress(OSError), Path(f"/proc/{pid}/status").open() as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def _cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            found += [int(c) for c in (task / "children").read_text().split()]
    return found


async def _wait_until_idle(pid: int, quiet: float = 0.5, limit: float = 60.0) -> float:
    """Seconds (perf_counter) when the process's CPU time last stopped growing for `quiet` s."""
    deadline = time.perf_counter() + limit
    last, since = _cpu_ticks(pid), time.perf_counter()
    while time.perf_counter() < deadline:
        await asyncio.sleep(0.05)
        ticks = _cpu_ticks(pid)
        if ticks != last:
            last, since = ticks, time.perf_counter()
        elif time.perf_counter() - since >= quiet:
            return since
    raise TimeoutError("the bot never went idle")


async def start_once(database: Path | str, work: Path) -> StartUp:
    """Start the real bot on `database` (a SQLite file or a PostgreSQL URL) against the fake
    Discord; measure; stop it (SIGTERM)."""
    from tests.fake_discord import FakeDiscord  # dev-only: the fake Discord

    where = {"DATABASE_URL": database} if isinstance(database, str) else {"DATABASE_PATH": str(database)}
    async with FakeDiscord() as fake:
        environment = {
            "PATH": os.environ.get("PATH", ""),
            "DISCORD_TOKEN": "bench",
            **where,
            "DISCORD_API_BASE": fake.base_url,
            "LOG_LEVEL": "INFO",
            "PYTHONPATH": PROJECT,
        }
        began = time.perf_counter()
        bot = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=work, env=environment, stderr=asyncio.subprocess.PIPE
        )
        assert bot.stderr is not None
        on_ready = asyncio.Event()
        log: list[str] = []

        async def read_log() -> None:
            assert bot.stderr is not None
            async for raw in bot.stderr:
                line = raw.decode(errors="replace").rstrip()
                log.append(line)
                if " connected as " in line:
                    on_ready.set()

        reader = asyncio.create_task(read_log())
        try:
            await fake.wait_until_ready(timeout=60)
            identified = time.perf_counter()
            cpu = _cpu_ticks(bot.pid) / os.sysconf("SC_CLK_TCK")
            await asyncio.wait_for(on_ready.wait(), 60)
            ready = time.perf_counter()
            settled = await _wait_until_idle(bot.pid)
            peak = _status_kb(bot.pid, "VmHWM")
            workers = max((_status_kb(child, "VmHWM") for child in _children(bot.pid)), default=0)
        finally:
            bot.send_signal(signal.SIGTERM)
            await asyncio.wait_for(bot.wait(), 60)
            await reader
    if bot.returncode != 0 or any("Traceback" in line for line in log):
        raise RuntimeError("the bot did not start and stop cleanly:\n" + "\n".join(log[-40:]))
    return StartUp(identified - began, cpu, ready - began, settled - began, peak / 1024, workers / 1024)


def measure(database: Path, downtime: float, runs: int = 3) -> list[StartUp]:
    results = []
    with tempfile.TemporaryDirectory() as scratch:
        for number in range(runs):
            copy = Path(scratch) / f"run-{number}.sqlite3"
            prepare_copy(database, copy, downtime)
            results.append(asyncio.run(start_once(copy, Path(scratch))))
            for leftover in Path(scratch).glob(f"run-{number}.sqlite3*"):
                leftover.unlink()
    return results


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.2f}/{five:.2f}"


def scale_rows() -> list[tuple[str, str, str]]:
    """(what, value, target) rows for the bench's table."""
    rows: list[tuple[str, str, str]] = []
    database, built = cached_database()
    if built is not None:
        rows.append(
            (
                "scale: build 100k matches (templates / bulk insert)",
                f"{built['templates_s']:.1f} / {built['insert_s']:.1f} s, {built['moves']:,.0f} moves, "
                f"{built['bytes'] / 2**20:.0f} MB",
                "cached for reruns",
            )
        )
    with tempfile.TemporaryDirectory() as scratch:
        cases = [("empty database", None), ("100k matches, 10k clocks, down 1 min", 60.0)]
        cases.append(("100k matches, 10k clocks, down 2 h", 7200.0))
        for label, downtime in cases:
            if downtime is None:
                results = []
                for number in range(3):
                    empty = Path(scratch) / f"empty-{number}.sqlite3"
                    results.append(asyncio.run(start_once(empty, Path(scratch))))
            else:
                results = measure(database, downtime)
            load = _load()

            def median(field: str, results: list[StartUp] = results) -> float:
                return float(statistics.median(getattr(r, field) for r in results))

            work = statistics.median(r.settled_s - r.on_ready_s for r in results)
            rows.append(
                (
                    f"scale: start-up to IDENTIFY (CPU), {label}",
                    f"{median('identify_s'):.2f} s ({median('identify_cpu_s'):.2f} s CPU; {load})",
                    "≤ 2 s",
                )
            )
            rows.append(
                (
                    f"scale: then on_ready (discord.py waits 2 s) / work after it, {label}",
                    f"{median('on_ready_s'):.2f} / {max(0.0, work):.2f} s",
                    "",
                )
            )
            rows.append(
                (
                    f"scale: peak RSS, {label}: bot / largest worker",
                    f"{median('peak_rss_mb'):.0f} / {median('worker_peak_rss_mb'):.0f} MB",
                    "≤ 200 MB per process",
                )
            )
    return rows
