"""Who is spoken to in which language: the stored choices (migration 13).

- guild_settings.language: the server's language for its public posts and pictures (NULL:
  the server's Discord "preferred locale").
- user_settings(user_id, language): a user's own language for replies and DMs (no row or
  NULL: the language of their Discord client).

The SQL is the same on SQLite and PostgreSQL (`INSERT ... ON CONFLICT ... DO UPDATE`).
"""

from __future__ import annotations

from bot.store.core import Store


class LanguageStore:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def guild_language(self, guild_id: int) -> str | None:
        row = await self.store.fetch_one("SELECT language FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return str(row[0]) if row is not None and row[0] is not None else None

    async def save_guild_language(self, guild_id: int, language: str | None) -> None:
        """Set (None: clear) the server's language; its other settings stay as they are."""
        async with self.store.transaction() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, language) VALUES (?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language",
                (guild_id, language),
            )

    async def user_language(self, user_id: int) -> str | None:
        row = await self.store.fetch_one("SELECT language FROM user_settings WHERE user_id = ?", (user_id,))
        return str(row[0]) if row is not None and row[0] is not None else None

    async def save_user_language(self, user_id: int, language: str | None) -> None:
        async with self.store.transaction() as db:
            await db.execute(
                "INSERT INTO user_settings (user_id, language) VALUES (?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET language = excluded.language",
                (user_id, language),
            )
