"""Strength and speed of the computer players (`python -m bench ai`).

Targets, per game: `normal` beats a uniformly random player in ≥ 95 % of
games (Domineering ≥ 92 %: every Domineering player built so far, the project's and an
independent one, plateaus at 91–93 % against a random player, a ceiling of its
one-turn-at-a-time design, not of the dice), `hard` beats `easy` in ≥ 70 %, and the median
thinking time per move at `normal` is ≤ 2 s on one core.  Games alternate seats; a draw
counts as not won.  Win rates come with 95 % Wilson intervals.  Thinking time is CPU time
of the worker process (one core), so other load on the machine does not inflate it.

The levels are played by their iteration budgets (deterministic; the time caps are a
safety net in production).  On a small machine the full run takes hours, so
`python -m bench.ai --games N --scale F` plays N games per pairing with every
iteration budget multiplied by F; the table says which figures were used.  Games are
played one after another in this process unless `--workers` says otherwise (the machine
is shared), and `--seed` picks the games, so a variant can be compared on the same ones.

The stall part compares the event loop's lateness idle, with the pool's workers only
sleeping, and with real searches, and reports the CPU the bot's own process used: a late
tick that used no CPU of ours was the machine's load, not our work.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import random
import resource
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from typing import Any

from bot.ai.levels import LEVELS, think_for
from bot.ai.search import choose_move
from bot.games import CHANCE, GAMES

RANDOM = "random"
PAIRINGS = (("normal", RANDOM), ("hard", "easy"))


@dataclass(frozen=True)
class GameResult:
    winner_level: str | None
    think_times: tuple[float, ...]
    """CPU seconds per move of the first level of the pairing."""


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a win rate."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = p + z * z / (2 * games)
    margin = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    denominator = 1 + z * z / games
    return ((centre - margin) / denominator, (centre + margin) / denominator)


def play_one(game: str, levels: tuple[str, str], seats: tuple[int, int], scale: float, seed: int) -> GameResult:
    """One game: `levels[i]` plays seat `seats[i]`; returns who won and move times."""
    rng = random.Random(seed)
    state = GAMES[game].start()
    by_seat = {seats[0]: levels[0], seats[1]: levels[1]}
    times: list[float] = []
    while state.outcome is None:
        if CHANCE in state.turn:
            state = state.play(CHANCE, state.sample_chance(rng))
            continue
        seat = min(state.turn)
        level = by_seat[seat]
        if level == RANDOM:
            move = rng.choice(state.legal_moves(seat))
        else:
            budget = LEVELS[level]
            iterations = max(1, round((budget.iterations or 1) * scale))
            started = time.process_time()
            move = choose_move(state, seat, replace(budget, iterations=iterations, seconds=None), rng)
            if seat == seats[0]:
                times.append(time.process_time() - started)
        state = state.play(seat, move)
    winners = state.outcome.winners
    winner = by_seat[next(iter(winners))] if len(winners) == 1 else None
    return GameResult(winner, tuple(times))


def ai_rows(
    games: int = 100,
    scale: float = 1.0,
    workers: int = 1,
    pairings: Sequence[tuple[str, str]] = PAIRINGS,
    keys: Sequence[str] = tuple(sorted(GAMES)),
    seed: int = 7,
    progress: Callable[[str], None] | None = None,
) -> Iterator[tuple[str, str, str]]:
    """(measure, value, target) rows for every game and pairing, as they are ready.

    Game i of a pairing is seeded `seed + 1000 i` and gives the first level seat i % 2,
    so two runs with the same seed play the same games.  `workers` = 1 plays them one
    after another in this process (the machine is shared); more spreads them over a pool.
    """
    for pairing in pairings:
        for game in keys:
            args = [(game, pairing, (i % 2, 1 - i % 2), scale, seed + 1000 * i) for i in range(games)]
            if workers <= 1:
                results = []
                for a in args:
                    results.append(play_one(*a))
                    if progress is not None:
                        won = sum(r.winner_level == pairing[0] for r in results)
                        progress(f"{game}: {pairing[0]} vs {pairing[1]}: {won}/{len(results)}")
            else:
                with ProcessPoolExecutor(max_workers=workers) as pool:
                    results = list(pool.map(play_one, *zip(*args, strict=True)))
            yield from _pairing_rows(game, pairing, results)
    yield ("games per pairing, budget scale, seed", f"{games}, ×{scale:g}, {seed}", "100–200, ×1")


def _pairing_rows(game: str, pairing: tuple[str, str], results: list[GameResult]) -> Iterator[tuple[str, str, str]]:
    first, second = pairing
    wins = sum(r.winner_level == first for r in results)
    draws = sum(r.winner_level is None for r in results)
    low, high = wilson(wins, len(results))
    target = ("≥ 92 %" if game == "domineering" else "≥ 95 %") if second == RANDOM else "≥ 70 %"
    yield (
        f"{game}: {first} vs {second}",
        f"{wins}/{len(results)} won ({draws} drawn) = {wins / len(results):.0%} [{low:.0%}, {high:.0%}]",
        target,
    )
    if first == "normal":
        times = sorted(t for r in results for t in r.think_times)
        yield (
            f"{game}: normal thinking median / p95",
            f"{statistics.median(times):.2f} s / {times[int(0.95 * (len(times) - 1))]:.2f} s",
            "median ≤ 2 s",
        )


@dataclass(frozen=True)
class Stall:
    """How late the event loop's ticks were while something ran, and why.

    `cpu_of_worst` is the CPU time the bot's own process (every thread: the loop, the
    pool's queue threads pickling and unpickling) used during the latest tick; when it is
    far below `worst`, the loop was waiting for a core, i.e. the machine's load, not our
    work, made it late.  `cpu_total` is that process's CPU over the whole measurement.
    """

    worst: float
    p99: float
    cpu_of_worst: float
    cpu_total: float
    took: float

    def text(self) -> str:
        return (
            f"max {self.worst * 1000:.0f} ms, p99 {self.p99 * 1000:.0f} ms; loop process CPU"
            f" {self.cpu_of_worst * 1000:.1f} ms in that tick, {self.cpu_total * 1000:.0f} ms in {self.took:.1f} s"
        )


def _process_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def _watch(done: Callable[[], bool], tick: float) -> Stall:
    """Tick the loop every `tick` seconds until `done()`, timing each tick's lateness."""
    lateness: list[tuple[float, float]] = []
    started, cpu_started = time.perf_counter(), _process_cpu()
    while not done():
        before, cpu_before = time.perf_counter(), _process_cpu()
        await asyncio.sleep(tick)
        lateness.append((time.perf_counter() - before - tick, _process_cpu() - cpu_before))
    lateness = lateness or [(0.0, 0.0)]
    delays = sorted(late for late, _cpu in lateness)
    worst, cpu_of_worst = max(lateness)
    return Stall(
        worst=worst,
        p99=delays[int(0.99 * (len(delays) - 1))],
        cpu_of_worst=cpu_of_worst,
        cpu_total=_process_cpu() - cpu_started,
        took=time.perf_counter() - started,
    )


