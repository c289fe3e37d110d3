"""What a game may tell the search: how to value a position and how to play it out.

The generic search (`bot.ai.search`) needs, per game, an evaluation for positions where
a rollout is cut off (random Focus and Wonderland games hardly ever end), a rollout depth
and optionally a smarter rollout policy or a narrower list of moves to branch on.  The
defaults are uniform random rollouts to the end and the contract's own move list.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from bot.games.base import GameState


def never(needed: float = 0.0) -> bool:
    """A stop condition that never fires (no time limit)."""
    return False


def squash(advantage: float, scale: float) -> float:
    """Map seat 0's material advantage to an expected score in (0, 1)."""
    return 1.0 / (1.0 + math.exp(-advantage / scale))


class Guide:
    """Game knowledge for the search; subclasses override what their game needs."""

    rollout_depth: int = 10_000
    """Plies a rollout plays before the evaluation takes over."""

    def root_moves(
        self, state: GameState, seat: int, *, guided: bool = True, stop: Callable[[float], bool] = never
    ) -> list[str]:
        """The moves the search considers at the root (default: every legal move).

        A single move is played without searching, so a guide whose plan settles a
        decision returns just that move; it must be legal.  `guided` False (the easy level)
        asks for the moves without the guide's costlier judgement (its plan of a turn).
        `stop(needed)` turns True when the budget is spent, or would be after `needed` more
        seconds: a costly plan ends early with the best it has found so far."""
        return state.legal_moves(seat)

    def analysis_moves(self, state: GameState, seat: int) -> list[str]:
        """The moves an analysis weighs for `seat` (it adds the move actually played): the
        moves the tree branches on, and the plan's choice where the guide has one."""
        moves = self.tree_moves(state, seat)
        planned = self.root_moves(state, seat)
        legal = set(state.legal_moves(seat))
        # A plan made for the computer's own games may not fit a human's position (Wonderland's
        # pool plan picks a card whose rank and colour a human already took): only legal moves.
        return moves + [m for m in planned if m not in moves and m in legal] if len(planned) == 1 else moves

    def tree_moves(self, state: GameState, seat: int) -> list[str]:
        """The moves the tree branches on (default: every legal move)."""
        return state.legal_moves(seat)

    def rollout_move(self, state: GameState, seat: int, rng: random.Random) -> str:
        """The move a rollout plays (default: uniformly random)."""
        return rng.choice(state.legal_moves(seat))

    def evaluate(self, state: GameState) -> float:
        """Seat 0's expected score in [0, 1] for an unfinished position (default: even)."""
        return 0.5
