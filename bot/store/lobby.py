"""The lobby's queries (threads, expiring challenges, server settings, offers), in one place.

Why a separate module on top of `Store`: the feature's queries stay together.  The SQL is
plain and the same on SQLite and PostgreSQL (bot/store/database.py): `?` placeholders,
`INSERT ... ON CONFLICT ... DO UPDATE`, and `Conflict` for the one-open-match-per-channel
index.

Tables and columns it uses (migration 5 in bot/store/migrations.py):
- matches.occupies_channel: 1 = the match (or challenge) holds its channel under the
  one-open-match-per-channel index (the channel venue); 0 = a challenge whose match will get a
  thread, so a channel can hold any number of them.
- matches.lobby_channel_id: for a match played in a thread, the channel holding its thread,
  where the challenge and the result are posted (NULL otherwise).
- matches.expires_at: a challenge's deadline (time.time() seconds; NULL: never).
- guild_settings(guild_id, match_venue, default_clock): the server settings.
- match_offers(match_id, kind, user_id, version, created_at): a standing draw offer or
  takeback request, valid only while the match is at `version`.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from bot.infra.shards import ShardLayout
from bot.store.core import _MATCH_COLUMNS, MatchRow, Store, _match
from bot.store.database import Conflict


@dataclass(frozen=True)
class Placement:
    """Where a match lives besides its `channel_id`."""

    occupies_channel: bool
    lobby_channel_id: int | None
    expires_at: float | None


@dataclass(frozen=True)
class Offer:
    kind: str
    user_id: int
    version: int


class LobbyStore:
    def __init__(self, store: Store) -> None:
        self.store = store

    # --- server settings ---------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> tuple[str, str] | None:
        """(match venue, default clock) as stored, None when the server never set them."""
        row = await self.store.fetch_one(
            "SELECT match_venue, default_clock FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return (str(row[0]), str(row[1])) if row is not None else None

    async def save_guild_settings(self, guild_id: int, venue: str, default_clock: str) -> None:
        async with self.store.transaction() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, match_venue, default_clock) VALUES (?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET match_venue = excluded.match_venue, "
                "default_clock = excluded.default_clock",
                (guild_id, venue, default_clock),
            )

    # --- challenges --------------------------------------------------------------------

    async def placement(self, match_id: int) -> Placement | None:
        row = await self.store.fetch_one(
            "SELECT occupies_channel, lobby_channel_id, expires_at FROM matches WHERE id = ?", (match_id,)
        )
        if row is None:
            return None
        return Placement(bool(row[0]), row[1], row[2])

    async def set_expiry(self, match_id: int, expires_at: float | None) -> None:
        async with self.store.transaction() as db:
            await db.execute("UPDATE matches SET expires_at = ? WHERE id = ?", (expires_at, match_id))

    async def expire_challenges(self, now: float, shards: ShardLayout | None = None) -> list[int]:
        """Close every challenge whose deadline passed (status `cancelled`); their ids.  With
        `shards`, only those of the guilds this process owns."""
        owned, owned_params = (shards or ShardLayout()).sql_filter("guild_id")
        async with self.store.transaction() as db:
            rows = await db.fetch_all(
                "SELECT id FROM matches WHERE status = 'challenge' AND expires_at IS NOT NULL AND expires_at <= ? "
                f"AND {owned}",
                (now, *owned_params),
            )
            ids = [int(r[0]) for r in rows]
            for match_id in ids:
                await db.execute(
                    "UPDATE matches SET status = 'cancelled', updated_at = ? WHERE id = ? AND status = 'challenge'",
                    (now, match_id),
                )
        return ids

    async def open_challenges(self, guild_id: int, now: float, *, limit: int = 25) -> list[MatchRow]:
        """This server's challenges still open at `now`, oldest first."""
        rows = await self.store.fetch_all(
            f"SELECT {_MATCH_COLUMNS} FROM matches m WHERE m.guild_id = ? AND m.status = 'challenge' "
            "AND (m.expires_at IS NULL OR m.expires_at > ?) "
            "AND m.id NOT IN (SELECT match_id FROM tournament_games) ORDER BY m.id LIMIT ?",
            (guild_id, now, limit),
        )
        return [_match(r) for r in rows]

    async def move_to_thread(self, match_id: int, thread_id: int, lobby_channel_id: int) -> bool:
        """Point a challenge at the thread its match will be played in.  False when it is no
        longer open or another accept already pointed it at its own thread (first one wins)."""
        async with self.store.transaction() as db:
            changed: int = await db.execute(
                "UPDATE matches SET channel_id = ?, lobby_channel_id = ?, occupies_channel = 1 "
                "WHERE id = ? AND status = 'challenge' AND lobby_channel_id IS NULL",
                (thread_id, lobby_channel_id, match_id),
            )
            return changed == 1

    async def move_back(self, match_id: int, channel_id: int) -> None:
        """Undo `move_to_thread` when the match could not start after all."""
        async with self.store.transaction() as db:
            await db.execute(
                "UPDATE matches SET channel_id = ?, lobby_channel_id = NULL, occupies_channel = 0 "
                "WHERE id = ? AND status = 'challenge'",
                (channel_id, match_id),
            )

    async def claim_channel(self, match_id: int) -> bool:
        """Make a challenge hold its channel (the thread could not be made); False when the
        channel already has an open match or an open challenge that holds it."""
        try:
            async with self.store.transaction() as db:
                await db.execute("UPDATE matches SET occupies_channel = 1 WHERE id = ?", (match_id,))
        except Conflict:
            return False
        return True

    async def is_tournament_game(self, match_id: int) -> bool:
        row = await self.store.fetch_one("SELECT 1 FROM tournament_games WHERE match_id = ?", (match_id,))
        return row is not None

    # --- offers ------------------------------------------------------------------------

    async def offer(self, match_id: int, kind: str) -> Offer | None:
        row = await self.store.fetch_one(
            "SELECT kind, user_id, version FROM match_offers WHERE match_id = ? AND kind = ?", (match_id, kind)
        )
        return Offer(str(row[0]), int(row[1]), int(row[2])) if row is not None else None

    async def put_offer(self, match_id: int, kind: str, user_id: int, version: int) -> None:
        async with self.store.transaction() as db:
            await db.execute(
                "INSERT INTO match_offers (match_id, kind, user_id, version, created_at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (match_id, kind) DO UPDATE SET user_id = excluded.user_id, "
                "version = excluded.version, created_at = excluded.created_at",
                (match_id, kind, user_id, version, time.time()),
            )

    async def drop_offer(self, match_id: int, kind: str) -> None:
        async with self.store.transaction() as db:
            await db.execute("DELETE FROM match_offers WHERE match_id = ? AND kind = ?", (match_id, kind))

    async def set_challenge_clock(self, match_id: int, clock: dict[str, Any]) -> None:
        """Give a challenge the stopped clock its match starts with (a rematch copies the old control)."""
        async with self.store.transaction() as db:
            await db.execute(
                "UPDATE matches SET clock = ? WHERE id = ? AND status = 'challenge'", (json.dumps(clock), match_id)
            )

    async def message_of(self, match_id: int) -> int | None:
        """The challenge message's id (`matches.message_id`, set when it was posted)."""
        row = await self.store.fetch_one("SELECT message_id FROM matches WHERE id = ?", (match_id,))
        return int(row[0]) if row is not None and row[0] is not None else None
