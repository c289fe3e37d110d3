"""MatchService: the application's one way to create, play and end matches.

It owns the rules of *matches* (who may act, when, in which channel) while the engines own
the rules of *games*.  It knows nothing of Discord: callers pass user and channel ids and get
back an `Update` describing what to announce.

Concurrency: one asyncio lock per match serialises everything that changes a match, and
the store's optimistic version check guards against a second process.  A move is
acknowledged only after its transaction committed.

One commit path: every change of a running match (a move, a timeout, a resignation, an
abort, an agreed draw, a takeback, a draft completed at random) is built as a `Transition`
and written by `commit` (bot/services/matches/commit.py): the row, its log lines, its clock
and its board's outbox row in one transaction, then the same steps after it for every kind.
Starting a match (`accept`, `open_match`) turns a challenge into a match and has its own
store call.

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
import secrets
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any, Final, Literal

from bot.clocks import (
    ClockEvent,
    ClockKeeper,
    ClockState,
    InvalidTimeControl,
    Reminder,
    parse_time_control,
    timeout_move,
)
from bot.games import CHANCE, GAMES, GameState, IllegalMove, InvalidOptions, Outcome, Rules
from bot.games.base import LogEntry, shown
from bot.i18n import tr
from bot.records.fairness import chance_rng, seed_hash
from bot.records.move_log import (
    ABORT_RECORD,
    COMPLETION_SEAT,
    MODERATOR_ABORT_RECORD,
    completion_record,
    effective,
    ending_reason,
    resign_record,
    timeout_record,
)
from bot.services.matches.cache import StateCache
from bot.services.matches.clocks import TIME_UP, clock_of
from bot.services.matches.commit import FinishListener, Transition, commit_transition
from bot.services.matches.describe import decorate, describe, player_seats, tell
from bot.services.matches.errors import (
    SECRET_IN_PUBLIC,
    ChallengeClosed,
    ChannelBusy,
    MatchConflict,
    NoClock,
    NoMatchHere,
    NoSuchMatch,
    NotInMatch,
    NotRunning,
    NotStarted,
    NotYourTurn,
    SecretMove,
    ServiceError,
    StalePosition,
    WrongChannel,
)
from bot.services.matches.options import SEAT_PREFS, resolve_options, started_options, typed_options
from bot.services.matches.updates import ClockChange, ClockNotice, ClockResult, Update
from bot.store import MatchRow, MatchStatus, MoveRow, Opening, StaleVersion, Store
from bot.store.outbox import Announcement, new_key

MAX_ID: Final = 2**63 - 1
"""The largest id a database row (and a Discord snowflake) can have: a number past it in a
button's custom id is no such match, not an overflow in the database driver."""


def where_played(threads: list[MatchRow]) -> str:
    """The refusal of a command sent where no match is: it names the player's match threads of
    that channel (`MatchService.threads_of`) when there are any."""
    if len(threads) == 1:
        return tr("Your match is played in its thread: <#{thread}>.", thread=threads[0].channel_id)
    if threads:
        links = ", ".join(f"<#{r.channel_id}>" for r in threads)
        return tr("Your matches here are played in their threads: {links}.", links=links)
    return tr("There is no match in this channel. Start one with `/play`.")


