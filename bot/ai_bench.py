"""Strength and speed of the computer players (`python -m bot.bench ai`).

Targets (issue 20), per game: `normal` beats a uniformly random player in ≥ 95 % of
games, `hard` beats `easy` in ≥ 70 %, and the median thinking time per move at `normal`
is ≤ 2 s on one core.  Games alternate seats; a draw counts as not won.  Win rates come
with 95 % Wilson intervals.  Thinking time is CPU time of the worker process (one core),
so other load on the machine does not inflate it.

The levels are played by their iteration budgets (deterministic; the time caps are a
safety net in production).  On a small machine the full run takes hours, so
`python -m bot.ai_bench --games N --scale F` plays N games per pairing with every
iteration budget multiplied by F; the table says which figures were used.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from bot.ai.levels import LEVELS, think_for
from bot.ai.search import Budget, choose_move
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
            iterations = max(1, round((LEVELS[level].iterations or 1) * scale))
            started = time.process_time()
            move = choose_move(state, seat, Budget(iterations=iterations, seconds=None), rng)
            if seat == seats[0]:
                times.append(time.process_time() - started)
        state = state.play(seat, move)
    winners = state.outcome.winners
    winner = by_seat[next(iter(winners))] if len(winners) == 1 else None
    return GameResult(winner, tuple(times))


def ai_rows(
    games: int = 100,
    scale: float = 1.0,
    workers: int = 2,
    pairings: Sequence[tuple[str, str]] = PAIRINGS,
    keys: Sequence[str] = tuple(sorted(GAMES)),
) -> Iterator[tuple[str, str, str]]:
    """(measure, value, target) rows for every game and pairing, as they are ready."""
    with ProcessPoolExecutor(max_workers=workers) as pool:
        jobs = {
            (game, pairing): [
                pool.submit(play_one, game, pairing, (i % 2, 1 - i % 2), scale, 1000 * i + 7) for i in range(games)
            ]
            for pairing in pairings
            for game in keys
        }
        for (game, (first, second)), futures in jobs.items():
            results = [f.result() for f in futures]
            wins = sum(r.winner_level == first for r in results)
            draws = sum(r.winner_level is None for r in results)
            low, high = wilson(wins, len(results))
            target = "≥ 95 %" if second == RANDOM else "≥ 70 %"
            yield (
                f"{game}: {first} vs {second}",
                f"{wins}/{len(results)} won ({draws} drawn) = {wins / len(results):.0%} [{low:.0%}, {high:.0%}]",
                target,
            )
            if first == "normal":
                times = [t for r in results for t in r.think_times]
                yield (
                    f"{game}: normal thinking median / p95",
                    f"{statistics.median(times):.2f} s / {sorted(times)[int(0.95 * (len(times) - 1))]:.2f} s",
                    "median ≤ 2 s",
                )
    yield ("games per pairing, budget scale", f"{games}, ×{scale:g}", "100–200, ×1")


async def _idle_stall(seconds: float, tick: float) -> float:
    """Largest event-loop delay with nothing to do: what the machine's load alone costs."""
    worst = 0.0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        before = time.perf_counter()
        await asyncio.sleep(tick)
        worst = max(worst, time.perf_counter() - before - tick)
    return worst


async def _loop_stall(searches: int, tick: float) -> tuple[float, float]:
    """Largest event-loop delay while `searches` computer moves are thought about in the
    bot's process pool, and the wall time they took."""
    from bot.computer import make_pool  # the bot's own pool: what production runs

    positions = []
    rng = random.Random(3)
    for game in ("focus", "wonderland", "dominance", "domino_wars")[:searches]:
        state = GAMES[game].start()
        while CHANCE in state.turn or len(state.legal_moves(min(state.turn))) < 2:
            if CHANCE in state.turn:
                state = state.play(CHANCE, state.sample_chance(rng))
            else:
                seat = min(state.turn)
                state = state.play(seat, rng.choice(state.legal_moves(seat)))
        positions.append((game, state.dump(), min(state.turn)))
    loop = asyncio.get_running_loop()
    pool = make_pool()
    worst = 0.0
    try:
        # Warm the workers up first: spawning them is a one-off cost of the first search.
        await asyncio.gather(
            *(loop.run_in_executor(pool, think_for, g, d, s, "easy", 1, 0.01) for g, d, s in positions)
        )
        started = time.perf_counter()
        jobs = asyncio.gather(
            *(loop.run_in_executor(pool, think_for, g, d, s, "normal", 1, None) for g, d, s in positions)
        )
        while not jobs.done():
            before = time.perf_counter()
            await asyncio.sleep(tick)
            worst = max(worst, time.perf_counter() - before - tick)
        await jobs
        took = time.perf_counter() - started
    finally:
        pool.shutdown()
    return worst, took


def stall_rows(searches: int = 4) -> Iterator[tuple[str, str, str]]:
    idle = asyncio.run(_idle_stall(10.0, 0.005))
    yield ("event-loop stall, idle bot (machine load)", f"{idle * 1000:.1f} ms", "baseline")
    worst, took = asyncio.run(_loop_stall(searches, 0.005))
    yield (
        f"event-loop stall, {searches} searches at normal",
        f"{worst * 1000:.1f} ms (searches took {took:.1f} s)",
        "≤ 50 ms",
    )


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.ai_bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", choices=("random", "easy", "stall"), help="one part: vs random, hard vs easy, stall")
    parser.add_argument("--game", action="append", choices=sorted(GAMES), help="only these games (repeatable)")
    args = parser.parse_args(argv)
    chosen = [p for p in PAIRINGS if args.only in (None, p[1])]
    print(f"computer players: {args.games} games per pairing, iteration budgets ×{args.scale:g}", flush=True)
    if args.only in (None, "stall"):
        for what, value, target in stall_rows():
            print(f"{what:<44}  {value:<44}  {target}", flush=True)
    if args.only == "stall":
        return 0
    for what, value, target in ai_rows(args.games, args.scale, args.workers, chosen, args.game or sorted(GAMES)):
        print(f"{what:<44}  {value:<44}  {target}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
