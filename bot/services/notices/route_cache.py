"""How each player wants to be told, remembered for a short while.

Why: the read of a player's choice and their server's default ran for each player a new board
names, between a move's commit and its post: one statement the mover waited for on every move,
for facts that change only when someone uses `/notify` or the server's notice settings.  It
cannot join a read the move already makes: the player a board names is known only once the move
is played.

How stale it can be, honestly: a change made through this process (`NoticeService.choose`,
`NoticeService.configure_server`) drops what it changes at once, so the next board follows it.
A change made through ANOTHER bot process on the same database (PostgreSQL with several
processes, the player using `/notify` on a server another process serves) is seen here after at
most `ROUTE_TTL` seconds.  Quiet hours are not remembered as "quiet or not": they are worked out at
each use from the remembered hours, so they begin and end on time.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Final, Generic, TypeVar

ROUTE_TTL: Final = 60.0
"""Seconds a remembered choice is used: the longest a change made by another process goes unseen."""
MAX_ENTRIES: Final = 10_000
"""Players remembered at most (the oldest are forgotten first): a bounded memory on a big bot."""

Facts = TypeVar("Facts")
Key = tuple[int, int | None]
"""(user id, guild id: None in DMs)."""


class RouteCache(Generic[Facts]):
    """The routing facts of (player, server), each for at most `ttl` seconds."""

    def __init__(self, *, ttl: float = ROUTE_TTL, clock: Callable[[], float] = time.monotonic) -> None:
        self._ttl = ttl
        self._clock = clock
        self._entries: dict[Key, tuple[float, Facts]] = {}
        self._generation = 0
        """Bumped by every change: a read that began before a change never stores what it read
        (it may be the value the change replaced)."""

    async def get(self, key: Key, read: Callable[[], Awaitable[Facts]]) -> Facts:
        """The facts of `key`, remembered or read by `read` (and remembered, unless something
        changed while it read)."""
        now = self._clock()
        found = self._entries.get(key)
        if found is not None and now < found[0]:
            return found[1]
        generation = self._generation
        facts = await read()
        if generation == self._generation:
            self._entries.pop(key, None)  # re-inserted last: the oldest entries are evicted first
            self._entries[key] = (now + self._ttl, facts)
            while len(self._entries) > MAX_ENTRIES:
                del self._entries[next(iter(self._entries))]
        return facts

    def player_changed(self, user_id: int) -> None:
        """`user_id` changed their choice here: forget it on every server."""
        self._generation += 1
        for key in [k for k in self._entries if k[0] == user_id]:
            del self._entries[key]

    def server_changed(self, guild_id: int) -> None:
        """The server's default changed here: forget every player's facts there."""
        self._generation += 1
        for key in [k for k in self._entries if k[1] == guild_id]:
            del self._entries[key]
