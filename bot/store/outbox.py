"""The outbox: announcements that must not be lost, stored with the change they announce.

Why: a move, a timeout or a tournament round is committed first and announced afterwards;
a crash in between used to lose the announcement for good (the next tournament game's
intro, the champion).  So every such announcement is an outbox row written in the SAME
transaction as its state change, and one dispatcher (cogs/out/outbox.py) posts the rows and
marks them sent.  After a restart, the rows still unsent are posted.

Never twice, and never taken for another message: each row has a random `key`, sent as the
Discord nonce of its channel post with `enforce_nonce` (Discord returns the message it already
created with that nonce, from the same author in the last few minutes, instead of a second
one), so a post repeated after a crash is the same message.  A row posted as an interaction's
follow-up (no nonce there) records that interaction first (`follow_up_of`: in the change's own
transaction when the service knows it, a move's, else just before the post), and after a crash
is matched to that interaction's reply.  Never by text: a player repeating `d2-e2` two turns
later writes the same sentence under a different board.

The services build `Announcement`s (plain data: no Discord types); the cogs render them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Final

BOARD: Final = "board"
"""A match's board after it started, a move, a timeout or its end.  Payload: `board_payload`."""
TOURNAMENT_PROGRESS: Final = "tournament_progress"
"""Series decided, games to replay, a new round.  Payload: decided/replayed pairing ids, new_round."""
CHAMPION: Final = "champion"
"""A tournament ended.  Payload: the champion's user id (None: no single winner)."""
GAME_LINK: Final = "game_link"
"""A tournament game opened in a thread.  Payload: the title and the thread id."""

MATCH_RESULT: Final = "match_result"
"""The result and last board of a match played in a thread, in the channel holding the thread.
Payload: the final board's `board_payload`."""
THREAD_ARCHIVE: Final = "thread_archive"
"""Archive the thread of a match that ended, once its final board is posted there (the rows of
one channel are done in order).  No payload."""

KINDS: Final = (BOARD, TOURNAMENT_PROGRESS, CHAMPION, GAME_LINK, MATCH_RESULT, THREAD_ARCHIVE)

GRACE_SECONDS: Final = 60.0
"""An unsent row younger than this is its creator's to post (the drain leaves it alone), and a
row waits, before its post, only for the earlier rows of its channel saved this long before it."""


def new_key() -> str:
    """A key that is unique in practice and fits Discord's 25-character nonce."""
    return "by" + os.urandom(11).hex()


@dataclass(frozen=True)
class Announcement:
    """One outbox row: what to say, where, and whether it was said."""

    kind: str
    channel_id: int
    guild_id: int | None
    payload: dict[str, Any]
    match_id: int | None = None
    tournament_id: int | None = None
    key: str = field(default_factory=new_key)
    id: int = 0
    """The row id (0 until stored); rows of one channel are posted in id order."""
    content: str | None = None
    """Unused since rows are matched by key (a text stored by earlier versions)."""
    created_at: float = 0.0
    attempts: int = 0
    sent: bool = False
    """Posted (or given up on: its channel is gone); never posted again."""
    follow_up_of: int | None = None
    """The interaction whose follow-up it was about to be posted as: it may have been, before a crash."""


@dataclass(frozen=True)
class Fresh:
    """A row as the transaction that made it stored it, and whether its channel then had an
    earlier row unsent (saved at most `GRACE_SECONDS` before it): what its creator's post needs
    to know, returned by the write itself instead of read after the commit.

    Trustworthy only for its creator, within `GRACE_SECONDS` of `row.created_at`: until then no
    drain (of any process) takes the row, so nobody else can have posted it."""

    row: Announcement
    behind: bool
