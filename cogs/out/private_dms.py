"""One direct message per player and match: edited in place while their turn goes on.

Why: a player's private view (hand, draft, pool deck, hidden roll) changes many times in a
turn, and a new DM for each change buries the one that matters under copies of the same
picture with one thing changed.  So each seat of a match has ONE current private message:

- when the seat's turn comes (`Update.turn_began`), its view goes in a NEW message: a new
  message notifies the player, an edit does not;
- any other change edits the current message in place (text, picture and controls), and a
  change that would show exactly what the message already shows is not sent at all (what it
  shows is kept as a digest: `PrivateView.shows`);
- a message that cannot be edited (deleted, or Discord refuses: 404, 403, anything) is
  replaced by a new one, so the player is never left with dead controls;
- a newer message takes the controls off the one it replaces (old controls would still
  answer with fresh ones, `cogs.ui.private.send_fresh_controls`, but one place to act is
  clearer).

Which message is current is stored (bot/services/private_messages.py), so a restart edits
the same message instead of sending another.  One lock per seat serialises the updates of a
seat in this process, so two updates at once cannot both send a "new" message.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import discord

from bot.services.private_messages import PrivateMessage, PrivateMessages

if TYPE_CHECKING:
    from bot.app.client import Boneyard

log = logging.getLogger(__name__)

Pictures = Callable[[], Awaitable[list[discord.File]]]
"""The message's pictures, drawn only when it is sent or edited (not when nothing changed)."""


def digest(*parts: Any) -> str:
    """A short digest of what a message shows (text, the views its pictures are drawn from,
    its components): equal digests, equal messages."""
    data = json.dumps(parts, sort_keys=True, default=str, ensure_ascii=False).encode()
    return hashlib.sha256(data).hexdigest()[:32]


@dataclass(frozen=True)
class PrivateView:
    """What a seat's private message should show now."""

    text: str
    pictures: Pictures
    controls: discord.ui.View | None
    shows: str
    """`digest` of the text, the views drawn and the controls."""


class PrivateDms:
    """The current private message of each seat (see the module docstring)."""

    def __init__(self, bot: Boneyard, messages: PrivateMessages) -> None:
        self.bot = bot
        self.messages = messages
        self._locks: weakref.WeakValueDictionary[tuple[int, int], asyncio.Lock] = weakref.WeakValueDictionary()

    def _lock(self, match_id: int, seat: int) -> asyncio.Lock:
        lock = self._locks.get((match_id, seat))
        if lock is None:
            lock = self._locks[(match_id, seat)] = asyncio.Lock()
        return lock

    async def show(
        self, match_id: int, seat: int, user_id: int, wanted: PrivateView, *, version: int, new_turn: bool
    ) -> bool:
        """Show `wanted` (the view of the match at `version`) to the seat: in its current
        message, or in a new one when its turn just began or the current one cannot be edited.
        Returns whether anything was sent (False: the message already showed it, or a newer
        view: two updates announced at once may come in either order).  Raises
        `discord.HTTPException` when a new message cannot be sent (closed DMs: 403, 50007)."""
        async with self._lock(match_id, seat):
            current = await self._current(match_id, seat)
            if current is not None and current.version > version:
                return False
            if current is not None and not new_turn:
                if current.shows == wanted.shows:
                    return False
                if await self._edit(current, wanted):
                    controls = wanted.controls is not None
                    await self._keep(replace(current, version=version, shows=wanted.shows, controls=controls))
                    return True
                current = None  # it cannot be edited: nothing left to take controls off
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            extra: dict[str, Any] = {"view": wanted.controls} if wanted.controls is not None else {}
            files = await wanted.pictures()
            if files:
                extra["files"] = files
            sent = await user.send(content=wanted.text, **extra)
            controls = wanted.controls is not None
            await self._keep(PrivateMessage(match_id, seat, sent.channel.id, sent.id, version, wanted.shows, controls))
            if current is not None and current.controls:
                await self._take_controls_off(current)
            return True

    async def _current(self, match_id: int, seat: int) -> PrivateMessage | None:
        try:
            return await self.messages.of(match_id, seat)
        except Exception:  # the database is away: a new message is better than none
            log.warning("could not read the private message of match %d seat %d", match_id, seat, exc_info=True)
            return None

    async def _keep(self, message: PrivateMessage) -> None:
        try:
            await self.messages.keep(message)
        except Exception:  # sent is sent; the next change sends a new message instead of editing
            log.warning("could not store the private message of match %d", message.match_id, exc_info=True)

    def _message(self, current: PrivateMessage) -> discord.PartialMessage:
        channel = self.bot.get_partial_messageable(current.channel_id, type=discord.ChannelType.private)
        return channel.get_partial_message(current.message_id)

    async def _edit(self, current: PrivateMessage, wanted: PrivateView) -> bool:
        """Edit the current message to show `wanted`; False when Discord refuses."""
        try:
            await self._message(current).edit(
                content=wanted.text, attachments=await wanted.pictures(), view=wanted.controls
            )
        except discord.HTTPException as error:
            log.info("private message %d cannot be edited (%s): sending a new one", current.message_id, error)
            return False
        return True

    async def _take_controls_off(self, old: PrivateMessage) -> None:
        try:
            await self._message(old).edit(view=None)
        except discord.HTTPException:
            log.info("could not take the controls off the old private message %d", old.message_id)
