"""How each player is told it is their turn: their choice, their server's default, their hours.

Modes (`/notify how:`):
- `ping`: a mention in the match's thread when the turn passes to them (the default);
- `dm`: a direct message instead, the thread names them without notifying;
- `digest`: one DM a day at their hour, listing every match waiting for them (none when
  nothing waits); nothing at each turn;
- `off`: nothing; the thread still names them.

Quiet hours hold back pings and DMs; what was held back is delivered, once, when they end
(only for matches still waiting for the player: a turn they took meanwhile is no news).
Clock reminders follow the choice (`reminder_route`), except the last warning before a loss
on time, which always goes out.  A player who never chose follows their server's default,
and where the server never set one, the bot's own behaviour before `/notify` existed: a ping
for a turn, a reminder where its time control sends it (the thread for short controls, a DM
for long ones).  The digest is a personal choice only: it needs the player's hour and zone.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace
from typing import Final, Literal

from bot.clocks.model import Via
from bot.i18n import tr
from bot.services.matches import MatchRow, MatchService, MatchStatus, ServiceError, clock_of
from bot.services.notices.route_cache import RouteCache
from bot.services.notices.schedule import (
    QuietHours,
    digest_day,
    in_quiet,
    parse_quiet,
    parse_zone,
)
from bot.store.notices import NoticeStore, StoredPrefs

Mode = Literal["ping", "dm", "digest", "off"]
MODES: Final[tuple[Mode, ...]] = ("ping", "dm", "digest", "off")
SERVER_MODES: Final[tuple[Mode, ...]] = ("ping", "dm", "off")
DEFAULT_VACATION_DAYS: Final = 14
DEFAULT_DIGEST_HOUR: Final = 9
TurnRoute = Literal["ping", "dm", "hold", "none"]
ReminderRoute = Literal["channel", "dm", "none"]


@dataclass(frozen=True)
class NoticePrefs:
    user_id: int
    mode: Mode | None = None
    """None: the server's default."""
    zone: str = "UTC"
    digest_hour: int = DEFAULT_DIGEST_HOUR
    quiet: QuietHours | None = None


RouteFacts = tuple[NoticePrefs, Mode | None]
"""A player's choices and the mode that applies to them on a server (None: nobody chose one)."""


@dataclass(frozen=True)
class ServerNotices:
    default_mode: Mode | None = None
    """None: never set (pings for turns, reminders where their control sends them)."""
    vacation_days: int = DEFAULT_VACATION_DAYS


@dataclass(frozen=True)
class Waiting:
    """A match waiting for a player's move, for a digest or a held-back notice."""

    match: MatchRow
    opponent_id: int
    time_left: str
    """The player's clock (`23h 10m + 3d`), '' without one."""


def _mode(text: str | None) -> Mode | None:
    for mode in MODES:
        if text == mode:
            return mode
    return None


def _from_stored(stored: StoredPrefs) -> NoticePrefs:
    quiet = None
    if stored.quiet_start is not None and stored.quiet_end is not None:
        quiet = (stored.quiet_start, stored.quiet_end)
    return NoticePrefs(stored.user_id, _mode(stored.mode), stored.zone, stored.digest_hour, quiet)


