"""Which language each person and each server is spoken to in.

- A user's replies and DMs: their `/settings language:` choice, else the locale of their
  Discord client (seen on their last interaction; Discord sends it with every one), else
  the server's language.
- A server's public posts and pictures: its `/settings server_language:` choice (Manage
  Server), else the server's Discord "preferred locale", else English.

The stored choices are cached in memory (they change only through this class, and each
shard process owns its guilds; a user's choice made on another process is seen after its
restart at worst, by design: a language is no secret and nothing is lost).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.i18n import DEFAULT, Locale, from_discord, tr
from bot.i18n.locales import known
from bot.services.matches import ServiceError, database_unavailable
from bot.store import Store
from bot.store.languages import LanguageStore

AUTOMATIC = "auto"
"""The choice that clears a stored language (Discord's locale decides again)."""


class Languages:
    def __init__(self, store: Store) -> None:
        self.store = LanguageStore(store)
        self._users: dict[int, Locale | None] = {}
        self._guilds: dict[int, Locale | None] = {}
        self._seen: dict[int, Locale] = {}
        """The locale of each user's client, as their last interaction showed it."""

    def seen(self, user_id: int, discord_locale: object) -> None:
        """Remember the locale of a user's client (from an interaction)."""
        self._seen[user_id] = from_discord(discord_locale)

    async def user_choice(self, user_id: int) -> Locale | None:
        """The user's stored choice (None: none, or the database is away: a refusal during an
        outage must still be said, in the client's language)."""
        return await _remembered(self._users, user_id, self.store.user_language)

    async def guild_choice(self, guild_id: int) -> Locale | None:
        return await _remembered(self._guilds, guild_id, self.store.guild_language)

    async def for_user(self, user_id: int, client_locale: object = None, *, guild: Locale = DEFAULT) -> Locale:
        """The language to answer `user_id` in (`client_locale`: the interaction's, if any;
        `guild`: the fallback when nothing is known of the user)."""
        chosen = await self.user_choice(user_id)
        if chosen is not None:
            return chosen
        if client_locale is not None:
            return from_discord(client_locale)
        return self._seen.get(user_id, guild)

    async def for_guild(self, guild_id: int | None, preferred_locale: object = None) -> Locale:
        """The language of a server's public posts (`guild_id` None, a DM channel: English)."""
        if guild_id is None:
            return DEFAULT
        chosen = await self.guild_choice(guild_id)
        if chosen is not None:
            return chosen
        return from_discord(preferred_locale) if preferred_locale is not None else DEFAULT

    async def choose_for_user(self, user_id: int, choice: str) -> Locale | None:
        """Store a user's choice (`auto`: none); the new choice."""
        locale = self._parse(choice)
        await self.store.save_user_language(user_id, locale)
        self._users[user_id] = locale
        return locale

    async def choose_for_guild(self, guild_id: int, choice: str) -> Locale | None:
        locale = self._parse(choice)
        await self.store.save_guild_language(guild_id, locale)
        self._guilds[guild_id] = locale
        return locale

    @staticmethod
    def _parse(choice: str) -> Locale | None:
        if choice == AUTOMATIC:
            return None
        locale = known(choice)
        if locale is None:
            raise ServiceError(tr("`{choice}` is not a language I speak.", choice=choice))
        return locale


async def _remembered(
    known_choices: dict[int, Locale | None], key: int, load: Callable[[int], Awaitable[str | None]]
) -> Locale | None:
    """A stored language choice, read once and then remembered (None while the database is away,
    and then not remembered, so it is read again when it is back)."""
    if key not in known_choices:
        try:
            known_choices[key] = known(await load(key))
        except Exception as error:
            if not database_unavailable(error):
                raise
            return None
    return known_choices[key]
