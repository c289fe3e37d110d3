"""The REST half of the fake Discord: the v10 routes a text bot uses, with Discord's answers and errors.

Every request under ``/api/v10`` is recorded (method, path, query, headers, JSON body or multipart
``payload_json`` plus file parts) before it is routed. A request no route matches gets a 404 JSON
error that names it and is kept in ``unhandled``; a handler that crashes answers 400 (never 5xx:
discord.py would sleep and retry) and is kept in ``server_errors``. Side effects the real Discord has
are reproduced: posting a message also dispatches MESSAGE_CREATE, creating a thread dispatches
THREAD_CREATE, an interaction can be acknowledged once, the first follow-up after a deferred
("thinking") response replaces the loading message (unless that message was deleted: then the
follow-up is a new message, with its own visibility).
"""

from __future__ import annotations

import json
import re
import time
import traceback
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import unquote

from aiohttp import BodyPartReader, web

from tests.fake_discord import payloads
from tests.fake_discord.gateway import Gateway
from tests.fake_discord.payloads import JSON
from tests.fake_discord.world import FakeChannel, FakeInteraction, FakeMessage, RecordedRequest, UploadedFile, World

API_PREFIX = "/api/v10"
MAX_CONTENT = 2000
NONCE_WINDOW = 300.0
"""Seconds within which Discord returns the first message for a repeated `enforce_nonce`
(it documents "the past few minutes")."""
MAX_EMBEDS = 10

Handler = Callable[..., Awaitable[tuple[int, Any]]]


async def _ignore(request: RecordedRequest) -> None:
    return None


def json_response(status: int, body: Any) -> web.Response:
    """A response as Discord sends it: discord.py parses JSON only if Content-Type is exactly application/json."""
    if status == 204:
        return web.Response(status=204)
    return web.Response(status=status, body=json.dumps(body).encode(), headers={"Content-Type": "application/json"})


MANAGE_MESSAGES = 1 << 13
"""Needed to delete another user's message."""


class ApiError(Exception):
    """A Discord JSON error: HTTP ``status`` with body ``{"code": code, "message": message}``."""

    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def unknown_channel() -> ApiError:
    return ApiError(404, 10003, "Unknown Channel")


def unknown_message() -> ApiError:
    return ApiError(404, 10008, "Unknown Message")


def unknown_webhook() -> ApiError:
    return ApiError(404, 10015, "Unknown Webhook")


def unknown_interaction() -> ApiError:
    return ApiError(404, 10062, "Unknown interaction")


def invalid_body(detail: str) -> ApiError:
    return ApiError(400, 50035, f"Invalid Form Body: {detail}")