async def _idle_stall(seconds: float, tick: float) -> Stall:
    """Event-loop lateness with nothing to do: what the machine's load alone costs."""
    end = time.perf_counter() + seconds
    return await _watch(lambda: time.perf_counter() >= end, tick)


def _sleep_in_worker(seconds: float) -> str:
    """A stand-in search that uses no CPU: isolates what the pool costs the loop."""
    time.sleep(seconds)
    return "slept"


def _stall_positions(searches: int) -> list[tuple[str, dict[str, Any], int, list[str]]]:
    """A position per game (Focus, Wonderland, Dominance, Domino Wars, ...) where the
    computer has a real choice: what `searches` concurrent computer matches think about
    (game, snapshot, seat, and the log moves the snapshot leaves out, as the bot sends)."""
    positions = []
    rng = random.Random(3)
    games = ("focus", "wonderland", "dominance", "domino_wars", "domineering")
    for game in (games * searches)[:searches]:
        state = GAMES[game].start()
        log = [e.move for e in state.applied]
        while CHANCE in state.turn or len(state.legal_moves(min(state.turn))) < 2:
            if CHANCE in state.turn:
                state = state.play(CHANCE, state.sample_chance(rng))
            else:
                seat = min(state.turn)
                state = state.play(seat, rng.choice(state.legal_moves(seat)))
            log.extend(e.move for e in state.applied)
        data = state.dump()
        needed = GAMES[game].log_needed(data)
        positions.append((game, data, min(state.turn), log[needed:] if needed is not None else []))
    return positions


async def _loop_stall(searches: int, tick: float, *, sleeping: bool = False) -> Stall:
    """Event-loop lateness while `searches` computer moves are thought about in the bot's
    own process pool (`sleeping`: workers that only sleep as long, no CPU)."""
    from bot.services.computer import make_pool  # the bot's own pool: what production runs

    positions = _stall_positions(searches)
    loop = asyncio.get_running_loop()
    pool = make_pool()
    try:
        # Warm the workers up first: spawning them is a one-off cost of the first search.
        await asyncio.gather(
            *(loop.run_in_executor(pool, think_for, g, d, s, "easy", 1, 0.01, None, m) for g, d, s, m in positions)
        )
        seconds = LEVELS["normal"].seconds or 1.0
        if sleeping:
            jobs = asyncio.gather(*(loop.run_in_executor(pool, _sleep_in_worker, seconds) for _ in positions))
        else:
            jobs = asyncio.gather(
                *(
                    loop.run_in_executor(pool, think_for, g, d, s, "normal", 1, None, None, m)
                    for g, d, s, m in positions
                )
            )
        stall = await _watch(jobs.done, tick)
        await jobs
    finally:
        pool.shutdown()
    return stall


