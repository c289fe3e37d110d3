"""The outbox dispatcher: the one place that posts stored announcements and marks them sent.

Announcements are stored by the services in the transaction of the change they announce
(bot/store/outbox.py says why).  A command that changed something posts its announcement at once
through `Dispatcher.deliver` (as the interaction's reply when there is one); the drain loop
(cogs/drain.py) posts whatever is left: everything unsent at start-up (a crash came in between), later
what stayed unsent longer than `GRACE_SECONDS` (a failed post, retried).

Never twice, step by step:
- one delivery per row at a time in this process (a lock per key), and a row marked sent is
  never posted again;
- channel posts carry the row's key as nonce (discord.py adds `enforce_nonce`): a post repeated after a
  crash gets back the message Discord already created for that key, not a second one;
- a post that is an interaction's follow-up (no nonce there) records the interaction first:
  in the change's own write when the service was given it (`reply_to` of a move, `/abort`,
  `/draw`, `/claim`), else just before the post (`posting_as_follow_up`: kept for a row
  delivered with `interaction`, and as the net for a change that did not say whom it answers;
  no caller today); a row found with one may have been posted just
  before a crash, and is matched to that interaction's reply in the channel.  Never by text: the same sentence
  (a player repeating `d2-e2` two turns later) is posted again under another board;
- posted is posted: a row whose post succeeded but whose mark the database refused (it went
  away in between) is remembered in this process and marked before any later post or drain
  (`_mark_posted`, `_reconcile`); the mover is never told the board is missing.

What a live post costs the database: the mark, one statement (and the follow-up note before it
when the change's own write did not note it).  The row, and whether the channel has an earlier
row unsent, come back from the change's own commit (`Fresh`); a post without them (the drain's,
a row of a tournament) reads them first, in one statement.

In order: a channel's rows are posted in the order their changes were saved.  Two players'
moves saved a moment apart (a simultaneous draft) are announced by two tasks, and the second
one's picture could otherwise be posted before the first one's line.  A post waits until the
channel has no earlier row still unsent (`ORDER_WAIT` at most: a row whose post failed is the
drain's, and must not hold the channel up).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import weakref
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

import discord

from bot.infra import crashpoints
from bot.infra.duties import describe
from bot.services.matches import NoMatchHere, Update
from bot.services.outbox import BOARD, GRACE_SECONDS, Announcement, Fresh

if TYPE_CHECKING:
    from bot.app.client import Boneyard

log = logging.getLogger(__name__)

MAX_ATTEMPTS: Final = 5
"""Posts refused this many times (no permission, Discord down) are given up, with a log line."""
ORDER_WAIT: Final = 2.0
"""At most this long (seconds) a post waits for the channel's earlier rows: longer, and an
earlier row is taken to be left to the drain (its post failed, or another process has it)."""
KEEP_SENT_SECONDS: Final = 24 * 3600.0
"""Rows posted longer ago than this are deleted by the drain (`forget_announced`)."""
FORGET_BATCHES: Final = 20
"""Batches deleted per drain at most: a backlog goes away over a few drains, not in one."""
HISTORY_LIMIT: Final = 100
USER_MENTIONS: Final = discord.AllowedMentions(users=True, everyone=False, roles=False)

Picture = Callable[[], Awaitable[discord.File | None]]


@dataclass(frozen=True)
class Post:
    """An announcement rendered for Discord.  The picture is drawn only when it is posted."""

    content: str
    picture: Picture | None = None
    view: discord.ui.View | None = None
    mentions: discord.AllowedMentions = USER_MENTIONS
    after: Callable[[], Awaitable[None]] | None = None
    """What follows the post once it is marked posted, by the one delivery that marked it (a
    board's turn notices): never twice, since a row is marked once."""


@dataclass(frozen=True)
class Act:
    """An announcement that is an action, not a message (archiving a finished match's thread):
    done once like a post, and harmless if a crash makes it run again."""

    run: Callable[[], Awaitable[None]]


Renderer = Callable[["Boneyard", Announcement], Awaitable[Post | Act | None]]


class _Gone(Exception):
    """The announcement's channel no longer exists (or the bot can no longer see it)."""


class NotPosted(Exception):
    """A caller's own post of an announcement failed (`deliver_by`); the text says why.
    `gone`: its channel no longer exists, so the row is given up rather than retried."""

    def __init__(self, reason: str, *, gone: bool = False) -> None:
        super().__init__(reason)
        self.gone = gone


Send = Callable[[str], Awaitable["int | None"]]
"""A caller's own way to post an announcement, given the nonce its channel post must carry (the
row's key): posts, returns the message id (None: no new message, e.g. an edit of the turn's
post), or raises NotPosted / discord.HTTPException."""


class Dispatcher:
    """The bot's one dispatcher (`Boneyard.outbox`).  Boards it renders itself; every other
    kind of announcement with the renderer given for it (`renderers`, by kind)."""

    def __init__(self, bot: Boneyard, renderers: Mapping[str, Renderer]) -> None:
        self.bot = bot
        self.renderers = dict(renderers)
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._marked: weakref.WeakValueDictionary[int, asyncio.Condition] = weakref.WeakValueDictionary()
        """Per channel with a post waiting: notified whenever one of its rows is marked done
        (weak, like the locks: a channel nobody waits in keeps no entry)."""
        self._unmarked: dict[str, tuple[Announcement, int | None]] = {}
        """Rows posted whose mark could not be stored yet (`_mark_posted`), by key."""

    def _lock(self, key: str) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[key] = lock
        return lock

    async def deliver(
        self, key: str, *, post: Post | Act | None = None, interaction: discord.Interaction | None = None
    ) -> bool:
        """Post the announcement `key` unless it was already (True: this call posted it).

        `post` is its rendering when the caller has it at hand; otherwise it is rendered from
        the stored row.  With `interaction`, the post is that interaction's follow-up."""
        lock = self._lock(key)
        async with lock:
            await self._reconcile()
            row, behind = await self.bot.announcements.in_order(key, window=GRACE_SECONDS)
            if row is None or row.sent:
                return False
            if post is None:
                post = await self._render(row)
            if post is None:
                await self._mark(row, None, failure="nothing left to announce")
                return False
            if isinstance(post, Act):
                return await self._act(row, post, behind)
            try:
                if await self._posted_before_restart(row):
                    if post.after is not None:
                        await post.after()
                    return False
                if behind:
                    await self._after_earlier_rows(row)
                if interaction is not None:
                    await self.bot.announcements.posting_as_follow_up(key, interaction.id)
                crashpoints.reached("outbox.prepared")
                message_id = await self._send(row, post.content[:2000], post, interaction)
                crashpoints.reached("outbox.posted")
            except _Gone:
                log.warning("channel %d of announcement %s is gone: dropped", row.channel_id, key)
                await self._mark(row, None, failure="channel gone")
                return False
            except discord.HTTPException as exc:
                await self._refused(row, exc)
                return False
            await self._mark_posted(row, message_id)
            crashpoints.reached("outbox.marked")
        if post.after is not None:
            await post.after()
        return True

    async def _refused(self, row: Announcement, error: Exception) -> None:
        """A post Discord refused: given up after `MAX_ATTEMPTS`, else counted for the drain's retry."""
        if row.attempts + 1 >= MAX_ATTEMPTS:
            log.error("announcement %s given up after %d attempts: %s", row.key, row.attempts + 1, error)
            await self._mark(row, None, failure=str(error)[:200])
        else:
            log.warning("announcement %s not posted (will retry): %s", row.key, error)
            await self.bot.announcements.post_failed(row.key)

    async def _posted_before_restart(self, row: Announcement) -> bool:
        """Whether `row` was posted as an interaction's follow-up before a crash (then it is
        marked sent now).  A channel post needs no look: its nonce brings back its message."""
        if row.follow_up_of is None:
            return False
        found = await self._find_follow_up(row)
        if found is None:
            return False
        log.info("announcement %s was posted before a restart (message %d)", row.key, found)
        await self._mark(row, found)
        return True

    async def _act(self, row: Announcement, act: Act, behind: bool) -> bool:
        """Do an action row (its lock held) once the channel's earlier rows are done."""
        try:
            if behind:
                await self._after_earlier_rows(row)
            await act.run()
        except discord.HTTPException as exc:
            if isinstance(exc, discord.NotFound):
                log.error("announcement %s (%s) given up: %s", row.key, row.kind, exc)
                await self._mark(row, None, failure=str(exc)[:200])
            else:
                await self._refused(row, exc)
            return False
        await self._mark(row, None)
        return True

    async def _after_earlier_rows(self, row: Announcement) -> None:
        """Wait until no earlier row of the channel is unsent, for at most `ORDER_WAIT`.  A row
        past the grace period is the drain's, which posts in order itself: no wait."""
        if dt.datetime.now(dt.UTC).timestamp() - row.created_at > GRACE_SECONDS:
            return
        changed = self._marked.get(row.channel_id)
        if changed is None:
            changed = asyncio.Condition()
            self._marked[row.channel_id] = changed
        loop = asyncio.get_running_loop()
        deadline = loop.time() + ORDER_WAIT
        async with changed:  # held while checking, so no notice is missed before `wait`
            while await self.bot.announcements.waits_behind(row, since=row.created_at - GRACE_SECONDS):
                try:
                    await asyncio.wait_for(changed.wait(), deadline - loop.time())
                except TimeoutError:
                    log.info("announcement %s posted without waiting longer for the channel's earlier ones", row.key)
                    return

    async def _mark_posted(self, row: Announcement, message_id: int | None) -> None:
        """Mark a row that was just posted.  Posted is posted: when the mark cannot be stored (the
        database went away after the post), the row is remembered as posted in this process, the
        caller is told it was posted, and the mark is stored later (`_reconcile`), before any
        later post or drain; the row is never posted again by this process."""
        try:
            await self._mark(row, message_id)
        except Exception as error:
            log.warning("announcement %s was posted but could not be marked sent yet (%s)", row.key, describe(error))
            self._unmarked[row.key] = (row, message_id)

    async def _reconcile(self) -> None:
        """Store the marks of rows posted while the database could not take them."""
        for key, (row, message_id) in list(self._unmarked.items()):
            await self._mark(row, message_id)  # raises while the database is still away
            self._unmarked.pop(key, None)
            log.info("announcement %s marked sent after the database came back", key)

    async def _mark(self, row: Announcement, message_id: int | None, *, failure: str | None = None) -> None:
        """Mark `row` done and wake the channel's later rows waiting for it."""
        await self.bot.announcements.done(row.key, message_id, failure=failure)
        changed = self._marked.get(row.channel_id)
        if changed is not None:
            async with changed:
                changed.notify_all()

    async def deliver_by(
        self,
        key: str,
        send: Send,
        *,
        follow_up_of: int | None = None,
        fresh: Fresh | None = None,
        after: Callable[[], Awaitable[None]] | None = None,
    ) -> bool | None:
        """Post the announcement `key` with the caller's own `send` (the presenter's board,
        turn post or quiet line), once: True when this call posted it, False when it was
        already posted (by the drain, or before a restart), None when `send` failed (the row
        stays unsent and the drain retries it).  `follow_up_of`: the interaction whose follow-up
        `send` posts, if it does.  `fresh`: the row as the caller's own commit just stored it
        (used instead of reading it, see `_as_stored`).  `after`: what follows the post, run
        once the row is marked by this call, whether `send` posted it or it was found posted
        before a restart (`Post.after` says why).  The same never-twice steps as `deliver`."""
        async with self._lock(key):
            await self._reconcile()
            row, behind, just_stored = await self._as_stored(key, fresh)
            if row is None or row.sent:
                return False
            if not just_stored and await self._posted_before_restart(row):
                if after is not None:
                    await after()
                return False
            if behind:
                await self._after_earlier_rows(row)
            if follow_up_of is not None and row.follow_up_of != follow_up_of:  # else noted by the commit
                await self.bot.announcements.posting_as_follow_up(key, follow_up_of)
            crashpoints.reached("outbox.prepared")
            try:
                message_id = await send(key)
            except (NotPosted, discord.HTTPException) as exc:
                if isinstance(exc, NotPosted) and exc.gone:
                    log.warning("channel %d of announcement %s is gone: dropped", row.channel_id, key)
                    await self._mark(row, None, failure="channel gone")
                else:
                    await self._refused(row, exc)
                return None
            crashpoints.reached("outbox.posted")
            await self._mark_posted(row, message_id)
            crashpoints.reached("outbox.marked")
        if after is not None:
            await after()
        return True

    async def _as_stored(self, key: str, fresh: Fresh | None) -> tuple[Announcement | None, bool, bool]:
        """The row of `key`, whether an earlier row of its channel is unsent, and whether the row
        is as its creator's commit returned it (`fresh`, used while it cannot have changed;
        else it is read).

        Why `fresh` can be trusted: the row is unsent when its commit returns, and only its
        creator (this one call, holding the key's lock) or a drain posts it; no drain of any
        process takes a row younger than `GRACE_SECONDS`.  So it was not posted before a restart
        either, even when its commit noted the interaction it answers (`follow_up_of`).  An
        earlier row marked meanwhile only makes `behind` true needlessly: `_after_earlier_rows`
        then reads before waiting."""
        now = dt.datetime.now(dt.UTC).timestamp()
        if fresh is not None and fresh.row.key == key and now - fresh.row.created_at < GRACE_SECONDS:
            return fresh.row, fresh.behind, True
        row, behind = await self.bot.announcements.in_order(key, window=GRACE_SECONDS)
        return row, behind, False

    async def drain(self, *, everything: bool = False) -> int:
        """Post the rows left unsent: all of them (`everything`, at start-up) or those older
        than the grace period.  Returns how many were posted."""
        await self._reconcile()  # a row posted but not marked is not posted again
        now = dt.datetime.now(dt.UTC).timestamp()
        rows = await self.bot.announcements.owed(
            created_before=None if everything else now - GRACE_SECONDS, shards=self.bot.leases.current
        )
        posted = 0
        for row in rows:
            try:
                if row.kind == BOARD:
                    posted += await _announce_board(self.bot, row)
                else:
                    posted += await self.deliver(row.key)
            except Exception:
                log.exception("could not post announcement %s", row.key)
        await self._forget_old(now)
        return posted

    async def _forget_old(self, now: float) -> None:
        """Delete rows posted over a day ago, a batch at a time so a big backlog (a database
        from before this was done) never holds the write lock long; a failure waits for the
        next drain."""
        try:
            for _ in range(FORGET_BATCHES):
                if not await self.bot.announcements.forget_sent(sent_before=now - KEEP_SENT_SECONDS):
                    break
                await asyncio.sleep(0)  # let moves in between batches
        except Exception:
            log.exception("could not delete old announcements")

    # --- internals ---------------------------------------------------------------------

    async def _render(self, row: Announcement) -> Post | Act | None:
        if row.kind == BOARD:
            return await _render_board(self.bot, row)
        renderer = self.renderers.get(row.kind)
        if renderer is None:
            log.error("announcement %s has an unknown kind %r", row.key, row.kind)
            return None
        return await renderer(self.bot, row)

    async def _channel(self, channel_id: int) -> discord.abc.Messageable:
        channel = await self.bot.presenter.channel(channel_id)
        if channel is None:
            raise _Gone
        return channel

    async def _find_follow_up(self, row: Announcement) -> int | None:
        """The id of the bot's reply to the interaction `row` was being posted for, in the
        channel since the row was made: a follow-up (or the deferred reply it completed, no
        longer "thinking…").  Matched by the interaction's id, never by text."""
        me = self.bot.user
        if me is None or row.follow_up_of is None:
            return None
        try:
            channel = await self._channel(row.channel_id)
        except _Gone:
            return None
        if not isinstance(channel, discord.abc.Messageable) or not hasattr(channel, "history"):
            return None
        since = dt.datetime.fromtimestamp(row.created_at - 5, dt.UTC)
        async for message in channel.history(
            after=discord.Object(discord.utils.time_snowflake(since)), limit=HISTORY_LIMIT, oldest_first=True
        ):
            replied = message.interaction_metadata
            if (
                message.author.id == me.id
                and replied is not None
                and replied.id == row.follow_up_of
                and not message.flags.loading
            ):
                return message.id
        return None

    async def _send(
        self, row: Announcement, content: str, post: Post, interaction: discord.Interaction | None
    ) -> int | None:
        if interaction is not None:
            try:
                extra = await _extras(post)
                message = await interaction.followup.send(
                    content=content, allowed_mentions=post.mentions, wait=True, **extra
                )
                return message.id
            except discord.HTTPException as exc:  # an expired token: the channel still works
                log.info("follow-up of announcement %s failed (%s); posting in the channel", row.key, exc)
        channel = await self._channel(row.channel_id)
        try:
            extra = await _extras(post)
            # discord.py sends `enforce_nonce` with every nonce
            sent = await channel.send(content=content, allowed_mentions=post.mentions, nonce=row.key, **extra)
        except discord.NotFound as exc:
            raise _Gone from exc
        return sent.id


async def _extras(post: Post) -> dict[str, Any]:
    extra: dict[str, Any] = {}
    if post.view is not None:
        extra["view"] = post.view
    if post.picture is not None:
        file = await post.picture()
        if file is not None:
            extra["file"] = file
    return extra


async def board_update(bot: Boneyard, row: Announcement) -> Update | None:
    """The update a stored board row (or a row carrying a board's payload) shows, with its
    match as it is now; None when the match is gone."""
    if row.match_id is None:
        return None
    try:
        match = await bot.service.get(row.match_id)
    except NoMatchHere:
        return None
    return Update.from_board_payload(match, row.payload, row.key)


async def _announce_board(bot: Boneyard, row: Announcement) -> bool:
    """A board left unsent: announced by the presenter like a live one (turn posts, quiet
    drafts, the result in the thread's channel, Rematch), through `deliver_by`."""
    update = await board_update(bot, row)
    if update is None:
        await bot.outbox._mark(row, None, failure="nothing left to announce")
        return False
    return await bot.presenter.announce(update) is None


async def _render_board(bot: Boneyard, row: Announcement) -> Post | None:
    update = await board_update(bot, row)
    return await bot.presenter.board_post(update) if update is not None else None
