"""Focus for the search: random games run hundreds of plies without an end, so rollouts
stop after a few plies and the position is valued by material.

Material: pieces in reserve (each a free drop that can take any stack) and pieces
captured count most; controlling stacks counts a little.  A seat with no stack and no
reserve has lost, which the rules already report as an outcome.
"""

from __future__ import annotations

from typing import cast

from bot.ai.guide import Guide, squash
from bot.games.base import GameState
from bot.games.focus import FocusState


class FocusGuide(Guide):
    rollout_depth = 12

    def evaluate(self, state: GameState) -> float:
        focus = cast(FocusState, state)
        control = [0, 0]
        for stack in focus.board:
            if stack:
                control[int(stack[-1])] += 1
        reserves, captured = focus.reserves, focus.captured
        advantage = (
            1.5 * (reserves[0] - reserves[1]) + 1.0 * (captured[0] - captured[1]) + 0.5 * (control[0] - control[1])
        )
        return squash(advantage, 3.0)
