"""Every change of a running match, written one way.

A change — a move with the chance moves after it, a timeout, a resignation, an abort, an agreed
draw, a takeback, a draft completed at random — is first built as a `Transition`: one frozen
value holding everything the change writes and announces.  `commit_transition` then writes it
in ONE store transaction (the row under the optimistic version check, the log lines, the clock,
the board's outbox row, the removal of the offer it accepts) and runs the SAME steps after it
for every kind: the crash point, the cache (the new state with the log's length, or dropped
once the match ended), the clock keeper (`track`, or `forget` at the end) and the finish
listeners.  So a kind of change can only
differ in what it builds, never in how it is written or in what follows the write.

`MatchService.commit` is the entry point (the match lock held); this module holds what the
commit is made of, so it can be read, and tested, in one place.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from bot.clocks import ClockKeeper, ClockState
from bot.games import GameState, Outcome, Rules
from bot.games.base import LogEntry
from bot.i18n import tr
from bot.infra import crashpoints
from bot.records.move_log import ENDING_SEAT, is_ending_text
from bot.services.matches.cache import StateCache
from bot.services.matches.describe import decorate, describe
from bot.services.matches.errors import MatchConflict
from bot.services.matches.updates import Update
from bot.store import MatchRow, MatchStatus, StaleVersion, Store
from bot.store.outbox import MATCH_RESULT, THREAD_ARCHIVE, Announcement, new_key

log = logging.getLogger(__name__)

CONFLICT = tr("The match changed at the same moment; please try again.")
MOVE_CONFLICT = tr("The match changed while your move was being saved; please try again.")

FinishListener = Callable[[MatchRow], Awaitable[None]]
"""Called with the match row after a match ended, once its final state committed."""


def at_next_version(row: MatchRow) -> MatchRow:
    """`row` at the version its next commit writes: what a board built before the commit shows
    (a button of that board must still work once the change is stored)."""
    return replace(row, version=row.version + 1)


@dataclass(frozen=True)
class Transition:
    """One change of a running match, complete: what to write and what to announce."""

    row: MatchRow
    """The match as loaded: the commit succeeds only while the stored version is still this one."""
    state: GameState
    """The game state after the change; its snapshot is written."""
    update: Update
    """What to announce, built for the row at the next version (`at_next_version`); its board is
    stored in the outbox with the change."""
    first_ply: int
    """The log's length before the change: where the new lines start."""
    moves: tuple[LogEntry, ...] = ()
    """The log lines to append (moves, chance moves, forced replies, a takeback record, an
    ending line)."""
    status: MatchStatus = MatchStatus.ACTIVE
    """The match's status after the change: `finished` or `aborted` ends it."""
    outcome: Outcome | None = None
    """The result to store (None while it runs)."""
    clock: ClockState | None = None
    """The clock after the change (None: the match has no clock; the stored one is kept)."""
    conflict: str = CONFLICT
    """The refusal when another writer won the version check."""
    key: str = field(default_factory=new_key)
    """The key of the board's outbox row."""
    reply_to: int | None = None
    """The interaction the change came with: its board is posted as that interaction's
    follow-up, so the board's row notes it (`Announcement.follow_up_of`) in this same write,
    not in a write of its own before the post.  Not for a board that is no public reply (a
    secret move, a quiet pick): nothing of that interaction in the channel is its post."""
    offers_taken: tuple[str, ...] = ()
    """The kinds of standing offer the change accepts (an agreed draw, a takeback): removed in
    this same write, so a commit that fails leaves the offer standing, to be accepted again."""

    def __post_init__(self) -> None:
        shown = self.update.match
        if shown.id != self.row.id or shown.version != self.row.version + 1:
            raise ValueError("a transition's update shows its match at the version the commit writes")

    # --- the classic kinds ---------------------------------------------------------------

    @classmethod
    def of_moves(
        cls,
        rules: Rules,
        row: MatchRow,
        before: GameState,
        state: GameState,
        first_ply: int,
        moves: Sequence[LogEntry],
        *,
        clock: ClockState | None,
        note: str | None = None,
        intro: str | None = None,
        completed_for: int | None = None,
        reply_to: int | None = None,
    ) -> Transition:
        """Moves played from `before` to `state` (the game may have ended with them).
        `completed_for`: the seat whose draft was completed at random (never a quiet update:
        the channel must hear it).  `reply_to`: the interaction the moves came with."""
        update = describe(
            rules, at_next_version(row), state, before, moves, ply=first_ply + len(moves), note=note, intro=intro
        )
        if completed_for is not None:
            update = replace(update, note="draft_timeout", completed_for=completed_for, quiet=False)
        outcome = state.outcome
        return cls(
            row=row,
            state=state,
            update=update,
            first_ply=first_ply,
            moves=tuple(moves),
            status=MatchStatus.FINISHED if outcome is not None else MatchStatus.ACTIVE,
            outcome=outcome,
            clock=clock,
            conflict=MOVE_CONFLICT,
            reply_to=reply_to,
        )

    @classmethod
    def ending(
        cls,
        row: MatchRow,
        state: GameState,
        outcome: Outcome,
        status: MatchStatus,
        *,
        line: str,
        first_ply: int,
        clock: ClockState | None,
        note: str | None = None,
        intro: str | None = None,
        reply_to: int | None = None,
        offers_taken: tuple[str, ...] = (),
    ) -> Transition:
        """The match ends for a reason outside the game (resignation, abort, time, agreement):
        the state stays as it is, the outcome is the match's; `clock` is the stopped clock.
        `line` is the ending's text in the log (`bot.records.move_log`: `resign 1`, `timeout 0
        0:00`, `draw agreed`, `abort`), appended at `first_ply` in the same transaction, so the
        record alone proves how the match ended.  The board's note is `note`, else the status.
        `reply_to`: the interaction whose follow-up the final board is (`/abort`, `/draw`);
        `offers_taken`: the standing offers it accepts (`draw`)."""
        if not is_ending_text(line):
            raise ValueError(f"not an ending line: {line!r}")
        public = decorate(row, state.view(None))
        public["outcome"], public["turn"] = outcome.to_json(), []
        update = Update(
            at_next_version(row), public, {}, (), outcome, first_ply, note=note or status.value, intro=intro
        )
        return cls(
            row=row,
            state=state,
            update=update,
            first_ply=first_ply,
            moves=(LogEntry(ENDING_SEAT, line, True, False),),
            status=status,
            outcome=outcome,
            clock=clock,
            reply_to=reply_to,
            offers_taken=offers_taken,
        )

    # --- what the commit writes ----------------------------------------------------------

    @property
    def ended(self) -> bool:
        """The match is over once this change is stored."""
        return self.status != MatchStatus.ACTIVE

    @property
    def plies(self) -> int:
        """The log's length after the change."""
        return self.first_ply + len(self.moves)

    @cached_property
    def snapshot(self) -> dict[str, Any]:
        return self.state.dump()

    @cached_property
    def board(self) -> Announcement:
        """The board's outbox row (its payload built once: the result row shares it)."""
        row = replace(self.update, announcement=self.key).outbox_row()
        return replace(row, follow_up_of=self.reply_to) if self.update.public_reply else row

    @cached_property
    def followups(self) -> tuple[Announcement, ...]:
        """The outbox rows that follow the board: when a match played in a thread ends, its
        result in the channel holding the thread, then the thread's archiving.  Stored with the
        change, so a crash right after it still leaves the channel told and the thread archived."""
        row = self.row
        if not self.ended or row.lobby_channel_id is None:
            return ()
        payload = self.board.payload
        return (
            Announcement(MATCH_RESULT, row.lobby_channel_id, row.guild_id, payload, match_id=row.id),
            Announcement(THREAD_ARCHIVE, row.channel_id, row.guild_id, {}, match_id=row.id),
        )

    def announced(self) -> Update:
        """The update under the key of its outbox row, naming the rows that follow it."""
        return replace(self.update, announcement=self.key, followups=tuple(a.key for a in self.followups))

    def written(self, version: int) -> MatchRow:
        """The row as the commit wrote it at `version` (no need to read it back)."""
        return replace(
            self.row,
            version=version,
            status=self.status,
            snapshot=self.snapshot,
            outcome=self.outcome.to_json() if self.outcome is not None else None,
            clock=self.clock.to_json() if self.clock is not None else self.row.clock,
            updated_at=time.time(),
        )


