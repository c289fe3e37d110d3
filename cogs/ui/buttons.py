"""Persistent buttons: `DynamicItem`s whose custom id carries the match id.

Registered once with `add_dynamic_items`, they keep working after any restart: discord.py
rebuilds the item from the custom id of the clicked button, and the match is looked up in
SQLite, not in memory.
"""

from __future__ import annotations

import logging
import re
from typing import Any, Self

import discord

from bot.i18n import tr
from bot.services.matches import MatchRow, WrongChannel
from cogs.acknowledge import defer
from cogs.common import bot_of, presenter_of, report_error, service_of
from cogs.playing import announce_move, play_and_announce
from cogs.speech import say
from cogs.ui.match_button import MatchButton

log = logging.getLogger(__name__)


class ChannelButton(MatchButton, template=r"boneyard:(?P<action>\w+):(?P<id>[0-9]+)"):
    """Base of the buttons that act in their match's channel; subclasses set `action`, `label`
    and `style`.

    A click is acknowledged before anything is looked up (`cogs.acknowledge`); the button
    then works only in its match's channel or thread (`belongs_to`)."""

    async def callback(self, interaction: discord.Interaction) -> None:
        presenter_of(interaction).remember(interaction.user)
        try:
            await defer(interaction)
            row = await service_of(interaction).get(self.match_id)
            if not self.belongs_to(row, interaction):
                raise WrongChannel(
                    tr(
                        "This button belongs to match #{id}, which is played in <#{channel_id}>.",
                        id=row.id,
                        channel_id=row.channel_id,
                    )
                )
            await self.act(interaction)
        except Exception as error:
            await report_error(interaction, error)

    def belongs_to(self, row: MatchRow, interaction: discord.Interaction) -> bool:
        """Whether a click here may act on `row`: in its own channel or thread only."""
        return row.channel_id == interaction.channel_id

    async def act(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError


class ResignButton(ChannelButton, template=r"boneyard:resign:(?P<id>[0-9]+)"):
    """The confirmation button of `/resign` (resigning by accident would be sad)."""

    action, label, style = "resign", tr("Yes, resign"), discord.ButtonStyle.danger

    async def act(self, interaction: discord.Interaction) -> None:
        update = await service_of(interaction).resign(self.match_id, interaction.user.id)
        try:
            await interaction.edit_original_response(content=await say(interaction, tr("You resigned.")), view=None)
        except discord.HTTPException:
            log.warning("could not mark the resignation of match %d as done", self.match_id, exc_info=True)
        await announce_move(bot_of(interaction), update, mover_id=interaction.user.id, told=interaction)


class MoveButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"boneyard:mv:(?P<id>[0-9]+):(?:v(?P<version>[0-9]+):)?(?P<move>.+)",
):
    """A one-click move under the board (`done`, `enter d4`, `mulligan`...).

    The custom id carries the match, the position's version and the move, so the button
    works after a restart but only on the position it was drawn for: a click on an older
    board is refused with a link to the current one (and so is a button from before
    versions were recorded).  The service still checks turn, channel and legality.
    """

    def __init__(self, match_id: int, version: int | None, move: str) -> None:
        stamp = f"v{version}:" if version is not None else ""
        super().__init__(
            discord.ui.Button(
                label=move[:80],
                style=discord.ButtonStyle.primary,
                custom_id=f"boneyard:mv:{match_id}:{stamp}{move}"[:100],
            )
        )
        self.match_id, self.version, self.move = match_id, version, move

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        version = int(match["version"]) if match["version"] is not None else None
        return cls(int(match["id"]), version, match["move"])

    async def callback(self, interaction: discord.Interaction) -> None:
        presenter_of(interaction).remember(interaction.user)
        try:
            await defer(interaction)
            row = await service_of(interaction).get(self.match_id)
        except Exception as error:
            await report_error(interaction, error)
            return
        expected = self.version if self.version is not None else -1  # unknown position: never current
        await play_and_announce(bot_of(interaction), interaction, row, self.move, expected_version=expected)


def move_buttons(match_id: int, version: int, moves: tuple[str, ...]) -> discord.ui.View | None:
    """The one-click moves under the board of `match_id` at position `version`."""
    if not moves:
        return None
    view = discord.ui.View(timeout=None)
    for move in moves:
        view.add_item(MoveButton(match_id, version, move))
    return view


DYNAMIC_ITEMS = (ResignButton, MoveButton)
