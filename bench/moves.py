"""Random moves through the match service, for the benches that time it.

`bench` (SQLite) and `bench.processes` (PostgreSQL, one or two processes) play the
same kind of move: whoever must act in a bench match, where users 1 and 2 hold seats 0 and
1, plays a random legal move.  Here once, so the two backends' figures time the same work.
"""

from __future__ import annotations

import random
import time

from bot.services.matches import MatchService


async def play_random_move(service: MatchService, match_id: int, rng: random.Random) -> bool:
    """Play a random legal move for whoever must act; False (nothing played) when nobody must."""
    view = await service.view(match_id, None)
    if not view["turn"]:
        return False
    user = 1 if view["turn"][0] == 0 else 2
    await service.play(match_id, user, rng.choice(await service.legal_moves(match_id, user)))
    return True


async def timed_random_moves(
    service: MatchService, match_ids: list[int], count: int, rng: random.Random
) -> tuple[list[float], list[float]]:
    """`count` tries of a random move in a random one of `match_ids`: the wall-clock and the
    CPU milliseconds of each `MatchService.play` made (choosing the move is not timed)."""
    times: list[float] = []
    cpu: list[float] = []
    for _ in range(count):
        match_id = rng.choice(match_ids)
        view = await service.view(match_id, None)
        if not view["turn"]:
            continue
        user = 1 if view["turn"][0] == 0 else 2
        move = rng.choice(await service.legal_moves(match_id, user))
        started, used = time.perf_counter(), time.process_time()
        await service.play(match_id, user, move)
        times.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - used) * 1000)
    return times, cpu
