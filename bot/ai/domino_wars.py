"""Domino Wars for the search: a 4×4 board fills within a few dozen plies, so rollouts
play to the end; the squares each seat shows value a position cut off anyway."""

from __future__ import annotations

from typing import cast

from bot.ai.guide import Guide, squash
from bot.games.base import GameState
from bot.games.domino_wars import DominoWarsState


class DominoWarsGuide(Guide):
    def evaluate(self, state: GameState) -> float:
        mine, theirs = cast(DominoWarsState, state).scores()
        return squash(mine - theirs, 2.0)
