"""Which direct message shows each player their private view of a match.

The presenter keeps one DM per player and match up to date (cogs/out/private_dms.py); this
is its door to the store, so the posting side writes no SQL of its own.
"""

from __future__ import annotations

from bot.store import Store
from bot.store.private_messages import PrivateMessage, PrivateMessageStore

__all__ = ["PrivateMessage", "PrivateMessages"]


class PrivateMessages:
    def __init__(self, store: Store) -> None:
        self._store = PrivateMessageStore(store)

    async def of(self, match_id: int, seat: int) -> PrivateMessage | None:
        """The seat's private message (None: none sent yet, or before this was stored)."""
        return await self._store.get(match_id, seat)

    async def keep(self, message: PrivateMessage) -> None:
        """`message` now shows the seat's private view (it replaces any earlier one)."""
        await self._store.keep(message)
