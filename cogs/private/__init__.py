"""Private controls: the selects and buttons a player gets with their private view.

Games with secrets (Domino Wars' draft and hand, Wonderland's pool and dice) are played
where the secrets are: in the player's DMs (or the ephemeral `/hand` when DMs are closed).
Each such game has a module here (listed in `_MODULES`) exposing

- `controls(match_id, seat, view, moves) -> discord.ui.View | None`: the components for a
  seat that must act now, built from its own view and its legal moves (None: nothing to
  offer privately, the channel's `/move` is the way), and
- `ITEMS`: its `DynamicItem` classes, registered once so that the components keep working
  after a restart (their custom ids carry the match id and any choice made so far; the
  service re-checks everything when the move is finally played).

Components never compute a rule: they only narrow the seat's legal moves into steps.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache
from types import ModuleType
from typing import Any

import discord

ControlsFactory = Callable[[int, int, dict[str, Any], list[str]], discord.ui.View | None]

_MODULES: dict[str, str] = {
    "domino_wars": "cogs.private.domino_wars",
    "wonderland": "cogs.private.wonderland",
}
"""Game key -> module with `controls` and `ITEMS` (one line per game)."""


@cache
def _module(game: str) -> ModuleType:
    return importlib.import_module(_MODULES[game])


def has_controls(game: str) -> bool:
    return game in _MODULES


def controls_for(game: str, match_id: int, seat: int, view: dict[str, Any], moves: list[str]) -> discord.ui.View | None:
    """The private components for `seat`, or None if its game has none to offer now."""
    if not has_controls(game) or not moves:
        return None
    factory: ControlsFactory = _module(game).controls
    return factory(match_id, seat, view, moves)


def dynamic_items() -> tuple[type[discord.ui.DynamicItem[Any]], ...]:
    """Every private component class, for `bot.add_dynamic_items` at start-up."""
    return tuple(item for game in _MODULES for item in _module(game).ITEMS)
