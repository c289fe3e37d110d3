"""The outbox as the announcers see it: what is owed, what is about to be posted, what is done.

The services store every announcement in the transaction of the change it tells
(bot/store/outbox.py says why); the dispatcher in cogs/out posts them.  This is the one door
between the two, so the posting side never writes SQL of its own: it asks for a row, says it
is about to post a text, says the row is done, and asks what is still owed.  Notices the bot
gives once per player and match (closed DMs) are kept here too: they are promises of the
same kind, told once whatever restarts in between.
"""

from __future__ import annotations

from bot.infra.shards import ShardLayout
from bot.store import Store
from bot.store.outbox import (
    BOARD,
    CHAMPION,
    GAME_LINK,
    GRACE_SECONDS,
    KINDS,
    MATCH_RESULT,
    THREAD_ARCHIVE,
    TOURNAMENT_PROGRESS,
    Announcement,
    Fresh,
    new_key,
)

__all__ = [
    "BOARD",
    "CHAMPION",
    "GAME_LINK",
    "GRACE_SECONDS",
    "KINDS",
    "MATCH_RESULT",
    "THREAD_ARCHIVE",
    "TOURNAMENT_PROGRESS",
    "Announcement",
    "Fresh",
    "Outbox",
    "new_key",
]


class Outbox:
    def __init__(self, store: Store) -> None:
        self._store = store

    async def in_order(self, key: str, *, window: float) -> tuple[Announcement | None, bool]:
        """The row of `key` and whether an earlier row of its channel (saved at most `window`
        seconds before it) is still unsent, in one read (`Store.announcement_in_order`)."""
        return await self._store.announcement_in_order(key, window=window)

    async def posting_as_follow_up(self, key: str, interaction_id: int) -> None:
        """The row is about to be posted as that interaction's follow-up (a crash may leave it posted)."""
        await self._store.note_follow_up(key, interaction_id)

    async def post_failed(self, key: str) -> None:
        """Count a refused post or action of the row."""
        await self._store.count_failed_post(key)

    async def done(self, key: str, message_id: int | None, *, failure: str | None = None) -> None:
        """The row is posted as `message_id`, or given up on with `failure`: never posted again."""
        await self._store.mark_announced(key, message_id, failure=failure)

    async def waits_behind(self, row: Announcement, *, since: float) -> bool:
        """Whether an earlier row of the same channel (saved after `since`) is still unsent:
        a channel's rows are posted in the order they were saved."""
        return await self._store.earlier_unsent(row, since=since)

    async def owed(
        self, *, created_before: float | None = None, shards: ShardLayout | None = None
    ) -> list[Announcement]:
        """Rows not yet posted nor given up on, oldest first (see `Store.unsent_announcements`)."""
        return await self._store.unsent_announcements(created_before=created_before, shards=shards)

    async def forget_sent(self, *, sent_before: float) -> int:
        """Delete a batch of rows done before `sent_before`; returns how many (0: none left)."""
        return await self._store.forget_announced(sent_before=sent_before)

    async def first_dm_notice(self, match_id: int, user_id: int) -> bool:
        """True the first time the channel must be told that this player's DMs are closed."""
        return await self._store.first_dm_notice(match_id, user_id)
