"""The one shape of every persistent match button: a `DynamicItem` whose custom id is
`boneyard:<action>:<match id>`.

discord.py rebuilds the item from the clicked button's custom id, so the button works after
any restart; the subclasses (move-flow, lobby and Verify dice buttons) only say what they
show and what a click does.
"""

from __future__ import annotations

import re
from typing import Any, Self

import discord


class MatchButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"boneyard:(?P<action>\w+):(?P<id>[0-9]+)"):
    """Base of the match buttons; subclasses set `action`, `label`, `style` (and `emoji`) and
    pass their own `template` matching `boneyard:<action>:<id>`."""

    action = ""
    label = ""
    style = discord.ButtonStyle.secondary
    emoji: str | None = None

    def __init__(self, match_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=self.label, style=self.style, emoji=self.emoji, custom_id=f"boneyard:{self.action}:{match_id}"
            )
        )
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["id"]))
