"""The lobby's rows: kept in bot/store/lobby.py (all SQL lives in bot/store/);
this name stays for the modules that import it."""

from bot.store.lobby import LobbyStore, Offer, Placement

__all__ = ["LobbyStore", "Offer", "Placement"]
