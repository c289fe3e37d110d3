"""Rows of the rating book: players' ratings per game and the matches already rated.

Why the book records rated matches in their own table: a match must change ratings exactly
once, even when the bot crashes between its end and its rating, so "rated" is written in
the same transaction as the ratings it changed.  The Elo arithmetic is bot/ratings.py's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.store.core import Store
from bot.store.database import Row, Tx

RATINGS_LOCK = 0x7261746573  # "rates": the advisory lock key of the rating book
RATING_COLUMNS = "user_id, game, value, games, wins, draws, losses"
"""The columns of a player's record, in the order `bot.services.ratings` reads them."""

_UNRATED = (
    "m.status = 'finished' AND m.rated = 1 AND m.outcome IS NOT NULL "
    "AND NOT EXISTS (SELECT 1 FROM rated_matches r WHERE r.match_id = m.id)"
)


class RatingStore:
    def __init__(self, store: Store) -> None:
        self.store = store

    def transaction(self) -> Any:
        return self.store.transaction()

    @staticmethod
    async def lock_book(tx: Tx) -> None:
        """Serialise rating updates across processes for the rest of the transaction: each
        reads ratings and writes them back, which two processes must not interleave."""
        await tx.lock(RATINGS_LOCK)

    @staticmethod
    async def claim(tx: Tx, match_id: int) -> bool:
        """Mark a match rated (inside the caller's transaction); False if it already was."""
        changed = await tx.execute(
            "INSERT INTO rated_matches (match_id) VALUES (?) ON CONFLICT DO NOTHING", (match_id,)
        )
        return changed == 1

    @staticmethod
    async def record_of(tx: Tx, user_id: int, game: str) -> Row | None:
        return await tx.fetch_one(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE user_id = ? AND game = ?", (user_id, game)
        )

    @staticmethod
    async def save_record(tx: Tx, record: Sequence[Any]) -> None:
        """Upsert a player's record: `(user_id, game, value, games, wins, draws, losses)`."""
        await tx.execute(
            f"INSERT INTO ratings ({RATING_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (user_id, game) DO UPDATE SET value = excluded.value, games = excluded.games, "
            "wins = excluded.wins, draws = excluded.draws, losses = excluded.losses",
            tuple(record),
        )

    @staticmethod
    async def save_changes(tx: Tx, match_id: int, changes: str) -> bool:
        """Store how a match moved the ratings (JSON), claiming it rated if it was not yet."""
        changed = await tx.execute(
            "INSERT INTO rated_matches (match_id, changes) VALUES (?, ?) "
            "ON CONFLICT (match_id) DO UPDATE SET changes = excluded.changes",
            (match_id, changes),
        )
        return changed == 1

    async def changes_of(self, match_id: int) -> str | None:
        row = await self.store.fetch_one("SELECT changes FROM rated_matches WHERE match_id = ?", (match_id,))
        return None if row is None else str(row[0])

    async def unrated_results(self) -> list[Row]:
        """(match id, game, outcome JSON, seat 0, seat 1) of every finished rated match not
        rated yet, in the order they ended."""
        return await self.store.fetch_all(
            "SELECT m.id, m.game, m.outcome, s0.user_id, s1.user_id FROM matches m "
            "JOIN seats s0 ON s0.match_id = m.id AND s0.seat = 0 JOIN seats s1 ON s1.match_id = m.id AND s1.seat = 1 "
            f"WHERE {_UNRATED} ORDER BY m.updated_at, m.id"
        )

    async def records_of_unrated_players(self) -> list[Row]:
        """The current records of every player of an unrated match."""
        return await self.store.fetch_all(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE user_id IN "
            f"(SELECT s.user_id FROM seats s JOIN matches m ON m.id = s.match_id WHERE {_UNRATED})"
        )

    async def current(self, user_id: int, game: str) -> Row | None:
        return await self.store.fetch_one(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE user_id = ? AND game = ?", (user_id, game)
        )

    async def records_of(self, user_id: int) -> list[Row]:
        return await self.store.fetch_all(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE user_id = ? ORDER BY games DESC, game", (user_id,)
        )

    async def leaderboard(self, game: str, *, guild_id: int | None, limit: int) -> list[Row]:
        if guild_id is None:
            return await self.store.fetch_all(
                f"SELECT {RATING_COLUMNS} FROM ratings WHERE game = ? ORDER BY value DESC, games DESC LIMIT ?",
                (game, limit),
            )
        return await self.store.fetch_all(
            f"SELECT {RATING_COLUMNS} FROM ratings r WHERE r.game = ? AND EXISTS ("
            "SELECT 1 FROM seats s JOIN matches m ON m.id = s.match_id "
            "WHERE s.user_id = r.user_id AND m.guild_id = ? AND m.game = r.game AND m.rated = 1) "
            "ORDER BY r.value DESC, r.games DESC LIMIT ?",
            (game, guild_id, limit),
        )
