"""Dominance for the search: random games can run to the turn limit, so rollouts stop
after some plies and a position is valued by the stones each side keeps on the
Battlefield (losing them all loses the game) and how far its Underworld stones have
climbed towards u0, from where they re-enter."""

from __future__ import annotations

from typing import cast

from bot.ai.guide import Guide, squash
from bot.games.base import GameState
from bot.games.dominance import UW_POSITIONS, DominanceState


class DominanceGuide(Guide):
    rollout_depth = 40

    def evaluate(self, state: GameState) -> float:
        dominance = cast(DominanceState, state)
        advantage = 0.0
        for seat, sign in ((0, 1.0), (1, -1.0)):
            advantage += sign * sum(1 for owner in dominance.board if owner == seat)
            under = dominance.under[UW_POSITIONS * seat : UW_POSITIONS * (seat + 1)]
            # Position i of the line is i + 1 steps along it (u0, the exit, is last).
            advantage += sign * sum(0.1 * (i + 1) * count for i, count in enumerate(under))
        return squash(advantage, 1.5)