def _load() -> str:
    one, five, _fifteen = os.getloadavg()
    return f"load {one:.1f} / {five:.1f} on {os.cpu_count()} cores"


def stall_rows(searches: int = 4) -> Iterator[tuple[str, str, str]]:
    tick = 0.005
    idle = asyncio.run(_idle_stall(10.0, tick))
    yield ("event-loop stall, idle bot", f"{idle.text()} ({_load()})", "baseline: the machine")
    sleeping = asyncio.run(_loop_stall(searches, tick, sleeping=True))
    yield (f"event-loop stall, {searches} sleeping workers", f"{sleeping.text()} ({_load()})", "the pool's own cost")
    busy = asyncio.run(_loop_stall(searches, tick))
    yield (f"event-loop stall, {searches} searches at normal", f"{busy.text()} ({_load()})", "≤ 50 ms")


def plan_rows(games: int = 6, seed: int = 5) -> Iterator[tuple[str, str, str]]:
    """Domineering with `pieces=4`: the CPU time of the plan of a turn (`root_moves`) alone,
    and within the normal level's budget (its CPU cap), over the positions of a few games."""
    from bot.ai.guides import guide_for

    guide = guide_for("domineering")
    rng = random.Random(seed)
    alone: list[float] = []
    capped: list[float] = []
    budget = LEVELS["normal"]
    for _ in range(games):
        state = GAMES["domineering"].start(options={"pieces": 4})
        while state.outcome is None:
            if CHANCE in state.turn:
                state = state.play(CHANCE, state.sample_chance(rng))
                continue
            seat = min(state.turn)
            if len(state.legal_moves(seat)) > 1:
                started = time.thread_time()
                guide.root_moves(state, seat)
                alone.append(time.thread_time() - started)
                started = time.thread_time()
                guide.root_moves(state, seat, stop=budget.stopwatch().expired)
                capped.append(time.thread_time() - started)
            state = state.play(seat, rng.choice(state.legal_moves(seat)))
    for what, times in (("whole plan", alone), (f"within normal's {budget.seconds:g} s CPU cap", capped)):
        yield (
            f"domineering pieces=4: {what}",
            f"median {statistics.median(times):.2f} s, max {max(times):.2f} s CPU ({len(times)} moves)",
            f"≤ {budget.seconds:g} s" if "cap" in what else "was 2.1 s median, 3.5 s max",
        )


def load_rows(seed: int = 3) -> Iterator[tuple[str, str, str]]:
    """What a loaded machine does to the computer's strength: iterations a `normal` search
    completes within its time cap measured in wall time (the old cap) and in CPU time (the
    cap now), at this machine's load, over a few positions per game."""
    from bot.ai.guides import guide_for
    from bot.ai.search import Stopwatch, _search

    budget = LEVELS["normal"]
    assert budget.iterations is not None and budget.seconds is not None
    for game, data, seat, later in _stall_positions(10):
        if game not in ("focus", "wonderland"):
            continue
        state = GAMES[game].load(data, later)
        candidates = guide_for(game).root_moves(state, seat, guided=False)
        counts = []
        for cap in (Stopwatch(None, budget.seconds), Stopwatch(budget.seconds, None)):
            root = _search(
                state, seat, budget.iterations, cap.expired, random.Random(seed), guide_for(game), candidates
            )
            counts.append(root.visits)
        yield (
            f"{game}: normal's iterations, wall cap / CPU cap",
            f"{counts[0]} / {counts[1]} of {budget.iterations} ({_load()})",
            "CPU cap: all, however loaded",
        )


def _progress(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ai", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--workers", type=int, default=1, help="processes for the games (1: one after another)")
    parser.add_argument("--seed", type=int, default=7, help="game i is seeded SEED + 1000 i")
    parser.add_argument("--progress", action="store_true", help="the running tally after every game, on stderr")
    parser.add_argument(
        "--only",
        choices=("random", "easy", "stall", "plan", "load"),
        help="one part: vs random, hard vs easy, stall, Domineering's plan time, iterations under load",
    )
    parser.add_argument("--game", action="append", choices=sorted(GAMES), help="only these games (repeatable)")
    args = parser.parse_args(argv)
    chosen = [p for p in PAIRINGS if args.only in (None, p[1])]
    print(f"computer players: {args.games} games per pairing, iteration budgets ×{args.scale:g}", flush=True)
    if args.only in (None, "stall"):
        for what, value, target in stall_rows():
            print(f"{what:<44}  {value:<60}  {target}", flush=True)
    if args.only == "stall":
        return 0
    if args.only in ("plan", "load"):
        for what, value, target in plan_rows() if args.only == "plan" else load_rows():
            print(f"{what:<44}  {value:<60}  {target}", flush=True)
        return 0
    for what, value, target in ai_rows(
        args.games,
        args.scale,
        args.workers,
        chosen,
        args.game or sorted(GAMES),
        args.seed,
        _progress if args.progress else None,
    ):
        print(f"{what:<44}  {value:<60}  {target}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
