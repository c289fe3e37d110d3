"""What a change of a match tells its callers: an `Update` to announce, or a clock's notice.

These are values only (views, never a game state), so the cogs and the outbox can hold and
post them without reaching into the service; `Update.board_payload` / `from_board_payload` are
the round trip through the outbox, so a board committed with its change can be posted again
after a restart exactly as it would have been at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal, NamedTuple

from bot.clocks import ClockState
from bot.clocks.model import Via
from bot.games import Outcome
from bot.store import MatchRow
from bot.store.outbox import BOARD, Announcement, Fresh


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
    turn_began: tuple[int, ...] = ()
    """Seats that must act now and did not before: their turn just came.  Their private view
    goes in a NEW direct message (a new message notifies; an edit does not); any later change
    in the same turn edits that message in place."""
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
    followups: tuple[str, ...] = ()
    """Keys of the outbox rows stored with this change to be done after its board: for a match
    played in a thread that just ended, its result in the channel holding the thread, then the
    thread's archiving.  The presenter delivers them; after a crash the drain does."""
    fresh: Fresh | None = field(default=None, compare=False)
    """The board's outbox row as the commit stored it (its id, and whether its channel had an
    earlier row unsent): set on the update the commit returns, so its live post needs no read."""

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

    def outbox_row(self) -> Announcement:
        """The outbox row of this board, committed with the change it shows (`announcement`
        must hold its key)."""
        if self.announcement is None:
            raise ValueError("an update is stored in the outbox only under its announcement key")
        return Announcement(
            kind=BOARD,
            channel_id=self.match.channel_id,
            guild_id=self.match.guild_id,
            payload=self.board_payload(),
            match_id=self.match.id,
            key=self.announcement,
        )

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
    def public_reply(self) -> bool:
        """Whether this update's board can be the public reply to the interaction that made it:
        decided here once, for the commit that notes the interaction on the board's row
        (`Transition.board`) and the presenter that posts it (`Presenter.private_reply`).  Not
        a secret move's (the channel must not see it answered), not a quiet update's (it posts
        no board).  The presenter alone also answers privately a move that only extends the
        turn's post, which it alone can know (its turn posts live in memory)."""
        return not self.secret_move and not self.quiet

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
    last: bool = False
    """The last warning before a loss on time: it goes out whatever the player chose."""


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
