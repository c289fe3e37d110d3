"""Time controls and per-match clocks as pure values (no asyncio, no I/O, no Discord).

Representation, and why:

- Time is wall-clock epoch seconds (floats) passed in by the caller (`now`), never read
  here.  A clock must survive a restart, and a monotonic clock does not: after a restart
  only the wall clock relates "when the move started" to "now".
- Each seat keeps its budget *as of a moment*: `move_left` and `reserve` as they were at
  `since`, the wall time from which the seat has been running (None when the seat is not
  running or the match is paused).  Charging elapsed time is one subtraction that first
  empties the move time and then the reserve; nothing ticks, so 10,000 idle clocks cost
  nothing, and the next due time of any reminder or timeout is a closed formula.
- Every transition returns a NEW `ClockState` (frozen dataclasses), like the game
  states: the match service computes the next clock, stores it in the same transaction
  as the move, and only then publishes it.
- Reminders already sent for the current move are a set of string keys per seat
  ("move:30", "reserve", "reserve:2", "timeout"), persisted with the clock, so a restart
  never sends a reminder twice.  When several reminders fell due at once (downtime, a
  late wake-up) only the most urgent one is announced and the rest are marked as sent:
  "30 s left" is wrong when 3 s are left.
- Unused move time is not banked, and the reserve is never refilled: a seat's reserve
  only shrinks, and a new move starts with a fresh move time.
- A draft (a simultaneous secret choice of several picks) under a control with `draft=`
  is a hard limit of its own (`SeatClock.hard`): it never runs into the reserve, and when
  it runs out the `Timeout` tells the service to complete the missing picks at random
  (the Domino Wars event's 2 minutes), not to end the game.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Final, Literal

from bot.i18n import Duration, joined, tr

Via = Literal["channel", "dm"]
TimeoutPolicy = Literal["lose", "pass"]
Kind = Literal["short", "long", "none"]

MINUTE: Final = 60.0
HOUR: Final = 3600.0
DAY: Final = 86400.0
LONG_FROM: Final = HOUR
"""A move time of at least this is a long (correspondence) control: reminders go by DM."""
TOURNAMENT_DRAFT_TIME: Final = 2 * MINUTE
"""Draft time of the source's event (Domino Wars): 2 minutes after the items are known."""
SHORT_MOVE_REMINDERS: Final = (30.0, 15.0, 5.0)
LONG_MOVE_REMINDERS: Final = (12 * HOUR, 1 * HOUR)
SHORT_RESERVE_EVERY: Final = 30.0
TIMEOUT_REASON: Final = "{player} ran out of time"
"""Outcome reason for a loss on time; the service fills in the player's name."""

_FORMAT_VERSION: Final = 1


class InvalidTimeControl(ValueError):
    """A time control the user typed that cannot be understood; the message is for them."""