class NoticeService:
    """Players' choices, the server defaults, and what is due when (the cogs deliver)."""

    def __init__(self, matches: MatchService, *, routes: RouteCache[RouteFacts] | None = None) -> None:
        self.matches = matches
        self.store = NoticeStore(matches.store)
        self.routes: RouteCache[RouteFacts] = routes if routes is not None else RouteCache()
        """Each player's routing facts, remembered briefly (bot/services/notices/route_cache.py
        says how stale they can be): a move's board reads none."""

    # --- choices -------------------------------------------------------------------------

    async def prefs(self, user_id: int) -> NoticePrefs:
        stored = await self.store.prefs(user_id)
        return _from_stored(stored) if stored is not None else NoticePrefs(user_id)

    async def choose(
        self,
        user_id: int,
        *,
        mode: str | None = None,
        zone: str | None = None,
        hour: int | None = None,
        quiet: str | None = None,
    ) -> NoticePrefs:
        """Change some of a player's choices (validated first: bad input changes nothing)."""
        current = await self.prefs(user_id)
        changes: dict[str, object] = {}
        if mode is not None:
            chosen = _mode(mode)
            if chosen is None:
                raise ServiceError(tr("`how` must be `ping`, `dm`, `digest` or `off`."))
            changes["mode"] = chosen
        if zone is not None:
            changes["zone"] = parse_zone(zone)
        if hour is not None:
            if not 0 <= hour <= 23:
                raise ServiceError(tr("The digest hour is a whole hour from 0 to 23 (your time zone)."))
            changes["digest_hour"] = hour
        if quiet is not None:
            changes["quiet"] = parse_quiet(quiet)
        new = replace(current, **changes)  # type: ignore[arg-type]
        start, end = new.quiet if new.quiet is not None else (None, None)
        try:
            await self.store.save_prefs(StoredPrefs(user_id, new.mode, new.zone, new.digest_hour, start, end, None))
        finally:  # even a failed write may have been stored
            self.routes.player_changed(user_id)
        return new

    async def server(self, guild_id: int | None) -> ServerNotices:
        if guild_id is None:
            return ServerNotices()
        stored = await self.store.settings(guild_id)
        if stored is None:
            return ServerNotices()
        return ServerNotices(_mode(stored[0]), stored[1])

    async def configure_server(
        self, guild_id: int, *, mode: str | None = None, vacation_days: int | None = None
    ) -> ServerNotices:
        """Change the server's default notice and vacation days (the caller checks who may)."""
        current = await self.server(guild_id)
        new_mode = current.default_mode
        if mode is not None:
            new_mode = _mode(mode)
            if new_mode not in SERVER_MODES:
                raise ServiceError(
                    tr("The server's default notice is `ping`, `dm` or `off` (a digest needs each player's own hour).")
                )
        days = current.vacation_days
        if vacation_days is not None:
            if not 0 <= vacation_days <= 366:
                raise ServiceError(tr("Vacation days are a number from 0 to 366 a year."))
            days = vacation_days
        try:
            await self.store.save_settings(guild_id, new_mode, days)
        finally:  # even a failed write may have been stored
            self.routes.server_changed(guild_id)
        return ServerNotices(new_mode, days)

    async def mode_of(self, user_id: int, guild_id: int | None) -> Mode | None:
        """The player's own choice, else the server's default; None: neither was ever set."""
        prefs = await self.prefs(user_id)
        return prefs.mode if prefs.mode is not None else (await self.server(guild_id)).default_mode

    # --- routing -------------------------------------------------------------------------

    async def _route_facts(self, user_id: int, guild_id: int | None) -> RouteFacts:
        """The player's choices and the mode that applies (theirs, else the server's; None:
        neither was set): remembered (`routes`), else read in one statement."""

        async def read() -> RouteFacts:
            stored, default = await self.store.route_facts(user_id, guild_id)
            prefs = _from_stored(stored) if stored is not None else NoticePrefs(user_id)
            return prefs, prefs.mode if prefs.mode is not None else _mode(default)

        return await self.routes.get((user_id, guild_id), read)

    async def turn_route(self, user_id: int, guild_id: int | None, now: float) -> TurnRoute:
        """How to tell `user_id` that a turn is theirs now."""
        prefs, mode = await self._route_facts(user_id, guild_id)
        mode = mode or "ping"
        if mode in ("digest", "off"):
            return "none"
        if in_quiet(now, prefs.zone, prefs.quiet):
            return "hold"
        return "ping" if mode == "ping" else "dm"

    async def reminder_route(
        self, user_id: int, guild_id: int | None, now: float, via: Via, *, last: bool
    ) -> ReminderRoute:
        """Where a clock reminder goes: the player's choice; the last warning before a loss on
        time always goes out (their way, else where its control sends it)."""
        prefs, mode = await self._route_facts(user_id, guild_id)
        default: ReminderRoute = "dm" if via == "dm" else "channel"
        chosen: ReminderRoute = default if mode is None else {"ping": "channel", "dm": "dm"}.get(mode, "none")  # type: ignore[assignment]
        if last:
            return default if chosen == "none" else chosen
        if in_quiet(now, prefs.zone, prefs.quiet):
            return "none"
        return chosen

    async def hold(self, user_id: int, match_id: int, now: float) -> None:
        await self.store.hold(user_id, match_id, now)

    # --- what is due -----------------------------------------------------------------------

    async def due_digests(self, now: float) -> list[int]:
        """Players whose digest is due now, each claimed for the day (never twice)."""
        due = []
        for stored in await self.store.with_schedules():
            if stored.mode != "digest":
                continue
            day = digest_day(now, stored.zone, stored.digest_hour)
            if day is not None and stored.digest_day != day and await self.store.claim_digest(stored.user_id, day):
                due.append(stored.user_id)
        return due

    async def due_releases(self, now: float) -> list[tuple[int, list[Waiting]]]:
        """Players whose quiet hours ended with notices held back, and the matches of those
        notices still waiting for them (taken from the store: delivered at most once)."""
        released = []
        for user_id in await self.store.held_users():
            prefs = await self.prefs(user_id)
            if in_quiet(now, prefs.zone, prefs.quiet):
                continue
            held = set(await self.store.take_held(user_id))
            waiting = await self.waiting_for(user_id, among=held)
            if waiting:
                released.append((user_id, waiting))
        return released

    async def waiting_for(self, user_id: int, *, among: Collection[int] | None = None) -> list[Waiting]:
        """The running matches where it is `user_id`'s turn, oldest first (only those of
        `among` when given).  Each match kept is looked at once, in its state (cached, else
        loaded): whose turn it is needs no view built and no second read of its row."""
        now = self.matches.now()
        found = []
        for row in sorted(await self.matches.of_player(user_id), key=lambda r: r.id):
            seat = row.seat_of(user_id)
            if row.status != MatchStatus.ACTIVE or row.seats is None or seat is None:
                continue
            if among is not None and row.id not in among:
                continue
            if seat not in (await self.matches.state_of(row)).turn:
                continue
            clock = clock_of(row)
            shown = clock.display(seat, now) if clock is not None else ""
            found.append(Waiting(row, row.seats[1 - seat], shown))
        return found
