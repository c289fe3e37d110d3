"""JSON payload builders shaped like Discord API v10 objects.

Pure functions from plain values to the dicts Discord sends (users, members, roles, guilds, channels,
threads, messages, attachments, interactions). Every field discord.py 2.7 reads unconditionally is
present, so the real library parses these payloads without special cases; optional fields appear
only where a test needs them. Ids are snowflakes from :class:`SnowflakeFactory`, which encodes the
creation time like Discord does, so ``discord.utils.snowflake_time`` gives sensible datetimes.
"""

from __future__ import annotations

import datetime as dt
import itertools
import threading
import time
from typing import Any

JSON = dict[str, Any]

DISCORD_EPOCH_MS = 1_420_070_400_000

# Channel types (https://discord.com/developers/docs/resources/channel#channel-object-channel-types).
GUILD_TEXT = 0
DM = 1
GUILD_CATEGORY = 4
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12

# Interaction types and component types.
INTERACTION_PING = 1
INTERACTION_APPLICATION_COMMAND = 2
INTERACTION_MESSAGE_COMPONENT = 3
INTERACTION_AUTOCOMPLETE = 4
INTERACTION_MODAL_SUBMIT = 5
COMPONENT_ACTION_ROW = 1
COMPONENT_BUTTON = 2
COMPONENT_STRING_SELECT = 3

# Message flags.
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7

# Permission bits (https://discord.com/developers/docs/topics/permissions).
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
ALL_PERMISSIONS = (1 << 51) - 1
DEFAULT_MEMBER_PERMISSIONS = (
    (1 << 0)  # create instant invite
    | (1 << 6)  # add reactions
    | (1 << 10)  # view channel
    | (1 << 11)  # send messages
    | (1 << 14)  # embed links
    | (1 << 15)  # attach files
    | (1 << 16)  # read message history
    | (1 << 18)  # use external emojis
    | (1 << 26)  # change nickname
    | (1 << 31)  # use application commands
    | (1 << 35)  # create public threads
    | (1 << 38)  # send messages in threads
)


class SnowflakeFactory:
    """Makes unique, increasing snowflakes whose timestamp part is the current time."""

    def __init__(self, worker_id: int = 1) -> None:
        self._worker_id = worker_id & 0x1F
        self._counter = itertools.count()
        self._last = 0
        self._lock = threading.Lock()

    def next(self) -> int:
        """Return a new snowflake strictly greater than every previous one from this factory."""
        with self._lock:
            millis = int(time.time() * 1000) - DISCORD_EPOCH_MS
            candidate = (millis << 22) | (self._worker_id << 17) | (next(self._counter) & 0xFFF)
            self._last = max(candidate, self._last + 1)
            return self._last

    def next_on_shard(self, shard: int, count: int) -> int:
        """A new snowflake that, as a guild id, Discord routes to `shard` of `count` shards
        (`(id >> 22) % count`): the next ones are skipped until the millisecond fits."""
        while True:
            candidate = self.next()
            if (candidate >> 22) % count == shard:
                return candidate


def iso_timestamp(moment: dt.datetime | None = None) -> str:
    """Discord's timestamp format (ISO 8601 with offset)."""
    return (moment or dt.datetime.now(dt.UTC)).isoformat()


def user(user_id: int, username: str, *, bot: bool = False, global_name: str | None = None) -> JSON:
    """A user object."""
    return {
        "id": str(user_id),
        "username": username,
        "discriminator": "0",
        "global_name": global_name if global_name is not None else username,
        "avatar": None,
        "bot": bot,
        "public_flags": 0,
        "flags": 0,
    }


