"""Tournaments: formats, pairings, standings and items — pure logic, JSON-able state.

One job per module: `series` (best-of scoring), `brackets` (elimination trees),
`roundrobin` (circle schedule), `swiss` (pairing search), `standings` (points and
tie-breaks), `model` (the records), `tournament` (the state machine tying them together).
No discord, sqlite, asyncio or I/O: the store keeps `Tournament.dump()` and the service
drives the object.
"""

from bot.tournaments.model import Game, Pairing, Player, TournamentError
from bot.tournaments.series import wins_needed
from bot.tournaments.standings import Standing
from bot.tournaments.tournament import Format, GameToStart, Tournament, item_options

__all__ = [
    "Format",
    "Game",
    "GameToStart",
    "Pairing",
    "Player",
    "Standing",
    "Tournament",
    "TournamentError",
    "item_options",
    "wins_needed",
]
