"""Two bot processes on one database: a match's moves are serialised by the database.

Each "process" is its own MatchService with its own store connection (its own pool on
PostgreSQL), so their in-process locks do not see each other: only the stored version
decides.  Raced moves on one position: exactly one applies, the other is refused and
changes nothing; the log replays to the stored snapshot.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.services.matches import MatchConflict, MatchService, NoMatchHere, NotYourTurn
from bot.store import Store
from tests.bot.conftest import ALICE, BOB, CHANNEL, GUILD
from tests.bot.match_driver import stored_challenge
from tests.conftest import fresh_database
from tests.postgres import PostgresServer

ROUNDS = 25


async def _race(first: MatchService, second: MatchService) -> None:
    row = await first.challenge(
        game="domineering", channel_id=CHANNEL, guild_id=GUILD, challenger_id=ALICE, opponent_id=BOB, seat_pref="first"
    )
    await first.accept(row.id, BOB)
    for _ in range(ROUNDS):
        current = await first.get(row.id)
        if current.status != "active":
            break
        view = await first.view(row.id, None)
        user = current.seats[view["turn"][0]] if current.seats else ALICE
        moves = await first.legal_moves(row.id, user)
        a, b = moves[0], moves[-1]
        results = await asyncio.gather(
            first.play(row.id, user, a), second.play(row.id, user, b), return_exceptions=True
        )
        applied = [r for r in results if not isinstance(r, BaseException)]
        refused = [r for r in results if isinstance(r, BaseException)]
        assert len(applied) == 1, results
        # refused as a stale position, as out of turn, or (the winner's move ended it) as over
        assert all(isinstance(r, (MatchConflict, NotYourTurn, NoMatchHere)) for r in refused), refused
        after = await first.get(row.id)
        assert after.version == current.version + 1
    stored = await first.get(row.id)
    replayed = await first.replay(row.id)
    assert stored.snapshot is not None
    assert replayed.dump() == first.games["domineering"].load(stored.snapshot).dump()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_raced_moves_from_two_processes_apply_exactly_once(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    if backend == "sqlite":
        one, two = await Store.open(tmp_path / "db.sqlite3"), await Store.open(tmp_path / "db.sqlite3")
        try:
            await _race(MatchService(one), MatchService(two))
        finally:
            await one.close()
            await two.close()
        return
    server: PostgresServer = request.getfixturevalue("postgres_server")
    async with fresh_database(server) as url:
        one, two = await Store.open(url), await Store.open(url)
        try:
            await _race(MatchService(one), MatchService(two))
        finally:
            await one.close()
            await two.close()


async def test_two_processes_rating_matches_at_once_lose_no_update(postgres_server: PostgresServer) -> None:
    """Every rating update reads and writes the same players' rows: the book's lock keeps two
    processes from interleaving, so every match counts."""
    from bot.games import Outcome
    from bot.services.ratings import RatingBook

    async with fresh_database(postgres_server) as url:
        one, two = await Store.open(url), await Store.open(url)
        try:
            ids = []
            for number in range(24):
                match_id = await stored_challenge(one, guild=GUILD, channel=3000 + number)
                started = await one.start_match(match_id, (ALICE, BOB), {}, [], BOB)
                await one.commit_moves(
                    match_id,
                    expected_version=started.version,
                    first_ply=0,
                    moves=[],
                    snapshot={},
                    status="finished",
                    outcome=Outcome(frozenset({number % 2}), "test").to_json(),
                )
                ids.append(match_id)
            books = [RatingBook(one), RatingBook(two)]
            rows = [await one.get_match(i) for i in ids]
            await asyncio.gather(*(books[i % 2].record(r) for i, r in enumerate(rows) if r is not None))
            alice = await books[0].rating(ALICE, "focus")
            assert alice.rating.games == 24 and (alice.wins, alice.losses) == (12, 12)
        finally:
            await one.close()
            await two.close()
