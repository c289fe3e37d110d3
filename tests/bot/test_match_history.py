"""`Store.match_history`: a player's finished matches, newest first, from an index."""

from __future__ import annotations

import random

from bot.services.matches import MatchService
from bot.services.ratings import RatingBook
from bot.store import MatchRow, Store
from tests.bot.conftest import ALICE, BOB, CAROL, GUILD


async def _finished(service: MatchService, game: str, challenger: int, opponent: int, channel: int) -> int:
    row = await service.challenge(
        game=game, channel_id=channel, guild_id=GUILD, challenger_id=challenger, opponent_id=opponent
    )
    await service.accept(row.id, opponent)
    await service.resign(row.id, challenger)
    return row.id


async def test_history_lists_finished_matches_from_both_seats_newest_first(service: MatchService) -> None:
    book = RatingBook(service.store)

    async def rate(row: MatchRow) -> None:
        await book.record(row)

    service.finish_listeners.append(rate)
    played = []
    rng = random.Random(1)
    for channel in range(1, 13):
        a, b = rng.sample([ALICE, BOB, CAROL], 2)
        game = rng.choice(["focus", "domineering"])
        played.append((await _finished(service, game, a, b, channel), {a, b}, game))
    running = await service.challenge(game="focus", channel_id=99, guild_id=GUILD, challenger_id=ALICE, opponent_id=BOB)
    await service.accept(running.id, BOB)

    mine = [mid for mid, seats, _ in reversed(played) if ALICE in seats]
    history = await service.store.match_history(ALICE, limit=50)
    assert [row.id for row, _ in history] == mine
    assert all(row.status == "finished" for row, _ in history)
    for row, changes in history:
        assert {user for user, _, _ in changes} == set(row.seats or ())

    focus = [mid for mid, seats, game in reversed(played) if ALICE in seats and game == "focus"]
    assert [row.id for row, _ in await service.store.match_history(ALICE, game="focus", limit=50)] == focus

    pages = [await service.store.match_history(ALICE, offset=o, limit=3) for o in range(0, len(mine), 3)]
    assert [row.id for page in pages for row, _ in page] == mine
    assert await service.store.match_history(ALICE, offset=len(mine), limit=3) == []


async def test_history_reads_ordered_index_ranges(store: Store) -> None:
    """No full scan and no sort of a player's whole history: each side is an index range
    (on PostgreSQL with sequential scans discouraged: its planner scans a tiny table whole)."""
    for game in (None, "focus"):
        where = "status = 'finished'" + (" AND game = 'focus'" if game else "")
        for seat in ("challenger_id", "opponent_id"):
            query = (
                f"SELECT id, updated_at FROM matches WHERE {seat} = 1 AND {where} "
                "ORDER BY updated_at DESC, id DESC LIMIT 10"
            )
            if store.backend == "postgresql":
                async with store.transaction() as tx:
                    await tx.execute("SET LOCAL enable_seqscan = off")
                    plan = await tx.fetch_all(f"EXPLAIN {query}")
                details = " ".join(str(row[0]) for row in plan)
                assert "matches_history_" in details, details
                assert "Sort" not in details, details
                continue
            plan = await store.fetch_all(f"EXPLAIN QUERY PLAN {query}")
            details = " ".join(str(row[-1]) for row in plan)
            assert "USING INDEX matches_history_" in details or "USING COVERING INDEX matches_history_" in details
            assert "TEMP B-TREE" not in details, details
