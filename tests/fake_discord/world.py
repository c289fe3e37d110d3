"""The fake Discord's world: users, guilds, channels, messages, commands, interactions and recorded requests.

Plain mutable dataclasses keyed by snowflake, owned by one :class:`World`. The gateway and the REST
handlers read and change it; tests read it through :class:`~tests.fake_discord.server.FakeDiscord`.
Everything the bot ever posted stays here (deleted messages are flagged, not dropped), so a test can
assert on the final content of a message as well as on the raw HTTP requests that produced it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import re
import secrets
import time
from collections.abc import Iterator
from typing import Any

from tests.fake_discord import payloads
from tests.fake_discord.payloads import JSON

MENTION = re.compile(r"<@!?(\d+)>")


@dataclasses.dataclass
class UploadedFile:
    """One file part of a multipart request, exactly as the bot sent it."""

    field: str
    filename: str
    content_type: str | None
    data: bytes


@dataclasses.dataclass
class RecordedRequest:
    """One HTTP request the bot made, with the fake's answer.

    ``path`` is relative to the API root (``/channels/1/messages``, no ``/api/v10``); ``json`` is the
    JSON body, or the parsed ``payload_json`` part of a multipart body; ``files`` holds the file parts.
    """

    index: int
    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    json: Any
    files: list[UploadedFile]
    status: int = 0
    response: Any = None


@dataclasses.dataclass
class FakeUser:
    """A Discord user; ``dms_closed`` makes messages to their DM channel fail with 403/50007."""

    id: int
    name: str
    bot: bool = False
    dms_closed: bool = False
    locale: str = "en-US"
    """The language of the user's Discord client (sent with each of their interactions)."""

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> JSON:
        return payloads.user(self.id, self.name, bot=self.bot)


@dataclasses.dataclass
class FakeRole:
    id: int
    guild_id: int
    name: str
    permissions: int
    position: int = 0

    def payload(self) -> JSON:
        return payloads.role(self.id, self.name, permissions=self.permissions, position=self.position)


@dataclasses.dataclass
class FakeMember:
    user_id: int
    guild_id: int
    role_ids: list[int]
    joined_at: str
    nick: str | None = None


@dataclasses.dataclass
class FakeChannel:
    """A guild text channel, a thread (``parent_id`` set) or a DM channel (``recipient_id`` set)."""

    id: int
    type: int
    name: str
    guild_id: int | None = None
    parent_id: int | None = None
    recipient_id: int | None = None
    topic: str | None = None
    position: int = 0
    deleted: bool = False
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    invitable: bool = True
    created_at: str = ""
    thread_member_ids: set[int] = dataclasses.field(default_factory=set)
    bot_can_send: bool = True
    """False: the bot lacks Send Messages here, so its posts fail with 403 / 50013 (answers to
    interactions still work: Discord does not check channel permissions for them)."""

    @property
    def is_thread(self) -> bool:
        return self.type in (payloads.PUBLIC_THREAD, payloads.PRIVATE_THREAD)

    @property
    def is_dm(self) -> bool:
        return self.type == payloads.DM

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"


@dataclasses.dataclass
class FakeAttachment:
    id: int
    filename: str
    content_type: str | None
    data: bytes
    url: str
    description: str | None = None

    def payload(self) -> JSON:
        return payloads.attachment(
            self.id,
            self.filename,
            size=len(self.data),
            url=self.url,
            content_type=self.content_type,
            description=self.description,
        )


