"""The guide of each game (see `bot.ai.guide`), by game key."""

from __future__ import annotations

from bot.ai.dominance import DominanceGuide
from bot.ai.domineering import DomineeringGuide
from bot.ai.domino_wars import DominoWarsGuide
from bot.ai.focus import FocusGuide
from bot.ai.guide import Guide
from bot.ai.wonderland import WonderlandGuide

GUIDES: dict[str, Guide] = {
    "dominance": DominanceGuide(),
    "domineering": DomineeringGuide(),
    "domino_wars": DominoWarsGuide(),
    "focus": FocusGuide(),
    "wonderland": WonderlandGuide(),
}


def guide_for(key: str) -> Guide:
    return GUIDES.get(key) or Guide()