class RestApi:
    """Routes recorded requests to handlers that read and change the :class:`World`."""

    def __init__(self, world: World, gateway: Gateway, *, echo_bot_messages: bool, ack_deadline: float | None) -> None:
        self.world = world
        self.gateway = gateway
        self.echo_bot_messages = echo_bot_messages
        self.ack_deadline = ack_deadline
        self.unhandled: list[RecordedRequest] = []
        self.server_errors: list[tuple[RecordedRequest, str]] = []
        self.new_request: Callable[[RecordedRequest], Awaitable[None]] = _ignore
        self.in_flight = 0
        """Requests being read or answered right now (`FakeDiscord.wait_until_idle` waits for none)."""
        snowflake = r"(\d+)"
        table: list[tuple[str, str, Handler]] = [
            ("GET", "/users/@me", self.get_me),
            ("GET", "/users/{id}", self.get_user),
            ("GET", "/oauth2/applications/@me", self.get_application),
            ("GET", "/applications/@me", self.get_application),
            ("GET", "/gateway", self.get_gateway),
            ("GET", "/gateway/bot", self.get_gateway),
            ("POST", "/users/@me/channels", self.create_dm),
            ("GET", "/guilds/{id}", self.get_guild),
            ("GET", "/guilds/{id}/channels", self.get_guild_channels),
            ("GET", "/guilds/{id}/members/{id}", self.get_member),
            ("GET", "/channels/{id}", self.get_channel),
            ("PATCH", "/channels/{id}", self.edit_channel),
            ("DELETE", "/channels/{id}", self.delete_channel),
            ("POST", "/channels/{id}/typing", self.typing),
            ("GET", "/channels/{id}/messages", self.get_history),
            ("POST", "/channels/{id}/messages", self.create_message),
            ("GET", "/channels/{id}/messages/{id}", self.get_message),
            ("PATCH", "/channels/{id}/messages/{id}", self.edit_message),
            ("DELETE", "/channels/{id}/messages/{id}", self.delete_message),
            ("PUT", "/channels/{id}/messages/{id}/reactions/([^/]+)/@me", self.add_reaction),
            ("DELETE", "/channels/{id}/messages/{id}/reactions/([^/]+)/@me", self.remove_reaction),
            ("POST", "/channels/{id}/threads", self.create_thread),
            ("POST", "/channels/{id}/messages/{id}/threads", self.create_thread_from_message),
            ("PUT", "/channels/{id}/thread-members/(@me|\\d+)", self.add_thread_member),
            ("DELETE", "/channels/{id}/thread-members/(@me|\\d+)", self.remove_thread_member),
            ("GET", "/applications/{id}/commands", self.get_commands),
            ("PUT", "/applications/{id}/commands", self.put_commands),
            ("GET", "/applications/{id}/guilds/{id}/commands", self.get_commands),
            ("PUT", "/applications/{id}/guilds/{id}/commands", self.put_commands),
            ("POST", "/interactions/{id}/([^/]+)/callback", self.interaction_callback),
            ("POST", "/webhooks/{id}/([^/]+)", self.create_followup),
            ("GET", "/webhooks/{id}/([^/]+)/messages/(@original|\\d+)", self.get_webhook_message),
            ("PATCH", "/webhooks/{id}/([^/]+)/messages/(@original|\\d+)", self.edit_webhook_message),
            ("DELETE", "/webhooks/{id}/([^/]+)/messages/(@original|\\d+)", self.delete_webhook_message),
        ]
        self.routes: list[tuple[str, re.Pattern[str], Handler]] = [
            (method, re.compile(pattern.replace("{id}", snowflake)), handler) for method, pattern, handler in table
        ]

    # -- plumbing -----------------------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.StreamResponse:
        self.in_flight += 1
        try:
            recorded = await self._record(request)
            try:
                status, body = await self._route(recorded)
            except ApiError as exc:
                status, body = exc.status, payloads.error(exc.code, exc.message)
            except Exception:
                status = 400
                body = payloads.error(0, f"fake Discord crashed on {recorded.method} {recorded.path}")
                self.server_errors.append((recorded, traceback.format_exc()))
            recorded.status, recorded.response = status, body
        finally:
            self.in_flight -= 1
        await self.new_request(recorded)
        return json_response(status, body)

    async def _record(self, request: web.Request) -> RecordedRequest:
        body: Any = None
        files: list[UploadedFile] = []
        if request.content_type == "multipart/form-data":
            reader = await request.multipart()
            async for part in reader:
                if not isinstance(part, BodyPartReader):
                    continue
                data = await part.read()
                name = part.name or ""
                if part.filename is None and name == "payload_json":
                    body = json.loads(data)
                else:
                    content_type = part.headers.get("Content-Type")
                    files.append(UploadedFile(name, part.filename or "", content_type, bytes(data)))
        elif request.can_read_body:
            raw = await request.read()
            if raw:
                body = json.loads(raw) if request.content_type == "application/json" else raw.decode(errors="replace")
        path = request.path.removeprefix(API_PREFIX)
        recorded = RecordedRequest(
            index=len(self.world.requests),
            method=request.method,
            path=path,
            query=dict(request.query),
            headers=dict(request.headers),
            json=body,
            files=files,
        )
        self.world.requests.append(recorded)
        return recorded

    async def _route(self, req: RecordedRequest) -> tuple[int, Any]:
        for method, pattern, handler in self.routes:
            match = pattern.fullmatch(req.path)
            if match and method == req.method:
                return await handler(req, *match.groups())
        self.unhandled.append(req)
        return 404, payloads.error(0, f"fake Discord has no route for {req.method} {API_PREFIX}{req.path}")

    def channel(self, channel_id: str | int) -> FakeChannel:
        channel = self.world.channels.get(int(channel_id))
        if channel is None or channel.deleted:
            raise unknown_channel()
        return channel

    def message(self, channel: FakeChannel, message_id: str | int) -> FakeMessage:
        message = self.world.messages.get(int(message_id))
        if message is None or message.deleted or message.channel_id != channel.id:
            raise unknown_message()
        return message

    async def dispatch_message(self, event: str, message: FakeMessage) -> None:
        if message.ephemeral or message.loading:
            return
        if event == "MESSAGE_CREATE" and message.author_id == self.world.bot.id and not self.echo_bot_messages:
            return
        payload = self.world.message_payload(message, gateway=True)
        if event == "MESSAGE_CREATE" and message.nonce is not None:
            payload["nonce"] = message.nonce
        await self.gateway.dispatch(event, payload)

    # -- users, application, gateway ----------------------------------------------------------------

    async def get_me(self, req: RecordedRequest) -> tuple[int, Any]:
        if not req.headers.get("Authorization", "").startswith("Bot "):
            raise ApiError(401, 0, "401: Unauthorized")
        return 200, {**self.world.bot.payload(), "verified": True, "mfa_enabled": False, "email": None}

    async def get_user(self, req: RecordedRequest, user_id: str) -> tuple[int, Any]:
        user = self.world.users.get(int(user_id))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return 200, user.payload()

    async def get_application(self, req: RecordedRequest) -> tuple[int, Any]:
        world = self.world
        return 200, payloads.application(world.application_id, world.bot.name, world.owner.payload())

    async def get_gateway(self, req: RecordedRequest) -> tuple[int, Any]:
        return 200, {
            "url": self.gateway.ws_url,
            "shards": 1,
            "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1},
        }

    async def create_dm(self, req: RecordedRequest) -> tuple[int, Any]:
        recipient = self.world.users.get(int((req.json or {}).get("recipient_id", 0)))
        if recipient is None:
            raise ApiError(400, 50033, "Invalid Recipients")
        return 200, self.world.channel_payload(self.world.dm_channel_for(recipient))

    # -- guilds -------------------------------------------------------------------------------------

    async def get_guild(self, req: RecordedRequest, guild_id: str) -> tuple[int, Any]:
        guild = self.world.guilds.get(int(guild_id))
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        payload = self.world.guild_payload(guild, include_all_members=False)
        for key in ("members", "channels", "threads", "presences", "voice_states", "joined_at", "member_count"):
            payload.pop(key, None)
        return 200, payload

    async def get_guild_channels(self, req: RecordedRequest, guild_id: str) -> tuple[int, Any]:
        guild = self.world.guilds.get(int(guild_id))
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        channels = self.world.channels.values()
        return 200, [
            self.world.channel_payload(c)
            for c in channels
            if c.guild_id == guild.id and not c.is_thread and not c.deleted
        ]

    async def get_member(self, req: RecordedRequest, guild_id: str, user_id: str) -> tuple[int, Any]:
        guild = self.world.guilds.get(int(guild_id))
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        member = guild.members.get(int(user_id))
        if member is None:
            raise ApiError(404, 10007, "Unknown Member")
        return 200, self.world.member_payload(member)

    # -- channels -----------------------------------------------------------------------------------

    async def get_channel(self, req: RecordedRequest, channel_id: str) -> tuple[int, Any]:
        return 200, self.world.channel_payload(self.channel(channel_id))

    async def edit_channel(self, req: RecordedRequest, channel_id: str) -> tuple[int, Any]:
        channel = self.channel(channel_id)
        body: JSON = req.json or {}
        if "name" in body:
            channel.name = str(body["name"])
        if "topic" in body and not channel.is_thread:
            channel.topic = body["topic"]
        if channel.is_thread:
            for key in ("archived", "locked", "invitable"):
                if key in body:
                    setattr(channel, key, bool(body[key]))
            if "auto_archive_duration" in body:
                duration = int(body["auto_archive_duration"])
                if duration not in (60, 1440, 4320, 10080):
                    raise invalid_body(f"auto_archive_duration {duration} is not one of 60, 1440, 4320, 10080")
                channel.auto_archive_duration = duration
        payload = self.world.channel_payload(channel)
        await self.gateway.dispatch("THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE", payload)
        return 200, payload

    async def delete_channel(self, req: RecordedRequest, channel_id: str) -> tuple[int, Any]:
        """Delete a channel or thread: 200 with the channel object, then CHANNEL_DELETE / THREAD_DELETE.
        A thread needs Manage Threads, a channel Manage Channels (403 / 50013 without)."""
        channel = self.channel(channel_id)
        if channel.is_dm:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        guild = self.world.guilds.get(channel.guild_id or 0)
        needed = payloads.MANAGE_THREADS if channel.is_thread else payloads.MANAGE_CHANNELS
        if guild is not None and not self.world.bot_permissions(guild) & needed:
            raise ApiError(403, 50013, "Missing Permissions")
        channel.deleted = True
        payload = self.world.channel_payload(channel)
        await self.gateway.dispatch("THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE", payload)
        return 200, payload

    async def typing(self, req: RecordedRequest, channel_id: str) -> tuple[int, Any]:
        self.channel(channel_id)
        return 204, None

    async def get_history(self, req: RecordedRequest, channel_id: str) -> tuple[int, Any]:
        channel = self.channel(channel_id)
        limit = int(req.query.get("limit", "50"))
        messages = self.world.channel_messages(channel.id)
        if "before" in req.query:
            messages = [m for m in messages if m.id < int(req.query["before"])]
        if "after" in req.query:
            messages = [m for m in messages if m.id > int(req.query["after"])]
        newest_first = sorted(messages, key=lambda m: m.id, reverse=True)[:limit]
        return 200, [self.world.message_payload(m) for m in newest_first]

    def _check_can_post(self, channel: FakeChannel) -> None:
        if not channel.bot_can_send:
            raise ApiError(403, 50013, "Missing Permissions")
        if channel.is_dm:
            recipient = self.world.users.get(channel.recipient_id or 0)
            if recipient is None or recipient.dms_closed or recipient.bot:
                raise ApiError(403, 50007, "Cannot send messages to this user")
        if channel.is_thread and channel.archived:
            if channel.locked:
                raise ApiError(400, 50083, "Thread is archived")
            channel.archived = False  # sending to an unlocked archived thread unarchives it

    async def create_message(self, req: RecordedRequest, channel_id: str) -> tuple[int, Any]:
        channel = self.channel(channel_id)
        self._check_can_post(channel)
        body: JSON = req.json or {}
        nonce = body.get("nonce")
        if nonce is not None and body.get("enforce_nonce"):
            # Discord: a nonce seen from the same author in the last few minutes returns the
            # message it created instead of creating another one.
            seen = self.world.nonces.get((channel.id, str(nonce)))
            if seen is not None and time.monotonic() - seen[1] < NONCE_WINDOW:
                first = self.world.messages[seen[0]]
                if not first.deleted:
                    return 200, self._created_payload(first)
        message = self.world.create_message(channel, self.world.bot, "")
        with self.world.discard_on_error(message):
            self._apply_message_body(message, body, req.files, new=True)
        if body.get("message_reference"):
            reference = {k: str(v) if k.endswith("_id") else v for k, v in body["message_reference"].items()}
            reference.setdefault("channel_id", str(channel.id))
            if channel.guild_id is not None:
                reference.setdefault("guild_id", str(channel.guild_id))
            message.message_reference = reference
        if nonce is not None:
            message.nonce = str(nonce)
            if body.get("enforce_nonce"):
                self.world.nonces[(channel.id, str(nonce))] = (message.id, time.monotonic())
        await self.dispatch_message("MESSAGE_CREATE", message)
        return 200, self._created_payload(message)

    def _created_payload(self, message: FakeMessage) -> JSON:
        """A message as its create response carries it: with the nonce it was sent with."""
        payload = self.world.message_payload(message)
        if message.nonce is not None:
            payload["nonce"] = message.nonce
        return payload

    async def get_message(self, req: RecordedRequest, channel_id: str, message_id: str) -> tuple[int, Any]:
        channel = self.channel(channel_id)
        return 200, self.world.message_payload(self.message(channel, message_id))

    async def edit_message(self, req: RecordedRequest, channel_id: str, message_id: str) -> tuple[int, Any]:
        channel = self.channel(channel_id)
        message = self.message(channel, message_id)
        if message.author_id != self.world.bot.id:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        self._apply_message_body(message, req.json or {}, req.files, new=False)
        await self.dispatch_message("MESSAGE_UPDATE", message)
        return 200, self.world.message_payload(message)

    async def delete_message(self, req: RecordedRequest, channel_id: str, message_id: str) -> tuple[int, Any]:
        channel = self.channel(channel_id)
        message = self.message(channel, message_id)
        guild = self.world.guilds.get(channel.guild_id or 0)
        others = message.author_id != self.world.bot.id and guild is not None
        if others and guild is not None and not self.world.bot_permissions(guild) & MANAGE_MESSAGES:
            raise ApiError(403, 50013, "Missing Permissions")
        message.deleted = True
        data: JSON = {"id": str(message.id), "channel_id": str(channel.id)}
        if channel.guild_id is not None:
            data["guild_id"] = str(channel.guild_id)
        await self.gateway.dispatch("MESSAGE_DELETE", data)
        return 204, None

    async def add_reaction(self, req: RecordedRequest, channel_id: str, message_id: str, emoji: str) -> tuple[int, Any]:
        message = self.message(self.channel(channel_id), message_id)
        key = (unquote(emoji), self.world.bot.id)
        if key not in message.reactions:
            message.reactions.append(key)
        return 204, None

    async def remove_reaction(
        self, req: RecordedRequest, channel_id: str, message_id: str, emoji: str
    ) -> tuple[int, Any]:
        message = self.message(self.channel(channel_id), message_id)
        key = (unquote(emoji), self.world.bot.id)
        if key in message.reactions:
            message.reactions.remove(key)
        return 204, None

    # -- threads ------------------------------------------------------------------------------------

    async def create_thread(self, req: RecordedRequest, channel_id: str) -> tuple[int, Any]:
        parent = self.channel(channel_id)
        body: JSON = req.json or {}
        thread_type = int(body.get("type", payloads.PRIVATE_THREAD))
        return await self._start_thread(parent, body, private=thread_type == payloads.PRIVATE_THREAD)

    async def create_thread_from_message(
        self, req: RecordedRequest, channel_id: str, message_id: str
    ) -> tuple[int, Any]:
        parent = self.channel(channel_id)
        message = self.message(parent, message_id)
        if message.thread_id is not None:
            raise ApiError(400, 160004, "A thread has already been created for this message")
        status, payload = await self._start_thread(parent, req.json or {}, private=False, thread_id=message.id)
        message.thread_id = message.id
        return status, payload

    async def _start_thread(
        self, parent: FakeChannel, body: JSON, *, private: bool, thread_id: int | None = None
    ) -> tuple[int, Any]:
        if parent.is_dm or parent.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        guild = self.world.guilds.get(parent.guild_id or 0)
        needed = payloads.CREATE_PRIVATE_THREADS if private else payloads.CREATE_PUBLIC_THREADS
        if guild is not None and not self.world.bot_permissions(guild) & needed:
            raise ApiError(403, 50013, "Missing Permissions")
        name = str(body.get("name", "")).strip()
        if not 1 <= len(name) <= 100:
            raise invalid_body("name must be between 1 and 100 characters")
        duration = int(body.get("auto_archive_duration", 1440))
        if duration not in (60, 1440, 4320, 10080):
            raise invalid_body(f"auto_archive_duration {duration} is not one of 60, 1440, 4320, 10080")
        thread = self.world.add_thread(
            parent,
            name,
            owner_id=self.world.bot.id,
            private=private,
            auto_archive_duration=duration,
            invitable=bool(body.get("invitable", True)),
            thread_id=thread_id,
        )
        payload = self.world.channel_payload(thread)
        await self.gateway.dispatch("THREAD_CREATE", {**payload, "newly_created": True})
        return 201, payload

    async def add_thread_member(self, req: RecordedRequest, channel_id: str, user: str) -> tuple[int, Any]:
        thread = self.channel(channel_id)
        if not thread.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        user_id = self.world.bot.id if user == "@me" else int(user)
        if user_id not in self.world.users:
            raise ApiError(404, 10013, "Unknown User")
        thread.thread_member_ids.add(user_id)
        return 204, None

    async def remove_thread_member(self, req: RecordedRequest, channel_id: str, user: str) -> tuple[int, Any]:
        thread = self.channel(channel_id)
        thread.thread_member_ids.discard(self.world.bot.id if user == "@me" else int(user))
        return 204, None

    # -- application commands -----------------------------------------------------------------------

    def _check_application(self, application_id: str) -> None:
        if int(application_id) != self.world.application_id:
            raise ApiError(403, 50001, "Missing Access")

    async def get_commands(self, req: RecordedRequest, application_id: str, guild_id: str = "") -> tuple[int, Any]:
        self._check_application(application_id)
        if guild_id:
            return 200, self.world.guild_commands.get(int(guild_id), [])
        return 200, self.world.global_commands

    async def put_commands(self, req: RecordedRequest, application_id: str, guild_id: str = "") -> tuple[int, Any]:
        self._check_application(application_id)
        if guild_id and int(guild_id) not in self.world.guilds:
            raise ApiError(404, 10004, "Unknown Guild")
        previous = self.world.guild_commands.get(int(guild_id), []) if guild_id else self.world.global_commands
        old_ids = {(c["name"], c.get("type", 1)): c["id"] for c in previous}
        stored: list[JSON] = []
        for command in req.json or []:
            key = (command["name"], command.get("type", 1))
            stored_command: JSON = {
                "type": 1,
                "description": "",
                "options": [],
                "default_member_permissions": None,
                "dm_permission": True,
                "nsfw": False,
                **command,
                "id": old_ids.get(key) or str(self.world.snowflakes.next()),
                "application_id": str(self.world.application_id),
                "version": str(self.world.snowflakes.next()),
            }
            if guild_id:
                stored_command["guild_id"] = guild_id
            stored.append(stored_command)
        if guild_id:
            self.world.guild_commands[int(guild_id)] = stored
        else:
            self.world.global_commands = stored
        return 200, stored

    # -- interactions -------------------------------------------------------------------------------

    def _interaction_for_webhook(self, application_id: str, token: str) -> FakeInteraction:
        interaction = self.world.interaction_by_token(token)
        if interaction is None or int(application_id) != self.world.application_id:
            raise unknown_webhook()
        return interaction

    async def interaction_callback(self, req: RecordedRequest, interaction_id: str, token: str) -> tuple[int, Any]:
        interaction = self.world.interactions.get(int(interaction_id))
        if interaction is None or interaction.token != token:
            raise unknown_interaction()
        interaction.requests.append(req)
        if interaction.acknowledged_at is None:
            interaction.acknowledged_at = time.monotonic()
        if interaction.acknowledged:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        if self.ack_deadline is not None and time.monotonic() - interaction.created_at > self.ack_deadline:
            raise unknown_interaction()  # Discord gives up on an interaction not acknowledged within 3 s
        body: JSON = req.json or {}
        callback_type = int(body.get("type", 0))
        data: JSON = body.get("data") or {}
        _check_callback_allowed(interaction.type, callback_type)
        channel = self.world.channels[interaction.channel_id]
        message: FakeMessage | None = None
        if callback_type in (4, 5):
            message = self.world.create_message(channel, self.world.bot, "", interaction_id=interaction.id)
            message.flags = int(data.get("flags") or 0) & payloads.FLAG_EPHEMERAL
            if callback_type == 4:
                with self.world.discard_on_error(message):
                    self._apply_message_body(message, data, req.files, new=True)
            else:
                message.flags |= payloads.FLAG_LOADING
            interaction.original_message_id = message.id
        elif callback_type in (6, 7):
            message = self.world.messages.get(interaction.message_id or 0)
            if message is None:
                raise invalid_body("this interaction has no message to update")
            if callback_type == 7:
                self._apply_message_body(message, data, req.files, new=False)
            interaction.original_message_id = message.id
        interaction.callback_type = callback_type
        interaction.callback_data = data
        if message is not None and callback_type == 4:
            await self.dispatch_message("MESSAGE_CREATE", message)
        elif message is not None and callback_type == 7:
            await self.dispatch_message("MESSAGE_UPDATE", message)
        response: JSON = {
            "interaction": {
                "id": str(interaction.id),
                "type": interaction.type,
                "response_message_loading": callback_type == 5,
                "response_message_ephemeral": bool(message and message.ephemeral),
            }
        }
        if message is not None:
            response["interaction"]["response_message_id"] = str(message.id)
            response["resource"] = {"type": callback_type, "message": self.world.message_payload(message)}
        elif callback_type in (8, 9):
            response["resource"] = {"type": callback_type}
        return 200, response

    async def create_followup(self, req: RecordedRequest, application_id: str, token: str) -> tuple[int, Any]:
        interaction = self._interaction_for_webhook(application_id, token)
        interaction.requests.append(req)
        if not interaction.acknowledged:
            raise unknown_webhook()
        body: JSON = req.json or {}
        original = self.world.messages.get(interaction.original_message_id or 0)
        if (
            interaction.callback_type == 5
            and original is not None
            and original.loading
            and not original.deleted
            and not interaction.followup_ids
        ):
            # Discord: the first follow-up after a deferred response edits the "thinking" message.
            original.flags &= ~payloads.FLAG_LOADING
            self._apply_message_body(original, body, req.files, new=True)
            interaction.followup_ids.append(original.id)
            await self.dispatch_message("MESSAGE_CREATE", original)
            return 200, self.world.message_payload(original)
        channel = self.world.channels[interaction.channel_id]
        message = self.world.create_message(
            channel, self.world.bot, "", interaction_id=interaction.id, webhook_id=self.world.application_id
        )
        message.flags = int(body.get("flags") or 0) & payloads.FLAG_EPHEMERAL
        with self.world.discard_on_error(message):
            self._apply_message_body(message, body, req.files, new=True)
        interaction.followup_ids.append(message.id)
        await self.dispatch_message("MESSAGE_CREATE", message)
        if req.query.get("wait") in ("1", "true", "True"):
            return 200, self.world.message_payload(message)
        return 204, None

    def _webhook_message(self, interaction: FakeInteraction, message_id: str) -> FakeMessage:
        if message_id == "@original":
            if not interaction.acknowledged or interaction.original_message_id is None or interaction.original_deleted:
                raise unknown_message()
            return self.world.messages[interaction.original_message_id]
        message = self.world.messages.get(int(message_id))
        if message is None or message.deleted or message.id not in interaction.followup_ids:
            raise unknown_message()
        return message

    async def get_webhook_message(
        self, req: RecordedRequest, application_id: str, token: str, message_id: str
    ) -> tuple[int, Any]:
        interaction = self._interaction_for_webhook(application_id, token)
        interaction.requests.append(req)
        return 200, self.world.message_payload(self._webhook_message(interaction, message_id))

    async def edit_webhook_message(
        self, req: RecordedRequest, application_id: str, token: str, message_id: str
    ) -> tuple[int, Any]:
        interaction = self._interaction_for_webhook(application_id, token)
        interaction.requests.append(req)
        message = self._webhook_message(interaction, message_id)
        was_loading = message.loading
        message.flags &= ~payloads.FLAG_LOADING
        self._apply_message_body(message, req.json or {}, req.files, new=False)
        await self.dispatch_message("MESSAGE_CREATE" if was_loading else "MESSAGE_UPDATE", message)
        return 200, self.world.message_payload(message)

    async def delete_webhook_message(
        self, req: RecordedRequest, application_id: str, token: str, message_id: str
    ) -> tuple[int, Any]:
        interaction = self._interaction_for_webhook(application_id, token)
        interaction.requests.append(req)
        message = self._webhook_message(interaction, message_id)
        message.deleted = True
        if message_id == "@original":
            interaction.original_deleted = True
        return 204, None

    # -- message bodies -----------------------------------------------------------------------------

    def _apply_message_body(self, message: FakeMessage, body: JSON, files: list[UploadedFile], *, new: bool) -> None:
        """Apply a create/edit body (content, embeds, components, attachments) the way Discord does."""
        if "content" in body:
            content = body["content"]
            message.content = "" if content is None else str(content)
            message.mention_ids = [int(m) for m in re.findall(r"<@!?(\d+)>", message.content)]
            if new:
                message.pinged_ids = _pinged(message.mention_ids, body.get("allowed_mentions"))
        if "embeds" in body:
            message.embeds = list(body["embeds"] or [])
        elif "embed" in body:
            message.embeds = [body["embed"]] if body["embed"] else []
        if "components" in body:
            message.components = list(body["components"] or [])
        if "flags" in body and body["flags"] is not None:
            keep = message.flags & (payloads.FLAG_EPHEMERAL | payloads.FLAG_LOADING)
            message.flags = keep | (int(body["flags"]) & ~(payloads.FLAG_EPHEMERAL | payloads.FLAG_LOADING))
        by_field = {f.field: f for f in files}
        if "attachments" in body:
            kept = []
            for entry in body["attachments"] or []:
                field = f"files[{entry['id']}]"
                if field in by_field:
                    upload = by_field.pop(field)
                    attachment = self.world.new_attachment(
                        message.channel_id, entry.get("filename") or upload.filename, upload.content_type, upload.data
                    )
                    attachment.description = entry.get("description")
                    kept.append(attachment)
                else:
                    kept.extend(a for a in message.attachments if a.id == int(entry["id"]))
            message.attachments = kept
        for upload in by_field.values():  # files without an attachments entry are appended
            message.attachments.append(
                self.world.new_attachment(message.channel_id, upload.filename, upload.content_type, upload.data)
            )
        if not new:
            message.edited = True
            message.edited_timestamp = payloads.iso_timestamp()
        _validate_message(message)


