"""MatchService: the application's one way to create, play and end matches.

It owns the rules of *matches* (who may act, when, in which channel) while the engines own
the rules of *games*.  It knows nothing of Discord: callers pass user and channel ids and get
back an `Update` describing what to announce.

Concurrency: one asyncio lock per match serialises everything that changes a match, and
the store's optimistic version check guards against a second process.  A move is
acknowledged only after its transaction committed.

Randomness: every match has a secret seed; chance move number *n* is drawn with a
`random.Random` seeded from `sha256(seed:n)`.  The seed's hash is shown when the match starts
and the seed when it ends, so players can recompute every roll and draw afterwards
(`chance_rng` is all they need).

Clocks: a match with a time control keeps its `ClockState` (bot.clocks) in the match row.
The service computes every transition under the match lock (start on accept, `on_move`
after each move, `stop_all` at the end, pause/resume), saves it in the SAME transaction
as the move, and only then hands it to the `ClockKeeper` (`track` / `forget`).  The keeper
calls back into `on_clock_event` when a reminder or timeout is due; the service re-checks
the stored clock under the lock (a move may have won the race) and returns what the cogs
announce: a `ClockNotice` for a reminder, an `Update` for a timeout.

Pausing needs both players' `/pause` (like `/abort`), or one request from a moderator (a
non-player with Manage Channels, decided by the cog); `/resume` works the same way.
Requests are stored per match and cleared whenever the clock is paused or resumed.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal, NamedTuple

from bot.clocks import (
    TIMEOUT_REASON,
    ClockEvent,
    ClockGate,
    ClockKeeper,
    ClockState,
    InvalidTimeControl,
    Reminder,
    parse_time_control,
    timeout_move,
)
from bot.clocks.keeper import HEARTBEAT_SECONDS, MAX_SLEEP_SECONDS
from bot.clocks.model import Via
from bot.clocks.scheduler import Now, Sleep
from bot.games import CHANCE, GAMES, GameState, IllegalMove, InvalidOptions, Outcome, Rules
from bot.games.base import LogEntry
from bot.infra import crashpoints
from bot.infra.shards import Ownership
from bot.records.fairness import chance_rng, seed_hash
from bot.records.move_log import effective
from bot.store import MatchRow, Opening, StaleVersion, Store
from bot.store.clocks import MatchClockStore
from bot.store.outbox import BOARD, Announcement, new_key

log = logging.getLogger(__name__)

SEAT_PREFS = ("random", "first", "second")
MAX_BUTTONS = 5  # one row of Discord buttons
TIME_UP = "⏰ Time is up."
"""The line above a board the clock decided (the keeper found a flag fallen)."""
PER_SEAT_WORDS = {"me": "challenger", "opponent": "accepter", "you": "accepter", "both": "both", "none": "none"}


class ServiceError(Exception):
    """A request the service refuses; the message is shown to the user as it is."""


class NoMatchHere(ServiceError):
    pass


class NotInMatch(ServiceError):
    pass


class NotYourTurn(ServiceError):
    pass


class ChannelBusy(ServiceError):
    pass


class MatchConflict(ServiceError):
    pass


class StalePosition(ServiceError):
    """A move made for a position that is no longer current (an old button)."""


class WrongChannel(ServiceError):
    """A move made from outside the match's channel or thread."""


class SecretMove(ServiceError):
    """A move the game keeps secret, sent where everyone reads it (a typed channel message).

    `legal` says whether it would have been played: a refusal never tells whether a secret
    move was legal, but the cog uses it to tell a secret move from ordinary chatter."""

    def __init__(self, message: str, *, legal: bool) -> None:
        super().__init__(message)
        self.legal = legal


SECRET_IN_PUBLIC = (
    "That move is secret, so it is not played from the channel: use the controls in your DMs or `/hand` "
    "(or `/move`, whose replies only you see)."
)


def clock_of(row: MatchRow) -> ClockState | None:
    """The match's clock as stored (None: no time control)."""
    return ClockState.from_json(row.clock) if row.clock is not None else None


def _players(turn: Iterable[int]) -> frozenset[int]:
    return frozenset(seat for seat in turn if seat != CHANCE)


class Told(NamedTuple):
    """One applied move as the channel may learn it: `text` is the engine's sentence (None:
    show the notation of a public move, or nothing for a secret one)."""

    seat: int
    move: str
    public: bool
    text: str | None


