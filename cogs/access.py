"""Who may read a match's record: the one rule `/export`, `/replay`, `/history` and the
"Verify dice" button share.

A match is public to the server it was played in: any member there may export, replay,
verify or list it (its board was posted in that server's channel for all to see anyway).
Its two players may read it anywhere, DMs included: it is their game.  Anyone else — a
member of another server, a stranger in DMs — is refused, whatever match number they try:
match numbers are sequential, so without this rule every record would be public to anyone
sharing any server with the bot.  Tournament games are matches and follow the same rule.
"""

from __future__ import annotations

import discord

from bot.i18n import tr
from bot.services.matches import MatchRow, ServiceError

NOT_YOURS = (
    "Match #{id} was played on another server: its record and replay are for that server's members and its two players."
)


def may_read(interaction: discord.Interaction, row: MatchRow) -> bool:
    """The interaction's user may see `row`'s record: a player, or asking from its server."""
    if row.seats is not None and interaction.user.id in row.seats:
        return True
    return interaction.guild_id is not None and interaction.guild_id == row.guild_id


def check_readable(interaction: discord.Interaction, row: MatchRow) -> None:
    """Raise a ServiceError with the refusal unless `may_read`."""
    if not may_read(interaction, row):
        raise ServiceError(NOT_YOURS.format(id=row.id))


def history_scope(interaction: discord.Interaction, member_id: int) -> int | None:
    """The server whose matches a `/history` of `member_id` may list: the server asked from
    (None: every server, only for the caller's own list in DMs).  ServiceError for another
    member's list asked outside a server."""
    if interaction.guild_id is not None:
        return interaction.guild_id
    if member_id != interaction.user.id:
        raise ServiceError(tr("Outside a server, `/history` lists only your own matches."))
    return None
