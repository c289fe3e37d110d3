"""Tournament rows: kept in bot/store/tournaments.py (all SQL lives in bot/store/);
this name stays for the modules that import it."""

from bot.store.tournaments import OPEN_TOURNAMENT_STATUSES, Entry, LinkedGame, TournamentRow, TournamentStore

__all__ = ["OPEN_TOURNAMENT_STATUSES", "Entry", "LinkedGame", "TournamentRow", "TournamentStore"]
