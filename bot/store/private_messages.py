"""Where each player's private view of a match is shown: one direct message per seat.

Why stored: the bot edits a player's DM in place while their turn goes on and sends a new
one only when their turn comes again (cogs/out/private_dms.py).  Kept in memory only, a
restart would forget which message to edit and send a second DM for the same turn; stored,
the next change after a restart edits the same message.

Table (migration 10 in bot/store/migrations.py):
private_messages(match_id, seat, channel_id, message_id, version, shows, controls): the DM
channel and message holding `seat`'s private view, the match version it shows (an older
update arriving late is not shown over a newer one), a digest of what it shows (`shows`: an
edit that would show the same is skipped) and whether it was sent with controls (to take them
off when a newer message replaces it).  Deleted with the match.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.core import Store


@dataclass(frozen=True)
class PrivateMessage:
    """The direct message that shows one seat of one match its private view."""

    match_id: int
    seat: int
    channel_id: int
    message_id: int
    version: int
    """The match version whose view it shows."""
    shows: str
    """A digest of the text, picture and controls the message was last given."""
    controls: bool
    """Whether it was last given controls (selects, buttons)."""


class PrivateMessageStore:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def get(self, match_id: int, seat: int) -> PrivateMessage | None:
        row = await self.store.fetch_one(
            "SELECT channel_id, message_id, version, shows, controls FROM private_messages "
            "WHERE match_id = ? AND seat = ?",
            (match_id, seat),
        )
        if row is None:
            return None
        return PrivateMessage(match_id, seat, int(row[0]), int(row[1]), int(row[2]), str(row[3]), bool(row[4]))

    async def keep(self, message: PrivateMessage) -> None:
        """Remember `message` as the seat's private message (replacing any earlier one)."""
        async with self.store.transaction() as tx:
            await tx.execute(
                "INSERT INTO private_messages (match_id, seat, channel_id, message_id, version, shows, controls) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (match_id, seat) DO UPDATE SET "
                "channel_id = excluded.channel_id, message_id = excluded.message_id, version = excluded.version, "
                "shows = excluded.shows, controls = excluded.controls",
                (
                    message.match_id,
                    message.seat,
                    message.channel_id,
                    message.message_id,
                    message.version,
                    message.shows,
                    int(message.controls),
                ),
            )