@dataclasses.dataclass
class FakeMessage:
    """A message as it stands now (edits applied); ``interaction_id`` links interaction responses."""

    id: int
    channel_id: int
    author_id: int
    content: str = ""
    embeds: list[JSON] = dataclasses.field(default_factory=list)
    attachments: list[FakeAttachment] = dataclasses.field(default_factory=list)
    components: list[JSON] = dataclasses.field(default_factory=list)
    flags: int = 0
    interaction_id: int | None = None
    webhook_id: int | None = None
    message_reference: JSON | None = None
    edited: bool = False
    deleted: bool = False
    thread_id: int | None = None
    reactions: list[tuple[str, int]] = dataclasses.field(default_factory=list)
    mention_ids: list[int] = dataclasses.field(default_factory=list)
    pinged_ids: list[int] = dataclasses.field(default_factory=list)
    """The mentioned users Discord notified when the message was created (its `allowed_mentions`)."""
    timestamp: str = ""
    edited_timestamp: str | None = None
    nonce: str | None = None
    """The nonce the message was created with: Discord echoes it in the create response and the
    MESSAGE_CREATE event only (a message read back later has none)."""

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & payloads.FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & payloads.FLAG_LOADING)

    def iter_components(self) -> Iterator[JSON]:
        """Every component with a ``custom_id`` (buttons, selects), at any depth of nesting."""
        yield from _walk_components(self.components)

    def component(self, custom_id: str) -> JSON | None:
        return next((c for c in self.iter_components() if c.get("custom_id") == custom_id), None)

    @property
    def custom_ids(self) -> list[str]:
        return [str(c["custom_id"]) for c in self.iter_components()]

    def files(self) -> dict[str, bytes]:
        """Attachment bytes by filename."""
        return {a.filename: a.data for a in self.attachments}


def _walk_components(components: list[JSON]) -> Iterator[JSON]:
    for component in components:
        if "custom_id" in component:
            yield component
        yield from _walk_components(component.get("components", []))
        inner = component.get("component")
        if isinstance(inner, dict):
            yield from _walk_components([inner])
        accessory = component.get("accessory")
        if isinstance(accessory, dict):
            yield from _walk_components([accessory])


@dataclasses.dataclass
class FakeInteraction:
    """An interaction the fake dispatched and everything the bot answered to it.

    ``callback_type`` is None until the bot called back (4 message, 5 deferred message, 6 deferred
    update, 7 update message, 8 autocomplete result, 9 modal); ``callback_data`` is the callback's
    ``data``. ``original_message_id`` is the response message (for component interactions after 6/7,
    the message that carried the component); ``followup_ids`` are follow-up messages in order.
    """

    id: int
    token: str
    type: int
    channel_id: int
    guild_id: int | None
    user_id: int
    data: JSON
    message_id: int | None = None
    command_name: str | None = None
    callback_type: int | None = None
    callback_data: JSON | None = None
    original_message_id: int | None = None
    original_deleted: bool = False
    followup_ids: list[int] = dataclasses.field(default_factory=list)
    requests: list[RecordedRequest] = dataclasses.field(default_factory=list)
    created_at: float = dataclasses.field(default_factory=time.monotonic)
    acknowledged_at: float | None = None
    """When (monotonic) the bot's first callback arrived: its acknowledgement, for the bench."""

    @property
    def acknowledged(self) -> bool:
        return self.callback_type is not None

    @property
    def choices(self) -> list[JSON]:
        """Autocomplete choices (``[{"name": ..., "value": ...}]``) once the bot answered with type 8."""
        if self.callback_type != 8 or self.callback_data is None:
            return []
        return list(self.callback_data.get("choices", []))

    @property
    def ephemeral(self) -> bool:
        data = self.callback_data or {}
        return bool(int(data.get("flags") or 0) & payloads.FLAG_EPHEMERAL)


@dataclasses.dataclass
class FakeGuild:
    id: int
    name: str
    owner_id: int
    roles: dict[int, FakeRole] = dataclasses.field(default_factory=dict)
    members: dict[int, FakeMember] = dataclasses.field(default_factory=dict)
    joined_at: str = ""
    preferred_locale: str = "en-US"
    """The server's Discord language (Server Settings -> Community), as the bot sees it."""

    @property
    def everyone_role(self) -> FakeRole:
        return self.roles[self.id]