@dataclass(frozen=True)
class Update:
    """What changed, for the caller to announce.  Views only: no state leaves the service."""

    match: MatchRow
    public_view: dict[str, Any]
    private_views: dict[int, dict[str, Any]] = field(default_factory=dict)
    """Seat -> that seat's full view, for seats whose private information changed."""
    played: tuple[tuple[int, str], ...] = ()
    """The public moves this update added, in order (seat, move)."""
    outcome: Outcome | None = None
    ply: int = 0
    note: str | None = None
    buttons: tuple[str, ...] = ()
    """Moves to offer as buttons under the board (the game's `button_moves` now legal)."""
    prompt: tuple[int, ...] = ()
    """Seats to (re)prompt privately: they must act now and something changed for them (the
    turn just became theirs, they just moved and act again, or their private view changed).
    A seat that was already waiting and saw nothing change is left alone, so a drafter is
    not sent the same DM again each time the opponent does something."""
    completed_for: int | None = None
    """The seat whose draft time (`draft=`) ran out, its missing picks completed at random
    (note `draft_timeout`): the channel is told so."""
    told: tuple[Told, ...] = ()
    """Every applied move with the engine's sentence for everyone (secret moves with text None
    unless the engine says THAT something happened, e.g. "Blue has drafted.")."""
    secret_move: bool = False
    """The player's own move was secret: every reply to them is private."""
    quiet: bool = False
    """Nothing public happened and nobody new must act (a pick of a simultaneous secret
    draft): the channel gets no board, at most the `told` sentences."""
    announcement: str | None = None
    """The key of the board's outbox row, stored with this change (None: nothing stored to
    announce); the presenter posts it through the outbox dispatcher, which marks it sent."""
    intro: str | None = None
    """A line to show above the board (a tournament game's intro, a timeout)."""

    def board_payload(self) -> dict[str, Any]:
        """What the outbox keeps to post this board again after a restart (no private views)."""
        return {
            "view": self.public_view,
            "played": [list(p) for p in self.played],
            "outcome": self.outcome.to_json() if self.outcome is not None else None,
            "ply": self.ply,
            "note": self.note,
            "buttons": list(self.buttons),
            "intro": self.intro,
            "version": self.match.version,
            "told": [list(t) for t in self.told],
            "quiet": self.quiet,
            "secret_move": self.secret_move,
            "completed_for": self.completed_for,
        }

    @classmethod
    def from_board_payload(cls, row: MatchRow, payload: Mapping[str, Any], key: str) -> Update:
        """The update a stored board announcement describes (its match row as it is now, at
        the version the board showed: its move buttons are refused once the match moved on)."""
        outcome = payload.get("outcome")
        if payload.get("version") is not None:
            row = replace(row, version=int(payload["version"]))
        completed_for = payload.get("completed_for")
        return cls(
            match=row,
            public_view=dict(payload["view"]),
            played=tuple((int(seat), str(move)) for seat, move in payload.get("played", [])),
            outcome=Outcome.from_json(outcome) if outcome is not None else None,
            ply=int(payload.get("ply", 0)),
            note=payload.get("note"),
            buttons=tuple(payload.get("buttons", [])),
            announcement=key,
            intro=payload.get("intro"),
            told=tuple(
                Told(int(seat), str(move), bool(public), text) for seat, move, public, text in payload.get("told", [])
            ),
            quiet=bool(payload.get("quiet", False)),
            secret_move=bool(payload.get("secret_move", False)),
            completed_for=int(completed_for) if completed_for is not None else None,
        )

    @property
    def to_move(self) -> tuple[int, ...]:
        """User ids of the players who must act now."""
        seats = self.match.seats
        if seats is None or self.outcome is not None:
            return ()
        return tuple(seats[s] for s in self.public_view.get("turn", []) if s in (0, 1))


@dataclass(frozen=True)
class ClockNotice:
    """A reminder to announce: `user_id` (seat `seat`) is running out of time.

    `via` is where: "channel" (mention the player in the match channel; short controls) or
    "dm" (long controls).  `text` is the reminder ("30 s left", "entering reserve", ...),
    `display` the seat's clock now ("0:30 + 3:00")."""

    match: MatchRow
    seat: int
    user_id: int
    text: str
    via: Via
    display: str


@dataclass(frozen=True)
class ClockChange:
    """The result of `/pause` or `/resume`: `done` False while the other player's
    agreement is missing (`waiting_for` is then their user id)."""

    match: MatchRow
    action: Literal["pause", "resume"]
    done: bool
    clock: ClockState
    waiting_for: int | None = None


ClockResult = ClockNotice | Update
"""What `on_clock_event` asks the cogs to announce."""


