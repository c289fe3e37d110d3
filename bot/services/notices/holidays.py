"""Vacations and nudges (the habits of chess.com and Board Game Arena).

Vacation: each player has a number of vacation days a calendar year (UTC) in a server (the
server's setting, 14 unless changed).  `/vacation start` pauses the clock of every running
match of theirs there whose control is a long one (a daily clock: a move time of an hour or
more); `/vacation end`, or the duty when the days run out, starts them again.  A pause
freezes both seats' time exactly (`ClockState.pause` / `resume`), so each player finds
their clock as they left it.  Each started day counts (an hour is a day; never more than
asked for).  A clock paused by agreement (`/pause`) is left alone, and one that the
opponent's vacation holds too runs again only when both vacations ended.  A match started
during a vacation is not paused: the player accepted it.

Nudge: in a match without a clock nothing reminds a player who forgets, so the player
waiting for a move may nudge the opponent, once in 24 hours per match.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Final

from bot.clocks import ClockState, format_duration
from bot.i18n import tr
from bot.services.matches import (
    MatchRow,
    MatchService,
    MatchStatus,
    NotInMatch,
    NotRunning,
    ServiceError,
    clock_of,
)
from bot.services.notices.service import NoticeService
from bot.store.notices import Vacation

DAY: Final = 86400.0
NUDGE_EVERY: Final = DAY


@dataclass(frozen=True)
class VacationStatus:
    vacation: Vacation | None
    allowance: int
    used: int

    @property
    def left(self) -> int:
        return max(0, self.allowance - self.used)


@dataclass(frozen=True)
class VacationChange:
    """A vacation that started or ended, and the matches whose clock it paused or restarted."""

    vacation: Vacation
    matches: tuple[MatchRow, ...]
    days: int
    """Started: the days asked for; ended: the days charged."""


@dataclass(frozen=True)
class Nudged:
    match: MatchRow
    opponent_id: int
    next_at: float


def _year(at: float) -> int:
    return datetime.fromtimestamp(at, UTC).year


def _daily(clock: ClockState | None) -> bool:
    return clock is not None and clock.control.kind == "long"


class Holidays:
    def __init__(self, matches: MatchService, notices: NoticeService) -> None:
        self.matches = matches
        self.notices = notices
        self.store = notices.store

    async def status(self, guild_id: int, user_id: int) -> VacationStatus:
        now = self.matches.now()
        allowance = (await self.notices.server(guild_id)).vacation_days
        used = await self.store.days_used(guild_id, user_id, _year(now))
        return VacationStatus(await self.store.vacation(guild_id, user_id), allowance, used)

    async def start(self, guild_id: int, user_id: int, days: int | None) -> VacationChange:
        """Start a vacation of `days` (default: every day left this year).  Raises ServiceError."""
        status = await self.status(guild_id, user_id)
        if status.vacation is not None:
            raise ServiceError(
                tr("Your vacation runs already, until <t:{ends_at}:f>.", ends_at=int(status.vacation.ends_at))
            )
        if status.left < 1:
            raise ServiceError(
                tr(
                    "You have no vacation days left this year ({used} of {allowance} used).",
                    used=status.used,
                    allowance=status.allowance,
                )
            )
        wanted = status.left if days is None else days
        if wanted < 1:
            raise ServiceError(tr("A vacation lasts at least one day."))
        if wanted > status.left:
            raise ServiceError(
                tr("You have {left} vacation days left this year, not {wanted}.", left=status.left, wanted=wanted)
            )
        now = self.matches.now()
        vacation = Vacation(guild_id, user_id, now, now + wanted * DAY)
        if not await self.store.start_vacation(vacation):
            raise ServiceError(tr("Your vacation runs already."))
        paused = []
        for row in await self._daily_matches(guild_id, user_id):
            if await self._hold(row.id, user_id, now):
                paused.append(await self.matches.get(row.id))
        return VacationChange(vacation, tuple(paused), wanted)

    async def end(self, guild_id: int, user_id: int) -> VacationChange:
        vacation = await self.store.vacation(guild_id, user_id)
        if vacation is None:
            raise ServiceError(tr("You are not on vacation here."))
        ended = await self._end(vacation, self.matches.now())
        if ended is None:
            raise ServiceError(tr("Your vacation has just ended."))
        return ended

    async def end_due(self) -> list[VacationChange]:
        """End every vacation whose days ran out (the duty)."""
        now = self.matches.now()
        ended = []
        for vacation in await self.store.vacations_over(now):
            change = await self._end(vacation, min(now, vacation.ends_at))
            if change is not None:
                ended.append(change)
        return ended

    async def _end(self, vacation: Vacation, at: float) -> VacationChange | None:
        asked = round((vacation.ends_at - vacation.started_at) / DAY)
        days = max(1, min(asked, math.ceil((at - vacation.started_at) / DAY - 1e-9)))
        if not await self.store.end_vacation(vacation, _year(vacation.started_at), days):
            return None
        resumed = []
        for match_id in await self.store.paused_by(vacation.user_id):
            row = await self.matches.get(match_id)
            if row.guild_id != vacation.guild_id:
                continue
            if await self._release(match_id, vacation.user_id, at):
                resumed.append(await self.matches.get(match_id))
        return VacationChange(vacation, tuple(resumed), days)

    async def _daily_matches(self, guild_id: int, user_id: int) -> list[MatchRow]:
        rows = await self.matches.of_player(user_id)
        return [
            r
            for r in sorted(rows, key=lambda r: r.id)
            if r.status == MatchStatus.ACTIVE and r.guild_id == guild_id and _daily(clock_of(r))
        ]

    async def _hold(self, match_id: int, user_id: int, now: float) -> bool:
        """Make the player's vacation hold the match's clock; True when this paused it."""
        async with self.matches.lock_for(match_id):
            row = await self.matches.get(match_id)
            clock = clock_of(row)
            if row.status != MatchStatus.ACTIVE or clock is None:
                return False
            holders = await self.store.vacation_holders(match_id)
            if clock.paused:
                if holders:  # the opponent's vacation holds it: this one holds it too
                    await self.store.pause_for_vacation(match_id, user_id, None)
                return False  # else paused by agreement: theirs to resume
            if any(clock.expired(s, now) for s in clock.running_seats):
                return False
            paused = clock.pause(now)
            await self.store.pause_for_vacation(match_id, user_id, paused.to_json())
            if self.matches.clocks is not None:
                self.matches.clocks.track(match_id, paused)
            return True

    async def _release(self, match_id: int, user_id: int, at: float) -> bool:
        """The player's vacation no longer holds the match; True when its clock runs again
        from `at`, when the vacation ended (the duty may notice a little later: that time is
        the player's, as it would have been without the vacation)."""
        async with self.matches.lock_for(match_id):
            row = await self.matches.get(match_id)
            clock = clock_of(row)
            others = [u for u in await self.store.vacation_holders(match_id) if u != user_id]
            if row.status != MatchStatus.ACTIVE or clock is None or not clock.paused or others:
                await self.store.release_vacation(match_id, user_id, None)
                return False
            running = clock.resume(max(at, clock.paused_at or at))
            await self.store.release_vacation(match_id, user_id, running.to_json())
            if self.matches.clocks is not None:
                self.matches.clocks.track(match_id, running)
            return True

    # --- nudges --------------------------------------------------------------------------

    async def nudge(self, match_id: int, user_id: int) -> Nudged:
        """Record a nudge of the opponent by the player waiting for them.  Raises ServiceError
        (nothing recorded) when it is not theirs to give now."""
        row = await self.matches.get(match_id)
        if row.status != MatchStatus.ACTIVE or row.seats is None:
            raise NotRunning()
        seat = row.seat_of(user_id)
        if seat is None:
            raise NotInMatch()
        clock = clock_of(row)
        if clock is not None and not clock.control.unlimited:
            raise ServiceError(
                tr("This match has a clock: its reminders tell your opponent. Nudges are for matches without one.")
            )
        turn = (await self.matches.view(match_id, None)).get("turn", [])
        opponent = 1 - seat
        if seat in turn:
            raise ServiceError(tr("It is your turn: nobody is waiting for your opponent."))
        if opponent not in turn:
            raise ServiceError(tr("Your opponent has nothing to do right now."))
        now = self.matches.now()
        last = await self.store.last_nudge(match_id, user_id)
        if last is not None and now - last < NUDGE_EVERY:
            nxt = last + NUDGE_EVERY
            wait = format_duration(nxt - now, long=True)
            raise ServiceError(
                tr(
                    "You nudged your opponent in this match already; your next nudge is allowed in {wait} "
                    "(<t:{nxt}:f>).",
                    wait=wait,
                    nxt=int(nxt),
                )
            )
        if not await self.store.nudge(match_id, user_id, now, now - NUDGE_EVERY):
            raise ServiceError(tr("You nudged your opponent in this match already today."))
        return Nudged(row, row.seats[opponent], now + NUDGE_EVERY)