class World:
    """All state of the fake Discord plus the payload rendering that needs more than one object."""

    def __init__(self, *, bot_name: str = "Boneyard Test") -> None:
        self.snowflakes = payloads.SnowflakeFactory()
        self.base_url = ""
        self.users: dict[int, FakeUser] = {}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, FakeMessage] = {}
        self.nonces: dict[tuple[int, str], tuple[int, float]] = {}
        """(channel, nonce) -> the message created with `enforce_nonce` and when (monotonic):
        Discord's dedupe window (`NONCE_WINDOW`)."""
        self.attachments: dict[int, FakeAttachment] = {}
        self.interactions: dict[int, FakeInteraction] = {}
        self.global_commands: list[JSON] = []
        self.guild_commands: dict[int, list[JSON]] = {}
        self.requests: list[RecordedRequest] = []
        self.bot = self.add_user(bot_name, bot=True)
        self.bot_denied = 0
        """Permission bits taken from the bot everywhere (as a server admin might), see `deny_bot`."""
        self.application_id = self.bot.id
        self.owner = self.add_user("app-owner")

    # -- creation -----------------------------------------------------------------------------------

    def add_user(self, name: str, *, bot: bool = False) -> FakeUser:
        user = FakeUser(self.snowflakes.next(), name, bot=bot)
        self.users[user.id] = user
        return user

    def add_guild(self, name: str, *, owner: FakeUser | None = None, shard: tuple[int, int] | None = None) -> FakeGuild:
        """A guild; with ``shard=(id, count)`` one whose id Discord routes to that shard."""
        guild_id = self.snowflakes.next() if shard is None else self.snowflakes.next_on_shard(*shard)
        guild = FakeGuild(guild_id, name, owner_id=(owner or self.owner).id, joined_at=payloads.iso_timestamp())
        guild.roles[guild_id] = FakeRole(guild_id, guild_id, "@everyone", payloads.DEFAULT_MEMBER_PERMISSIONS)
        self.guilds[guild_id] = guild
        self.add_member(guild, self.bot)
        self.add_member(guild, self.users[guild.owner_id])
        return guild

    def add_role(self, guild: FakeGuild, name: str, *, permissions: int) -> FakeRole:
        role = FakeRole(self.snowflakes.next(), guild.id, name, permissions, position=len(guild.roles))
        guild.roles[role.id] = role
        return role

    def add_member(
        self, guild: FakeGuild, user: FakeUser, *, roles: list[FakeRole] | None = None, nick: str | None = None
    ) -> FakeMember:
        member = FakeMember(user.id, guild.id, [r.id for r in roles or []], payloads.iso_timestamp(), nick)
        guild.members[user.id] = member
        return member

    def add_text_channel(self, guild: FakeGuild, name: str, *, topic: str | None = None) -> FakeChannel:
        position = sum(1 for c in self.channels.values() if c.guild_id == guild.id and not c.is_thread)
        channel = FakeChannel(
            self.snowflakes.next(), payloads.GUILD_TEXT, name, guild.id, topic=topic, position=position
        )
        self.channels[channel.id] = channel
        return channel

    def add_thread(
        self, parent: FakeChannel, name: str, *, owner_id: int, private: bool, auto_archive_duration: int, **kw: Any
    ) -> FakeChannel:
        thread_id = kw.pop("thread_id", None) or self.snowflakes.next()
        thread = FakeChannel(
            thread_id,
            payloads.PRIVATE_THREAD if private else payloads.PUBLIC_THREAD,
            name,
            parent.guild_id,
            parent_id=parent.id,
            owner_id=owner_id,
            auto_archive_duration=auto_archive_duration,
            created_at=payloads.iso_timestamp(),
            thread_member_ids={owner_id},
            **kw,
        )
        self.channels[thread.id] = thread
        return thread

    def dm_channel_for(self, user: FakeUser) -> FakeChannel:
        """The DM channel between the bot and ``user`` (created on first use, like Discord does)."""
        for channel in self.channels.values():
            if channel.is_dm and channel.recipient_id == user.id:
                return channel
        channel = FakeChannel(self.snowflakes.next(), payloads.DM, "", recipient_id=user.id)
        self.channels[channel.id] = channel
        return channel

    def new_interaction(
        self, interaction_type: int, channel: FakeChannel, user: FakeUser, data: JSON, **kw: Any
    ) -> FakeInteraction:
        interaction = FakeInteraction(
            id=self.snowflakes.next(),
            token="fake-interaction-" + secrets.token_urlsafe(24),
            type=interaction_type,
            channel_id=channel.id,
            guild_id=channel.guild_id,
            user_id=user.id,
            data=data,
            **kw,
        )
        self.interactions[interaction.id] = interaction
        return interaction

    def new_attachment(self, channel_id: int, filename: str, content_type: str | None, data: bytes) -> FakeAttachment:
        attachment_id = self.snowflakes.next()
        url = f"{self.base_url}/attachments/{channel_id}/{attachment_id}/{filename}"
        attachment = FakeAttachment(attachment_id, filename, content_type, data, url)
        self.attachments[attachment_id] = attachment
        return attachment

    # -- lookup -------------------------------------------------------------------------------------

    def interaction_by_token(self, token: str) -> FakeInteraction | None:
        return next((i for i in self.interactions.values() if i.token == token), None)

    def channel_messages(self, channel_id: int, *, include_ephemeral: bool = False) -> list[FakeMessage]:
        return [
            m
            for m in self.messages.values()
            if m.channel_id == channel_id and not m.deleted and (include_ephemeral or not m.ephemeral)
        ]

    def member_permissions(self, guild: FakeGuild, user_id: int) -> int:
        """Guild-level permissions: @everyone plus the member's roles; owner and admins get everything."""
        if user_id == guild.owner_id:
            return payloads.ALL_PERMISSIONS
        member = guild.members.get(user_id)
        bits = guild.everyone_role.permissions
        for role_id in member.role_ids if member else []:
            bits |= guild.roles[role_id].permissions
        return payloads.ALL_PERMISSIONS if bits & payloads.ADMINISTRATOR else bits

    def bot_permissions(self, guild: FakeGuild) -> int:
        granted = (
            self.member_permissions(guild, self.bot.id)
            | payloads.DEFAULT_MEMBER_PERMISSIONS
            | payloads.MANAGE_THREADS
            | payloads.CREATE_PRIVATE_THREADS
        )
        return granted & ~self.bot_denied

    # -- payloads -----------------------------------------------------------------------------------

    def member_payload(self, member: FakeMember, *, with_user: bool = True, permissions: bool = False) -> JSON:
        guild = self.guilds[member.guild_id]
        payload = payloads.member(
            self.users[member.user_id].payload(),
            roles=member.role_ids,
            joined_at=member.joined_at,
            nick=member.nick,
            permissions=self.member_permissions(guild, member.user_id) if permissions else None,
        )
        if not with_user:
            del payload["user"]
        return payload

    def channel_payload(self, channel: FakeChannel) -> JSON:
        if channel.is_dm:
            return payloads.dm_channel(channel.id, self.users[channel.recipient_id or 0].payload())
        assert channel.guild_id is not None
        if channel.is_thread:
            assert channel.parent_id is not None and channel.owner_id is not None
            payload = payloads.thread_channel(
                channel.id,
                channel.guild_id,
                channel.parent_id,
                channel.owner_id,
                channel.name,
                private=channel.type == payloads.PRIVATE_THREAD,
                archived=channel.archived,
                locked=channel.locked,
                auto_archive_duration=channel.auto_archive_duration,
                invitable=channel.invitable,
                member_count=len(channel.thread_member_ids),
                message_count=len(self.channel_messages(channel.id)),
                created_at=channel.created_at,
            )
            if self.bot.id in channel.thread_member_ids:
                payload["member"] = {
                    "id": str(channel.id),
                    "user_id": str(self.bot.id),
                    "join_timestamp": channel.created_at,
                    "flags": 0,
                }
            return payload
        return payloads.text_channel(
            channel.id, channel.guild_id, channel.name, position=channel.position, topic=channel.topic
        )

    def guild_payload(self, guild: FakeGuild, *, include_all_members: bool) -> JSON:
        members = [
            self.member_payload(m) for m in guild.members.values() if include_all_members or m.user_id == self.bot.id
        ]
        channels = [
            self.channel_payload(c)
            for c in self.channels.values()
            if c.guild_id == guild.id and not c.is_thread and not c.deleted
        ]
        threads = [
            self.channel_payload(c)
            for c in self.channels.values()
            if c.guild_id == guild.id and c.is_thread and not c.deleted and not c.archived
        ]
        return payloads.guild(
            guild.id,
            guild.name,
            owner_id=guild.owner_id,
            roles=[r.payload() for r in guild.roles.values()],
            channels=channels,
            threads=threads,
            members=members,
            member_count=len(guild.members),
            joined_at=guild.joined_at,
            preferred_locale=guild.preferred_locale,
        )

    def message_payload(self, message: FakeMessage, *, gateway: bool = False) -> JSON:
        """The message as REST returns it; ``gateway=True`` adds ``guild_id`` and the author's ``member``."""
        channel = self.channels[message.channel_id]
        author = self.users[message.author_id]
        guild_id = channel.guild_id if gateway else None
        member_payload = None
        if gateway and channel.guild_id is not None and message.webhook_id is None:
            member = self.guilds[channel.guild_id].members.get(author.id)
            member_payload = self.member_payload(member, with_user=False) if member else None
        interaction_metadata = None
        if message.interaction_id is not None and message.interaction_id in self.interactions:
            interaction = self.interactions[message.interaction_id]
            interaction_metadata = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": self.users[interaction.user_id].payload(),
                "authorizing_integration_owners": {"0": str(interaction.guild_id or 0)},
            }
        reactions: dict[str, int] = {}
        for emoji, _user_id in message.reactions:
            reactions[emoji] = reactions.get(emoji, 0) + 1
        payload = payloads.message(
            message.id,
            message.channel_id,
            author.payload(),
            message.content,
            guild_id=guild_id,
            member_payload=member_payload,
            embeds=message.embeds,
            attachments=[a.payload() for a in message.attachments],
            components=message.components,
            flags=message.flags,
            mentions=[self.users[u].payload() for u in message.mention_ids if u in self.users],
            reactions=[
                {
                    "emoji": {"id": None, "name": emoji},
                    "count": count,
                    "count_details": {"burst": 0, "normal": count},
                    "me": (emoji, self.bot.id) in message.reactions,
                    "me_burst": False,
                    "burst_colors": [],
                }
                for emoji, count in reactions.items()
            ],
            application_id=self.application_id if message.interaction_id else None,
            webhook_id=message.webhook_id,
            interaction_metadata=interaction_metadata,
            message_reference=message.message_reference,
            edited_timestamp=message.edited_timestamp,
            timestamp=message.timestamp,
        )
        if message.thread_id is not None and message.thread_id in self.channels:
            payload["thread"] = self.channel_payload(self.channels[message.thread_id])
        return payload

    # -- messages -----------------------------------------------------------------------------------

    @contextlib.contextmanager
    def discard_on_error(self, message: FakeMessage) -> Iterator[None]:
        """Forget a just-created message if filling it in fails (Discord creates nothing on a 400)."""
        try:
            yield
        except BaseException:
            self.messages.pop(message.id, None)
            raise

    def create_message(self, channel: FakeChannel, author: FakeUser, content: str, **fields: Any) -> FakeMessage:
        mention_ids = [int(m) for m in MENTION.findall(content)]
        message = FakeMessage(
            self.snowflakes.next(),
            channel.id,
            author.id,
            content,
            mention_ids=mention_ids,
            timestamp=payloads.iso_timestamp(),
            **fields,
        )
        self.messages[message.id] = message
        return message