class _LRU:
    """A bounded cache of live states: memory stays flat however many matches are stored."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[int, tuple[int, GameState, int | None]] = OrderedDict()

    def get(self, match_id: int, version: int) -> GameState | None:
        item = self._items.get(match_id)
        if item is None or item[0] != version:
            return None
        self._items.move_to_end(match_id)
        return item[1]

    def plies(self, match_id: int, version: int) -> int | None:
        """How many moves the log holds at `version`, when known (saves a query per move)."""
        item = self._items.get(match_id)
        return item[2] if item is not None and item[0] == version else None

    def put(self, match_id: int, version: int, state: GameState, plies: int | None = None) -> None:
        self._items[match_id] = (version, state, plies)
        self._items.move_to_end(match_id)
        while len(self._items) > self.size:
            self._items.popitem(last=False)

    def drop(self, match_id: int) -> None:
        self._items.pop(match_id, None)

    def __len__(self) -> int:
        return len(self._items)


class MatchService:
    def __init__(
        self,
        store: Store,
        *,
        cache_size: int = 256,
        games: Mapping[str, Rules] = GAMES,
        clocks: ClockKeeper | None = None,
    ) -> None:
        self.store = store
        self.games = games
        self.clocks = clocks
        """Schedules reminders and timeouts; None: clocks are stored and shown but never fire."""
        self._cache = _LRU(cache_size)
        self._locks: dict[int, asyncio.Lock] = {}
        self.finish_listeners: list[FinishListener] = []
        """Called with the match row after a match ended (any way: result, resignation, time,
        abort), once its final state committed; the rating book and tournaments listen."""

    def _lock(self, match_id: int) -> asyncio.Lock:
        return self._locks.setdefault(match_id, asyncio.Lock())

    def lock_for(self, match_id: int) -> asyncio.Lock:
        """The match's lock, for the ClockKeeper: a reminder and a move never interleave."""
        return self._lock(match_id)

    def now(self) -> float:
        """Wall-clock time as the clocks see it (the keeper's, injectable in tests)."""
        return self.clocks.now() if self.clocks is not None else time.time()

    def _rules(self, game: str) -> Rules:
        try:
            return self.games[game]
        except KeyError:
            raise ServiceError(f"There is no game called `{game}`; `/games` lists them.") from None

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
        tournament_game: tuple[int, int, int] | None = None,
        in_thread: bool = False,
    ) -> MatchRow:
        """Open a challenge in a channel.  Raises ServiceError / InvalidOptions.

        `in_thread`: the match will be played in a thread of the channel (bot.services.matches.lobby), so
        the challenge leaves the channel free for others.

        `clock` is a time control as typed (`blitz`, `2m+5m timeout=pass`, ...; see
        `parse_time_control`), validated now and stored as the stopped clock of the match.
        `tournament_game` (tournament id, pairing id, game number) links the match to the
        tournament game it plays, in the same transaction that creates it."""
        rules = self._rules(game)
        if opponent_id == challenger_id:
            raise ServiceError("You cannot challenge yourself; leave the opponent empty for an open challenge.")
        if seat_pref not in SEAT_PREFS:
            raise ServiceError(f"`seat` must be one of {', '.join(SEAT_PREFS)}.")
        raw = {k.strip().lower(): str(v).strip().lower() for k, v in (options or {}).items()}
        self._resolve_options(rules, raw, challenger_seat=0)  # validate now, map seats at accept time
        stopped = self._parse_clock(clock)
        seed = secrets.token_hex(16)
        row = await self.store.create_challenge(
            game=game,
            options=raw,
            guild_id=guild_id,
            channel_id=channel_id,
            challenger_id=challenger_id,
            opponent_id=opponent_id,
            seat_pref=seat_pref,
            seed=seed,
            seed_hash=seed_hash(seed),
            clock=stopped.to_json() if stopped is not None else None,
            rated=rated,
            tournament_game=tournament_game,
            occupies_channel=not in_thread,
        )
        if row is None:
            if tournament_game is not None:
                raise MatchConflict("That tournament game already has its match.")
            raise ChannelBusy(
                "This channel already has a match or an open challenge; finish it or use another channel."
            )
        return row

    @staticmethod
    def _parse_clock(text: str | None) -> ClockState | None:
        if text is None or not text.strip():
            return None
        try:
            control = parse_time_control(text)
        except InvalidTimeControl as exc:
            raise ServiceError(str(exc)) from None
        return None if control.unlimited else ClockState.new(control)

    @staticmethod
    def _resolve_options(rules: Rules, raw: Mapping[str, str], *, challenger_seat: int) -> dict[str, Any]:
        """Engine options from what the challenger typed.

        Per-seat options (items such as Domino Wars' `tie`, whose values are seat numbers)
        may be given as `me`, `opponent`, `both` or `none`: seats are only known once the
        challenge is accepted, so the words are mapped here.
        """
        mapped: dict[str, object] = {}
        for name, value in raw.items():
            word = PER_SEAT_WORDS.get(value)
            if word == "challenger":
                value = str(challenger_seat)
            elif word == "accepter":
                value = str(1 - challenger_seat)
            mapped[name] = value
        return rules.resolve_options(mapped)

    async def accept(self, match_id: int, user_id: int, *, intro: str | None = None) -> Update:
        """Accept a challenge and start the match.  Raises ServiceError.  `intro` is kept with
        the board's announcement (shown above it)."""
        async with self._lock(match_id):
            row = await self._get(match_id)
            if row.status != "challenge":
                raise ServiceError("This challenge is no longer open.")
            if user_id == row.challenger_id:
                raise ServiceError("You cannot accept your own challenge; wait for an opponent.")
            if row.opponent_id is not None and row.opponent_id != user_id:
                raise NotInMatch("This challenge is for someone else.")
            rules = self._rules(row.game)
            if row.seat_pref == "first":
                challenger_seat = 0
            elif row.seat_pref == "second":
                challenger_seat = 1
            else:
                challenger_seat = chance_rng(row.seed, -1).randrange(2)
            seats = (row.challenger_id, user_id) if challenger_seat == 0 else (user_id, row.challenger_id)
            try:
                options = self._resolve_options(rules, row.options, challenger_seat=challenger_seat)
                state = rules.start(options=options)
            except InvalidOptions as exc:
                raise ServiceError(str(exc)) from None
            opening = state
            state, log_moves = self._advance(state, row.seed, 0, list(state.applied))
            clock = clock_of(row)
            if clock is not None and state.outcome is None:
                clock = clock.start_turn(_players(state.turn), self.now(), draft=state.drafting)
            started = replace(row, status="active", seats=seats, opponent_id=user_id, version=1)
            told = self._tell(opening, log_moves[len(opening.applied) :])
            update = self._announced(
                replace(
                    self._update(started, state, None, log_moves, ply=len(log_moves), note="started", intro=intro),
                    told=told,
                )
            )
            try:
                row = await self.store.start_match(
                    match_id,
                    seats,
                    state.dump(),
                    log_moves,
                    user_id,
                    clock=clock.to_json() if clock else None,
                    announce=[self._board(update)],
                )
            except StaleVersion:
                raise ServiceError("This challenge is no longer open.") from None
            self._cache.put(match_id, row.version, state, len(log_moves))
            if clock is not None and self.clocks is not None:
                self.clocks.track(match_id, clock)
            return replace(update, match=row)

    async def decline(self, match_id: int, user_id: int) -> MatchRow:
        row = await self._get(match_id)
        if row.status != "challenge":
            raise ServiceError("This challenge is no longer open.")
        if user_id == row.challenger_id:
            return await self.cancel(match_id, user_id)
        if row.opponent_id != user_id:
            raise NotInMatch("Only the challenged player can decline; anyone else can simply not accept.")
        if not await self.store.set_status(match_id, "declined", expected=("challenge",)):
            raise ServiceError("This challenge is no longer open.")
        return await self._get(match_id)

    async def cancel(self, match_id: int, user_id: int) -> MatchRow:
        row = await self._get(match_id)
        if row.status != "challenge":
            raise ServiceError("This challenge is no longer open.")
        if user_id != row.challenger_id:
            raise NotInMatch("Only the challenger can withdraw a challenge.")
        if not await self.store.set_status(match_id, "cancelled", expected=("challenge",)):
            raise ServiceError("This challenge is no longer open.")
        return await self._get(match_id)

    async def open_match(
        self,
        *,
        game: str,
        channel_id: int,
        guild_id: int | None,
        seats: tuple[int, int],
        options: Mapping[str, object],
        clock: str | None,
        rated: bool,
        tournament_game: tuple[int, int, int],
        intro: str | None = None,
        also_announce: Callable[[int], Iterable[Announcement]] = lambda _match_id: (),
    ) -> Update:
        """Start a tournament game at once, players in the given seats (nobody accepts it:
        the players signed up for the event).  Raises ServiceError.

        One transaction creates the match already started, links it to its tournament game
        and stores its announcements (the board with `intro`, and `also_announce(match_id)`),
        so a crash can never leave the game created but not started, or started unannounced."""
        rules = self._rules(game)
        raw = {k.strip().lower(): str(v).strip().lower() for k, v in options.items()}
        try:
            state = rules.start(options=self._resolve_options(rules, raw, challenger_seat=0))
        except InvalidOptions as exc:
            raise ServiceError(str(exc)) from None
        stopped = self._parse_clock(clock)
        seed = secrets.token_hex(16)
        opening = state
        state, log_moves = self._advance(state, seed, 0, list(state.applied))
        told = self._tell(opening, log_moves[len(opening.applied) :])
        started = stopped
        if stopped is not None and state.outcome is None:
            started = stopped.start_turn(_players(state.turn), self.now(), draft=state.drafting)
        updates: list[Update] = []

        def announce(match_id: int) -> list[Announcement]:
            placeholder = MatchRow(
                id=match_id,
                game=game,
                options=raw,
                guild_id=guild_id,
                channel_id=channel_id,
                status="active",
                challenger_id=seats[0],
                opponent_id=seats[1],
                seat_pref="first",
                seed=seed,
                seed_hash=seed_hash(seed),
                snapshot=None,
                version=1,
                outcome=None,
                seats=seats,
                created_at=0.0,
                updated_at=0.0,
            )
            update = self._announced(
                replace(
                    self._update(placeholder, state, None, log_moves, ply=len(log_moves), note="started", intro=intro),
                    told=told,
                )
            )
            updates.append(update)
            return [self._board(update), *also_announce(match_id)]

        row = await self.store.create_challenge(
            game=game,
            options=raw,
            guild_id=guild_id,
            channel_id=channel_id,
            challenger_id=seats[0],
            opponent_id=seats[1],
            seat_pref="first",
            seed=seed,
            seed_hash=seed_hash(seed),
            clock=started.to_json() if started is not None else None,
            rated=rated,
            tournament_game=tournament_game,
            opening=Opening(seats, state.dump(), log_moves, announce),
        )
        if row is None:
            raise MatchConflict("That tournament game already has its match.")
        self._cache.put(row.id, row.version, state, len(log_moves))
        if started is not None and self.clocks is not None:
            self.clocks.track(row.id, started)
        return replace(updates[-1], match=row)

    # --- play --------------------------------------------------------------------------

    async def play(
        self,
        match_id: int,
        user_id: int,
        text: str,
        *,
        in_public: bool = False,
        expected_version: int | None = None,
        channel_id: int | None = None,
    ) -> Update:
        """Play `text` for `user_id`.  Raises ServiceError or IllegalMove; on error nothing changed.

        `in_public`: the text was sent where everyone reads it (a channel message), so a move
        the game keeps secret is refused with `SecretMove` and not played.
        `expected_version` (a button's position) must still be the match's version, else
        StalePosition; `channel_id` (where the move was made) must be the match's channel
        or thread, else WrongChannel.  Both are checked under the match lock."""
        async with self._lock(match_id):
            row = await self._get(match_id)
            if channel_id is not None and channel_id != row.channel_id:
                raise WrongChannel(f"This belongs to match #{row.id}, which is played in <#{row.channel_id}>.")
            if row.status != "active":
                raise NoMatchHere("This match is not running.")
            if expected_version is not None and expected_version != row.version:
                raise StalePosition("This button belongs to an older position: the board has changed since.")
            seat = self._seat(row, user_id)
            state = await self._state(row)
            if seat not in state.turn and seat not in state.may_act:  # `may_act`: may act unasked
                raise NotYourTurn("It is not your turn.")
            clock, now = clock_of(row), self.now()
            if clock is not None and not clock.paused and clock.expired(seat, now):
                # the flag fell before the keeper got to it: the timeout wins over the move
                return await self._time_out(row, state, clock, seat, now)
            return await self._play_seat(row, state, seat, text, clock, now, in_public=in_public)

    async def _play_seat(
        self,
        row: MatchRow,
        state: GameState,
        seat: int,
        text: str,
        clock: ClockState | None,
        now: float,
        *,
        in_public: bool = False,
        note: str | None = None,
        intro: str | None = None,
    ) -> Update:
        """Play `text` for `seat` (lock held), then the chance moves, and commit with the next clock."""
        ply = self._cache.plies(row.id, row.version)
        if ply is None:
            ply = await self.store.move_count(row.id)
        new = self._play_checked(state, seat, text) if in_public else state.play(seat, text)
        record = list(new.applied)
        new, record = self._advance(new, row.seed, ply + len(record), record)
        if clock is not None:
            if new.outcome is not None:
                clock = clock.stop_all(now)
            else:
                clock = clock.on_move(seat, _players(new.turn), now, draft=new.drafting)
        return await self._commit(row, state, new, ply, record, clock=clock, note=note, intro=intro)

    @staticmethod
    def _play_checked(state: GameState, seat: int, text: str) -> GameState:
        """`state.play` for a move sent in public: a secret move is refused, legal or not, and
        an illegal one that reads as secret gets no reason (the reason could tell a secret)."""
        looks_secret = not state.is_public_move(seat, text)
        try:
            new = state.play(seat, text)
        except IllegalMove:
            if looks_secret:
                raise SecretMove(SECRET_IN_PUBLIC, legal=False) from None
            raise
        if looks_secret or not new.applied[0].public:
            raise SecretMove(SECRET_IN_PUBLIC, legal=True)
        return new

    async def resign(self, match_id: int, user_id: int) -> Update:
        async with self._lock(match_id):
            row = await self._get(match_id)
            if row.status != "active":
                raise NoMatchHere("This match is not running.")
            seat = self._seat(row, user_id)
            state = await self._state(row)
            name = self._rules(row.game).info.seat_names[seat]
            outcome = Outcome(frozenset((1 - seat,)), f"{name} resigned.")
            return await self._finish(row, state, outcome, "finished")

    async def abort(self, match_id: int, user_id: int, *, moderator: bool = False) -> Update | None:
        """Abort when both players asked (or a moderator does).  Returns None while the
        other player's agreement is still missing."""
        async with self._lock(match_id):
            row = await self._get(match_id)
            if row.status == "challenge":
                if user_id == row.challenger_id or moderator:
                    await self.store.set_status(match_id, "cancelled", expected=("challenge",))
                    raise ServiceError("The challenge was withdrawn.")
                raise NotInMatch("Only the challenger or a moderator can withdraw this challenge.")
            if row.status != "active":
                raise NoMatchHere("This match is not running.")
            if not moderator:
                self._seat(row, user_id)
                votes = await self.store.add_abort_vote(match_id, user_id)
                if not row.seats or not set(row.seats) <= votes:
                    return None
            state = await self._state(row)
            outcome = Outcome(
                frozenset(), "The match was aborted." if not moderator else "A moderator aborted the match."
            )
            return await self._finish(row, state, outcome, "aborted")

    async def claim_timeout(self, match_id: int, loser_seat: int, reason: str) -> Update:
        """End a match on time (called by the clock; the reason names who ran out)."""
        async with self._lock(match_id):
            row = await self._get(match_id)
            if row.status != "active":
                raise NoMatchHere("This match is not running.")
            state = await self._state(row)
            outcome = Outcome(frozenset((1 - loser_seat,)), reason)
            return await self._finish(row, state, outcome, "finished", note="timeout")

    # --- clocks ------------------------------------------------------------------------

    async def on_clock_event(self, match_id: int, event: ClockEvent) -> ClockResult | None:
        """What to announce for a due reminder or timeout (None: nothing, it went stale).

        A reminder is announced only if the stored clock still has it marked as sent for
        the running move (a move in between makes it stale).  A timeout is re-checked with
        `expired`; then `timeout=pass` plays `timeout_move` for the seat when there is one,
        and otherwise the seat loses on time."""
        async with self._lock(match_id):
            row = await self.store.get_match(match_id)
            clock = clock_of(row) if row is not None else None
            if row is None or clock is None or row.status != "active" or row.seats is None or clock.paused:
                return None
            seat, now = event.seat, self.now()
            if isinstance(event, Reminder):
                mine = clock.seats[seat]
                if not mine.running or event.key not in mine.sent:
                    return None
                return ClockNotice(row, seat, row.seats[seat], event.label, event.via, clock.display(seat, now))
            if not clock.expired(seat, now):
                return None
            return await self._time_out(row, await self._state(row), clock, seat, now, intro=TIME_UP)

    async def claim_time(self, match_id: int, user_id: int) -> Update:
        """A player claims that the opponent's time ran out.

        The clock task should have ended the match already; a claim only succeeds when it
        was missed, so it can never end a match early.  Raises ServiceError otherwise.
        """
        async with self._lock(match_id):
            row = await self._get(match_id)
            if row.status != "active":
                raise NoMatchHere("This match is not running.")
            seat = self._seat(row, user_id)
            clock = clock_of(row)
            if clock is None:
                raise ServiceError("This match has no clock.")
            other, now = 1 - seat, self.now()
            if clock.paused or not clock.expired(other, now):
                raise ServiceError(f"Your opponent still has time: `{clock.display(other, now)}`.")
            return await self._time_out(row, await self._state(row), clock, other, now)

    async def _time_out(
        self, row: MatchRow, state: GameState, clock: ClockState, seat: int, now: float, *, intro: str | None = None
    ) -> Update:
        """`seat` ran out of time (lock held): complete its draft at random when the draft's
        own limit ran out, else play its timeout move, or it loses."""
        if clock.seats[seat].hard:
            return await self._complete_draft(row, state, clock, seat, now, intro=intro)
        if clock.control.on_timeout == "pass":
            move = timeout_move(state.legal_moves(seat))
            if move is not None:
                return await self._play_seat(row, state, seat, move, clock, now, note="timeout", intro=intro)
        name = self._rules(row.game).info.seat_names[seat]
        outcome = Outcome(frozenset((1 - seat,)), TIMEOUT_REASON.format(player=name))
        return await self._finish(row, state, outcome, "finished", note="timeout", intro=intro)

    async def _complete_draft(
        self, row: MatchRow, state: GameState, clock: ClockState, seat: int, now: float, *, intro: str | None = None
    ) -> Update:
        """The draft limit ran out (lock held): play random legal picks for `seat` until it
        need not act any more, drawn from the match seed (so the log replays and anyone can
        recheck them with `chance_rng`), then commit like a move."""
        ply = await self.store.move_count(row.id)
        rng = chance_rng(row.seed, ply)
        new, record = state, list[LogEntry]()
        while new.outcome is None and seat in new.turn and CHANCE not in new.turn:
            new = new.play(seat, rng.choice(sorted(new.legal_moves(seat))))
            record.extend(new.applied)
        new, record = self._advance(new, row.seed, ply + len(record), record)
        if new.outcome is not None:
            clock = clock.stop_all(now)
        else:
            clock = clock.on_move(seat, _players(new.turn), now, draft=new.drafting)
        # Never quiet: the channel must hear that the picks were completed at random.
        return await self._commit(row, state, new, ply, record, clock=clock, intro=intro, completed_for=seat)

    async def pause(self, match_id: int, user_id: int, *, moderator: bool = False) -> ClockChange:
        """Pause the clock once both players asked (or a moderator did)."""
        return await self._clock_vote(match_id, user_id, "pause", moderator=moderator)

    async def resume(self, match_id: int, user_id: int, *, moderator: bool = False) -> ClockChange:
        """Restart a paused clock once both players asked (or a moderator did)."""
        return await self._clock_vote(match_id, user_id, "resume", moderator=moderator)

    async def _clock_vote(
        self, match_id: int, user_id: int, action: Literal["pause", "resume"], *, moderator: bool
    ) -> ClockChange:
        async with self._lock(match_id):
            row = await self._get(match_id)
            if row.status != "active":
                raise NoMatchHere("This match is not running.")
            clock = clock_of(row)
            if clock is None:
                raise ServiceError("This match has no clock.")
            if action == "pause" and clock.paused:
                raise ServiceError("The clock is already paused; `/resume` restarts it.")
            if action == "resume" and not clock.paused:
                raise ServiceError("The clock is not paused.")
            now = self.now()
            if action == "pause" and any(clock.expired(s, now) for s in clock.running_seats):
                raise ServiceError("Too late to pause: the time is up.")
            if not moderator:
                self._seat(row, user_id)
                votes = await self.store.add_clock_vote(match_id, user_id, action)
                missing = [u for u in (row.seats or ()) if u not in votes]
                if missing:
                    return ClockChange(row, action, False, clock, waiting_for=missing[0])
            changed = clock.pause(now) if action == "pause" else clock.resume(now)
            await self.store.change_clock(match_id, changed.to_json())
            if self.clocks is not None:
                self.clocks.track(match_id, changed)
            return ClockChange(await self._get(match_id), action, True, changed)

    def clock_header(self, row: MatchRow) -> tuple[str, str] | None:
        """Both seats' clocks as the board header shows them (None: no clock)."""
        clock = clock_of(row)
        return clock.header(self.now()) if clock is not None else None

    # --- queries -----------------------------------------------------------------------

    async def match_in_channel(self, channel_id: int) -> MatchRow:
        row = await self.store.open_match_in_channel(channel_id)
        if row is None:
            raise NoMatchHere("There is no match in this channel. Start one with `/play`.")
        return row

    async def view(self, match_id: int, user_id: int | None) -> dict[str, Any]:
        """The view `user_id` may see (the public view for spectators)."""
        row = await self._get(match_id)
        state = await self._state(row)
        seat = row.seat_of(user_id) if user_id is not None else None
        return self._decorate(row, state.view(seat))

    async def legal_moves(self, match_id: int, user_id: int) -> list[str]:
        row = await self._get(match_id)
        seat = row.seat_of(user_id)
        if row.status != "active" or seat is None:
            return []
        return (await self._state(row)).legal_moves(seat)

    async def suggest_moves(self, match_id: int, user_id: int, typed: str, *, limit: int = 25) -> list[str]:
        """Up to `limit` legal moves of `user_id` matching `typed`, for autocomplete ([] when
        they may not act now or are not seated): the game's `suggest_moves` hook."""
        row = await self._get(match_id)
        seat = row.seat_of(user_id)
        if row.status != "active" or seat is None:
            return []
        state = await self._state(row)
        return state.suggest_moves(seat, typed, limit) if seat in state.turn | state.may_act else []

    async def seat_of(self, match_id: int, user_id: int) -> int | None:
        return (await self._get(match_id)).seat_of(user_id)

    async def replay(self, match_id: int) -> GameState:
        """The state rebuilt from options and the move log alone (forced moves re-derived)."""
        row = await self._get(match_id)
        rules = self._rules(row.game)
        challenger_seat = 0 if row.seats is None or row.seats[0] == row.challenger_id else 1
        state = rules.start(options=self._resolve_options(rules, row.options, challenger_seat=challenger_seat))
        for move in effective(await self.store.moves(match_id)):  # takeback records applied
            if not move.forced:
                state = state.play(move.seat, move.move)
        return state

    async def get(self, match_id: int) -> MatchRow:
        return await self._get(match_id)

    # --- internals ---------------------------------------------------------------------

    async def _get(self, match_id: int) -> MatchRow:
        row = await self.store.get_match(match_id)
        if row is None:
            raise NoMatchHere("That match does not exist.")
        return row

    @staticmethod
    def _seat(row: MatchRow, user_id: int) -> int:
        seat = row.seat_of(user_id)
        if seat is None:
            raise NotInMatch("You are not playing in this match.")
        return seat

    async def _state(self, row: MatchRow) -> GameState:
        cached = self._cache.get(row.id, row.version)
        if cached is not None:
            return cached
        if row.snapshot is None:
            raise NoMatchHere("This match has not started yet.")
        row, later = await self.snapshot_moves(row)
        assert row.snapshot is not None
        state = self._rules(row.game).load(row.snapshot, later)
        self._cache.put(row.id, row.version, state)
        return state

    async def snapshot_moves(self, row: MatchRow) -> tuple[MatchRow, list[str]]:
        """The log moves that `row`'s snapshot leaves out (`Rules.log_needed`; none for a
        complete snapshot), which `load` needs with it.  When another process moved the match
        on between reading `row` and its log, the row is read again and returned with them:
        a snapshot and moves of two different versions never meet."""
        for _ in range(5):
            if row.snapshot is None:
                raise NoMatchHere("This match has not started yet.")
            needed = self._rules(row.game).log_needed(row.snapshot)
            if needed is None:
                return row, []
            later = await self.store.effective_moves_after(row.id, needed, version=row.version)
            if later is not None:
                return row, later
            row = await self._get(row.id)
        raise MatchConflict("The match keeps changing while it is being loaded; please try again.")

    def _advance(
        self, state: GameState, seed: str, ply: int, record: list[LogEntry]
    ) -> tuple[GameState, list[LogEntry]]:
        """Play every chance move now due, with the match RNG, and any forced replies."""
        while state.outcome is None and CHANCE in state.turn:
            move = state.sample_chance(chance_rng(seed, ply))
            state = state.play(CHANCE, move)
            record.extend(state.applied)
            ply += len(state.applied)
        return state, record

    async def _commit(
        self,
        row: MatchRow,
        before: GameState,
        state: GameState,
        ply: int,
        record: list[LogEntry],
        *,
        clock: ClockState | None = None,
        note: str | None = None,
        intro: str | None = None,
        completed_for: int | None = None,
    ) -> Update:
        """Commit the moves with the board's outbox row.  `completed_for`: the seat whose draft
        was completed at random (never a quiet update: the channel must hear it)."""
        outcome = state.outcome
        status = "finished" if outcome is not None else "active"
        shown = replace(row, version=row.version + 1)  # the version the commit writes
        update = self._update(shown, state, before, record, ply=ply + len(record), note=note, intro=intro)
        if completed_for is not None:
            update = replace(update, note="draft_timeout", completed_for=completed_for, quiet=False)
        update = self._announced(update)
        snapshot = state.dump()
        try:
            version = await self.store.commit_moves(
                row.id,
                expected_version=row.version,
                first_ply=ply,
                moves=record,
                snapshot=snapshot,
                status=status,
                outcome=outcome.to_json() if outcome else None,
                clock=clock.to_json() if clock is not None else None,
                announce=[self._board(update)],
            )
        except StaleVersion:
            self._cache.drop(row.id)
            raise MatchConflict("The match changed while your move was being saved; please try again.") from None
        crashpoints.reached("moves.committed")
        self._cache.put(row.id, version, state, ply + len(record))
        if outcome is not None:
            self._forget(row.id)
        elif clock is not None and self.clocks is not None:
            self.clocks.track(row.id, clock)
        new_row = replace(  # what the commit wrote: no need to read it back
            row,
            version=version,
            status=status,
            snapshot=snapshot,
            outcome=outcome.to_json() if outcome else None,
            clock=clock.to_json() if clock is not None else row.clock,
            updated_at=time.time(),
        )
        if outcome is not None:
            await self._notify_finished(new_row)
        return replace(update, match=new_row)

    async def _finish(
        self,
        row: MatchRow,
        state: GameState,
        outcome: Outcome,
        status: str,
        *,
        note: str | None = None,
        intro: str | None = None,
    ) -> Update:
        """End a match for a reason outside the game (resignation, abort, time); the clock stops."""
        ply = await self.store.move_count(row.id)
        clock = clock_of(row)
        public = self._decorate(row, state.view(None))
        public["outcome"], public["turn"] = outcome.to_json(), []
        shown = replace(row, version=row.version + 1)  # the version the commit writes
        update = self._announced(Update(shown, public, {}, (), outcome, ply, note=note or status, intro=intro))
        try:
            await self.store.commit_moves(
                row.id,
                expected_version=row.version,
                first_ply=ply,
                moves=[],
                snapshot=state.dump(),
                status=status,
                outcome=outcome.to_json(),
                clock=clock.stop_all(self.now()).to_json() if clock is not None else None,
                announce=[self._board(update)],
            )
        except StaleVersion:
            raise MatchConflict("The match changed at the same moment; please try again.") from None
        crashpoints.reached("moves.committed")
        self._forget(row.id)
        new_row = await self._get(row.id)
        await self._notify_finished(new_row)
        return replace(update, match=new_row)

    async def _notify_finished(self, row: MatchRow) -> None:
        """Tell the listeners; one failing never undoes the committed end or stops the others
        (the rating book and tournaments catch up on start-up from what is stored)."""
        for listener in self.finish_listeners:
            try:
                await listener(row)
            except Exception:
                log.exception("a finish listener failed for match %d", row.id)

    def _forget(self, match_id: int) -> None:
        if self.clocks is not None:
            self.clocks.forget(match_id)
        self._cache.drop(match_id)
        lock = self._locks.get(match_id)
        if lock is not None and not lock.locked():
            del self._locks[match_id]

    def _update(
        self,
        row: MatchRow,
        state: GameState,
        before: GameState | None,
        record: list[LogEntry],
        *,
        ply: int,
        note: str | None = None,
        intro: str | None = None,
    ) -> Update:
        private: dict[int, dict[str, Any]] = {}
        if self._rules(row.game).info.has_private_info:
            for seat in (0, 1):
                mine = state.view(seat)
                if before is None or before.view(seat).get("private") != mine.get("private"):
                    private[seat] = self._decorate(row, mine)
        played = tuple((s, m) for s, m, public, _forced in record if public and s != CHANCE)
        told = self._tell(before, record) if before is not None else ()
        buttons = self._buttons(row.game, state)
        movers = {s for s, *_ in record}
        waiting = _players(before.turn) if before is not None else frozenset()
        prompt = tuple(
            seat
            for seat in sorted(_players(state.turn))
            if state.outcome is None and (seat not in waiting or seat in movers or seat in private)
        )
        public_view = self._decorate(row, state.view(None))
        first = record[0] if record else None
        secret_move = first is not None and first.seat != CHANCE and not first.public
        quiet = (
            before is not None
            and secret_move
            and state.outcome is None
            and not any(entry.public for entry in record)
            and _players(state.turn) <= waiting
            and before.view(None).get("phase") == public_view.get("phase")
        )
        return Update(
            match=row,
            public_view=public_view,
            private_views=private,
            played=played,
            outcome=state.outcome,
            ply=ply,
            note=note,
            buttons=buttons,
            prompt=prompt,
            told=told,
            secret_move=secret_move,
            quiet=quiet,
            intro=intro,
        )

    @staticmethod
    def _announced(update: Update) -> Update:
        """`update` with the key of the outbox row that will announce it."""
        return replace(update, announcement=new_key())

    @staticmethod
    def _board(update: Update) -> Announcement:
        """The outbox row of a board, committed with the change it shows."""
        row = update.match
        assert update.announcement is not None
        return Announcement(
            kind=BOARD,
            channel_id=row.channel_id,
            guild_id=row.guild_id,
            payload=update.board_payload(),
            match_id=row.id,
            key=update.announcement,
        )

    @staticmethod
    def _tell(origin: GameState, record: list[LogEntry]) -> tuple[Told, ...]:
        """`record` (applied from `origin`) with the engine's sentences.  A narration bug must
        never undo or hide a committed move: it falls back to the bare notation."""
        try:
            told = origin.narrate(record)
        except Exception:
            log.exception("narrating %d moves failed; announcing the notation only", len(record))
            told = [(entry, None) for entry in record]
        return tuple(Told(e.seat, e.move, e.public, text) for e, text in told)

    def _buttons(self, game: str, state: GameState) -> tuple[str, ...]:
        pattern = self._rules(game).info.button_moves
        if pattern is None or state.outcome is not None:
            return ()
        found: dict[str, None] = {}
        for seat in sorted(state.turn - {CHANCE}):
            found.update((m, None) for m in state.legal_moves(seat) if pattern.match(m))
        return tuple(found)[:MAX_BUTTONS]

    @staticmethod
    def _decorate(row: MatchRow, view: dict[str, Any]) -> dict[str, Any]:
        """Add what the match knows and the game does not (its id); a copy, never shared."""
        return {**view, "match_id": row.id}


