"""The rating book: one Elo rating per player per game, kept in SQLite.

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

import aiosqlite

from bot.games import Outcome
from bot.ratings import DRAW, LOSS, WIN, Rating, update
from bot.store import MatchRow, Store


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


_COLUMNS = "user_id, game, value, games, wins, draws, losses"


class RatingBook:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def record(self, row: MatchRow) -> tuple[RatingChange, RatingChange] | None:
        """Rate a finished match once; None if it does not count or was rated already."""
        if row.status != "finished" or not row.rated or row.seats is None or row.outcome is None:
            return None
        outcome = Outcome.from_json(row.outcome)
        score = DRAW if outcome.is_draw else (WIN if 0 in outcome.winners else LOSS)
        a, b = row.seats
        async with self.store.transaction() as db:
            cur = await db.execute("INSERT OR IGNORE INTO rated_matches (match_id) VALUES (?)", (row.id,))
            if cur.rowcount != 1:
                return None
            old_a, old_b = await self._current(a, row.game), await self._current(b, row.game)
            new_a, new_b = update(old_a.rating, old_b.rating, score)
            await self._save(db, old_a, new_a, score)
            await self._save(db, old_b, new_b, 1.0 - score)
            changes = (
                RatingChange(a, old_a.rating.value, new_a.value),
                RatingChange(b, old_b.rating.value, new_b.value),
            )
            await db.execute(
                "UPDATE rated_matches SET changes = ? WHERE match_id = ?",
                (json.dumps([[c.user_id, c.before, c.after] for c in changes]), row.id),
            )
        return changes

    async def changes_of(self, match_id: int) -> list[RatingChange]:
        """How a rated match moved its players' ratings (empty: it did not count)."""
        found = await self.store.fetch_one("SELECT changes FROM rated_matches WHERE match_id = ?", (match_id,))
        if found is None:
            return []
        return [RatingChange(int(u), float(before), float(after)) for u, before, after in json.loads(found[0])]

    async def catch_up(self) -> int:
        """Rate every finished rated match that has not been rated yet; returns how many.

        After a long outage these can be many: the results and the ratings involved are
        read in two queries, the Elo replay (JSON parsing included) runs in a worker thread,
        and everything is written in one transaction, so the event loop is never held."""
        results = await self.store.fetch_all(
            "SELECT m.id, m.game, m.outcome, s0.user_id, s1.user_id FROM matches m "
            "JOIN seats s0 ON s0.match_id = m.id AND s0.seat = 0 JOIN seats s1 ON s1.match_id = m.id AND s1.seat = 1 "
            "WHERE m.status = 'finished' AND m.rated = 1 AND m.outcome IS NOT NULL "
            "AND m.id NOT IN (SELECT match_id FROM rated_matches) ORDER BY m.updated_at, m.id"
        )
        if not results:
            return 0
        current = await self.store.fetch_all(
            f"SELECT {_COLUMNS} FROM ratings WHERE user_id IN (SELECT s.user_id FROM seats s JOIN matches m "
            "ON m.id = s.match_id WHERE m.status = 'finished' AND m.rated = 1 "
            "AND m.id NOT IN (SELECT match_id FROM rated_matches))"
        )
        rated, records = await asyncio.to_thread(replay_ratings, results, current)
        async with self.store.transaction() as db:
            for match_id, changes in rated:
                cur = await db.execute(
                    "INSERT OR IGNORE INTO rated_matches (match_id, changes) VALUES (?, ?)",
                    (match_id, json.dumps([[c.user_id, c.before, c.after] for c in changes])),
                )
                if cur.rowcount != 1:  # rated meanwhile: the replay started from stale ratings
                    raise RuntimeError(f"match {match_id} was rated during the catch-up")
            for record in records:
                await self._write_record(db, record)
        return len(rated)

    async def _current(self, user_id: int, game: str) -> PlayerRecord:
        row = await self.store.fetch_one(
            f"SELECT {_COLUMNS} FROM ratings WHERE user_id = ? AND game = ?", (user_id, game)
        )
        return _record(row) if row is not None else PlayerRecord(user_id, game, Rating())

    @staticmethod
    async def _write_record(db: aiosqlite.Connection, record: PlayerRecord) -> None:
        """Inside the caller's transaction: a player's standing as computed."""
        await db.execute(
            "INSERT INTO ratings (user_id, game, value, games, wins, draws, losses) VALUES (?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (user_id, game) DO UPDATE SET value = excluded.value, games = excluded.games, "
            "wins = excluded.wins, draws = excluded.draws, losses = excluded.losses",
            (
                record.user_id,
                record.game,
                record.rating.value,
                record.rating.games,
                record.wins,
                record.draws,
                record.losses,
            ),
        )

    @staticmethod
    async def _save(db: aiosqlite.Connection, old: PlayerRecord, new: Rating, score: float) -> None:
        """Inside the caller's transaction."""
        await db.execute(
            "INSERT INTO ratings (user_id, game, value, games, wins, draws, losses) VALUES (?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (user_id, game) DO UPDATE SET value = excluded.value, games = excluded.games, "
            "wins = excluded.wins, draws = excluded.draws, losses = excluded.losses",
            (
                old.user_id,
                old.game,
                new.value,
                new.games,
                old.wins + (score == WIN),
                old.draws + (score == DRAW),
                old.losses + (score == LOSS),
            ),
        )

    async def rating(self, user_id: int, game: str) -> PlayerRecord:
        return await self._current(user_id, game)

    async def records_of(self, user_id: int) -> list[PlayerRecord]:
        rows = await self.store.fetch_all(
            f"SELECT {_COLUMNS} FROM ratings WHERE user_id = ? ORDER BY games DESC, game", (user_id,)
        )
        return [_record(r) for r in rows]

    async def leaderboard(self, game: str, *, guild_id: int | None, limit: int = 10) -> list[PlayerRecord]:
        """The best ratings in `game` among players who played a rated match in the guild
        (everywhere when `guild_id` is None): a server's leaderboard shows its own players."""
        if guild_id is None:
            rows = await self.store.fetch_all(
                f"SELECT {_COLUMNS} FROM ratings WHERE game = ? ORDER BY value DESC, games DESC LIMIT ?",
                (game, limit),
            )
        else:
            rows = await self.store.fetch_all(
                f"SELECT {_COLUMNS} FROM ratings r WHERE r.game = ? AND EXISTS ("
                "SELECT 1 FROM seats s JOIN matches m ON m.id = s.match_id "
                "WHERE s.user_id = r.user_id AND m.guild_id = ? AND m.game = r.game AND m.rated = 1) "
                "ORDER BY r.value DESC, r.games DESC LIMIT ?",
                (game, guild_id, limit),
            )
        return [_record(r) for r in rows]


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
            record = PlayerRecord(
                old.user_id,
                game,
                new,
                old.wins + (points == WIN),
                old.draws + (points == DRAW),
                old.losses + (points == LOSS),
            )
            book[(old.user_id, game)] = touched[(old.user_id, game)] = record
        rated.append(
            (
                int(match_id),
                (RatingChange(a, old_a.rating.value, new_a.value), RatingChange(b, old_b.rating.value, new_b.value)),
            )
        )
    return rated, list(touched.values())
