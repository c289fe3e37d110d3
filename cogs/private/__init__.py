"""Private controls: the selects and buttons a player gets with their private view.

Games with secrets (Domino Wars' draft and hand, Wonderland's pool and dice) are played
where the secrets are: in the player's DMs (or the ephemeral `/hand` when DMs are closed).
Each such game has a module here exposing

- `controls(match_id, seat, view, moves) -> discord.ui.View | None`: the components for a
  seat that must act now, built from its own view and its legal moves (None: nothing to
  offer privately, the channel's `/move` is the way), and
- `ITEMS`: its `DynamicItem` classes, registered once so that the components keep working
  after a restart (their custom ids carry the match id and any choice made so far; the
  service re-checks everything when the move is finally played).

Components never compute a rule: they only narrow the seat's legal moves into steps.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord

ControlsFactory = Callable[[int, int, dict[str, Any], list[str]], discord.ui.View | None]

CONTROLS: dict[str, ControlsFactory] = {}
DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = ()


def controls_for(game: str, match_id: int, seat: int, view: dict[str, Any], moves: list[str]) -> discord.ui.View | None:
    """The private components for `seat`, or None if its game has none to offer now."""
    factory = CONTROLS.get(game)
    return factory(match_id, seat, view, moves) if factory is not None and moves else None


def has_controls(game: str) -> bool:
    return game in CONTROLS
