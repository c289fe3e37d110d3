"""The rating book: one Elo rating per player per game, kept in the store.

Why a book of its own rather than a column on the match: a rating is the sum of a
player's history across channels and tournaments, and it must be updated exactly once per
finished rated match even when the bot crashes between the match's last commit and the
update.  Each update therefore records the match in `rated_matches` in the same
transaction, and `catch_up` (run at start-up) rates any finished match that was missed, in
the order the matches ended, so replays after a crash give the same numbers.

Casual and tournament matches count alike; a match started with `rated` off, an aborted
match, and a match without two seats never count.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.games import Outcome
from bot.ratings import DRAW, LOSS, WIN, Rating, update
from bot.store import MatchRow, MatchStatus, Store
from bot.store.ratings import RatingStore


@dataclass(frozen=True)
class PlayerRecord:
    """A player's standing in one game: the rating and the results behind it."""

    user_id: int
    game: str
    rating: Rating
    wins: int = 0
    draws: int = 0
    losses: int = 0


@dataclass(frozen=True)
class RatingChange:
    user_id: int
    before: float
    after: float

    @property
    def delta(self) -> float:
        return self.after - self.before


def _record(row: Sequence[Any]) -> PlayerRecord:
    return PlayerRecord(int(row[0]), str(row[1]), Rating(float(row[2]), int(row[3])), *map(int, row[4:7]))


class RatingBook:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.rows = RatingStore(store)

    async def record(self, row: MatchRow) -> tuple[RatingChange, RatingChange] | None:
        """Rate a finished match once; None if it does not count or was rated already."""
        if row.status != MatchStatus.FINISHED or not row.rated or row.seats is None or row.outcome is None:
            return None
        outcome = Outcome.from_json(row.outcome)
        score = DRAW if outcome.is_draw else (WIN if 0 in outcome.winners else LOSS)
        a, b = row.seats
        async with self.rows.transaction() as tx:
            await RatingStore.lock_book(tx)
            if not await RatingStore.claim(tx, row.id):
                return None
            old_a = _or_new(await RatingStore.record_of(tx, a, row.game), a, row.game)
            old_b = _or_new(await RatingStore.record_of(tx, b, row.game), b, row.game)
            new_a, new_b = update(old_a.rating, old_b.rating, score)
            await RatingStore.save_record(tx, _row(_after(old_a, new_a, score)))
            await RatingStore.save_record(tx, _row(_after(old_b, new_b, 1.0 - score)))
            changes = (
                RatingChange(a, old_a.rating.value, new_a.value),
                RatingChange(b, old_b.rating.value, new_b.value),
            )
            await RatingStore.save_changes(tx, row.id, _changes_json(changes))
        return changes

    async def changes_of(self, match_id: int) -> list[RatingChange]:
        """How a rated match moved its players' ratings (empty: it did not count)."""
        found = await self.rows.changes_of(match_id)
        if found is None:
            return []
        return [RatingChange(int(u), float(before), float(after)) for u, before, after in json.loads(found)]

    async def catch_up(self) -> int:
        """Rate every finished rated match that has not been rated yet; returns how many.

        After a long outage these can be many: the results and the ratings involved are
        read in two queries, the Elo replay (JSON parsing included) runs in a worker thread,
        and everything is written in one transaction, so the event loop is never held."""
        results = await self.rows.unrated_results()
        if not results:
            return 0
        current = await self.rows.records_of_unrated_players()
        rated, records = await asyncio.to_thread(replay_ratings, results, current)
        async with self.rows.transaction() as tx:
            await RatingStore.lock_book(tx)
            for match_id, changes in rated:
                if not await RatingStore.claim(tx, match_id):  # rated meanwhile: the replay is stale
                    raise RuntimeError(f"match {match_id} was rated during the catch-up")
                await RatingStore.save_changes(tx, match_id, _changes_json(changes))
            for record in records:
                await RatingStore.save_record(tx, _row(record))
        return len(rated)

    async def rating(self, user_id: int, game: str) -> PlayerRecord:
        return _or_new(await self.rows.current(user_id, game), user_id, game)

    async def records_of(self, user_id: int) -> list[PlayerRecord]:
        return [_record(r) for r in await self.rows.records_of(user_id)]

    async def leaderboard(self, game: str, *, guild_id: int | None, limit: int = 10) -> list[PlayerRecord]:
        """The best ratings in `game` among players who played a rated match in the guild
        (everywhere when `guild_id` is None): a server's leaderboard shows its own players."""
        return [_record(r) for r in await self.rows.leaderboard(game, guild_id=guild_id, limit=limit)]

    async def trend(self, user_id: int, game: str, *, matches: int) -> list[tuple[float, float]]:
        """(when, rating) points, oldest first: the rating when the oldest of the player's latest
        `matches` rated matches of `game` started, then after each one ended (from the changes
        stored with each match)."""
        history = await self.store.match_history(user_id, game=game, limit=matches)
        steps = [(row, b, a) for row, changes in reversed(history) for u, b, a in changes if u == user_id]
        if not steps:
            return []
        first, before, _ = steps[0]
        return [(first.created_at, before), *((row.updated_at, after) for row, _, after in steps)]


def _or_new(row: Sequence[Any] | None, user_id: int, game: str) -> PlayerRecord:
    return _record(row) if row is not None else PlayerRecord(user_id, game, Rating())


def _after(old: PlayerRecord, new: Rating, score: float) -> PlayerRecord:
    """`old` after a game scored `score` that left its rating at `new`."""
    return PlayerRecord(
        old.user_id,
        old.game,
        new,
        old.wins + (score == WIN),
        old.draws + (score == DRAW),
        old.losses + (score == LOSS),
    )


def _row(record: PlayerRecord) -> tuple[Any, ...]:
    return (
        record.user_id,
        record.game,
        record.rating.value,
        record.rating.games,
        record.wins,
        record.draws,
        record.losses,
    )


def _changes_json(changes: Sequence[RatingChange]) -> str:
    return json.dumps([[c.user_id, c.before, c.after] for c in changes])


def replay_ratings(
    results: Sequence[Sequence[Any]], current: Sequence[Sequence[Any]]
) -> tuple[list[tuple[int, tuple[RatingChange, RatingChange]]], list[PlayerRecord]]:
    """Rate `results` (match id, game, outcome JSON, seat 0, seat 1) in order, starting from
    the `current` rating rows; returns each match's changes and every standing it touched.
    Pure (no I/O), so it can run in a worker thread."""
    book = {(int(r[0]), str(r[1])): _record(r) for r in current}
    touched: dict[tuple[int, str], PlayerRecord] = {}
    rated = []
    for match_id, game, outcome_json, a, b in results:
        outcome = Outcome.from_json(json.loads(outcome_json))
        score = DRAW if outcome.is_draw else (WIN if 0 in outcome.winners else LOSS)
        old_a = book.get((a, game)) or PlayerRecord(a, game, Rating())
        old_b = book.get((b, game)) or PlayerRecord(b, game, Rating())
        new_a, new_b = update(old_a.rating, old_b.rating, score)
        for old, new, points in ((old_a, new_a, score), (old_b, new_b, 1.0 - score)):
            book[(old.user_id, game)] = touched[(old.user_id, game)] = _after(old, new, points)
        rated.append(
            (
                int(match_id),
                (RatingChange(a, old_a.rating.value, new_a.value), RatingChange(b, old_b.rating.value, new_b.value)),
            )
        )
    return rated, list(touched.values())
