"""Persistent buttons: `DynamicItem`s whose custom id carries the match id.

Registered once with `add_dynamic_items`, they keep working after any restart: discord.py
rebuilds the item from the custom id of the clicked button, and the match is looked up in
SQLite, not in memory.
"""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from cogs.common import presenter_of, report_error, service_of


class _MatchButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"boneyard:(?P<action>\w+):(?P<id>[0-9]+)"):
    """Base of the buttons; subclasses set `action`, `label` and `style`."""

    action = ""
    label = ""
    style = discord.ButtonStyle.secondary

    def __init__(self, match_id: int) -> None:
        super().__init__(
            discord.ui.Button(label=self.label, style=self.style, custom_id=f"boneyard:{self.action}:{match_id}")
        )
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        presenter_of(interaction).remember(interaction.user)
        try:
            await self.act(interaction)
        except Exception as error:
            await report_error(interaction, error)

    async def act(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError


class AcceptButton(_MatchButton, template=r"boneyard:accept:(?P<id>[0-9]+)"):
    action, label, style = "accept", "Accept", discord.ButtonStyle.success

    async def act(self, interaction: discord.Interaction) -> None:
        from cogs.lobby_buttons import start_accepted  # makes the match's thread first

        await start_accepted(interaction, self.match_id)


class DeclineButton(_MatchButton, template=r"boneyard:decline:(?P<id>[0-9]+)"):
    action, label, style = "decline", "Decline", discord.ButtonStyle.danger

    async def act(self, interaction: discord.Interaction) -> None:
        row = await service_of(interaction).decline(self.match_id, interaction.user.id)
        verb = "withdrew the challenge" if row.status == "cancelled" else "declined"
        await interaction.response.edit_message(content=f"❌ {interaction.user.mention} {verb}.", view=None)


class ResignButton(_MatchButton, template=r"boneyard:resign:(?P<id>[0-9]+)"):
    """The confirmation button of `/resign` (resigning by accident would be sad)."""

    action, label, style = "resign", "Yes, resign", discord.ButtonStyle.danger

    async def act(self, interaction: discord.Interaction) -> None:
        update = await service_of(interaction).resign(self.match_id, interaction.user.id)
        await interaction.response.edit_message(content="You resigned.", view=None)
        await presenter_of(interaction).announce(update)


class MoveButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"boneyard:mv:(?P<id>[0-9]+):(?P<move>.+)"):
    """A one-click move under the board (`done`, `enter d4`, `mulligan`...).

    The move text rides in the custom id, so the button works after a restart; the service
    still checks it is the clicker's turn and that the move is legal now.
    """

    def __init__(self, match_id: int, move: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=move[:80], style=discord.ButtonStyle.primary, custom_id=f"boneyard:mv:{match_id}:{move}"[:100]
            )
        )
        self.match_id, self.move = match_id, move

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["id"]), match["move"])

    async def callback(self, interaction: discord.Interaction) -> None:
        presenter_of(interaction).remember(interaction.user)
        try:
            update = await service_of(interaction).play(self.match_id, interaction.user.id, self.move)
        except Exception as error:
            await report_error(interaction, error)
            return
        await interaction.response.defer(ephemeral=presenter_of(interaction).private_reply(update))
        await presenter_of(interaction).announce(update, interaction=interaction)


def move_buttons(match_id: int, moves: tuple[str, ...]) -> discord.ui.View | None:
    if not moves:
        return None
    view = discord.ui.View(timeout=None)
    for move in moves:
        view.add_item(MoveButton(match_id, move))
    return view


DYNAMIC_ITEMS = (AcceptButton, DeclineButton, ResignButton, MoveButton)


def challenge_view(match_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(AcceptButton(match_id))
    view.add_item(DeclineButton(match_id))
    return view
