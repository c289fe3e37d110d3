"""One channel post per turn: a player's quick actions are added to the message that
announced their turn, instead of ten posts for one turn.

A turn of both seats at once (a secret draft, choosing pool decks, a simultaneous mulligan)
is one post too: what each seat is seen to do while the phase lasts ("Blue has drafted") is
added to the post that announced the phase, and the post that ends it (the turn passing to
one player) is new and pings.

Why edit rather than wait and post later: an edit puts every action on Discord the moment it
is played, so nothing waits in memory where a restart could lose it.  After a restart (or once
the turn post is older than `WINDOW` seconds, or another post came in between) the next action
simply starts a new post.  A turn post is kept per match while the SAME single seat stays to
move (or, for a turn of both seats, while the same phase lasts and only they act); the turn
passing, another seat having to act, a new phase, or the end of the match starts a new post.

Pure bookkeeping: no Discord calls here, the presenter edits and posts.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import discord

from bot.games import CHANCE
from bot.services.matches import Update

GAMES_WITH_TURN_POSTS = frozenset({"wonderland", "dominance", "domino_wars"})
"""Games whose turn is several steps (dice, summons, moves, attacks, abilities; a placement
and its effect's choice) or a phase of both seats at once (a secret draft or pool)."""
WINDOW = 300.0
"""Seconds after its last change during which a turn post takes more actions."""
MAX_LINES = 30
"""Lines of one turn post before a new post starts (Discord's 2,000 characters)."""


@dataclass
class TurnPost:
    """The message announcing the turn of `seats`, and what it says so far."""

    message: discord.Message
    seats: frozenset[int]
    lines: list[str]
    turn_number: object = None
    """The game's public `turn_number` when the post started: a new turn is a new post."""
    phase: object = None
    """The game's public `phase` when the post started: a turn of both seats ends with it."""
    actions: list[str] = field(default_factory=list)
    """Public moves of this post, for the board's `last_actions`."""
    changed: float = 0.0


def to_move_seats(update: Update) -> frozenset[int]:
    return frozenset(s for s in update.public_view.get("turn", []) if s in (0, 1))


def movers(update: Update) -> frozenset[int]:
    return frozenset(t.seat for t in update.told if t.seat != CHANCE)


def actor(update: Update) -> int | None:
    """The seat whose own move made `update` (its first applied move); the moves after it are
    chance or forced ones the rules played by themselves, for either seat.  None: nobody's
    (a start, a chance move alone)."""
    first = update.told[0].seat if update.told else None
    return first if first in (0, 1) else None


def public_actions(update: Update) -> list[str]:
    return [t.move for t in update.told if t.public and t.seat != CHANCE]


class TurnPosts:
    """The current turn post of each match (memory only, by design: see the module doc)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._posts: dict[int, TurnPost] = {}
        self._clock = clock

    def continuing(self, update: Update) -> TurnPost | None:
        """The turn post this update adds to, or None when it needs a new post."""
        post = self._posts.get(update.match.id)
        if (
            post is None
            or update.match.game not in GAMES_WITH_TURN_POSTS
            or update.outcome is not None
            or update.note is not None
        ):
            return None
        acted, to_move = movers(update), to_move_seats(update)
        if len(post.seats) == 1:
            if acted != post.seats or to_move != post.seats:
                return None
        elif (
            not acted
            or not to_move
            or not acted | to_move <= post.seats
            or update.public_view.get("phase") != post.phase
        ):
            return None
        if update.public_view.get("turn_number") != post.turn_number:
            return None
        if self._clock() - post.changed > WINDOW or len(post.lines) >= MAX_LINES:
            return None
        return post

    def started(self, update: Update, message: discord.Message, lines: list[str]) -> None:
        """A new post announced `update`: it becomes the turn post of the seats to move."""
        seats = to_move_seats(update)
        if update.outcome is not None or not seats:
            self._posts.pop(update.match.id, None)
            return
        view = update.public_view
        self._posts[update.match.id] = TurnPost(
            message,
            seats,
            list(lines),
            view.get("turn_number"),
            view.get("phase"),
            public_actions(update),
            self._clock(),
        )

    def extended(self, post: TurnPost, update: Update, lines: list[str]) -> None:
        post.lines.extend(lines)
        post.actions.extend(public_actions(update))
        post.changed = self._clock()

    def interrupted(self, match_id: int) -> None:
        """Something else was posted for the match: the next action starts a new post."""
        self._posts.pop(match_id, None)