async def commit_transition(
    transition: Transition,
    *,
    store: Store,
    cache: StateCache,
    keeper: ClockKeeper | None,
    listeners: Sequence[FinishListener],
) -> Update:
    """Write `transition` in one transaction, then run the steps every change runs after its
    commit; the update to announce, with the row as written.  Raises MatchConflict (and drops
    the cached state) when another writer changed the match first."""
    t = transition
    match_id = t.row.id
    announced = t.announced()
    try:
        version, fresh = await store.commit_moves(
            match_id,
            expected_version=t.row.version,
            first_ply=t.first_ply,
            moves=t.moves,
            snapshot=t.snapshot,
            status=t.status,
            outcome=t.outcome.to_json() if t.outcome is not None else None,
            clock=t.clock.to_json() if t.clock is not None else None,
            announce=[t.board, *t.followups],
            offers_taken=t.offers_taken,
        )
    except StaleVersion:
        cache.drop(match_id)
        raise MatchConflict(t.conflict) from None
    crashpoints.reached("moves.committed")
    row = t.written(version)
    if t.ended:
        cache.drop(match_id)
        if keeper is not None:
            keeper.forget(match_id)
        await notify_finished(listeners, row)
    else:
        cache.put(match_id, version, t.state, t.plies)
        if t.clock is not None and keeper is not None:
            keeper.track(match_id, t.clock)
    return replace(announced, match=row, fresh=fresh)


async def notify_finished(listeners: Sequence[FinishListener], row: MatchRow) -> None:
    """Tell the listeners; one failing never undoes the committed end or stops the others
    (the rating book and tournaments catch up on start-up from what is stored)."""
    for listener in listeners:
        try:
            await listener(row)
        except Exception:
            log.exception("a finish listener failed for match %d", row.id)
