"""`python -m bench roundtrips`: what one move costs PostgreSQL at its durable defaults.

The server is a throwaway PostgreSQL (tests/postgres.py) started with its own defaults: fsync,
synchronous_commit and full-page writes on, so each commit waits for its WAL to reach the disk,
as in production.  500 live Focus matches; random moves through `MatchService.play`, each
followed by what the outbox dispatcher does for a move's board: the mark once posted (the row and
its channel's order come back from the move's own write, `Update.fresh`; read only when they do
not); the post itself is left out: no Discord here.

Counted at the driver (bench/statements.py): statements and commits per move, the service's
part (the mover waits for it before anything is posted) and the whole.  Timed: `play` alone,
and `play` with the outbox's statements, median and p99.  A `/move` costs the same (its
interaction is noted by the move's own write); the whole list of a move, with the look-up of the
channel's match, is in tests/e2e/test_statements_per_move.py.
"""

from __future__ import annotations

import asyncio
import os
import random
import time

from bench.processes import _create_database, make_matches
from bench.statements import Statements, counting
from bot.services.matches import MatchService
from bot.services.outbox import Outbox
from bot.store import Store

MATCHES = 500
MOVES = 2000
ORDER_WINDOW = 60.0


async def measure(url: str, matches: int = MATCHES, moves: int = MOVES) -> dict[str, float]:
    ids = await make_matches(url, matches, 70_000)
    store = await Store.open(url)
    service = MatchService(store, cache_size=1024)
    outbox = Outbox(store)
    rng = random.Random(5)
    for match_id in ids:  # warm the state cache and each pooled connection's statements
        await service.view(match_id, None)
    play_ms: list[float] = []
    whole_ms: list[float] = []
    service_part = Statements()
    whole = Statements()
    played = 0
    for number in range(moves + 50):
        match_id = rng.choice(ids)
        view = await service.view(match_id, None)
        if not view["turn"]:
            continue
        user = 1 if view["turn"][0] == 0 else 2
        move = rng.choice(await service.legal_moves(match_id, user))
        async with counting(store.db) as seen:
            started = time.perf_counter()
            update = await service.play(match_id, user, move)
            played_at = time.perf_counter()
            service_count = seen.count
            assert update.announcement is not None
            if update.fresh is None:  # as the dispatcher does (`Dispatcher._as_stored`)
                await outbox.in_order(update.announcement, window=ORDER_WINDOW)
            await outbox.done(update.announcement, None)
            done_at = time.perf_counter()
        if number < 50:
            continue  # warming up: the first statements of each connection are prepared
        played += 1
        play_ms.append((played_at - started) * 1000)
        whole_ms.append((done_at - started) * 1000)
        service_part.sent.extend(seen.sent[:service_count])
        whole.sent.extend(seen.sent)
    await store.close()
    play_ms.sort()
    whole_ms.sort()

    def p(values: list[float], q: float) -> float:
        return values[int(q * (len(values) - 1))]

    return {
        "moves": float(played),
        "service_statements": service_part.count / played,
        "service_commits": service_part.commits / played,
        "statements": whole.count / played,
        "commits": whole.commits / played,
        "flushes": whole.flushes / played,
        "play_p50": p(play_ms, 0.5),
        "play_p99": p(play_ms, 0.99),
        "whole_p50": p(whole_ms, 0.5),
        "whole_p99": p(whole_ms, 0.99),
    }


def roundtrip_rows() -> list[tuple[str, str, str]]:
    from tests.postgres import PostgresServer  # dev-only: the throwaway server of the tests

    server = PostgresServer(durable=True)
    server.start()
    try:
        asyncio.run(_create_database(server.url(), "bench_roundtrips"))
        figures = asyncio.run(measure(server.url("bench_roundtrips")))
    finally:
        server.stop()
    load = os.getloadavg()[0]
    where = f"PostgreSQL durable, loopback, {MATCHES} live matches, {os.cpu_count()} cores, load {load:.1f}"
    return [
        (
            "roundtrips: statements / commits per move, service (play)",
            f"{figures['service_statements']:.2f} / {figures['service_commits']:.2f}",
            "≤ 6 statements, 1 commit",
        ),
        (
            "roundtrips: statements / commits (waiting for the disk) per typed move, with the outbox",
            f"{figures['statements']:.2f} / {figures['commits']:.2f} ({figures['flushes']:.2f})",
            "1 flush; /move: the same",
        ),
        (
            "roundtrips: play median / p99",
            f"{figures['play_p50']:.2f} / {figures['play_p99']:.2f} ms ({where})",
            "p99 ≤ 10 ms",
        ),
        (
            "roundtrips: play + outbox read and mark, median / p99",
            f"{figures['whole_p50']:.2f} / {figures['whole_p99']:.2f} ms",
            "",
        ),
    ]
