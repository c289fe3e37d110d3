"""Who is spoken to in which language, stored in both backends (migration 13)."""

from __future__ import annotations

import pytest

from bot.services.languages import Languages
from bot.services.matches import ServiceError
from bot.store import Store
from tests.bot.conftest import ALICE, BOB, GUILD


async def test_a_users_choice_beats_their_client_and_survives_a_restart(store: Store) -> None:
    languages = Languages(store)
    assert await languages.for_user(ALICE, "es-ES") == "es"  # nothing chosen: the client's language
    assert await languages.choose_for_user(ALICE, "de") == "de"
    assert await languages.for_user(ALICE, "es-ES") == "de"
    again = Languages(store)  # a restart: read from the store, not the cache
    assert await again.for_user(ALICE, "pt-BR") == "de"
    assert await again.for_user(BOB, "pt-BR") == "pt_BR"
    assert await again.choose_for_user(ALICE, "auto") is None
    assert await Languages(store).for_user(ALICE, "es-419") == "es"


async def test_a_user_seen_before_gets_their_clients_language_in_dms(store: Store) -> None:
    languages = Languages(store)
    assert await languages.for_user(ALICE, guild="pt_BR") == "pt_BR"  # never seen: the server's
    languages.seen(ALICE, "de")
    assert await languages.for_user(ALICE, guild="pt_BR") == "de"


async def test_a_servers_language_beats_its_discord_locale_and_keeps_its_other_settings(store: Store) -> None:
    from bot.store.lobby import LobbyStore

    languages = Languages(store)
    assert await languages.for_guild(GUILD, "es-ES") == "es"
    assert await languages.for_guild(None, "es-ES") == "en"  # a DM channel has no server
    await LobbyStore(store).save_guild_settings(GUILD, "channel", "rapid")
    await languages.choose_for_guild(GUILD, "pt_BR")
    assert await Languages(store).for_guild(GUILD, "es-ES") == "pt_BR"
    assert await LobbyStore(store).guild_settings(GUILD) == ("channel", "rapid")
    await languages.choose_for_guild(GUILD + 1, "de")  # a server with no settings row yet
    assert await LobbyStore(store).guild_settings(GUILD + 1) == ("threads", "daily")


async def test_an_unknown_language_is_refused_and_changes_nothing(store: Store) -> None:
    languages = Languages(store)
    await languages.choose_for_user(ALICE, "es")
    with pytest.raises(ServiceError, match="not a language I speak"):
        await languages.choose_for_user(ALICE, "fr")
    assert await Languages(store).for_user(ALICE, "de") == "es"
