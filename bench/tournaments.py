"""Benchmark for `python -m bench`: pair round 5 of a 512-player Swiss event.

Rounds 1-4 are played with seeded random results (a fifth of the series drawn) so that
round 5 meets real score groups and rematch constraints; the timed part is the whole
`next_round()` (points, ranking, pairing, seat assignment), the median of a few runs.
"""

from __future__ import annotations

import random
import statistics
import time

from bot.tournaments.tournament import Format, Tournament

PLAYED_ROUNDS = 4


def swiss_mid_event(players: int = 512, played_rounds: int = PLAYED_ROUNDS, seed: int = 5) -> Tournament:
    """A Swiss tournament with `played_rounds` rounds over and the next one not yet paired."""
    rng = random.Random(seed)
    t = Tournament.new(Format.SWISS, [(i, f"P{i}") for i in range(1, players + 1)], rounds=played_rounds + 1)
    for _ in range(played_rounds):
        for game in t.pairings_to_start():
            t.record_result(game.pairing_id, None if rng.random() < 0.2 else rng.randrange(2))
        if t.round < played_rounds:
            t.next_round()
    return t


def bench_swiss_pairing(players: int = 512, repeats: int = 5) -> float:
    """Seconds to pair a mid-event (round 5) Swiss round of `players` players (median)."""
    state = swiss_mid_event(players).dump()
    timings = []
    for _ in range(repeats):
        t = Tournament.load(state)
        start = time.perf_counter()
        t.next_round()
        timings.append(time.perf_counter() - start)
    return statistics.median(timings)
