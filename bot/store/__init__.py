"""Persistence behind one interface: `Store` over SQLite (the default) or PostgreSQL.

`Store.open(DATABASE_PATH)` opens a SQLite file, `Store.open("postgresql://...")` a
PostgreSQL database; both are migrated to the same schema (bot/store/migrations.py) and
answer the same queries (bot/store/core.py, bot/store/tournaments.py, bot/store/ratings.py).
All SQL lives in this package: services and cogs call methods, never a connection.
"""

from bot.store.core import OPEN_STATUSES, MatchRow, MatchStatus, MoveRow, Opening, StaleVersion, Store
from bot.store.database import Conflict, Database
from bot.store.migrations import MIGRATIONS, POSTGRES_MIGRATIONS

__all__ = [
    "MIGRATIONS",
    "OPEN_STATUSES",
    "POSTGRES_MIGRATIONS",
    "Conflict",
    "Database",
    "MatchRow",
    "MatchStatus",
    "MoveRow",
    "Opening",
    "StaleVersion",
    "Store",
]
