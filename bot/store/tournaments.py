"""Rows of tournaments, their entries, and the links from matches to tournament games.

Why the links live in their own table: a match row stays what it is (a game in a channel)
and the store's partial unique index on (tournament, pairing, game number) makes opening
the same tournament game twice impossible, even if two tasks race to do it.  The
tournament itself (`bot.tournaments.Tournament.dump()`) is one JSON document per row,
written with an optimistic version like a match snapshot.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.store.core import MatchStatus, StaleVersion, Store
from bot.store.database import Conflict
from bot.store.outbox import Announcement

OPEN_TOURNAMENT_STATUSES = ("open", "checkin", "running")


@dataclass(frozen=True)
class TournamentRow:
    id: int
    guild_id: int | None
    channel_id: int
    host_id: int
    name: str
    game: str
    format: str
    best_of: int
    rounds: int | None
    options: dict[str, Any]
    clock: str | None
    max_players: int | None
    checkin_minutes: int
    checkin_until: float | None
    rated: bool
    status: str
    state: dict[str, Any] | None
    version: int
    created_at: float

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_TOURNAMENT_STATUSES


@dataclass(frozen=True)
class Entry:
    user_id: int
    name: str
    checked_in: bool
    items: tuple[str, ...]


@dataclass(frozen=True)
class LinkedGame:
    """A tournament game's match as stored: where the tournament learns results from."""

    match_id: int
    pairing_id: int
    game_number: int
    status: MatchStatus
    outcome: dict[str, Any] | None
    seats: tuple[int, int] | None
    channel_id: int


_COLUMNS = (
    "id, guild_id, channel_id, host_id, name, game, format, best_of, rounds, options, clock, max_players, "
    "checkin_minutes, checkin_until, rated, status, state, version, created_at"
)


def _tournament(row: Sequence[Any]) -> TournamentRow:
    return TournamentRow(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        host_id=row[3],
        name=row[4],
        game=row[5],
        format=row[6],
        best_of=row[7],
        rounds=row[8],
        options=json.loads(row[9]),
        clock=row[10],
        max_players=row[11],
        checkin_minutes=row[12],
        checkin_until=row[13],
        rated=bool(row[14]),
        status=row[15],
        state=json.loads(row[16]) if row[16] else None,
        version=row[17],
        created_at=row[18],
    )


