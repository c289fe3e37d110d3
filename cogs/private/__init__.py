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
import logging
from collections.abc import Callable
from functools import cache
from types import ModuleType
from typing import Any

import discord

from bot.matches import NotInMatch, ServiceError, Update
from cogs.acknowledge import defer
from cogs.common import bot_of, service_of
from cogs.playing import announce_move

log = logging.getLogger(__name__)

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


async def check_owner(interaction: discord.Interaction, match_id: int, seat: int) -> None:
    """Refuse a click by anyone but the seat the component was made for (the custom id
    names it): DMs cannot be clicked by others, but an ephemeral `/hand` reply is a message
    like any other."""
    owner = await service_of(interaction).seat_of(match_id, interaction.user.id)
    if owner is None:
        raise NotInMatch("You are not playing in this match.")
    if owner != seat:
        raise ServiceError("These controls belong to the other player.")


async def receipt_and_announce(
    interaction: discord.Interaction, update: Update, *, intro: str | None = None, **receipt: Any
) -> None:
    """After a move played from private controls: turn the message into a receipt (its
    controls removed; `receipt` are `edit_message` fields), then announce the update.  The
    move is announced even if the receipt cannot be shown: it was already played.  (The
    click was acknowledged before the move was played: `cogs.acknowledge`.)"""
    try:
        await defer(interaction)
        await interaction.edit_original_response(view=None, **receipt)
    except discord.HTTPException:
        log.warning("could not mark the private controls of match %d as used", update.match.id, exc_info=True)
    await announce_move(bot_of(interaction), update, mover_id=interaction.user.id, intro=intro, told=interaction)
