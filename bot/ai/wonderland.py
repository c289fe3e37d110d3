"""Wonderland for the search: random games run to the 200-turn limit, so rollouts stop
after a few plies and a position is valued by the Images' lives first, then by the
beings each side has in play (their remaining strength and level).

A turn may list thousands of summons (every path layout); the tree branches on every
other move but on a few summons spread over the list, which keeps the search from
spending its whole budget trying summons that differ by one domino.  Rollouts attack
when they can, since a random player mostly would not.
"""

from __future__ import annotations

import random
from typing import cast

from bot.ai.guide import Guide, squash
from bot.games.base import GameState
from bot.games.wonderland import WonderlandState

SUMMONS_IN_TREE = 8


class WonderlandGuide(Guide):
    rollout_depth = 6

    def tree_moves(self, state: GameState, seat: int) -> list[str]:
        moves = state.legal_moves(seat)
        summons = [m for m in moves if m.startswith("summon ")]
        if len(summons) <= SUMMONS_IN_TREE:
            return moves
        step = len(summons) / SUMMONS_IN_TREE
        spread = [summons[int(i * step)] for i in range(SUMMONS_IN_TREE)]
        return [m for m in moves if not m.startswith("summon ")] + spread

    def rollout_move(self, state: GameState, seat: int, rng: random.Random) -> str:
        moves = state.legal_moves(seat)
        attacks = [m for m in moves if m.startswith("attack ")]
        if attacks and rng.random() < 0.8:
            return rng.choice(attacks)
        return rng.choice(moves)

    def evaluate(self, state: GameState) -> float:
        wonderland = cast(WonderlandState, state)
        advantage = 4.0 * (wonderland.lives[0] - wonderland.lives[1])
        for being in wonderland.beings:
            worth = 0.3 * being.strength + 0.5 * (being.info.level + 1)
            advantage += worth if being.owner == 0 else -worth
        return squash(advantage, 3.0)