# --- time controls -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TimeControl:
    """What a match's clock allows.  All durations in seconds.

    `per_move` None means no clock at all (`none`).  `draft_time` None means a draft move
    gets `per_move` like any other move; set, it is the draft's hard limit (no reserve).
    Reminder points are settings: `move_reminders`
    are seconds of move time left, `remind_on_reserve` announces entering the reserve,
    `reserve_every` repeats a reminder each time that much reserve was used in a move.
    """

    per_move: float | None
    reserve: float = 0.0
    draft_time: float | None = None
    move_reminders: tuple[float, ...] = ()
    remind_on_reserve: bool = True
    reserve_every: float | None = None
    via: Via = "channel"
    on_timeout: TimeoutPolicy = "lose"
    name: str = "custom"

    def __post_init__(self) -> None:
        durations = [self.per_move, self.reserve, self.draft_time, self.reserve_every, *self.move_reminders]
        if any(d is not None and (d < 0 or not math.isfinite(d)) for d in durations):
            raise InvalidTimeControl(tr("Times must be zero or more."))
        if self.per_move is not None and self.per_move <= 0:
            raise InvalidTimeControl(tr("The time per move must be more than zero."))
        if self.draft_time is not None and self.draft_time <= 0:
            raise InvalidTimeControl(tr("The draft time must be more than zero."))
        if self.reserve_every is not None and self.reserve_every <= 0:
            raise InvalidTimeControl(tr("The reserve reminder interval must be more than zero."))

    @classmethod
    def custom(
        cls,
        per_move: float | None,
        reserve: float = 0.0,
        *,
        draft_time: float | None = None,
        kind: Literal["short", "long"] | None = None,
        move_reminders: Iterable[float] | None = None,
        remind_on_reserve: bool = True,
        reserve_every: float | Literal["default"] | None = "default",
        on_timeout: TimeoutPolicy = "lose",
        name: str = "custom",
    ) -> TimeControl:
        """A control with the reminder defaults of its kind (short: in the channel at 30/15/5 s
        and every 30 s of reserve; long: by DM at 12 h and 1 h).  `kind` None derives it."""
        if per_move is None:
            return cls(per_move=None, name="none")
        kind = kind or ("long" if per_move >= LONG_FROM else "short")
        long = kind == "long"
        return cls(
            per_move=float(per_move),
            reserve=float(reserve),
            draft_time=None if draft_time is None else float(draft_time),
            move_reminders=tuple(
                sorted(
                    {float(x) for x in (move_reminders if move_reminders is not None else _defaults(long))},
                    reverse=True,
                )
            ),
            remind_on_reserve=remind_on_reserve,
            reserve_every=(None if long else SHORT_RESERVE_EVERY) if reserve_every == "default" else reserve_every,
            via="dm" if long else "channel",
            on_timeout=on_timeout,
            name=name,
        )

    @property
    def unlimited(self) -> bool:
        return self.per_move is None

    @property
    def kind(self) -> Kind:
        if self.per_move is None:
            return "none"
        return "long" if self.via == "dm" else "short"

    def budget(self, *, draft: bool) -> float:
        """Move time of a new move (math.inf without a clock)."""
        if self.per_move is None:
            return math.inf
        return self.draft_time if draft and self.draft_time is not None else self.per_move

    def with_options(self, **changes: Any) -> TimeControl:
        """A copy with some fields changed (e.g. `on_timeout="pass"`); validated."""
        return replace(self, **changes)

    def describe(self) -> str:
        """One line for embeds: `blitz: 1:00 per move + 3:00 reserve, draft 2:00`."""
        if self.per_move is None:
            return tr("no clock")
        long = self.kind == "long"
        move = format_duration(self.per_move, long=long)
        name = PRESET_NAMES.get(self.name, self.name)
        if self.reserve:
            reserve = format_duration(self.reserve, long=long)
            parts = [tr("{name}: {move} per move + {reserve} reserve", name=name, move=move, reserve=reserve)]
        else:
            parts = [tr("{name}: {move} per move", name=name, move=move)]
        if self.draft_time is not None:
            parts.append(tr("draft {time}", time=format_duration(self.draft_time, long=long)))
        if self.on_timeout == "pass":
            parts.append(tr("timeout passes"))
        return joined(", ", parts)

    def to_json(self) -> dict[str, Any]:
        return {
            "per_move": self.per_move,
            "reserve": self.reserve,
            "draft_time": self.draft_time,
            "move_reminders": list(self.move_reminders),
            "remind_on_reserve": self.remind_on_reserve,
            "reserve_every": self.reserve_every,
            "via": self.via,
            "on_timeout": self.on_timeout,
            "name": self.name,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TimeControl:
        via = str(data.get("via", "channel"))
        on_timeout = str(data.get("on_timeout", "lose"))
        if via not in ("channel", "dm") or on_timeout not in ("lose", "pass"):
            raise ValueError(f"bad time control data: {dict(data)!r}")
        return cls(
            per_move=_opt_float(data.get("per_move")),
            reserve=float(data.get("reserve", 0.0)),
            draft_time=_opt_float(data.get("draft_time")),
            move_reminders=tuple(float(x) for x in data.get("move_reminders", ())),
            remind_on_reserve=bool(data.get("remind_on_reserve", True)),
            reserve_every=_opt_float(data.get("reserve_every")),
            via="dm" if via == "dm" else "channel",
            on_timeout="pass" if on_timeout == "pass" else "lose",
            name=str(data.get("name", "custom")),
        )


def _defaults(long: bool) -> tuple[float, ...]:
    return LONG_MOVE_REMINDERS if long else SHORT_MOVE_REMINDERS


def _opt_float(value: object) -> float | None:
    return None if value is None else float(str(value))


PRESETS: Final[dict[str, TimeControl]] = {
    "blitz": TimeControl.custom(1 * MINUTE, 3 * MINUTE, draft_time=TOURNAMENT_DRAFT_TIME, name="blitz"),
    "rapid": TimeControl.custom(5 * MINUTE, 15 * MINUTE, name="rapid"),
    "daily": TimeControl.custom(24 * HOUR, 72 * HOUR, name="daily"),
    "none": TimeControl(per_move=None, name="none"),
}
"""The named controls of `/play clock:<name>`.  `blitz` is the source's event (Domino Wars)."""

PRESET_NAMES: Final[dict[str, str]] = {
    "blitz": tr("blitz"),
    "rapid": tr("rapid"),
    "daily": tr("daily"),
    "custom": tr("custom"),
}
"""What a control is called in a sentence, in the reader's language; `/play clock:` still takes
the English key (the autocomplete shows the name and sends the key)."""


_DURATION_PART = re.compile(r"(\d+(?:\.\d+)?)\s*(d|days?|h|hours?|m|mins?|minutes?|s|secs?|seconds?)?", re.I)
_UNIT_SECONDS = {"d": DAY, "h": HOUR, "m": MINUTE, "s": 1.0}


def parse_duration(text: str) -> float:
    """Seconds in `90s`, `1m30s`, `1:30`, `2h`, `3d`, `1.5h`; a bare number is minutes.

    Raises InvalidTimeControl.
    """
    raw = text.strip().lower()
    if re.fullmatch(r"\d+(:\d{1,2}){1,2}", raw):
        seconds = 0.0
        for part in raw.split(":"):
            seconds = seconds * 60 + int(part)
        return seconds
    compact = raw.replace(" ", "")
    parts = list(_DURATION_PART.finditer(compact))
    if not compact or not parts or "".join(p.group(0) for p in parts) != compact:
        raise InvalidTimeControl(
            tr("`{strip}` is not a duration; write e.g. `90s`, `5m`, `1:30` or `24h`.", strip=text.strip()[:20])
        )
    if len(parts) > 1 and any(p.group(2) is None for p in parts):
        raise InvalidTimeControl(tr("Give every number in `{strip}` a unit (d, h, m or s).", strip=text.strip()[:20]))
    return sum(float(p.group(1)) * _UNIT_SECONDS[(p.group(2) or "m")[0].lower()] for p in parts)


def parse_time_control(text: str) -> TimeControl:
    """`blitz`, `rapid`, `daily`, `none`, or `<move>+<reserve>` (e.g. `2m+5m`, `24h+3d`, `90s`),
    followed by optional settings: `draft=<duration>` (a hard limit for a simultaneous
    secret draft: no reserve after it, the missing picks are completed at random), `timeout=lose|pass`, `remind=<list>`
    (move time left at which to remind, e.g. `30s,10s`, or `off`) and `every=<duration>|off`
    (a reminder each time that much reserve is used).

    Raises InvalidTimeControl with a message for the user.
    """
    words = text.strip().lower().split()
    if not words:
        raise InvalidTimeControl(tr("Give a time control: blitz, rapid, daily, none, or e.g. `2m+5m`."))
    head, *settings = words
    if head in PRESETS:
        control = PRESETS[head]
    else:
        move_text, _, reserve_text = head.partition("+")
        control = TimeControl.custom(parse_duration(move_text), parse_duration(reserve_text) if reserve_text else 0.0)
    for setting in settings:
        key, _, value = setting.partition("=")
        if key == "draft" and value:
            control = control.with_options(draft_time=parse_duration(value))
        elif key == "timeout" and value in ("lose", "pass"):
            control = control.with_options(on_timeout="pass" if value == "pass" else "lose")
        elif key == "remind" and value:
            points = (
                () if value == "off" else tuple(sorted({parse_duration(v) for v in value.split(",")}, reverse=True))
            )
            control = control.with_options(move_reminders=points)
        elif key == "every" and value:
            control = control.with_options(reserve_every=None if value == "off" else parse_duration(value))
        else:
            raise InvalidTimeControl(
                tr(
                    "Unknown clock setting `{setting}`; use e.g. `draft=2m`, `timeout=pass`, `remind=30s,10s` "
                    "or `every=1m` (`off` turns reminders off).",
                    setting=setting[:20],
                )
            )
    if control.unlimited and settings:
        raise InvalidTimeControl(tr("A match without a clock takes no clock settings."))
    return control


# --- formatting ------------------------------------------------------------------------


def format_duration(seconds: float, *, long: bool = False) -> str:
    """`0:42`, `12:05`, `1:02:03` for short controls (seconds rounded up, so 0:00 means
    out of time); `23h 10m`, `3d`, `2d 5h`, `45m`, `30s` for long ones (rounded down), a
    `Duration` that each reader's language writes its own way (`23 Std. 10 Min.`)."""
    if math.isinf(seconds):
        return "∞"
    if not long:
        total = max(0, math.ceil(seconds - 1e-9))
        hours, rest = divmod(total, 3600)
        minutes, secs = divmod(rest, 60)
        return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
    return Duration(seconds)


def format_clock(move_left: float, reserve_left: float, *, long: bool = False, show_reserve: bool = True) -> str:
    """A seat's clock for the board header and `/clock`: `0:42 + 2:30` or `23h 10m + 3d`."""
    move = format_duration(move_left, long=long)
    return joined(" + ", [move, format_duration(reserve_left, long=long)]) if show_reserve else move


def _spoken(seconds: float) -> str:
    """A reminder point in words: `30 s`, `5 min`, `12 h` (`30 Sek.` ... in German), else the clock format."""
    if seconds < MINUTE and seconds == int(seconds):
        return Duration(seconds, f"{int(seconds)} s")
    if seconds < HOUR and seconds % MINUTE == 0:
        return Duration(seconds, f"{int(seconds // MINUTE)} min")
    if seconds % HOUR == 0:
        return Duration(seconds, f"{int(seconds // HOUR)} h")
    return format_duration(seconds, long=seconds >= HOUR)


# --- events ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Reminder:
    """Tell `seat` its time is running out.  `via` says where: the match channel
    (mentioning the player) for short controls, a DM for long ones."""

    seat: int
    key: str
    label: str
    due: float
    via: Via


@dataclass(frozen=True, slots=True)
class Timeout:
    """`seat` has no time left.  The service applies the control's `on_timeout`
    (after checking `ClockState.expired`, since the player may have moved meanwhile), or,
    when the seat's running move is a draft under `draft=` (`SeatClock.hard`), completes
    its missing picks at random."""

    seat: int
    due: float
    key: str = "timeout"


ClockEvent = Reminder | Timeout


# --- clock state -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatClock:
    """One seat's clock.  `move_left` and `reserve` are as of `since` while running."""

    reserve: float
    move_left: float = 0.0
    running: bool = False
    since: float | None = None
    budget: float = 0.0
    """The move time this move started with (reminder points above it never fire)."""
    draft: bool = False
    """The running move is a draft (several picks on one clock)."""
    hard: bool = False
    """The running move ends when its move time does: a draft under `draft=`, which never
    uses the reserve (its timeout completes the picks at random instead)."""
    move_reserve: float = 0.0
    """The reserve this move started with: reserve reminders are spaced from it."""
    sent: frozenset[str] = frozenset()

    def charged(self, now: float) -> SeatClock:
        """This clock with the time since `since` charged: move time first, then reserve."""
        if not self.running or self.since is None:
            return self
        elapsed = max(0.0, now - self.since)
        from_move = min(elapsed, self.move_left)
        from_reserve = 0.0 if self.hard else elapsed - from_move
        return replace(
            self,
            move_left=self.move_left - from_move,
            reserve=max(0.0, self.reserve - from_reserve),
            since=max(now, self.since),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "reserve": self.reserve,
            "move_left": None if math.isinf(self.move_left) else self.move_left,
            "running": self.running,
            "since": self.since,
            "budget": None if math.isinf(self.budget) else self.budget,
            "move_reserve": self.move_reserve,
            "draft": self.draft,
            "hard": self.hard,
            "sent": sorted(self.sent),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeatClock:
        move_left, budget = data.get("move_left"), data.get("budget")
        return cls(
            reserve=float(data["reserve"]),
            move_left=math.inf if move_left is None else float(move_left),
            running=bool(data.get("running", False)),
            since=_opt_float(data.get("since")),
            budget=math.inf if budget is None else float(budget),
            move_reserve=float(data.get("move_reserve", data["reserve"])),
            draft=bool(data.get("draft", False)),
            hard=bool(data.get("hard", False)),
            sent=frozenset(str(k) for k in data.get("sent", ())),
        )


@dataclass(frozen=True, slots=True)
class ClockState:
    """Both seats' clocks of one match, with the control they run under.

    Methods never mutate: each returns the next state.  `now` is wall-clock epoch seconds.
    """

    control: TimeControl
    seats: tuple[SeatClock, ...]
    paused: bool = False
    paused_at: float | None = None

    @classmethod
    def new(cls, control: TimeControl, players: int = 2) -> ClockState:
        """A stopped clock: every seat holds the full reserve, nobody is running."""
        return cls(control=control, seats=tuple(SeatClock(reserve=control.reserve) for _ in range(players)))

    # --- queries --------------------------------------------------------------------

    @property
    def running_seats(self) -> frozenset[int]:
        return frozenset(i for i, s in enumerate(self.seats) if s.running)

    def remaining(self, seat: int, now: float) -> tuple[float, float]:
        """(move time left, reserve left) of `seat` at `now`; an idle seat shows the move
        time its next ordinary move will get."""
        clock = self.seats[seat]
        if not clock.running:
            return self.control.budget(draft=False), clock.reserve
        charged = clock.charged(now)
        return charged.move_left, charged.reserve

    def expired(self, seat: int, now: float) -> bool:
        """True when `seat` must act and has no time left: the condition for a timeout,
        and for a claim of the opponent's timeout that the bot missed."""
        clock = self.seats[seat]
        if self.control.unlimited or not clock.running:
            return False
        move_left, reserve = self.remaining(seat, now)
        return move_left <= 0 if clock.hard else move_left + reserve <= 0

    def display(self, seat: int, now: float) -> str:
        """`0:42 + 2:30` (the reserve part only when the control has one); '' without a clock."""
        if self.control.unlimited:
            return ""
        move_left, reserve = self.remaining(seat, now)
        return format_clock(move_left, reserve, long=self.control.kind == "long", show_reserve=self.control.reserve > 0)

    def header(self, now: float) -> tuple[str, str] | None:
        """Both seats' clocks for `renderers.kit.Header.clocks`; None for a match without a clock."""
        if self.control.unlimited:
            return None
        return self.display(0, now), self.display(1, now)

    def next_event(self, now: float) -> tuple[float, ClockEvent] | None:
        """The earliest event not yet sent (its due time may be in the past), or None when
        nothing can happen (no clock, paused, nobody running)."""
        best: tuple[float, int, ClockEvent] | None = None
        for order, event in enumerate(self._pending(now)):
            if best is None or (event.due, order) < best[:2]:
                best = (event.due, order, event)
        return None if best is None else (best[0], best[2])

    def warnings_left(self, seat: int, now: float) -> int:
        """Reminders `seat` is still due before its timeout in this move (0: the one just
        sent was the last warning before a loss on time)."""
        return sum(1 for event in self._pending(now) if isinstance(event, Reminder) and event.seat == seat)

    def next_due(self, now: float) -> float | None:
        """When the scheduler should next look at this match."""
        found = self.next_event(now)
        return None if found is None else found[0]

    def due_events(self, now: float) -> list[ClockEvent]:
        """The events to announce at `now`, collapsed: per seat a Timeout if one is due,
        else only the most urgent due reminder.  See `take_due` to also mark them sent."""
        return self.take_due(now)[1]

    # --- transitions ----------------------------------------------------------------

    def take_due(self, now: float) -> tuple[ClockState, list[ClockEvent]]:
        """(next state with every due event marked as sent, the events to announce)."""
        by_seat: dict[int, list[ClockEvent]] = {}
        for event in self._pending(now):
            if event.due <= now:
                by_seat.setdefault(event.seat, []).append(event)
        if not by_seat:
            return self, []
        announce: list[ClockEvent] = []
        seats = list(self.seats)
        for seat, events in by_seat.items():
            events.sort(key=lambda e: (e.due, isinstance(e, Timeout)))
            timeouts = [e for e in events if isinstance(e, Timeout)]
            announce.append(timeouts[0] if timeouts else events[-1])
            seats[seat] = replace(seats[seat], sent=seats[seat].sent | {e.key for e in events})
        announce.sort(key=lambda e: (e.due, e.seat))
        return replace(self, seats=tuple(seats)), announce

    def mark_sent(self, seat: int, keys: Iterable[str]) -> ClockState:
        """This clock with reminder `keys` of `seat` recorded as sent for the current move."""
        seats = list(self.seats)
        seats[seat] = replace(seats[seat], sent=seats[seat].sent | frozenset(keys))
        return self._with(seats)

    def start_turn(self, seats: Iterable[int], now: float, *, draft: bool = False) -> ClockState:
        """Stop every running seat (charging its time) and start a fresh move for `seats`
        (negative seats such as CHANCE are ignored).  A draft move gets the control's draft
        time instead of the move time."""
        stopped = self.stop_all(now)
        clocks = list(stopped.seats)
        for seat in _players(seats):
            clocks[seat] = self._fresh_move(clocks[seat], now, draft=draft)
        return stopped._with(clocks)

    def stop(self, seat: int, now: float) -> ClockState:
        """`seat` has acted: charge its time and stop its clock (unused move time is lost)."""
        clock = self.seats[seat]
        if not clock.running:
            return self
        charged = clock.charged(now)
        clocks = list(self.seats)
        clocks[seat] = replace(
            charged, running=False, since=None, move_left=0.0, draft=False, hard=False, sent=frozenset()
        )
        return self._with(clocks)

    def stop_all(self, now: float) -> ClockState:
        """Stop every seat (a move ends the turn, or the game is over)."""
        state = self
        for seat in self.running_seats:
            state = state.stop(seat, now)
        return state

    def on_move(self, seat: int, turn: Iterable[int], now: float, *, draft: bool = False) -> ClockState:
        """The usual transition after `seat` played and `turn` must act next (pass
        `state.turn` as it is; CHANCE is ignored).  `draft` says the new turn is a draft
        phase (a simultaneous secret choice made of several picks).

        - Running seats that no longer must act stop (charged).
        - In a draft, a seat that picks again keeps its running draft clock (one draft is
          several picks on one clock); otherwise the seat that played stops, and starts a
          fresh move if it must act again.
        - Seats that must act and are not running start a fresh move; seats that were
          already running and did not play (the other drafter) keep running.
        """
        turn = _players(turn)
        state = self
        mine = self.seats[seat]
        continues = draft and seat in turn and mine.running and mine.draft
        for running in self.running_seats:
            if running not in turn or (running == seat and not continues):
                state = state.stop(running, now)
        clocks = list(state.seats)
        for acting in turn:
            if not clocks[acting].running:
                clocks[acting] = self._fresh_move(clocks[acting], now, draft=draft)
        return state._with(clocks)

    def pause(self, now: float) -> ClockState:
        """Freeze every running seat's time (`/pause`)."""
        if self.paused:
            return self
        clocks = [replace(c.charged(now), since=None) if c.running else c for c in self.seats]
        return replace(self._with(clocks), paused=True, paused_at=now)

    def resume(self, now: float) -> ClockState:
        """Restart the frozen seats from `now` (`/resume`)."""
        if not self.paused:
            return self
        clocks = [replace(c, since=now) if c.running else c for c in self.seats]
        return replace(self._with(clocks), paused=False, paused_at=None)

    def rearm_after_downtime(self, now: float, down_since: float | None, forgive_over: float | None) -> ClockState:
        """This clock after the bot was down from `down_since` until `now`.

        Downtime counts as thinking time, except that any downtime beyond `forgive_over`
        seconds is forgiven (None: never forgive): a restart of a few seconds costs the
        player those seconds, a night-long outage costs at most `forgive_over`.  Only the
        time the bot was down is forgiven: a seat's downtime starts at `down_since` or when
        its move started, whichever is later, so time already used before the crash is never
        handed back.  Timeouts marked as sent are cleared so that one the bot missed while
        crashing fires again (the service re-checks `expired`); reminders sent stay sent.
        """
        clocks = []
        for clock in self.seats:
            if clock.running:
                forgiven = 0.0
                if down_since is not None and forgive_over is not None and clock.since is not None:
                    forgiven = max(0.0, (now - max(down_since, clock.since)) - forgive_over)
                since = None if clock.since is None else min(now, clock.since + forgiven)
                clock = replace(clock, since=since, sent=clock.sent - {"timeout"})
            clocks.append(clock)
        return self._with(clocks)

    # --- JSON -----------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "v": _FORMAT_VERSION,
            "control": self.control.to_json(),
            "seats": [s.to_json() for s in self.seats],
            "paused": self.paused,
            "paused_at": self.paused_at,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ClockState:
        if data.get("v") != _FORMAT_VERSION:
            raise ValueError(f"unknown clock format {data.get('v')!r}")
        return cls(
            control=TimeControl.from_json(data["control"]),
            seats=tuple(SeatClock.from_json(s) for s in data["seats"]),
            paused=bool(data.get("paused", False)),
            paused_at=_opt_float(data.get("paused_at")),
        )

    # --- internals ------------------------------------------------------------------

    def _with(self, seats: list[SeatClock]) -> ClockState:
        return replace(self, seats=tuple(seats))

    def _fresh_move(self, clock: SeatClock, now: float, *, draft: bool) -> SeatClock:
        budget = self.control.budget(draft=draft)
        return replace(
            clock,
            running=True,
            since=None if self.paused else now,
            move_left=budget,
            budget=budget,
            draft=draft,
            hard=draft and self.control.draft_time is not None,
            move_reserve=clock.reserve,
            sent=frozenset(),
        )

    def _pending(self, now: float) -> list[ClockEvent]:
        """Every unsent event of the seats whose time is flowing, in no particular order."""
        events: list[ClockEvent] = []
        if not self.paused and not self.control.unlimited:
            for seat, clock in enumerate(self.seats):
                if clock.running and clock.since is not None:
                    events.extend(self._seat_events(seat, clock, now))
        return events

    def _seat_events(self, seat: int, clock: SeatClock, now: float) -> list[ClockEvent]:
        control, since, sent = self.control, clock.since, clock.sent
        assert since is not None
        reserve_starts = since + clock.move_left
        events: list[ClockEvent] = []
        for left in control.move_reminders:
            key = f"move:{left:g}"
            if left < clock.budget and key not in sent:
                events.append(
                    Reminder(seat, key, tr("{n} left", n=_spoken(left)), since + clock.move_left - left, control.via)
                )
        if clock.hard:  # a draft's own limit: no reserve after it
            if "timeout" not in sent:
                events.append(Timeout(seat, reserve_starts))
            return events
        if control.remind_on_reserve and clock.reserve > 0 and "reserve" not in sent:
            events.append(Reminder(seat, "reserve", tr("entering reserve"), reserve_starts, control.via))
        if control.reserve_every and clock.reserve > 0:
            events.extend(self._reserve_reminders(seat, clock, reserve_starts, now))
        if "timeout" not in sent:
            events.append(Timeout(seat, reserve_starts + clock.reserve))
        return events

    def _reserve_reminders(self, seat: int, clock: SeatClock, reserve_starts: float, now: float) -> list[ClockEvent]:
        """The latest passed and the next coming "every N s of reserve" reminder: only
        those two can matter, however long the reserve (72 h / 30 s would be 8,640)."""
        every = self.control.reserve_every
        assert every
        used = clock.move_reserve - clock.charged(now).reserve
        first = max(1, math.floor(used / every + 1e-9))
        events: list[ClockEvent] = []
        for step in (first, first + 1):
            level = clock.move_reserve - step * every
            key = f"reserve:{step}"
            if level <= 1e-9 or key in clock.sent:
                continue
            long = self.control.kind == "long"
            label = tr("{time} of reserve left", time=format_duration(level, long=long))
            events.append(Reminder(seat, key, label, reserve_starts + (clock.reserve - level), self.control.via))
        return events


def _players(seats: Iterable[int]) -> frozenset[int]:
    """Player seats only: CHANCE (-1) must not index the last seat by accident."""
    return frozenset(seat for seat in seats if seat >= 0)


def timeout_move(legal_moves: Iterable[str]) -> str | None:
    """The move to play for a timed-out seat under `timeout=pass`: `pass` when the game
    offers it, else the only legal move; None means the seat loses on time instead."""
    moves = list(legal_moves)
    if "pass" in moves:
        return "pass"
    return moves[0] if len(moves) == 1 else None