class MatchService:
    """Challenges, play, clocks and queries of matches, over one store.

    Its public members beyond the use cases (`state_of`, `plies`, `effective_log`, `commit`,
    `end`, `lock_for`, `now`) are what the rest of the match package (agreements) builds on."""

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
        self.cache = StateCache(cache_size)
        """The live states of recent matches; only `state_of` and `commit` put entries."""
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
            raise ServiceError(tr("There is no game called {game}; `/games` lists them.", game=shown(game))) from None

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
        expires_at: float | None = None,
        clock_state: ClockState | None = None,
    ) -> MatchRow:
        """Open a challenge in a channel.  Raises ServiceError / InvalidOptions.

        `in_thread`: the match will be played in a thread of the channel (bot.services.matches.lobby), so
        the challenge leaves the channel free for others.

        `clock` is a time control as typed (`blitz`, `2m+5m timeout=pass`, ...; see
        `parse_time_control`), validated now and stored as the stopped clock of the match.
        `tournament_game` (tournament id, pairing id, game number) links the match to the
        tournament game it plays, in the same transaction that creates it, and `expires_at`
        (time.time() seconds) is its deadline, stored with it: no crash leaves a challenge that
        never expires.  `clock_state` (a stopped clock, e.g. a rematch's) is used instead of
        parsing `clock`."""
        rules = self._rules(game)
        if opponent_id == challenger_id:
            raise ServiceError(tr("You cannot challenge yourself; leave the opponent empty for an open challenge."))
        if seat_pref not in SEAT_PREFS:
            raise ServiceError(tr("`seat` must be one of {seat_prefs}.", seat_prefs=", ".join(SEAT_PREFS)))
        raw = typed_options(options or {})
        resolve_options(rules, raw, challenger_seat=0)  # validate now, map seats at accept time
        stopped = clock_state if clock_state is not None else self._parse_clock(clock)
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
            expires_at=expires_at,
        )
        if row is None:
            if tournament_game is not None:
                raise MatchConflict(tr("That tournament game already has its match."))
            raise ChannelBusy(
                tr("This channel already has a match or an open challenge; finish it or use another channel.")
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

    async def accept(self, match_id: int, user_id: int, *, intro: str | None = None) -> Update:
        """Accept a challenge and start the match.  Raises ServiceError.  `intro` is kept with
        the board's announcement (shown above it)."""
        async with self._lock(match_id):
            row = await self._get(match_id)
            if row.status != MatchStatus.CHALLENGE:
                raise ChallengeClosed()
            if user_id == row.challenger_id:
                raise ServiceError(tr("You cannot accept your own challenge; wait for an opponent."))
            if row.opponent_id is not None and row.opponent_id != user_id:
                raise NotInMatch(tr("This challenge is for someone else."))
            rules = self._rules(row.game)
            if row.seat_pref == "first":
                challenger_seat = 0
            elif row.seat_pref == "second":
                challenger_seat = 1
            else:
                challenger_seat = chance_rng(row.seed, -1).randrange(2)
            seats = (row.challenger_id, user_id) if challenger_seat == 0 else (user_id, row.challenger_id)
            try:
                options = resolve_options(rules, row.options, challenger_seat=challenger_seat)
                state = rules.start(options=options)
            except InvalidOptions as exc:
                raise ServiceError(str(exc)) from None
            opening = state
            state, log_moves = self._advance(state, row.seed, 0, list(state.applied))
            clock = clock_of(row)
            if clock is not None and state.outcome is None:
                clock = clock.start_turn(player_seats(state.turn), self.now(), draft=state.drafting)
            started = replace(row, status=MatchStatus.ACTIVE, seats=seats, opponent_id=user_id, version=1)
            told = tell(opening, log_moves[len(opening.applied) :])
            update = replace(
                describe(rules, started, state, None, log_moves, ply=len(log_moves), note="started", intro=intro),
                told=told,
                announcement=new_key(),
            )
            try:
                row = await self.store.start_match(
                    match_id,
                    seats,
                    state.dump(),
                    log_moves,
                    user_id,
                    clock=clock.to_json() if clock else None,
                    announce=[update.outbox_row()],
                )
            except StaleVersion:
                raise ChallengeClosed() from None
            self.cache.put(match_id, row.version, state, len(log_moves))
            if clock is not None and self.clocks is not None:
                self.clocks.track(match_id, clock)
            return replace(update, match=row)

    async def decline(self, match_id: int, user_id: int) -> MatchRow:
        row = await self._get(match_id)
        if row.status != MatchStatus.CHALLENGE:
            raise ChallengeClosed()
        if user_id == row.challenger_id:
            return await self.cancel(match_id, user_id)
        if row.opponent_id != user_id:
            raise NotInMatch(tr("Only the challenged player can decline; anyone else can simply not accept."))
        if not await self.store.set_status(match_id, MatchStatus.DECLINED, expected=(MatchStatus.CHALLENGE,)):
            raise ChallengeClosed()
        return await self._get(match_id)

    async def cancel(self, match_id: int, user_id: int) -> MatchRow:
        row = await self._get(match_id)
        if row.status != MatchStatus.CHALLENGE:
            raise ChallengeClosed()
        if user_id != row.challenger_id:
            raise NotInMatch(tr("Only the challenger can withdraw a challenge."))
        if not await self.store.set_status(match_id, MatchStatus.CANCELLED, expected=(MatchStatus.CHALLENGE,)):
            raise ChallengeClosed()
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
        raw = typed_options(options)
        try:
            state = rules.start(options=resolve_options(rules, raw, challenger_seat=0))
        except InvalidOptions as exc:
            raise ServiceError(str(exc)) from None
        stopped = self._parse_clock(clock)
        seed = secrets.token_hex(16)
        opening = state
        state, log_moves = self._advance(state, seed, 0, list(state.applied))
        told = tell(opening, log_moves[len(opening.applied) :])
        started = stopped
        if stopped is not None and state.outcome is None:
            started = stopped.start_turn(player_seats(state.turn), self.now(), draft=state.drafting)
        updates: list[Update] = []

        def announce(match_id: int) -> list[Announcement]:
            placeholder = MatchRow(
                id=match_id,
                game=game,
                options=raw,
                guild_id=guild_id,
                channel_id=channel_id,
                status=MatchStatus.ACTIVE,
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
            update = replace(
                describe(rules, placeholder, state, None, log_moves, ply=len(log_moves), note="started", intro=intro),
                told=told,
                announcement=new_key(),
            )
            updates.append(update)
            return [update.outbox_row(), *also_announce(match_id)]

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
            raise MatchConflict(tr("That tournament game already has its match."))
        self.cache.put(row.id, row.version, state, len(log_moves))
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
        looked_up: MatchRow | None = None,
        reply_to: int | None = None,
    ) -> Update:
        """Play `text` for `user_id`.  Raises ServiceError or IllegalMove; on error nothing changed.

        `looked_up`: the match's row as the caller just read it (finding the match of its
        channel); used instead of a second read when it is current (`_current`).
        `reply_to`: the interaction the move came with, whose follow-up its board is posted as
        (`Transition.reply_to`: noted on the board's row by the move's own write).

        `in_public`: the text was sent where everyone reads it (a channel message), so a move
        the game keeps secret is refused with `SecretMove` and not played.
        `expected_version` (a button's position) must still be the match's version, else
        StalePosition; `channel_id` (where the move was made) must be the match's channel
        or thread, else WrongChannel.  Both are checked under the match lock."""
        async with self._lock(match_id):
            row = self._current(looked_up, match_id) or await self._get(match_id)
            if channel_id is not None and channel_id != row.channel_id:
                raise WrongChannel(
                    tr(
                        "This belongs to match #{id}, which is played in <#{channel_id}>.",
                        id=row.id,
                        channel_id=row.channel_id,
                    )
                )
            if row.status != MatchStatus.ACTIVE:
                raise NotRunning()
            if expected_version is not None and expected_version != row.version:
                raise StalePosition(tr("This button belongs to an older position: the board has changed since."))
            seat = self._seat(row, user_id)
            state = await self.state_of(row)
            if seat not in state.turn and seat not in state.may_act:  # `may_act`: may act unasked
                raise NotYourTurn()
            clock, now = clock_of(row), self.now()
            if clock is not None and not clock.paused and clock.expired(seat, now):
                # the flag fell before the keeper got to it: the timeout wins over the move
                return await self._time_out(row, state, clock, seat, now)
            return await self._play_seat(row, state, seat, text, clock, now, in_public=in_public, reply_to=reply_to)

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
        reply_to: int | None = None,
    ) -> Update:
        """Play `text` for `seat` (lock held), then the chance moves, and commit with the next clock."""
        ply = await self.plies(row)
        new = self._play_checked(state, seat, text) if in_public else state.play(seat, text)
        record = list(new.applied)
        new, record = self._advance(new, row.seed, ply + len(record), record)
        if clock is not None:
            if new.outcome is not None:
                clock = clock.stop_all(now)
            else:
                clock = clock.on_move(seat, player_seats(new.turn), now, draft=new.drafting)
        rules = self._rules(row.game)
        return await self.commit(
            Transition.of_moves(
                rules, row, state, new, ply, record, clock=clock, note=note, intro=intro, reply_to=reply_to
            )
        )

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
            if row.status != MatchStatus.ACTIVE:
                raise NotRunning()
            seat = self._seat(row, user_id)
            line = resign_record(seat)
            outcome = Outcome(frozenset((1 - seat,)), ending_reason(line, self._rules(row.game).info.seat_names))
            return await self.end(row, outcome, MatchStatus.FINISHED, line=line)

    async def abort(
        self, match_id: int, user_id: int, *, moderator: bool = False, reply_to: int | None = None
    ) -> Update | None:
        """Abort when both players asked (or a moderator does).  Returns None while the
        other player's agreement is still missing.  `reply_to`: the interaction whose follow-up
        the final board is (noted by the ending's own write, as a move's)."""
        async with self._lock(match_id):
            row = await self._get(match_id)
            if row.status == MatchStatus.CHALLENGE:
                if user_id == row.challenger_id or moderator:
                    await self.store.set_status(match_id, MatchStatus.CANCELLED, expected=(MatchStatus.CHALLENGE,))
                    raise ServiceError(tr("The challenge was withdrawn."))
                raise NotInMatch(tr("Only the challenger or a moderator can withdraw this challenge."))
            if row.status != MatchStatus.ACTIVE:
                raise NotRunning()
            if not moderator:
                self._seat(row, user_id)
                votes = await self.store.add_abort_vote(match_id, user_id)
                if not row.seats or not set(row.seats) <= votes:
                    return None
            line = MODERATOR_ABORT_RECORD if moderator else ABORT_RECORD
            outcome = Outcome(frozenset(), ending_reason(line, self._rules(row.game).info.seat_names))
            return await self.end(row, outcome, MatchStatus.ABORTED, line=line, reply_to=reply_to)

    async def claim_timeout(self, match_id: int, loser_seat: int) -> Update:
        """End a match on time, `loser_seat` losing (its ending line and reason are the ones
        every loss on time has, so the record proves it)."""
        async with self._lock(match_id):
            row = await self._get(match_id)
            if row.status != MatchStatus.ACTIVE:
                raise NotRunning()
            return await self._lose_on_time(row, loser_seat, clock_of(row), self.now())

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
            if row is None or clock is None or row.status != MatchStatus.ACTIVE or row.seats is None or clock.paused:
                return None
            seat, now = event.seat, self.now()
            if isinstance(event, Reminder):
                mine = clock.seats[seat]
                if not mine.running or event.key not in mine.sent:
                    return None
                last = clock.warnings_left(seat, now) == 0
                return ClockNotice(row, seat, row.seats[seat], event.label, event.via, clock.display(seat, now), last)
            if not clock.expired(seat, now):
                return None
            return await self._time_out(row, await self.state_of(row), clock, seat, now, intro=TIME_UP)

    async def claim_time(self, match_id: int, user_id: int, *, reply_to: int | None = None) -> Update:
        """A player claims that the opponent's time ran out.

        The clock task should have ended the match already; a claim only succeeds when it
        was missed, so it can never end a match early.  Raises ServiceError otherwise.
        `reply_to`: the interaction whose follow-up the board is (noted by the change's write).
        """
        async with self._lock(match_id):
            row = await self._get(match_id)
            if row.status != MatchStatus.ACTIVE:
                raise NotRunning()
            seat = self._seat(row, user_id)
            clock = clock_of(row)
            if clock is None:
                raise NoClock()
            other, now = 1 - seat, self.now()
            if clock.paused or not clock.expired(other, now):
                raise ServiceError(tr("Your opponent still has time: `{other}`.", other=clock.display(other, now)))
            return await self._time_out(row, await self.state_of(row), clock, other, now, reply_to=reply_to)

    async def _time_out(
        self,
        row: MatchRow,
        state: GameState,
        clock: ClockState,
        seat: int,
        now: float,
        *,
        intro: str | None = None,
        reply_to: int | None = None,
    ) -> Update:
        """`seat` ran out of time (lock held): complete its draft at random when the draft's
        own limit ran out, else play its timeout move, or it loses.  `reply_to`: the
        interaction (a `/claim`) whose follow-up the board is, whichever of the three it is."""
        if clock.seats[seat].hard:
            return await self._complete_draft(row, state, clock, seat, now, intro=intro, reply_to=reply_to)
        if clock.control.on_timeout == "pass":
            move = timeout_move(state.legal_moves(seat))
            if move is not None:
                return await self._play_seat(
                    row, state, seat, move, clock, now, note="timeout", intro=intro, reply_to=reply_to
                )
        return await self._lose_on_time(row, seat, clock, now, intro=intro, reply_to=reply_to)

    async def _lose_on_time(
        self,
        row: MatchRow,
        seat: int,
        clock: ClockState | None,
        now: float,
        *,
        intro: str | None = None,
        reply_to: int | None = None,
    ) -> Update:
        """`seat` loses on time (lock held); the ending line keeps its stopped clock's reading."""
        reading = clock.stop_all(now).display(seat, now) if clock is not None else ""
        line = timeout_record(seat, reading)
        outcome = Outcome(frozenset((1 - seat,)), ending_reason(line, self._rules(row.game).info.seat_names))
        return await self.end(
            row, outcome, MatchStatus.FINISHED, line=line, note="timeout", intro=intro, reply_to=reply_to
        )

    async def _complete_draft(
        self,
        row: MatchRow,
        state: GameState,
        clock: ClockState,
        seat: int,
        now: float,
        *,
        intro: str | None = None,
        reply_to: int | None = None,
    ) -> Update:
        """The draft limit ran out (lock held): play random legal picks for `seat` until it
        need not act any more, drawn from the match seed (so the log replays and anyone can
        recheck them with `chance_rng`), then commit like a move."""
        ply = await self.plies(row)  # the marker's ply (bot.records.move_log: COMPLETION_SEAT)
        marker = LogEntry(COMPLETION_SEAT, completion_record(seat), True, False)
        rng = chance_rng(row.seed, ply)
        new, record = state, list[LogEntry]()
        while new.outcome is None and seat in new.turn and CHANCE not in new.turn:
            new = new.play(seat, rng.choice(sorted(new.legal_moves(seat))))
            record.extend(new.applied)
        new, record = self._advance(new, row.seed, ply + 1 + len(record), record)
        if new.outcome is not None:
            clock = clock.stop_all(now)
        else:
            clock = clock.on_move(seat, player_seats(new.turn), now, draft=new.drafting)
        rules = self._rules(row.game)
        moves = Transition.of_moves(
            rules, row, state, new, ply + 1, record, clock=clock, intro=intro, completed_for=seat, reply_to=reply_to
        )
        # the marker goes first in the same commit; it is not a move, so it is not narrated
        return await self.commit(replace(moves, first_ply=ply, moves=(marker, *moves.moves)))

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
            if row.status != MatchStatus.ACTIVE:
                raise NotRunning()
            clock = clock_of(row)
            if clock is None:
                raise NoClock()
            if action == "pause" and clock.paused:
                raise ServiceError(tr("The clock is already paused; `/resume` restarts it."))
            if action == "resume" and not clock.paused:
                raise ServiceError(tr("The clock is not paused."))
            now = self.now()
            if action == "pause" and any(clock.expired(s, now) for s in clock.running_seats):
                raise ServiceError(tr("Too late to pause: the time is up."))
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

    async def match_in_channel(self, channel_id: int, user_id: int | None = None) -> MatchRow:
        """The running match or open challenge of `channel_id`; NoMatchHere when there is none.
        With `user_id`, the refusal points that player to their matches played in threads of
        this channel (a command typed in the channel that holds a match's thread)."""
        row = await self.running_in(channel_id)
        if row is not None:
            return row
        threads = await self.threads_of(user_id, channel_id) if user_id is not None else []
        raise NoMatchHere(where_played(threads))

    async def of_thread(self, thread_id: int) -> MatchRow | None:
        """The match a thread was made for, running or ended (None: no match was played there):
        a finished match's thread still knows its match for `/board`, `/export` and `/replay`."""
        return await self.store.last_match_in_channel(thread_id)

    async def threads_of(self, user_id: int, channel_id: int) -> list[MatchRow]:
        """The player's running matches played in threads of `channel_id`, oldest first."""
        rows = await self.of_player(user_id)
        here = [r for r in rows if r.status == MatchStatus.ACTIVE and r.lobby_channel_id == channel_id]
        return sorted((r for r in here if r.channel_id != channel_id), key=lambda r: r.id)

    async def running_in(self, channel_id: int) -> MatchRow | None:
        """The running match or open challenge of `channel_id` (None: there is none)."""
        return await self.store.open_match_in_channel(channel_id)

    async def of_player(self, user_id: int) -> list[MatchRow]:
        """The player's running matches and open challenges."""
        return await self.store.matches_of(user_id)

    async def history(
        self, user_id: int, *, game: str | None = None, guild_id: int | None = None, offset: int = 0, limit: int = 10
    ) -> list[tuple[MatchRow, list[tuple[int, float, float]]]]:
        """The player's finished matches (played in `guild_id`'s server, or anywhere), newest
        first, each with its rating changes (user id, before, after)."""
        return await self.store.match_history(user_id, game=game, guild_id=guild_id, offset=offset, limit=limit)

    async def log(self, match_id: int) -> list[MoveRow]:
        """The match's whole log as stored, takeback records and withdrawn moves included
        (what a record shows); `effective_log` gives the moves that stand."""
        return await self.store.moves(match_id)

    async def view(self, match_id: int, user_id: int | None) -> dict[str, Any]:
        """The view `user_id` may see (the public view for spectators)."""
        row = await self._get(match_id)
        state = await self.state_of(row)
        seat = row.seat_of(user_id) if user_id is not None else None
        return decorate(row, state.view(seat))

    async def legal_moves(self, match_id: int, user_id: int) -> list[str]:
        row = await self._get(match_id)
        seat = row.seat_of(user_id)
        if row.status != MatchStatus.ACTIVE or seat is None:
            return []
        return (await self.state_of(row)).legal_moves(seat)

    async def suggest_moves(self, match_id: int, user_id: int, typed: str, *, limit: int = 25) -> list[str]:
        """Up to `limit` legal moves of `user_id` matching `typed`, for autocomplete ([] when
        they may not act now or are not seated): the game's `suggest_moves` hook."""
        row = await self._get(match_id)
        seat = row.seat_of(user_id)
        if row.status != MatchStatus.ACTIVE or seat is None:
            return []
        state = await self.state_of(row)
        return state.suggest_moves(seat, typed, limit) if seat in state.turn | state.may_act else []

    async def seat_of(self, match_id: int, user_id: int) -> int | None:
        return (await self._get(match_id)).seat_of(user_id)

    async def replay(self, match_id: int) -> GameState:
        """The state rebuilt from options and the move log alone (forced moves re-derived)."""
        row = await self._get(match_id)
        rules = self._rules(row.game)
        state = rules.start(options=started_options(rules, row))
        for move in await self.effective_log(match_id):
            if not move.forced:
                state = state.play(move.seat, move.move)
        return state

    async def get(self, match_id: int) -> MatchRow:
        return await self._get(match_id)

    # --- state, log and the one commit (the match package's agreements use them too) ---

    async def state_of(self, row: MatchRow) -> GameState:
        """The game state of `row`'s match at `row`'s version (cached, else loaded from the
        snapshot and the log moves it leaves out).  Raises NoMatchHere before the start."""
        cached = self.cache.get(row.id, row.version)
        if cached is not None:
            return cached
        if row.snapshot is None:
            raise NotStarted()
        row, later = await self.snapshot_moves(row)
        assert row.snapshot is not None
        state = self._rules(row.game).load(row.snapshot, later)
        self.cache.put(row.id, row.version, state)
        return state

    async def snapshot_moves(self, row: MatchRow) -> tuple[MatchRow, list[str]]:
        """The log moves that `row`'s snapshot leaves out (`Rules.log_needed`; none for a
        complete snapshot), which `load` needs with it.  When another process moved the match
        on between reading `row` and its log, the row is read again and returned with them:
        a snapshot and moves of two different versions never meet."""
        for _ in range(5):
            if row.snapshot is None:
                raise NotStarted()
            needed = self._rules(row.game).log_needed(row.snapshot)
            if needed is None:
                return row, []
            later = await self.store.effective_moves_after(row.id, needed, version=row.version)
            if later is not None:
                return row, later
            row = await self._get(row.id)
        raise MatchConflict(tr("The match keeps changing while it is being loaded; please try again."))

    async def plies(self, row: MatchRow) -> int:
        """How many lines the match's log holds at `row`'s version (from the cache when known)."""
        plies = self.cache.plies(row.id, row.version)
        return plies if plies is not None else await self.store.move_count(row.id)

    async def effective_log(self, match_id: int) -> list[MoveRow]:
        """The match's log with its takeback records applied (`bot.records.move_log.effective`)."""
        return effective(await self.store.moves(match_id))

    async def commit(self, transition: Transition) -> Update:
        """Write a change of a running match (its lock held) and run the steps after it
        (bot/services/matches/commit.py): every move, timeout, resignation, abort, draw,
        takeback and completed draft comes through here.  Raises MatchConflict."""
        return await commit_transition(
            transition, store=self.store, cache=self.cache, keeper=self.clocks, listeners=self.finish_listeners
        )

    async def end(
        self,
        row: MatchRow,
        outcome: Outcome,
        status: MatchStatus,
        *,
        line: str,
        note: str | None = None,
        intro: str | None = None,
        reply_to: int | None = None,
        offers_taken: tuple[str, ...] = (),
    ) -> Update:
        """End `row`'s running match for a reason outside the game (its lock held): a
        resignation, an abort, a loss on time, an agreed draw.  The clock stops; `line` (the
        ending's text, `bot.records.move_log`) is appended to the log in the same commit, with
        the interaction the final board answers (`reply_to`) noted on its outbox row and the
        standing offers it accepts (`offers_taken`) removed."""
        state = await self.state_of(row)
        clock = clock_of(row)
        stopped = clock.stop_all(self.now()) if clock is not None else None
        ending = Transition.ending(
            row,
            state,
            outcome,
            status,
            line=line,
            first_ply=await self.plies(row),
            clock=stopped,
            note=note,
            intro=intro,
            reply_to=reply_to,
            offers_taken=offers_taken,
        )
        return await self.commit(ending)

    # --- internals ---------------------------------------------------------------------

    def _current(self, row: MatchRow | None, match_id: int) -> MatchRow | None:
        """`row` when it is still the match as this process knows it (the lock held), else None
        (read it again):
        - the state cache holds its version, which every commit in this process moves on (or
          drops): a row read before another move of this process committed is older;
        - its clock is the one the clock keeper holds: the clock's writes that are not commits
          (a reminder marked sent, a pause) are made under the match lock and update the
          keeper's clock with the stored one, so a row read before one of them differs.
        A change by another process in between is caught by the commit's version check."""
        if row is None or row.id != match_id or row.status != MatchStatus.ACTIVE:
            return None
        if self.cache.get(match_id, row.version) is None:
            return None
        if row.clock is not None and (self.clocks is None or self.clocks.get(match_id) != clock_of(row)):
            return None
        return row

    async def _get(self, match_id: int) -> MatchRow:
        if not 0 < match_id <= MAX_ID:
            raise NoSuchMatch()  # a crafted custom id: no match, not an overflow in the driver
        row = await self.store.get_match(match_id)
        if row is None:
            raise NoSuchMatch()
        return row

    @staticmethod
    def _seat(row: MatchRow, user_id: int) -> int:
        seat = row.seat_of(user_id)
        if seat is None:
            raise NotInMatch()
        return seat

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
