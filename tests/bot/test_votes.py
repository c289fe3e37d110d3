"""Votes (abort, pause) are written like every other change: inside a serialised transaction.

The bug this guards against: a vote written on the shared connection outside the store's
transaction lock lands inside whatever transaction another coroutine has open, and is
rolled back with it when that one fails (a stale move, a refused challenge).
"""

from __future__ import annotations

import asyncio

from bot.services.matches import MatchService
from bot.store import StaleVersion, Store
from tests.bot.conftest import ALICE, BOB, GUILD
from tests.bot.match_driver import start_match

MATCHES = 150


async def _started(service: MatchService, channel: int) -> int:
    row = await service.challenge(
        game="domineering", channel_id=channel, guild_id=GUILD, challenger_id=ALICE, opponent_id=BOB, seat_pref="first"
    )
    await service.accept(row.id, BOB)
    return row.id


async def _failing_write(store: Store, match_id: int) -> None:
    """A transaction that is rolled back: a move against a version that moved on."""
    try:
        await store.commit_moves(match_id, expected_version=-1, first_ply=999, moves=[], snapshot={})
    except StaleVersion:
        return
    raise AssertionError("a stale version was accepted")


async def test_raced_abort_votes_are_all_kept(service: MatchService, store: Store) -> None:
    matches = [await _started(service, 7000 + i) for i in range(MATCHES)]
    victim = matches[0]
    jobs = []
    for match_id in matches:
        jobs.append(service.abort(match_id, ALICE))
        jobs.append(_failing_write(store, victim))
    results = await asyncio.gather(*jobs)
    assert all(r is None for r in results[::2])  # one vote each: nothing aborted yet
    rows = await store.fetch_all("SELECT match_id FROM abort_votes WHERE user_id = ?", (ALICE,))
    assert sorted(r[0] for r in rows) == sorted(matches)
    # and the second vote of each match, raced too, aborts every one of them
    jobs = []
    for match_id in matches:
        jobs.append(service.abort(match_id, BOB))
        jobs.append(_failing_write(store, victim))
    await asyncio.gather(*jobs, return_exceptions=False)
    statuses = {(await service.get(m)).status for m in matches}
    assert statuses == {"aborted"}


async def test_raced_pause_votes_are_all_kept(service: MatchService, store: Store) -> None:
    matches = []
    for i in range(MATCHES // 3):
        matches.append(await start_match(service, "domineering", channel=8000 + i, seat_pref="first", clock="daily"))
    jobs = []
    for match_id in matches:
        jobs.append(service.pause(match_id, ALICE))
        jobs.append(_failing_write(store, matches[0]))
    await asyncio.gather(*jobs)
    jobs = []
    for match_id in matches:
        jobs.append(service.pause(match_id, BOB))
        jobs.append(_failing_write(store, matches[0]))
    changes = await asyncio.gather(*jobs)
    assert all(c.done for c in changes[::2])
    for match_id in matches:
        row = await service.get(match_id)
        assert row.clock is not None and row.clock["paused"] is True
    assert await store.fetch_all("SELECT * FROM clock_votes") == []