class TournamentStore:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def create(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        name: str,
        game: str,
        format: str,
        best_of: int,
        rounds: int | None,
        options: dict[str, Any],
        clock: str | None,
        max_players: int | None,
        checkin_minutes: int,
        rated: bool,
    ) -> TournamentRow | None:
        """Insert an open tournament; None when the channel already has one."""
        now = time.time()
        try:
            async with self.store.transaction() as tx:
                tournament_id = await tx.insert(
                    "INSERT INTO tournaments (guild_id, channel_id, host_id, name, game, format, best_of, rounds, "
                    "options, clock, max_players, checkin_minutes, rated, status, created_at, updated_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?)",
                    (
                        guild_id,
                        channel_id,
                        host_id,
                        name,
                        game,
                        format,
                        best_of,
                        rounds,
                        json.dumps(options),
                        clock,
                        max_players,
                        checkin_minutes,
                        int(rated),
                        now,
                        now,
                    ),
                )
        except Conflict:
            return None
        row = await self.get(tournament_id)
        assert row is not None
        return row

    async def get(self, tournament_id: int) -> TournamentRow | None:
        row = await self.store.fetch_one(f"SELECT {_COLUMNS} FROM tournaments WHERE id = ?", (tournament_id,))
        return _tournament(row) if row else None

    async def latest_in_channel(self, channel_id: int) -> TournamentRow | None:
        """The open tournament, else the last one that ended (for standings after the end)."""
        row = await self.store.fetch_one(
            f"SELECT {_COLUMNS} FROM tournaments WHERE channel_id = ? "
            "ORDER BY status IN ('open', 'checkin', 'running') DESC, id DESC LIMIT 1",
            (channel_id,),
        )
        return _tournament(row) if row else None

    async def with_status(self, *statuses: str) -> list[TournamentRow]:
        marks = ", ".join("?" for _ in statuses)
        rows = await self.store.fetch_all(
            f"SELECT {_COLUMNS} FROM tournaments WHERE status IN ({marks}) ORDER BY id", statuses
        )
        return [_tournament(r) for r in rows]

    async def set_status(
        self, tournament_id: int, status: str, *, expected: Sequence[str], checkin_until: float | None = None
    ) -> bool:
        marks = ", ".join("?" for _ in expected)
        changed = await self.store.db.execute(
            "UPDATE tournaments SET status = ?, checkin_until = ?, updated_at = ? "
            f"WHERE id = ? AND status IN ({marks})",
            (status, checkin_until, time.time(), tournament_id, *expected),
        )
        return changed == 1

    async def save_state(
        self,
        tournament_id: int,
        state: dict[str, Any],
        *,
        expected_version: int,
        status: str | None = None,
        unlink: Sequence[int] = (),
        announce: Sequence[Announcement] = (),
    ) -> None:
        """Write the tournament document (and optionally a new status); raises StaleVersion.

        In the same transaction: forget the links of the `unlink` matches (aborted games the
        document now replays) and store the announcements of the change, so a crash never
        leaves a document that waits for an unlinked game, nor a result never announced."""
        now = time.time()
        async with self.store.transaction("tournament") as tx:
            changed = await tx.execute(
                "UPDATE tournaments SET state = ?, status = COALESCE(?, status), version = version + 1, "
                "updated_at = ? WHERE id = ? AND version = ?",
                (json.dumps(state), status, now, tournament_id, expected_version),
            )
            if changed != 1:
                raise StaleVersion(f"tournament {tournament_id} is no longer at version {expected_version}")
            if unlink:
                await tx.executemany("DELETE FROM tournament_games WHERE match_id = ?", [(m,) for m in unlink])
            await Store.insert_announcements(tx, announce, now)

    # --- entries -----------------------------------------------------------------------

    async def entries(self, tournament_id: int) -> list[Entry]:
        rows = await self.store.fetch_all(
            "SELECT user_id, name, checked_in, items FROM tournament_entries WHERE tournament_id = ? "
            "ORDER BY joined_at, user_id",
            (tournament_id,),
        )
        return [Entry(int(r[0]), str(r[1]), bool(r[2]), tuple(json.loads(r[3]))) for r in rows]

    async def signed_up(self, tournament_id: int, user_id: int) -> tuple[int, bool]:
        """How many players are signed up, and whether `user_id` is one of them: counted by the
        database, not by reading every entry (a join under a burst of a thousand must stay cheap)."""
        row = await self.store.fetch_one(
            "SELECT COUNT(*), COALESCE(MAX(CASE WHEN user_id = ? THEN 1 ELSE 0 END), 0) "
            "FROM tournament_entries WHERE tournament_id = ?",
            (user_id, tournament_id),
        )
        return (int(row[0]), bool(row[1])) if row else (0, False)

    async def add_entry(self, tournament_id: int, user_id: int, name: str) -> bool:
        """False if the player had already joined."""
        changed = await self.store.db.execute(
            "INSERT INTO tournament_entries (tournament_id, user_id, name, joined_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT DO NOTHING",
            (tournament_id, user_id, name, time.time()),
        )
        return changed == 1

    async def remove_entry(self, tournament_id: int, user_id: int) -> bool:
        changed = await self.store.db.execute(
            "DELETE FROM tournament_entries WHERE tournament_id = ? AND user_id = ?", (tournament_id, user_id)
        )
        return changed == 1

    async def check_in(self, tournament_id: int, user_id: int) -> bool:
        changed = await self.store.db.execute(
            "UPDATE tournament_entries SET checked_in = 1 WHERE tournament_id = ? AND user_id = ?",
            (tournament_id, user_id),
        )
        return changed == 1

    async def set_items(self, tournament_id: int, user_id: int, items: Sequence[str]) -> None:
        await self.store.db.execute(
            "UPDATE tournament_entries SET items = ? WHERE tournament_id = ? AND user_id = ?",
            (json.dumps(sorted(items)), tournament_id, user_id),
        )

    # --- games -------------------------------------------------------------------------

    async def games(self, tournament_id: int) -> list[LinkedGame]:
        rows = await self.store.fetch_all(
            "SELECT g.match_id, g.pairing_id, g.game_number, m.status, m.outcome, "
            "(SELECT user_id FROM seats WHERE match_id = m.id AND seat = 0), "
            "(SELECT user_id FROM seats WHERE match_id = m.id AND seat = 1), m.channel_id "
            "FROM tournament_games g JOIN matches m ON m.id = g.match_id "
            "WHERE g.tournament_id = ? ORDER BY g.pairing_id, g.game_number",
            (tournament_id,),
        )
        return [
            LinkedGame(
                int(r[0]),
                int(r[1]),
                int(r[2]),
                MatchStatus(r[3]),
                json.loads(r[4]) if r[4] else None,
                (int(r[5]), int(r[6])) if r[5] is not None and r[6] is not None else None,
                int(r[7]),
            )
            for r in rows
        ]

    async def tournament_of_match(self, match_id: int) -> int | None:
        row = await self.store.fetch_one("SELECT tournament_id FROM tournament_games WHERE match_id = ?", (match_id,))
        return int(row[0]) if row else None