def _validate_message(message: FakeMessage) -> None:
    if len(message.content) > MAX_CONTENT:
        raise invalid_body(f"content: must be {MAX_CONTENT} or fewer in length (got {len(message.content)})")
    if len(message.embeds) > MAX_EMBEDS:
        raise invalid_body(f"embeds: must be {MAX_EMBEDS} or fewer in length")
    if not (message.content or message.embeds or message.attachments or message.components or message.loading):
        raise ApiError(400, 50006, "Cannot send an empty message")


def _pinged(mentioned: list[int], allowed: JSON | None) -> list[int]:
    """Who Discord notifies of a new message's user mentions: everyone mentioned, unless
    `allowed_mentions` narrows it (`parse: ["users"]` keeps all, `users: [...]` only those)."""
    if allowed is None:
        return list(mentioned)
    if "users" in (allowed.get("parse") or []):
        return list(mentioned)
    chosen = {int(u) for u in allowed.get("users") or []}
    return [u for u in mentioned if u in chosen]


def _check_callback_allowed(interaction_type: int, callback_type: int) -> None:
    allowed = {
        payloads.INTERACTION_APPLICATION_COMMAND: {4, 5, 9},
        payloads.INTERACTION_MESSAGE_COMPONENT: {4, 5, 6, 7, 9},
        payloads.INTERACTION_AUTOCOMPLETE: {8},
        payloads.INTERACTION_MODAL_SUBMIT: {4, 5, 6, 7},
    }[interaction_type]
    if callback_type not in allowed:
        raise invalid_body(
            f"interaction response type {callback_type} is not valid for interaction type {interaction_type}"
        )
