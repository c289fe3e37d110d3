"""The rules engines: pure Python, standard library only (see ARCHITECTURE.md).

`GAMES` maps a game's key to its rules object; everything else in Boneyard finds games
here, so registering a game is one line below.
"""

from __future__ import annotations

from bot.games.base import (
    CHANCE,
    GameInfo,
    GameState,
    IllegalMove,
    InvalidOptions,
    Option,
    Outcome,
    Rules,
    SnapshotMismatch,
)
from bot.games.dominance import DominanceRules
from bot.games.domineering import DomineeringRules
from bot.games.domino_wars import DominoWarsRules
from bot.games.focus import FocusRules
from bot.games.wonderland import WonderlandRules

GAMES: dict[str, Rules] = {
    rules.key: rules
    for rules in (FocusRules(), DomineeringRules(), DominanceRules(), DominoWarsRules(), WonderlandRules())
}

__all__ = [
    "CHANCE",
    "GAMES",
    "GameInfo",
    "GameState",
    "IllegalMove",
    "InvalidOptions",
    "Option",
    "Outcome",
    "Rules",
    "SnapshotMismatch",
]
