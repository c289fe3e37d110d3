"""Domineering for the search: a player loses when the tile drawn for it cannot move both
its pieces, so a position is valued by how many of the tiles still in the pool each
side could play.

Random rollouts are a poor guide here (a random player walls itself in), so the search
looks only a few plies ahead and then asks `evaluate`: for each seat, the share of pool
tiles `a-b` for which two different pieces can move `a` and `b` squares (a blank: any
distance), counted with the rules' own test (the first piece's square stays walled).
"""

from __future__ import annotations

from typing import cast

from bot.ai.guide import Guide, squash
from bot.games.base import GameState
from bot.games.domineering import MAX_STEP, STEPS, DomineeringState

ROOT_CANDIDATES = 12


def _distances(number: int) -> range:
    return range(1, MAX_STEP + 1) if number == 0 else range(number, number + 1)


def _moves_to(square: int, distances: range, occupied: int) -> list[int]:
    """Where a piece on `square` can go with one of `distances`."""
    found = []
    for steps in STEPS[square]:
        for distance in distances:
            dest, mask = steps[distance - 1]
            if occupied & mask:
                break
            found.append(dest)
    return found


def can_play(pieces: tuple[int, ...], occupied: int, low: int, high: int) -> bool:
    """Whether two different pieces can move `low` and `high` (either way round), the
    first one's square staying walled (rule 7): the rules' test, stopped at the first way."""
    assignments = {(low, high), (high, low)}
    for first in pieces:
        for second in pieces:
            if first == second:
                continue
            for a, b in assignments:
                for to1 in _moves_to(first, _distances(a), occupied):
                    if _moves_to(second, _distances(b), occupied | (1 << to1)):
                        return True
    return False


def playable_share(state: DomineeringState, seat: int) -> float:
    """The share of pool tiles with which `seat` could move two pieces now."""
    pool = state.pool
    if not pool:
        return 1.0
    occupied = state.occupied()
    pieces = state.pieces[seat]
    return sum(can_play(pieces, occupied, t.low, t.high) for t in pool) / len(pool)


class DomineeringGuide(Guide):
    rollout_depth = 2

    def root_moves(self, state: GameState, seat: int) -> list[str]:
        """The few moves that leave the best shares: a turn offers hundreds of moves, too
        many for the budget to sample each more than once or twice."""
        moves = state.legal_moves(seat)
        if len(moves) <= ROOT_CANDIDATES:
            return moves
        sign = 1.0 if seat == 0 else -1.0

        def score(move: str) -> float:
            return sign * self.evaluate(state.play(seat, move))

        return sorted(moves, key=score, reverse=True)[:ROOT_CANDIDATES]

    def evaluate(self, state: GameState) -> float:
        domineering = cast(DomineeringState, state)
        return squash(playable_share(domineering, 0) - playable_share(domineering, 1), 0.08)
