"""The queries of notices, holidays and nudges (migration 11), in one place.

Tables:
- notice_prefs(user_id, mode, zone, digest_hour, quiet_start, quiet_end, digest_day): how a
  player is told it is their turn (`mode` NULL: their server's default), their time zone, the
  hour of their digest, their quiet hours (NULL: none), and the local date of the last digest
  (claimed before it is sent, so a digest never goes out twice for one day).
- notice_held(user_id, match_id, held_at): a notice held back by quiet hours, delivered (and
  deleted in one claim) when they end.
- notice_settings(guild_id, default_mode, vacation_days): the server's defaults (`default_mode`
  NULL: never chosen, so a server that only set its vacation days keeps the bot's defaults).
- vacations(guild_id, user_id, started_at, ends_at): a player's running vacation there.
- vacation_days_used(guild_id, user_id, year, days): days charged per calendar year (UTC).
- vacation_pauses(match_id, user_id): the match's clock is paused by that player's vacation
  (it runs again when no vacation holds it).
- nudges(match_id, user_id, at): when that player last nudged their opponent there.

The SQL is plain and the same on both backends (bot/store/database.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from bot.store.core import Store


@dataclass(frozen=True)
class StoredPrefs:
    user_id: int
    mode: str | None
    zone: str
    digest_hour: int
    quiet_start: int | None
    quiet_end: int | None
    digest_day: str | None


@dataclass(frozen=True)
class Vacation:
    guild_id: int
    user_id: int
    started_at: float
    ends_at: float


_PREFS = "user_id, mode, zone, digest_hour, quiet_start, quiet_end, digest_day"


def _prefs(row: tuple[Any, ...]) -> StoredPrefs:
    return StoredPrefs(
        int(row[0]),
        None if row[1] is None else str(row[1]),
        str(row[2]),
        int(row[3]),
        None if row[4] is None else int(row[4]),
        None if row[5] is None else int(row[5]),
        None if row[6] is None else str(row[6]),
    )


class NoticeStore:
    def __init__(self, store: Store) -> None:
        self.store = store

    # --- a player's choice ---------------------------------------------------------------

    async def prefs(self, user_id: int) -> StoredPrefs | None:
        row = await self.store.fetch_one(f"SELECT {_PREFS} FROM notice_prefs WHERE user_id = ?", (user_id,))
        return _prefs(row) if row is not None else None

    async def route_facts(self, user_id: int, guild_id: int | None) -> tuple[StoredPrefs | None, str | None]:
        """The player's choice and their server's default mode, in ONE statement: it runs for
        each player a new board names, between the move's commit and its post."""
        row = await self.store.fetch_one(
            "SELECT p.user_id, p.mode, p.zone, p.digest_hour, p.quiet_start, p.quiet_end, p.digest_day, "
            "s.default_mode FROM (SELECT 1 AS one) AS x "
            "LEFT JOIN notice_prefs p ON p.user_id = ? LEFT JOIN notice_settings s ON s.guild_id = ?",
            (user_id, guild_id),
        )
        assert row is not None
        prefs = _prefs(row[:7]) if row[0] is not None else None
        return prefs, None if row[7] is None else str(row[7])

    async def save_prefs(self, prefs: StoredPrefs) -> None:
        """Store a player's choice (the last digest's day is kept as it was)."""
        async with self.store.transaction() as tx:
            await tx.execute(
                "INSERT INTO notice_prefs (user_id, mode, zone, digest_hour, quiet_start, quiet_end) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET mode = excluded.mode, "
                "zone = excluded.zone, digest_hour = excluded.digest_hour, quiet_start = excluded.quiet_start, "
                "quiet_end = excluded.quiet_end",
                (prefs.user_id, prefs.mode, prefs.zone, prefs.digest_hour, prefs.quiet_start, prefs.quiet_end),
            )

    async def with_schedules(self) -> list[StoredPrefs]:
        """Every player whose notices depend on the hour: a digest or quiet hours."""
        rows = await self.store.fetch_all(
            f"SELECT {_PREFS} FROM notice_prefs WHERE mode = 'digest' OR quiet_start IS NOT NULL ORDER BY user_id"
        )
        return [_prefs(r) for r in rows]

    async def claim_digest(self, user_id: int, day: str) -> bool:
        """Mark today's digest as sent; False when it already was (another tick, another process)."""
        async with self.store.transaction() as tx:
            changed: int = await tx.execute(
                "UPDATE notice_prefs SET digest_day = ? WHERE user_id = ? AND (digest_day IS NULL OR digest_day <> ?)",
                (day, user_id, day),
            )
            return changed == 1

    # --- held back by quiet hours --------------------------------------------------------

    async def hold(self, user_id: int, match_id: int, at: float) -> None:
        async with self.store.transaction() as tx:
            await tx.execute(
                "INSERT INTO notice_held (user_id, match_id, held_at) VALUES (?, ?, ?) "
                "ON CONFLICT (user_id, match_id) DO NOTHING",
                (user_id, match_id, at),
            )

    async def held_users(self) -> list[int]:
        rows = await self.store.fetch_all("SELECT DISTINCT user_id FROM notice_held ORDER BY user_id")
        return [int(r[0]) for r in rows]

    async def take_held(self, user_id: int) -> list[int]:
        """The matches of `user_id`'s held notices, deleted in the same transaction: each is
        delivered at most once."""
        async with self.store.transaction() as tx:
            rows = await tx.fetch_all(
                "SELECT match_id FROM notice_held WHERE user_id = ? ORDER BY held_at, match_id", (user_id,)
            )
            await tx.execute("DELETE FROM notice_held WHERE user_id = ?", (user_id,))
        return [int(r[0]) for r in rows]

    # --- the server's defaults -----------------------------------------------------------

    async def settings(self, guild_id: int) -> tuple[str | None, int] | None:
        """(default mode, None when never chosen; vacation days a year) as stored, None when
        the server never set either."""
        row = await self.store.fetch_one(
            "SELECT default_mode, vacation_days FROM notice_settings WHERE guild_id = ?", (guild_id,)
        )
        return (None if row[0] is None else str(row[0]), int(row[1])) if row is not None else None

    async def save_settings(self, guild_id: int, default_mode: str | None, vacation_days: int) -> None:
        async with self.store.transaction() as tx:
            await tx.execute(
                "INSERT INTO notice_settings (guild_id, default_mode, vacation_days) VALUES (?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET default_mode = excluded.default_mode, "
                "vacation_days = excluded.vacation_days",
                (guild_id, default_mode, vacation_days),
            )

    # --- vacations -----------------------------------------------------------------------

    async def vacation(self, guild_id: int, user_id: int) -> Vacation | None:
        row = await self.store.fetch_one(
            "SELECT guild_id, user_id, started_at, ends_at FROM vacations WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
        return Vacation(int(row[0]), int(row[1]), float(row[2]), float(row[3])) if row is not None else None

    async def vacations_over(self, now: float) -> list[Vacation]:
        rows = await self.store.fetch_all(
            "SELECT guild_id, user_id, started_at, ends_at FROM vacations WHERE ends_at <= ? ORDER BY ends_at",
            (now,),
        )
        return [Vacation(int(r[0]), int(r[1]), float(r[2]), float(r[3])) for r in rows]

    async def days_used(self, guild_id: int, user_id: int, year: int) -> int:
        row = await self.store.fetch_one(
            "SELECT days FROM vacation_days_used WHERE guild_id = ? AND user_id = ? AND year = ?",
            (guild_id, user_id, year),
        )
        return int(row[0]) if row is not None else 0

    async def start_vacation(self, vacation: Vacation) -> bool:
        """False when a vacation of that player runs there already."""
        async with self.store.transaction() as tx:
            changed: int = await tx.execute(
                "INSERT INTO vacations (guild_id, user_id, started_at, ends_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (guild_id, user_id) DO NOTHING",
                (vacation.guild_id, vacation.user_id, vacation.started_at, vacation.ends_at),
            )
            return changed == 1

    async def end_vacation(self, vacation: Vacation, year: int, days: int) -> bool:
        """Close the vacation and charge its days, in one transaction; False when it was
        closed already (by `/vacation end` and the duty at the same moment)."""
        async with self.store.transaction() as tx:
            changed: int = await tx.execute(
                "DELETE FROM vacations WHERE guild_id = ? AND user_id = ? AND started_at = ?",
                (vacation.guild_id, vacation.user_id, vacation.started_at),
            )
            if changed != 1:
                return False
            await tx.execute(
                "INSERT INTO vacation_days_used (guild_id, user_id, year, days) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (guild_id, user_id, year) DO UPDATE SET days = vacation_days_used.days + excluded.days",
                (vacation.guild_id, vacation.user_id, year, days),
            )
            return True

    async def pause_for_vacation(self, match_id: int, user_id: int, clock: dict[str, Any] | None) -> None:
        """Record that `user_id`'s vacation holds the match's clock, with the paused clock
        (None: it was paused by another vacation already), in one transaction."""
        async with self.store.transaction() as tx:
            if clock is not None:
                await tx.execute(
                    "UPDATE matches SET clock = ? WHERE id = ? AND status = 'active'", (json.dumps(clock), match_id)
                )
            await tx.execute(
                "INSERT INTO vacation_pauses (match_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
                (match_id, user_id),
            )

    async def vacation_holders(self, match_id: int) -> list[int]:
        rows = await self.store.fetch_all(
            "SELECT user_id FROM vacation_pauses WHERE match_id = ? ORDER BY user_id", (match_id,)
        )
        return [int(r[0]) for r in rows]

    async def paused_by(self, user_id: int) -> list[int]:
        rows = await self.store.fetch_all(
            "SELECT match_id FROM vacation_pauses WHERE user_id = ? ORDER BY match_id", (user_id,)
        )
        return [int(r[0]) for r in rows]

    async def release_vacation(self, match_id: int, user_id: int, clock: dict[str, Any] | None) -> None:
        """`user_id`'s vacation no longer holds the match; with `clock`, the clock runs again."""
        async with self.store.transaction() as tx:
            await tx.execute("DELETE FROM vacation_pauses WHERE match_id = ? AND user_id = ?", (match_id, user_id))
            if clock is not None:
                await tx.execute(
                    "UPDATE matches SET clock = ? WHERE id = ? AND status = 'active'", (json.dumps(clock), match_id)
                )

    # --- nudges --------------------------------------------------------------------------

    async def last_nudge(self, match_id: int, user_id: int) -> float | None:
        row = await self.store.fetch_one(
            "SELECT at FROM nudges WHERE match_id = ? AND user_id = ?", (match_id, user_id)
        )
        return float(row[0]) if row is not None else None

    async def nudge(self, match_id: int, user_id: int, at: float, allowed_before: float) -> bool:
        """Record a nudge unless one was made after `allowed_before` (False then)."""
        async with self.store.transaction() as tx:
            changed: int = await tx.execute(
                "INSERT INTO nudges (match_id, user_id, at) VALUES (?, ?, ?) "
                "ON CONFLICT (match_id, user_id) DO UPDATE SET at = excluded.at WHERE nudges.at <= ?",
                (match_id, user_id, at, allowed_before),
            )
            return changed == 1