def role(role_id: int, name: str, *, permissions: int, position: int = 0, color: int = 0) -> JSON:
    """A role object; the @everyone role has the guild's id."""
    return {
        "id": str(role_id),
        "name": name,
        "color": color,
        "colors": {"primary_color": color, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "position": position,
        "permissions": str(permissions),
        "managed": False,
        "mentionable": False,
        "flags": 0,
    }


def member(
    user_payload: JSON,
    *,
    roles: list[int],
    joined_at: str,
    nick: str | None = None,
    permissions: int | None = None,
) -> JSON:
    """A guild member object with its user; ``permissions`` is only present inside interactions."""
    payload: JSON = {
        "user": user_payload,
        "nick": nick,
        "avatar": None,
        "banner": None,
        "roles": [str(r) for r in roles],
        "joined_at": joined_at,
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
        "communication_disabled_until": None,
    }
    if permissions is not None:
        payload["permissions"] = str(permissions)
    return payload


def text_channel(
    channel_id: int,
    guild_id: int,
    name: str,
    *,
    position: int = 0,
    topic: str | None = None,
    parent_id: int | None = None,
    last_message_id: int | None = None,
) -> JSON:
    """A guild text channel object."""
    return {
        "id": str(channel_id),
        "type": GUILD_TEXT,
        "guild_id": str(guild_id),
        "name": name,
        "position": position,
        "permission_overwrites": [],
        "topic": topic,
        "nsfw": False,
        "last_message_id": str(last_message_id) if last_message_id else None,
        "rate_limit_per_user": 0,
        "parent_id": str(parent_id) if parent_id else None,
        "default_auto_archive_duration": 1440,
        "default_thread_rate_limit_per_user": 0,
        "flags": 0,
    }


def dm_channel(channel_id: int, recipient: JSON) -> JSON:
    """A direct-message channel object with its one recipient."""
    return {"id": str(channel_id), "type": DM, "last_message_id": None, "recipients": [recipient], "flags": 0}


def thread_channel(
    thread_id: int,
    guild_id: int,
    parent_id: int,
    owner_id: int,
    name: str,
    *,
    private: bool = False,
    archived: bool = False,
    locked: bool = False,
    auto_archive_duration: int = 1440,
    invitable: bool = True,
    member_count: int = 1,
    message_count: int = 0,
    created_at: str | None = None,
) -> JSON:
    """A thread channel object (public or private)."""
    created = created_at or iso_timestamp()
    return {
        "id": str(thread_id),
        "type": PRIVATE_THREAD if private else PUBLIC_THREAD,
        "guild_id": str(guild_id),
        "parent_id": str(parent_id),
        "owner_id": str(owner_id),
        "name": name,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "member_count": member_count,
        "message_count": message_count,
        "total_message_sent": message_count,
        "flags": 0,
        "applied_tags": [],
        "thread_metadata": {
            "archived": archived,
            "auto_archive_duration": auto_archive_duration,
            "archive_timestamp": created,
            "locked": locked,
            "invitable": invitable,
            "create_timestamp": created,
        },
    }


def guild(
    guild_id: int,
    name: str,
    *,
    owner_id: int,
    roles: list[JSON],
    channels: list[JSON],
    threads: list[JSON],
    members: list[JSON],
    member_count: int,
    joined_at: str,
    preferred_locale: str = "en-US",
) -> JSON:
    """A full GUILD_CREATE guild object (channels, threads and members included)."""
    return {
        "id": str(guild_id),
        "name": name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(owner_id),
        "region": None,
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": preferred_locale,
        "features": [],
        "roles": roles,
        "emojis": [],
        "stickers": [],
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "safety_alerts_channel_id": None,
        "max_members": 500000,
        "max_video_channel_users": 25,
        "vanity_url_code": None,
        "application_id": None,
        "premium_progress_bar_enabled": False,
        "large": False,
        "unavailable": False,
        "member_count": member_count,
        "joined_at": joined_at,
        "lazy": True,
        "voice_states": [],
        "members": members,
        "channels": channels,
        "threads": threads,
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "embedded_activities": [],
    }


def attachment(
    attachment_id: int,
    filename: str,
    *,
    size: int,
    url: str,
    content_type: str | None,
    description: str | None = None,
) -> JSON:
    """A message attachment object."""
    payload: JSON = {
        "id": str(attachment_id),
        "filename": filename,
        "size": size,
        "url": url,
        "proxy_url": url,
        "content_type": content_type,
        "flags": 0,
    }
    if description is not None:
        payload["description"] = description
    return payload


def message(
    message_id: int,
    channel_id: int,
    author: JSON,
    content: str,
    *,
    guild_id: int | None = None,
    member_payload: JSON | None = None,
    embeds: list[JSON] | None = None,
    attachments: list[JSON] | None = None,
    components: list[JSON] | None = None,
    flags: int = 0,
    mentions: list[JSON] | None = None,
    reactions: list[JSON] | None = None,
    application_id: int | None = None,
    webhook_id: int | None = None,
    interaction_metadata: JSON | None = None,
    message_reference: JSON | None = None,
    edited_timestamp: str | None = None,
    timestamp: str | None = None,
    message_type: int = 0,
) -> JSON:
    """A message object (for REST responses and MESSAGE_CREATE, which adds ``guild_id``/``member``)."""
    payload: JSON = {
        "id": str(message_id),
        "type": message_type,
        "channel_id": str(channel_id),
        "author": author,
        "content": content,
        "timestamp": timestamp or iso_timestamp(),
        "edited_timestamp": edited_timestamp,
        "tts": False,
        "mention_everyone": False,
        "mentions": mentions or [],
        "mention_roles": [],
        "attachments": attachments or [],
        "embeds": embeds or [],
        "components": components or [],
        "pinned": False,
        "flags": flags,
    }
    if reactions:
        payload["reactions"] = reactions
    if guild_id is not None:
        payload["guild_id"] = str(guild_id)
    if member_payload is not None:
        payload["member"] = member_payload
    if application_id is not None:
        payload["application_id"] = str(application_id)
    if webhook_id is not None:
        payload["webhook_id"] = str(webhook_id)
    if interaction_metadata is not None:
        payload["interaction_metadata"] = interaction_metadata
    if message_reference is not None:
        payload["message_reference"] = message_reference
    return payload


def interaction(
    interaction_id: int,
    application_id: int,
    interaction_type: int,
    token: str,
    data: JSON,
    *,
    channel_payload: JSON,
    guild_id: int | None,
    member_payload: JSON | None,
    user_payload: JSON | None,
    app_permissions: int,
    message_payload: JSON | None = None,
    locale: str = "en-US",
    guild_locale: str = "en-US",
) -> JSON:
    """An INTERACTION_CREATE payload, from a guild (``member_payload``) or from a DM (``user_payload``)."""
    payload: JSON = {
        "id": str(interaction_id),
        "application_id": str(application_id),
        "type": interaction_type,
        "data": data,
        "channel": channel_payload,
        "channel_id": channel_payload["id"],
        "token": token,
        "version": 1,
        "app_permissions": str(app_permissions),
        "locale": locale,
        "entitlements": [],
        "authorizing_integration_owners": {"0": str(guild_id)} if guild_id else {"1": "0"},
        "context": 0 if guild_id else 1,
        "attachment_size_limit": 10 * 1024 * 1024,
    }
    if guild_id is not None:
        payload["guild_id"] = str(guild_id)
        payload["guild"] = {"id": str(guild_id), "locale": guild_locale, "features": []}
        payload["guild_locale"] = guild_locale
        payload["member"] = member_payload
    else:
        payload["user"] = user_payload
    if message_payload is not None:
        payload["message"] = message_payload
    return payload


def application(application_id: int, name: str, owner: JSON) -> JSON:
    """The ``GET /oauth2/applications/@me`` application object."""
    return {
        "id": str(application_id),
        "name": name,
        "icon": None,
        "description": "A fake application for end-to-end tests.",
        "summary": "",
        "type": None,
        "bot_public": True,
        "bot_require_code_grant": False,
        "verify_key": "0" * 64,
        "owner": owner,
        "team": None,
        "flags": 0,
        "tags": [],
        "redirect_uris": [],
        "interactions_endpoint_url": None,
        "approximate_guild_count": 1,
        "integration_types_config": {"0": {}},
    }


def error(code: int, message: str) -> JSON:
    """A Discord JSON error body."""
    return {"code": code, "message": message}
