"""Migration 8 on a database made by schema 7: every match that ended outside its game's
rules before ending lines existed gets the line its stored outcome proves, and its record
then holds; nothing else is touched.

The old database is made by opening the store with the first seven migrations only, playing
and ending matches through the service, then deleting the ending lines (what the service of
schema 7 wrote is exactly that: the same rows, the same reasons, no line).  Today's service
writes the outbox's `follow_up_of` (migration 9) with every board, so the column is there
while it plays, and dropped before the upgrade, as schema 7 had no such column.
"""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.records.format import format_record
from bot.records.move_log import ENDING_SEAT
from bot.records.verify import verify_text
from bot.services.matches import Agreements, MatchService, Offered, build_record
from bot.store import MIGRATIONS, POSTGRES_MIGRATIONS, Store
from tests.bot.conftest import ALICE, BACKENDS, BOB
from tests.bot.match_driver import play_randomly, start_match
from tests.conftest import fresh_database

PREVIOUS = 7
"""The schema version before ending lines were back-filled."""


@pytest.fixture(params=BACKENDS)
async def where(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """An empty database of each backend (a file, or a new PostgreSQL database)."""
    if request.param == "sqlite":
        yield str(tmp_path / "old.sqlite3")
    else:
        async with fresh_database(request.getfixturevalue("postgres_server")) as url:
            yield url


async def _old_store(where: str, monkeypatch: pytest.MonkeyPatch) -> Store:
    with monkeypatch.context() as patch:
        patch.setattr("bot.store.core.MIGRATIONS", MIGRATIONS[:PREVIOUS])
        patch.setattr("bot.store.core.POSTGRES_MIGRATIONS", POSTGRES_MIGRATIONS[:PREVIOUS])
        store = await Store.open(where)
    assert await store.schema_version() == PREVIOUS
    async with store.transaction() as tx:  # what today's service writes with each board
        await tx.execute("ALTER TABLE outbox ADD COLUMN follow_up_of INTEGER")
    return store


async def _end(service: MatchService, match_id: int, how: str, loser: int) -> None:
    row = await service.get(match_id)
    assert row.seats is not None
    if how == "resign":
        await service.resign(match_id, row.seats[loser])
    elif how == "timeout":
        await service.claim_timeout(match_id, loser)
    elif how == "draw":
        agreements = Agreements(service)
        assert isinstance(await agreements.draw(match_id, ALICE), Offered)
        await agreements.draw(match_id, BOB)
    elif how == "abort":
        assert await service.abort(match_id, ALICE) is None
        await service.abort(match_id, BOB)
    else:
        await service.abort(match_id, 4242, moderator=True)


async def test_old_endings_get_the_line_their_outcome_proves(where: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(where.rsplit("/", 1)[-1])
    store = await _old_store(where, monkeypatch)
    service = MatchService(store, cache_size=4)
    wanted: dict[int, str | None] = {}  # match -> the ending line it must get (None: none)
    channel = 600
    for how in ("resign", "timeout", "draw", "abort", "moderator", "resign", "timeout"):
        while True:  # until a match is still running after its random moves (the dice are the service's)
            game = "focus" if how == "draw" else rng.choice(["domineering", "dominance", "wonderland", "domino_wars"])
            channel += 1
            options = {"ply_limit": "400"} if game == "focus" else {}
            match_id = await start_match(service, game, channel=channel, **options)
            await play_randomly(service, match_id, rng, max_moves=rng.randrange(0, 12))
            if (await service.get(match_id)).status == "active":
                break
            wanted[match_id] = None  # the moves ended it already
        loser = rng.randrange(2)
        await _end(service, match_id, how, loser)
        last = (await store.moves(match_id))[-1]
        assert last.seat == ENDING_SEAT and last.move is not None
        wanted[match_id] = last.move if how != "timeout" else f"timeout {loser} -"
    ruled = await start_match(service, "domineering", channel=700)  # ended by the game's own rules
    await play_randomly(service, ruled, rng)
    assert (await service.get(ruled)).status == "finished"
    running = await start_match(service, "dominance", channel=701)
    odd = await start_match(service, "dominance", channel=702)  # an outcome that proves no ending
    await service.resign(odd, ALICE)
    wanted.update({ruled: None, running: None, odd: None})
    written = {line for line in wanted.values() if line is not None}
    assert {"draw agreed", "abort", "abort moderator"} <= written, written
    assert any(line.startswith("resign ") for line in written) and any(line.startswith("timeout ") for line in written)
    before = {m: [(e.ply, e.seat, e.move) for e in await store.moves(m) if e.seat != ENDING_SEAT] for m in wanted}
    odd_seats = (await service.get(odd)).seats
    assert odd_seats is not None
    odd_outcome = {"winners": [1 - odd_seats.index(ALICE)], "reason": "Orange gave up."}
    async with store.transaction() as tx:
        await tx.execute("DELETE FROM moves WHERE seat = ?", (ENDING_SEAT,))  # as schema 7 left them
        await tx.execute("UPDATE matches SET outcome = ? WHERE id = ?", (json.dumps(odd_outcome), odd))
        await tx.execute("ALTER TABLE outbox DROP COLUMN follow_up_of")  # schema 7 had none
    await store.close()

    store = await Store.open(where)  # the upgrade: migration 8 runs (and the later ones)
    try:
        assert await store.schema_version() == len(MIGRATIONS) > PREVIOUS
        service = MatchService(store, cache_size=4)
        for match_id, line in wanted.items():
            logged = await store.moves(match_id)
            kept = [(e.ply, e.seat, e.move) for e in logged if e.seat != ENDING_SEAT]
            assert kept == before[match_id], "no other line is touched"
            endings = [e for e in logged if e.seat == ENDING_SEAT]
            assert [e.move for e in endings] == ([line] if line else []), match_id
            if not endings:
                continue
            assert endings[0] is logged[-1] and endings[0].ply == len(logged) - 1 and endings[0].public
            row = await service.get(match_id)
            verdict = verify_text(format_record(build_record(row, logged, ("alice", "bob"))))
            assert verdict.ok and f"it ended with `{line}`" in verdict.sentence, verdict.sentence
        ruled_row = await service.get(ruled)
        ruled_record = format_record(build_record(ruled_row, await store.moves(ruled), ("alice", "bob")))
        assert verify_text(ruled_record).ok
        odd_row = await service.get(odd)
        odd_record = format_record(build_record(odd_row, await store.moves(odd), ("alice", "bob")))
        assert "cannot prove an ending" in verify_text(odd_record).sentence
    finally:
        await store.close()
    again = await Store.open(where)  # nothing applied twice
    try:
        for match_id, line in wanted.items():
            endings = [e.move for e in await again.moves(match_id) if e.seat == ENDING_SEAT]
            assert endings == ([line] if line else [])
    finally:
        await again.close()
