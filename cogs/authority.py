"""Who may act for others: tournament hosts, and moderators of a match.

Why one module: `/abort`, `/pause` and `/resume` let a moderator act alone, and the host of
a match's tournament counts as one; the tournament commands ask the same host question.
Keeping both answers here means the rule is written once.
"""

from __future__ import annotations

import discord

from bot.services.matches import MatchRow
from bot.services.tournaments import TournamentRow
from cogs.common import bot_of


def is_host(interaction: discord.Interaction, row: TournamentRow) -> bool:
    """The creator, a member with Manage Server, or a member of a `TOURNAMENT_HOST_ROLES` role."""
    if interaction.user.id == row.host_id or interaction.permissions.manage_guild:
        return True
    host_roles = bot_of(interaction).settings.host_roles
    roles = getattr(interaction.user, "roles", [])
    return any(str(role.id) in host_roles or role.name.lower() in host_roles for role in roles)


async def moderates(interaction: discord.Interaction, match: MatchRow) -> bool:
    """A non-player who may end or pause the match alone: Manage Channels, or the host of
    the tournament the match belongs to."""
    if match.seat_of(interaction.user.id) is not None:
        return False
    if interaction.permissions.manage_channels:
        return True
    tournament = await bot_of(interaction).tournaments.of_match(match.id)
    return tournament is not None and is_host(interaction, tournament)
