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

from bot.i18n import Text, tr, translate
from bot.services.matches import MatchStatus, NoMatchHere, NotInMatch, NotYourTurn, ServiceError, Update
from cogs.acknowledge import answer, defer
from cogs.common import bot_of, presenter_of, report_error, service_of
from cogs.playing import announce_move
from cogs.speech import reader_locale

log = logging.getLogger(__name__)

ControlsFactory = Callable[[int, int, dict[str, Any], list[str]], discord.ui.View | None]

_MODULES: dict[str, str] = {
    "domino_wars": "cogs.ui.private.domino_wars",
    "wonderland": "cogs.ui.private.wonderland",
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


def summary(game: str, view: dict[str, Any]) -> str | None:
    """Lines for the DM's text that say in words what the seat's picture shows privately
    (a module's optional `summary(view)`): notifications and screen readers carry them."""
    if not has_controls(game):
        return None
    describe: Callable[[dict[str, Any]], str | None] | None = getattr(_module(game), "summary", None)
    return describe(view) if describe is not None else None


def board_beside(game: str, view: dict[str, Any]) -> bool:
    """Whether the seat's DM shows the board beside its private picture now (a module's
    optional `board_beside(view)`), so one message is enough to decide on a phone."""
    if not has_controls(game):
        return False
    wanted: Callable[[dict[str, Any]], bool] | None = getattr(_module(game), "board_beside", None)
    return wanted(view) if wanted is not None else False


def dynamic_items() -> tuple[type[discord.ui.DynamicItem[Any]], ...]:
    """Every private component class, for `bot.add_dynamic_items` at start-up."""
    return tuple(item for game in _MODULES for item in _module(game).ITEMS)


class StaleControls(ServiceError):
    """Controls that no longer fit the game (it moved on, or a newer message replaced them):
    the player gets the current controls in a fresh message instead of a dead end."""


async def report_or_refresh(interaction: discord.Interaction, match_id: int, seat: int, error: BaseException) -> None:
    """The error handler of private controls: out-of-date controls are answered with the
    seat's current view and controls in a NEW message; any other error with a refusal."""
    if isinstance(error, StaleControls | NotYourTurn):
        try:
            await check_owner(interaction, match_id, seat)
            await send_fresh_controls(interaction, match_id, seat, str(error))
            return
        except Exception as other:
            error = other
    await report_error(interaction, error)


async def send_fresh_controls(interaction: discord.Interaction, match_id: int, seat: int, reason: str) -> None:
    """Answer `interaction` with the seat's current private view and controls (ephemeral when
    the stale controls were, as under `/hand`), and strip the stale message of its controls."""
    service, presenter = service_of(interaction), presenter_of(interaction)
    row = await service.get(match_id)
    if row.status != MatchStatus.ACTIVE:
        raise NoMatchHere(tr("This match is not running any more."))
    user_id = interaction.user.id
    view = await service.view(match_id, user_id)
    controls = await presenter.controls(row, user_id, seat, view)
    locale = await reader_locale(interaction)
    files = await presenter.private_files(row, view, with_board=controls is not None, locale=locale)
    then = (
        tr("Here are your current controls.") if controls is not None else tr("You have nothing to decide right now.")
    )
    text = f"⚠️ {translate(locale, reason)}\n{translate(locale, then)}"
    stale = interaction.message
    ephemeral = stale is not None and stale.flags.ephemeral
    extra: dict[str, Any] = {"view": controls} if controls is not None else {}
    await answer(interaction, text, files=files, ephemeral=ephemeral, **extra)
    if stale is not None and not ephemeral:
        try:
            await stale.edit(view=None)
        except discord.HTTPException:
            log.info("could not remove stale controls of match %d", match_id)


async def check_owner(interaction: discord.Interaction, match_id: int, seat: int) -> None:
    """Refuse a click by anyone but the seat the component was made for (the custom id
    names it): DMs cannot be clicked by others, but an ephemeral `/hand` reply is a message
    like any other."""
    owner = await service_of(interaction).seat_of(match_id, interaction.user.id)
    if owner is None:
        raise NotInMatch()
    if owner != seat:
        raise ServiceError(tr("These controls belong to the other player."))


async def receipt_and_announce(
    interaction: discord.Interaction,
    update: Update,
    said: Text,
    *,
    intro: str | None = None,
    shown: Callable[[str], str] = str,
    **fields: Any,
) -> None:
    """After a move played from private controls: turn the message into a receipt (its
    controls removed, `fields` are more `edit_message` fields), then announce the update.  The
    move is announced even if the receipt cannot be shown: it was already played.  (The
    click was acknowledged before the move was played: `cogs.acknowledge`.)

    `said` is the sentence confirming the move, not yet in the reader's language: it is
    translated ONCE here, and the receipt's content is `shown` of it (the whole content, or a
    message's own text with `said` as its last line: that text is already in the reader's
    language, and translating it again could take their words for an English template).  The
    presenter gets `said` untranslated too, for the player's private message edited right
    after with the new view, which then says what was played in the same words in its own
    language (`Presenter.note_receipt`)."""
    presenter_of(interaction).note_receipt(update.match.id, interaction.user.id, said)
    try:
        await defer(interaction)
        content = shown(translate(await reader_locale(interaction), said))
        await interaction.edit_original_response(content=content, view=None, **fields)
    except discord.HTTPException:
        log.warning("could not mark the private controls of match %d as used", update.match.id, exc_info=True)
    await announce_move(bot_of(interaction), update, mover_id=interaction.user.id, intro=intro, told=interaction)
