"""The rules engines: pure Python, standard library only (see ARCHITECTURE.md).

`GAMES` maps a game's key to its rules object; everything else in Boneyard finds games
here, so registering a game is one line below.
"""

from __future__ import annotations

from bot.games.base import CHANCE, GameInfo, GameState, IllegalMove, InvalidOptions, Option, Outcome, Rules
from bot.games.focus import FocusRules

GAMES: dict[str, Rules] = {rules.key: rules for rules in (FocusRules(),)}

__all__ = ["CHANCE", "GAMES", "GameInfo", "GameState", "IllegalMove", "InvalidOptions", "Option", "Outcome", "Rules"]
