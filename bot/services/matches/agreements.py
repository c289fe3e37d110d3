"""Things both players must agree to: a draw offer and a takeback request.

An offer is stored with the match version it was made at (`match_offers`), so any move in
between makes it stale: a draw offered before a blunder cannot be accepted after it.

Draws only where the game's rulings allow a draw by agreement (`GameInfo.draw_by_agreement`).

Takebacks undo the requester's last move of their own choosing, with whatever followed it
(forced replies, and the opponent's reply if they already answered).  They are refused in
tournament games, and when the moves to undo include a chance move (a roll, a draw), a hidden
move, or changed a private view (a tile left a hand): information came out that a takeback
cannot take back.  The undo is pure: the state is rebuilt from the start and the log without
those moves, and the log gets a takeback record (bot.records.move_log) so replaying it still gives
the current state.

Both are changes of a match like a move: taken under the same match lock and written through
the same `MatchService.commit` (an agreed draw through `MatchService.end`, a takeback as a
`Transition` built here).  The accepted offer is removed by that same commit
(`Transition.offers_taken`), not in a write of its own before it: a commit that fails (the
database away) leaves the offer standing, so accepting again works.  Agreements use the
service's public members only.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.clocks import ClockState
from bot.games import CHANCE, GameState, Outcome, Rules
from bot.games.base import LogEntry
from bot.i18n import tr
from bot.records.move_log import DRAW_RECORD, TAKEBACK_SEAT, ending_reason, takeback_record
from bot.services.matches.clocks import clock_of
from bot.services.matches.commit import Transition, at_next_version
from bot.services.matches.describe import describe, player_seats
from bot.services.matches.errors import NotInMatch, NotRunning, ServiceError
from bot.services.matches.options import started_options
from bot.services.matches.service import MatchService
from bot.services.matches.updates import Update
from bot.store import MatchRow, MatchStatus
from bot.store.lobby import LobbyStore

TAKEBACK_INTRO = tr("↩️ The last move was taken back.")

DRAW, TAKEBACK = "draw", "takeback"
DRAW_REASON = ending_reason(DRAW_RECORD, ())


@dataclass(frozen=True)
class Offered:
    """An offer now stands: `to_user` may accept it."""

    match: MatchRow
    kind: str
    from_user: int
    to_user: int
    undo: int = 0
    """For a takeback: how many player moves it would undo."""


@dataclass(frozen=True)
class _Plan:
    """A takeback that may be made: the position it returns to, and what it undoes."""

    state: GameState
    first_ply: int
    """The ply of the first undone move."""
    undone: int
    """How many player moves it undoes."""

    def transition(
        self, rules: Rules, row: MatchRow, before: GameState, first_ply: int, clock: ClockState | None
    ) -> Transition:
        """The takeback as a change of the match from `before`: one takeback record appended to
        the log at `first_ply` (the moves stay in the log, withdrawn), the position restored.
        Nothing is told move by move: the record is not a move (the engine cannot narrate it);
        the board is announced through the outbox row committed with it."""
        record = LogEntry(TAKEBACK_SEAT, takeback_record(self.first_ply), True, False)
        update = describe(
            rules, at_next_version(row), self.state, before, [], ply=first_ply + 1, note=TAKEBACK, intro=TAKEBACK_INTRO
        )
        return Transition(
            row=row,
            state=self.state,
            update=update,
            first_ply=first_ply,
            moves=(record,),
            clock=clock,
            offers_taken=(TAKEBACK,),
        )


class Agreements:
    def __init__(self, matches: MatchService) -> None:
        self.matches = matches
        self.store = LobbyStore(matches.store)

    async def _running(self, match_id: int, user_id: int) -> tuple[MatchRow, int]:
        row = await self.matches.get(match_id)
        if row.status != MatchStatus.ACTIVE:
            raise NotRunning()
        seat = row.seat_of(user_id)
        if seat is None or row.seats is None:
            raise NotInMatch()
        return row, seat

    # --- draws -------------------------------------------------------------------------

    async def draw(
        self, match_id: int, user_id: int, *, accept_only: bool = False, reply_to: int | None = None
    ) -> Offered | Update:
        """Offer a draw, or accept the opponent's standing offer (then the match ends drawn).
        `accept_only` (the offer's button): never turn a stale offer into a new one.
        `reply_to`: the interaction whose follow-up the final board is (`/draw`)."""
        async with self.matches.lock_for(match_id):
            row, seat = await self._running(match_id, user_id)
            info = self.matches.games[row.game].info
            if not info.draw_by_agreement:
                raise ServiceError(tr("{name} has no draw by agreement: it ends by its own rules.", name=info.name))
            assert row.seats is not None
            offer = await self.store.offer(match_id, DRAW)
            if offer is not None and offer.version == row.version:
                if offer.user_id == user_id:
                    raise ServiceError(tr("Your draw offer stands; your opponent can accept it with `/draw`."))
                return await self.matches.end(
                    row,
                    Outcome(frozenset(), DRAW_REASON),
                    MatchStatus.FINISHED,
                    line=DRAW_RECORD,
                    note=DRAW,
                    reply_to=reply_to,
                    offers_taken=(DRAW,),
                )
            if accept_only:
                raise ServiceError(
                    tr("That draw offer is no longer open (a move declines it); `/draw` makes a new one.")
                )
            await self.store.put_offer(match_id, DRAW, user_id, row.version)
            return Offered(row, DRAW, user_id, row.seats[1 - seat])

    # --- takebacks ---------------------------------------------------------------------

    async def request_takeback(self, match_id: int, user_id: int) -> Offered:
        async with self.matches.lock_for(match_id):
            row, seat = await self._running(match_id, user_id)
            plan = await self._plan(row, seat)
            assert row.seats is not None
            await self.store.put_offer(match_id, TAKEBACK, user_id, row.version)
            return Offered(row, TAKEBACK, user_id, row.seats[1 - seat], undo=plan.undone)

    async def answer_takeback(self, match_id: int, user_id: int, *, accept: bool) -> Update | MatchRow:
        """The opponent's answer: the Update of the undone position, or (refused) the row."""
        async with self.matches.lock_for(match_id):
            row, seat = await self._running(match_id, user_id)
            offer = await self.store.offer(match_id, TAKEBACK)
            if offer is None or offer.version != row.version:
                raise ServiceError(tr("There is no takeback request to answer (a move since then cancels it)."))
            if offer.user_id == user_id:
                raise ServiceError(tr("Your opponent answers your takeback request, not you."))
            if not accept:
                await self.store.drop_offer(match_id, TAKEBACK)
                return row
            plan = await self._plan(row, 1 - seat)
            before = await self.matches.state_of(row)
            clock, now = clock_of(row), self.matches.now()
            if clock is not None:
                clock = clock.stop_all(now).start_turn(player_seats(plan.state.turn), now, draft=plan.state.drafting)
            rules = self.matches.games[row.game]
            first_ply = await self.matches.plies(row)
            return await self.matches.commit(plan.transition(rules, row, before, first_ply, clock))

    async def _plan(self, row: MatchRow, seat: int) -> _Plan:
        """The position before `seat`'s last own move, rebuilt from the log; ServiceError when
        a takeback is not allowed."""
        if await self.store.is_tournament_game(row.id):
            raise ServiceError(tr("Tournament games have no takebacks."))
        log = await self.matches.effective_log(row.id)
        last = next((i for i in range(len(log) - 1, -1, -1) if log[i].seat == seat and not log[i].forced), None)
        if last is None:
            raise ServiceError(tr("You have no move to take back."))
        undone = log[last:]
        if any(m.seat == CHANCE or not m.public for m in undone):
            raise ServiceError(
                tr("A chance move or hidden information came out since your move: it cannot be taken back.")
            )
        rules = self.matches.games[row.game]
        state = rules.start(options=started_options(rules, row))
        for move in log[:last]:
            if not move.forced:
                state = state.play(move.seat, move.move)
        if rules.info.has_private_info:
            current = await self.matches.state_of(row)
            if any(state.view(s).get("private") != current.view(s).get("private") for s in (0, 1)):
                raise ServiceError(tr("Your move showed hidden information (a tile or card): it cannot be taken back."))
        players_moves = sum(1 for m in undone if m.seat in (0, 1) and not m.forced)
        return _Plan(state, undone[0].ply, players_moves)