ClockResultHandler = Callable[[ClockResult], Awaitable[None]]
FinishListener = Callable[[MatchRow], Awaitable[None]]


def attach_clocks(
    service: MatchService,
    on_result: ClockResultHandler,
    *,
    now: Now = time.time,
    sleep: Sleep = asyncio.sleep,
    forgive_downtime_over: float | None = None,
    shards: Ownership | None = None,
    gate: ClockGate | None = None,
    heartbeat_every: float = HEARTBEAT_SECONDS,
    max_sleep: float = MAX_SLEEP_SECONDS,
) -> ClockKeeper:
    """Create the `ClockKeeper` of `service` (persisted in its store, serialised by its match
    locks), attach it, and return it; the caller starts it with `await keeper.start()` once
    whoever handles `on_result` is ready, and closes it before closing the store.

    Each due event goes to `service.on_clock_event`; a non-None result goes to `on_result`
    (the bot announces it).  `now` / `sleep` are injectable so tests never wait, and so is
    the keeper's wake-up pace, `heartbeat_every` / `max_sleep` (the product keeps the
    defaults), so that a test advancing fake time by days need not wake every few fake
    seconds.  With `shards`, only the clocks of the guilds this process owns are loaded after
    a restart; with `gate`, a due clock is fired only when the gate says so
    (bot/clocks/keeper.py)."""

    async def on_event(match_id: int, event: ClockEvent) -> None:
        result = await service.on_clock_event(match_id, event)
        if result is not None:
            await on_result(result)

    keeper = ClockKeeper(
        MatchClockStore(service.store, shards),
        on_event,
        now=now,
        sleep=sleep,
        forgive_downtime_over=forgive_downtime_over,
        lock_for=service.lock_for,
        gate=gate,
        heartbeat_every=heartbeat_every,
        max_sleep=max_sleep,
    )
    service.clocks = keeper
    return keeper
