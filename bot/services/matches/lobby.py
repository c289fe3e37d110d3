"""The lobby: where a match is played (a thread of the channel, or the channel itself),
challenges that expire, the server's settings, and rematches.

Why a service of its own beside `MatchService`: these are rules about *places and
invitations*, not about playing; keeping them here leaves the match service as it was and
puts every new query in `bot.store.lobby`.

Venues.  A server chooses `threads` (the default) or `channel`.  With threads, a challenge
does not hold its channel (any number can be open there) and its match is played in a public
thread made when it is accepted: `accept` points the challenge at the thread
(`move_to_thread`) before the match starts, so every channel-based lookup (`/move`, typed
moves, `/board`, the clocks) works inside the thread unchanged.  Where no thread can be made
(the channel is a thread or a forum, the bot lacks Create Public Threads, the request fails)
the challenge falls back to holding the channel, with today's one-match-per-channel rule.

Expiry.  A challenge's deadline is stored (`expires_at`), so it survives restarts: `accept`
refuses an expired challenge whatever the sweeper did, and the sweeper (`expire_due`, polled
by the cog) closes the ones past their deadline so their messages can say so.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from bot.clocks import ClockState, InvalidTimeControl, parse_time_control
from bot.clocks.model import parse_duration
from bot.i18n import tr
from bot.infra.shards import ShardLayout
from bot.services.matches.clocks import clock_of
from bot.services.matches.errors import ChallengeClosed, NoSuchMatch, NotInMatch, ServiceError
from bot.services.matches.service import MatchService
from bot.services.matches.updates import Update
from bot.store import MatchRow, MatchStatus
from bot.store.lobby import LobbyStore, Placement

Venue = Literal["threads", "channel"]
VENUES: tuple[Venue, ...] = ("threads", "channel")
DEFAULT_VENUE: Venue = "threads"
DEFAULT_CLOCK = "daily"
DEFAULT_EXPIRY = 24 * 3600.0
MAX_EXPIRY = 30 * 24 * 3600.0
MIN_EXPIRY = 60.0
SWAPPED_WORDS = {"me": "opponent", "opponent": "me", "you": "me"}
"""Per-seat option words seen from the other player (a rematch's challenger may be the old accepter)."""


class ChallengeExpired(ServiceError):
    pass


class RematchStands(ServiceError):
    """A rematch of these two players in this game is already open: the same challenge."""

    def __init__(self, challenge: MatchRow) -> None:
        super().__init__(
            tr(
                "A rematch is already open: challenge #{challenge} in <#{channel}>.",
                challenge=challenge.id,
                channel=challenge.channel_id,
            )
        )
        self.challenge = challenge


@dataclass(frozen=True)
class GuildSettings:
    venue: Venue = DEFAULT_VENUE
    default_clock: str = DEFAULT_CLOCK


def parse_expiry(text: str | None) -> float:
    """Seconds until a challenge expires, from `/play expires:` (`30m`, `2h`, `3d`; default 24 h)."""
    if text is None or not text.strip():
        return DEFAULT_EXPIRY
    try:
        seconds = parse_duration(text)
    except InvalidTimeControl as exc:
        raise ServiceError(str(exc)) from None
    if not MIN_EXPIRY <= seconds <= MAX_EXPIRY:
        raise ServiceError(tr("A challenge can stay open from 1 minute to 30 days (`expires`, e.g. `2h` or `3d`)."))
    return seconds


class Lobby:
    def __init__(self, matches: MatchService) -> None:
        self.matches = matches
        self.store = LobbyStore(matches.store)
        self._rematch_locks: dict[int, asyncio.Lock] = {}
        """Per finished match: two Rematch clicks at once make one challenge."""

    # --- settings ----------------------------------------------------------------------

    async def settings(self, guild_id: int | None) -> GuildSettings:
        if guild_id is None:
            return GuildSettings(venue="channel")
        stored = await self.store.guild_settings(guild_id)
        if stored is None:
            return GuildSettings()
        venue, clock = stored
        return GuildSettings(venue="channel" if venue == "channel" else "threads", default_clock=clock)

    async def configure(self, guild_id: int, *, venue: str | None = None, clock: str | None = None) -> GuildSettings:
        """Change the server's venue and/or default clock (validated; the caller checks who may)."""
        current = await self.settings(guild_id)
        new_venue: Venue = current.venue
        if venue is not None:
            if venue not in VENUES:
                raise ServiceError(tr("`venue` must be `threads` or `channel`."))
            new_venue = "channel" if venue == "channel" else "threads"
        new_clock = current.default_clock
        if clock is not None:
            try:
                parse_time_control(clock)
            except InvalidTimeControl as exc:
                raise ServiceError(str(exc)) from None
            new_clock = " ".join(clock.split()).lower()
        await self.store.save_guild_settings(guild_id, new_venue, new_clock)
        return GuildSettings(new_venue, new_clock)

    # --- challenges --------------------------------------------------------------------

    async def challenge(
        self,
        *,
        game: str,
        channel_id: int,
        guild_id: int | None,
        challenger_id: int,
        opponent_id: int | None,
        options: Mapping[str, str] | None = None,
        seat_pref: str = "random",
        clock: str | None = None,
        rated: bool = True,
        expires: str | None = None,
        threads_possible: bool = False,
        clock_state: ClockState | None = None,
    ) -> MatchRow:
        """A casual challenge from `/play`: the server's default clock when none is given
        (`none` keeps a match without one), a deadline, and a thread when the server uses
        threads and `threads_possible` (the cog checked the channel kind and permissions)."""
        lifetime = parse_expiry(expires)
        settings = await self.settings(guild_id)
        in_thread = settings.venue == "threads" and threads_possible
        row = await self.matches.challenge(
            game=game,
            channel_id=channel_id,
            guild_id=guild_id,
            challenger_id=challenger_id,
            opponent_id=opponent_id,
            options=options,
            seat_pref=seat_pref,
            clock=clock if clock is not None and clock.strip() else settings.default_clock,
            rated=rated,
            in_thread=in_thread,
            expires_at=self.matches.now() + lifetime,
            clock_state=clock_state,
        )
        return row

    async def placement(self, match_id: int) -> Placement:
        found = await self.find_placement(match_id)
        if found is None:
            raise NoSuchMatch()
        return found

    async def find_placement(self, match_id: int) -> Placement | None:
        """Where the match is played and challenged (None: no such match)."""
        return await self.store.placement(match_id)

    async def message_of(self, match_id: int) -> int | None:
        """The id of the challenge's message (None: not recorded), to mark it when it closes."""
        return await self.store.message_of(match_id)

    async def set_message(self, match_id: int, message_id: int) -> None:
        """Remember the challenge's message, so accepting or expiring it can edit it."""
        await self.matches.store.set_message(match_id, message_id)

    async def is_tournament_game(self, match_id: int) -> bool:
        return await self.store.is_tournament_game(match_id)

    async def check_accept(self, match_id: int, user_id: int) -> tuple[MatchRow, Placement]:
        """Refuse an accept before anything is made for it (a thread): closed, expired,
        the challenger's own, or meant for someone else."""
        row = await self.matches.get(match_id)
        if row.status != MatchStatus.CHALLENGE:
            raise ChallengeClosed()
        placement = await self.placement(match_id)
        if placement.expires_at is not None and placement.expires_at <= self.matches.now():
            raise ChallengeExpired(tr("This challenge has expired; ask for a new one with `/play`."))
        if user_id == row.challenger_id:
            raise ServiceError(tr("You cannot accept your own challenge; wait for an opponent."))
        if row.opponent_id is not None and row.opponent_id != user_id:
            raise NotInMatch(tr("This challenge is for someone else."))
        return row, placement

    async def accept(self, match_id: int, user_id: int, *, thread_id: int | None, intro: str | None = None) -> Update:
        """Start the match: in `thread_id` when given, else in the challenge's channel (which
        it must then hold: ChannelBusy-like refusal when another match holds it).  `intro`
        is stored with the first board's announcement (shown above it, after a restart too)."""
        row, placement = await self.check_accept(match_id, user_id)
        if thread_id is not None:
            if not await self.store.move_to_thread(match_id, thread_id, row.channel_id):
                raise ChallengeClosed()
            try:
                return await self.matches.accept(match_id, user_id, intro=intro)
            except BaseException:
                await self.store.move_back(match_id, row.channel_id)
                raise
        if not placement.occupies_channel and not await self.store.claim_channel(match_id):
            raise ServiceError(
                tr(
                    "I could not open a thread here, and this channel already has a match; finish it or accept "
                    "the challenge once the channel is free."
                )
            )
        return await self.matches.accept(match_id, user_id, intro=intro)

    async def withdraw(self, match_id: int, user_id: int) -> MatchRow:
        return await self.matches.cancel(match_id, user_id)

    async def open_challenges(self, guild_id: int) -> list[tuple[MatchRow, Placement]]:
        rows = await self.store.open_challenges(guild_id, self.matches.now())
        return [(row, await self.placement(row.id)) for row in rows]

    async def expire_due(self, shards: ShardLayout | None = None) -> list[MatchRow]:
        """Close the challenges past their deadline (of the guilds of `shards`, when given);
        the rows, for the cog to update their messages."""
        ids = await self.store.expire_challenges(self.matches.now(), shards)
        return [await self.matches.get(match_id) for match_id in ids]

    # --- rematch -----------------------------------------------------------------------

    async def rematch(self, match_id: int, user_id: int, *, threads_possible: bool) -> MatchRow:
        """A challenge from `user_id` to the other player of a finished match: same game,
        options, clock and rating, seats swapped.  Posted where the old challenge was.
        Pressed again (by either player) while it is open, it is the same challenge: raises
        `RematchStands` naming it."""
        async with self._rematch_locks.setdefault(match_id, asyncio.Lock()):
            return await self._rematch(match_id, user_id, threads_possible=threads_possible)

    async def _rematch(self, match_id: int, user_id: int, *, threads_possible: bool) -> MatchRow:
        old = await self.matches.get(match_id)
        if old.status not in (MatchStatus.FINISHED, MatchStatus.ABORTED) or old.seats is None:
            raise ServiceError(tr("A rematch is offered once the match is over."))
        seat = old.seat_of(user_id)
        if seat is None:
            raise NotInMatch(tr("Only the two players can ask for a rematch."))
        if await self.store.is_tournament_game(match_id):
            raise ServiceError(tr("Tournament games are paired by the tournament, not by rematches."))
        placement = await self.placement(match_id)
        where = placement.lobby_channel_id or old.channel_id
        other = old.seats[1 - seat]
        for open_one in await self.matches.of_player(user_id):
            players = {open_one.challenger_id, open_one.opponent_id}
            if open_one.status == MatchStatus.CHALLENGE and open_one.game == old.game and players == {user_id, other}:
                raise RematchStands(open_one)
        options = dict(old.options)
        if user_id != old.challenger_id:
            options = {k: SWAPPED_WORDS.get(v, v) for k, v in options.items()}
        stopped = clock_of(old)
        row = await self.challenge(
            game=old.game,
            channel_id=where,
            guild_id=old.guild_id,
            challenger_id=user_id,
            opponent_id=other,
            options=options,
            seat_pref="second" if seat == 0 else "first",
            clock="none",
            rated=old.rated,
            threads_possible=threads_possible and placement.lobby_channel_id is not None,
            clock_state=ClockState.new(stopped.control) if stopped is not None else None,
        )
        return row
