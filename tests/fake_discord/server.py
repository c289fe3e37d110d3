"""FakeDiscord: an aiohttp server on 127.0.0.1 speaking Discord's gateway and REST API, and its test API.

The real, unmodified bot connects to it once ``discord.http.Route.BASE`` and
``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` point at it (see :mod:`bot_wiring`). Tests then
play the users' side: they post messages, invoke slash commands, click buttons and submit selects
and modals as Discord would deliver them (gateway DISPATCH events with real payloads), and assert on
what the bot did, either as raw recorded HTTP requests or as the resulting messages.

Interactions are built from the commands the bot synced (``PUT .../commands``), so a test can only
invoke what a user could: a command the bot did not sync, an option it does not declare, a value
outside its choices, or a button that is not on the message is refused with an exception in the
test, before anything is sent.

World changes made with the synchronous ``add_*`` helpers while the bot is connected are announced to
it (GUILD_CREATE, CHANNEL_CREATE, GUILD_MEMBER_ADD) before the next event a test sends, or at
``await fake.flush_events()``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import re
import socket
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

from aiohttp import web

from tests.fake_discord import payloads
from tests.fake_discord.gateway import Gateway
from tests.fake_discord.payloads import JSON
from tests.fake_discord.rest import API_PREFIX, RestApi, json_response
from tests.fake_discord.world import (
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeInteraction,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    RecordedRequest,
    World,
)

T = TypeVar("T")

DEFAULT_TIMEOUT = 30.0
"""How long a wait for the bot may last before the test fails: it only bounds a failure (every
wait returns as soon as its condition holds), so it is generous enough that a loaded machine
never turns a slow answer into a failure."""
IDLE_TURNS = 5
"""Turns of the event loop a watched client must stay idle for ``wait_until_idle``: what one
turn starts (a task, a callback) shows as busy in the next."""
IDLE_POLL = 0.002
"""How often ``wait_until_idle`` looks again while a watched client is busy."""

OPTION_SUBCOMMAND = 1
OPTION_SUBCOMMAND_GROUP = 2
OPTION_STRING = 3
OPTION_INTEGER = 4
OPTION_BOOLEAN = 5
OPTION_USER = 6
OPTION_CHANNEL = 7
OPTION_ROLE = 8
OPTION_MENTIONABLE = 9
OPTION_NUMBER = 10
OPTION_ATTACHMENT = 11


@dataclasses.dataclass(frozen=True)
class Mark:
    """A point in time: requests and messages after it are "new" for ``wait_for_*(since=mark)``."""

    request_index: int
    snowflake: int


class FakeDiscord:
    """A fake Discord for end-to-end tests. Use as ``async with FakeDiscord() as fake: ...``.

    With ``populate=True`` (the default) the world starts with one guild (``fake.guild``) holding a
    text channel ``#general`` (``fake.channel``) and three members ``alice``, ``bob``, ``carol``
    (``fake.players``), plus the bot and the application owner. ``echo_bot_messages`` makes messages
    the bot posts come back to it as MESSAGE_CREATE, as on the real Discord. ``ack_deadline`` is how
    long an interaction waits for its first callback before Discord forgets it (404 / 10062); None
    disables the check. It can be changed later through ``fake.ack_deadline``.
    """

    def __init__(
        self,
        *,
        populate: bool = True,
        echo_bot_messages: bool = True,
        ack_deadline: float | None = 3.0,
        bot_name: str = "Boneyard Test",
    ) -> None:
        self.world = World(bot_name=bot_name)
        self.gateway = Gateway(self.world)
        self.rest = RestApi(self.world, self.gateway, echo_bot_messages=echo_bot_messages, ack_deadline=ack_deadline)
        self.rest.new_request = self._on_request
        self._changed = asyncio.Condition()
        self._pending_events: list[tuple[str, JSON]] = []
        self._clients: list[Callable[[], bool]] = []
        self._runner: web.AppRunner | None = None
        self.base_url = ""
        self.ws_url = ""
        self.players: tuple[FakeUser, ...] = ()
        self._default_guild: FakeGuild | None = None
        self._default_channel: FakeChannel | None = None
        if populate:
            guild = self.add_guild("Domino Hall")
            self._default_guild = guild
            self._default_channel = self.add_text_channel(guild, "general")
            self.players = tuple(self.add_member(guild, self.add_user(name)) for name in ("alice", "bob", "carol"))

    # -- lifecycle ----------------------------------------------------------------------------------

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def start(self) -> None:
        """Listen on 127.0.0.1 on a free port; sets ``base_url`` (for DISCORD_API_BASE) and ``ws_url``."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/", self.gateway.handle)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._download)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self.rest.handle)
        app.router.add_route("*", "/{tail:.*}", self._outside_api)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        site = web.SockSite(self._runner, sock)
        await site.start()
        port = sock.getsockname()[1]
        self.base_url = f"http://127.0.0.1:{port}"
        self.ws_url = f"ws://127.0.0.1:{port}/"
        self.gateway.ws_url = self.ws_url
        self.world.base_url = self.base_url

    async def close(self) -> None:
        """Close gateway connections and stop the server (close the bot first, or it will reconnect)."""
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def environment(self) -> dict[str, str]:
        """Environment for a bot configured from the environment: ``{"DISCORD_API_BASE": base_url}``."""
        return {"DISCORD_API_BASE": self.base_url}

    # -- the world ----------------------------------------------------------------------------------

    @property
    def bot(self) -> FakeUser:
        """The bot's user (its id is also the application id)."""
        return self.world.bot

    @property
    def application_id(self) -> int:
        return self.world.application_id

    @property
    def guild(self) -> FakeGuild:
        """The default guild (``populate=True`` only)."""
        if self._default_guild is None:
            raise RuntimeError("FakeDiscord(populate=False) has no default guild")
        return self._default_guild

    @property
    def channel(self) -> FakeChannel:
        """The default text channel ``#general`` (``populate=True`` only)."""
        if self._default_channel is None:
            raise RuntimeError("FakeDiscord(populate=False) has no default channel")
        return self._default_channel

    @property
    def ack_deadline(self) -> float | None:
        return self.rest.ack_deadline

    @ack_deadline.setter
    def ack_deadline(self, seconds: float | None) -> None:
        self.rest.ack_deadline = seconds

    @property
    def requests(self) -> list[RecordedRequest]:
        """Every HTTP request the bot made, in order."""
        return self.world.requests

    @property
    def unhandled(self) -> list[RecordedRequest]:
        """Requests no route matched (answered 404); a healthy test ends with this empty."""
        return self.rest.unhandled

    @property
    def server_errors(self) -> list[tuple[RecordedRequest, str]]:
        """Requests whose fake handler crashed (answered 400), with the traceback."""
        return self.rest.server_errors

    def add_user(self, name: str, *, bot: bool = False) -> FakeUser:
        return self.world.add_user(name, bot=bot)

    def add_guild(self, name: str, *, owner: FakeUser | None = None, shard: tuple[int, int] | None = None) -> FakeGuild:
        """A new guild; ``shard=(id, count)`` gives it an id that Discord routes to that shard."""
        guild = self.world.add_guild(name, owner=owner, shard=shard)
        sessions = self.gateway.active_sessions
        if sessions:
            self._pending_events.append(("GUILD_CREATE", self.gateway.guild_create_payload(guild, sessions[0])))
        return guild

    def add_role(self, guild: FakeGuild, name: str, *, permissions: int) -> FakeRole:
        role = self.world.add_role(guild, name, permissions=permissions)
        self._announce("GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role.payload()})
        return role

    def add_member(
        self, guild: FakeGuild, user: FakeUser, *, roles: Sequence[FakeRole] = (), nick: str | None = None
    ) -> FakeUser:
        """Make ``user`` a member of ``guild``; returns the user for chaining."""
        member = self.world.add_member(guild, user, roles=list(roles), nick=nick)
        self._announce("GUILD_MEMBER_ADD", {**self.world.member_payload(member), "guild_id": str(guild.id)})
        return user

    def add_text_channel(self, guild: FakeGuild, name: str, *, topic: str | None = None) -> FakeChannel:
        channel = self.world.add_text_channel(guild, name, topic=topic)
        self._announce("CHANNEL_CREATE", self.world.channel_payload(channel))
        return channel

    def deny_bot(self, permissions: int, denied: bool = True) -> None:
        """Take permission bits from the bot (or give them back): interactions then carry the
        reduced ``app_permissions`` and the REST routes that need them answer 403 / 50013."""
        if denied:
            self.world.bot_denied |= permissions
        else:
            self.world.bot_denied &= ~permissions

    def close_dms(self, user: FakeUser, closed: bool = True) -> None:
        """From now on, messages to ``user``'s DM channel fail with 403 / code 50007."""
        user.dms_closed = closed

    async def delete_channel(self, channel: FakeChannel, *, notify_bot: bool = True) -> None:
        """Delete a channel: REST calls on it then fail with 404 / code 10003 ``Unknown Channel``.

        With ``notify_bot=False`` the bot is not told (as if it missed the event), so its cache still
        has the channel and only the REST error reveals the deletion.
        """
        channel.deleted = True
        if notify_bot:
            await self.flush_events()
            event = "THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE"
            await self.gateway.dispatch(event, self.world.channel_payload(channel))

    async def delete_message(self, message: FakeMessage, *, notify_bot: bool = True) -> None:
        """The message is gone (its user deleted it, a moderator did, or Discord lost it): REST
        calls on it then fail with 404 / code 10008 ``Unknown Message``, as an edit of a DM the
        bot can no longer reach does.  With ``notify_bot=False`` the bot is not told."""
        message.deleted = True
        if notify_bot:
            await self.flush_events()
            data: JSON = {"id": str(message.id), "channel_id": str(message.channel_id)}
            channel = self.world.channels[message.channel_id]
            if channel.guild_id is not None:
                data["guild_id"] = str(channel.guild_id)
            await self.gateway.dispatch("MESSAGE_DELETE", data)

    def member(self, guild: FakeGuild, user: FakeUser) -> FakeMember:
        return guild.members[user.id]

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The DM channel between the bot and ``user`` (created on first use)."""
        return self.world.dm_channel_for(user)

    def commands(self, guild: FakeGuild | None = None) -> list[JSON]:
        """The application commands the bot synced (globally, or for ``guild``), as stored."""
        return self.world.guild_commands.get(guild.id, []) if guild else self.world.global_commands

    def _announce(self, event: str, data: JSON) -> None:
        if self.gateway.active_sessions:
            self._pending_events.append((event, data))

    async def flush_events(self) -> None:
        """Send the bot the events for world changes made with the ``add_*`` helpers since it connected."""
        pending, self._pending_events = self._pending_events, []
        for event, data in pending:
            await self.gateway.dispatch(event, data)

    async def request_reconnect(self, timeout: float = DEFAULT_TIMEOUT) -> None:  # noqa: ASYNC109
        """Ask the bot to reconnect (op 7) and wait until it RESUMEd (missed events are replayed)."""
        self.gateway.resumed.clear()
        await self.gateway.request_reconnect()
        try:
            await asyncio.wait_for(self.gateway.resumed.wait(), timeout)
        except TimeoutError:
            raise AssertionError(f"the bot did not RESUME within {timeout} s") from None

    # -- waiting ------------------------------------------------------------------------------------

    async def wait_until_ready(self, timeout: float = 10.0) -> None:  # noqa: ASYNC109
        """Wait until the bot identified and was sent READY and a GUILD_CREATE per guild."""
        try:
            await asyncio.wait_for(self.gateway.ready.wait(), timeout)
        except TimeoutError:
            hint = "is discord.py pointed at the fake (point_discord_at / DISCORD_API_BASE)?"
            raise AssertionError(f"the bot did not identify within {timeout} s ({hint}); {self._summary()}") from None

    async def wait_for_shards(self, shard_ids: set[int], count: int, timeout: float = 10.0) -> None:  # noqa: ASYNC109
        """Wait until sessions identified for each of ``shard_ids`` of ``count`` (and got READY)."""
        wanted = {(shard, count) for shard in shard_ids}
        deadline = asyncio.get_running_loop().time() + timeout
        while not wanted <= self.gateway.identified_shards:
            if asyncio.get_running_loop().time() > deadline:
                missing = sorted(wanted - self.gateway.identified_shards)
                raise AssertionError(f"shards {missing} did not identify within {timeout} s; {self._summary()}")
            await asyncio.sleep(0.01)

    def mark(self) -> Mark:
        """Remember "now" for ``since=`` of the ``wait_for_*`` helpers."""
        return Mark(len(self.world.requests), self.world.snowflakes.next())

    async def _on_request(self, request: RecordedRequest) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def _wait(self, check: Callable[[], T | None], timeout: float, what: str) -> T:  # noqa: ASYNC109
        found = check()
        if found is not None:
            return found
        async with self._changed:
            try:
                return await asyncio.wait_for(self._changed.wait_for(check), timeout)  # type: ignore[arg-type]
            except TimeoutError:
                raise AssertionError(f"timed out after {timeout} s waiting for {what}; {self._summary()}") from None

    def _summary(self) -> str:
        lines = [f"{r.method} {r.path} -> {r.status}" for r in self.world.requests[-15:]]
        return "last requests: " + ("; ".join(lines) or "none")

    def watch_client(self, busy: Callable[[], bool]) -> Callable[[], None]:
        """Let ``wait_until_idle`` ask a client running in this process whether it is still at work
        (``busy()``: its handlers, its pictures, gateway events it has not read, see
        ``unread_events``) instead of waiting for a quiet period; returns the function that stops it."""
        self._clients.append(busy)
        return lambda: self._clients.remove(busy)

    def unread_events(self, read: Mapping[str, int | None]) -> bool:
        """Whether a gateway session was sent events its client has not read yet: ``read`` maps the
        client's session ids to the sequence number it last read (``DiscordWebSocket.sequence``)."""
        return any(
            session.id in read and (read[session.id] or 0) < session.seq for session in self.gateway.active_sessions
        )

    async def wait_until_idle(self, quiet: float = 0.05, timeout: float = DEFAULT_TIMEOUT) -> None:  # noqa: ASYNC109
        """Wait until the bot is done for now (use before closing the bot, so that handlers still
        running do not fail against a closed session and log noise, and before asserting that
        something did not happen).

        A client watched with ``watch_client`` is done when no request of its is in flight and it
        says it is not busy, over a few turns of the event loop in which it made no request: that
        is a condition, not a duration.  A client in another process cannot say: it is taken to be
        done when it made no request for ``quiet`` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        if not self._clients:
            while True:
                seen = len(self.world.requests)
                await asyncio.sleep(quiet)
                if len(self.world.requests) == seen:
                    return
                if loop.time() > deadline:
                    raise AssertionError(f"the bot was still busy after {timeout} s; {self._summary()}")
        calm = 0
        while calm < IDLE_TURNS:
            if loop.time() > deadline:
                raise AssertionError(f"the bot was still busy after {timeout} s; {self._summary()}")
            seen = len(self.world.requests)
            if self.rest.in_flight or any(busy() for busy in list(self._clients)):
                calm = 0
                await asyncio.sleep(IDLE_POLL)  # a poll interval: the bot's threads and workers need the GIL
                continue
            await asyncio.sleep(0)
            calm = calm + 1 if len(self.world.requests) == seen else 0

    async def wait_for_request(
        self,
        method: str,
        path_pattern: str,
        predicate: Callable[[RecordedRequest], bool] | None = None,
        *,
        timeout: float = DEFAULT_TIMEOUT,  # noqa: ASYNC109
        since: Mark | None = None,
    ) -> RecordedRequest:
        """The first request (after ``since``) whose method matches and whose path fully matches the regex.

        Paths exclude the ``/api/v10`` prefix, e.g. ``r"/channels/\\d+/messages"``.
        """
        pattern = re.compile(path_pattern)
        start = since.request_index if since else 0

        def check() -> RecordedRequest | None:
            for request in self.world.requests[start:]:
                matches = request.status and request.method == method.upper() and pattern.fullmatch(request.path)
                if matches and (predicate is None or predicate(request)):
                    return request
            return None

        return await self._wait(check, timeout, f"{method} {path_pattern}")

    def find_requests(self, method: str, path_pattern: str, *, since: Mark | None = None) -> list[RecordedRequest]:
        """All requests (after ``since``) matching the method and the path regex."""
        pattern = re.compile(path_pattern)
        start = since.request_index if since else 0
        return [r for r in self.world.requests[start:] if r.method == method.upper() and pattern.fullmatch(r.path)]

    async def wait_for_message(
        self,
        channel: FakeChannel,
        predicate: Callable[[FakeMessage], bool] | None = None,
        *,
        timeout: float = DEFAULT_TIMEOUT,  # noqa: ASYNC109
        since: Mark | None = None,
        include_ephemeral: bool = False,
    ) -> FakeMessage:
        """The first message the bot posted in ``channel`` (after ``since``) that is no longer loading."""

        def check() -> FakeMessage | None:
            for message in self.world.channel_messages(channel.id, include_ephemeral=include_ephemeral):
                if message.author_id != self.bot.id or message.loading:
                    continue
                if since is not None and message.id <= since.snowflake:
                    continue
                if predicate is None or predicate(message):
                    return message
            return None

        return await self._wait(check, timeout, f"a bot message in channel {channel.name or channel.id}")

    async def wait_for_response(
        self,
        interaction: FakeInteraction,
        timeout: float = DEFAULT_TIMEOUT,  # noqa: ASYNC109
    ) -> FakeInteraction:
        """Wait until the bot acknowledged ``interaction`` (any callback type); returns it, updated."""
        await self._wait(lambda: interaction if interaction.acknowledged else None, timeout, "an interaction callback")
        return interaction

    async def wait_for_followup(
        self,
        interaction: FakeInteraction,
        count: int = 1,
        timeout: float = DEFAULT_TIMEOUT,  # noqa: ASYNC109
    ) -> FakeMessage:
        """Wait until the interaction has ``count`` follow-ups; returns the ``count``-th one."""

        def check() -> FakeMessage | None:
            if len(interaction.followup_ids) >= count:
                return self.world.messages[interaction.followup_ids[count - 1]]
            return None

        return await self._wait(check, timeout, f"follow-up #{count}")

    async def wait_until(
        self,
        check: Callable[[], bool],
        what: str,
        timeout: float = DEFAULT_TIMEOUT,  # noqa: ASYNC109
    ) -> None:
        """Wait until ``check()`` is true (re-checked after every request the bot makes)."""
        await self._wait(lambda: True if check() else None, timeout, what)

    async def wait_for_answer(
        self,
        interaction: FakeInteraction,
        *,
        ephemeral: bool | None = None,
        timeout: float = DEFAULT_TIMEOUT,  # noqa: ASYNC109
    ) -> FakeMessage:
        """Wait for the first message that answers ``interaction`` as a user sees it: an immediate
        reply, a "thinking" message once replaced, or a follow-up (a deleted or still loading
        message is no answer); with ``ephemeral``, only one of that visibility."""

        def check() -> FakeMessage | None:
            candidates = list(interaction.followup_ids)
            if interaction.callback_type in (4, 5) and interaction.original_message_id is not None:
                candidates.insert(0, interaction.original_message_id)
            for message_id in candidates:
                message = self.world.messages[message_id]
                if message.deleted or message.loading:
                    continue
                if ephemeral is None or message.ephemeral == ephemeral:
                    return message
            return None

        what = "an answer" if ephemeral is None else ("an ephemeral answer" if ephemeral else "a public answer")
        return await self._wait(check, timeout, what)

    # -- reading results ----------------------------------------------------------------------------

    def messages_in(self, channel: FakeChannel, *, include_ephemeral: bool = False) -> list[FakeMessage]:
        """Every (not deleted) message in the channel, in order, users' and the bot's."""
        return self.world.channel_messages(channel.id, include_ephemeral=include_ephemeral)

    def bot_messages(self, channel: FakeChannel, *, include_ephemeral: bool = False) -> list[FakeMessage]:
        return [m for m in self.messages_in(channel, include_ephemeral=include_ephemeral) if m.author_id == self.bot.id]

    def dms_to(self, user: FakeUser) -> list[FakeMessage]:
        """Messages the bot successfully sent to ``user`` by DM."""
        return self.bot_messages(self.dm_channel(user))

    def message(self, message_id: int) -> FakeMessage:
        return self.world.messages[message_id]

    def original_response(self, interaction: FakeInteraction) -> FakeMessage | None:
        """The interaction's response message as it stands now (after any @original edits)."""
        if interaction.original_message_id is None or interaction.original_deleted:
            return None
        return self.world.messages[interaction.original_message_id]

    def followups(self, interaction: FakeInteraction) -> list[FakeMessage]:
        return [self.world.messages[i] for i in interaction.followup_ids]

    def assert_clean(self) -> None:
        """Fail if the bot called a route the fake does not know, or a fake handler crashed."""
        problems = [f"unhandled {r.method} {r.path}" for r in self.unhandled]
        problems += [f"fake crashed on {r.method} {r.path}:\n{tb}" for r, tb in self.server_errors]
        if problems:
            raise AssertionError("\n".join(problems))

    # -- user actions -------------------------------------------------------------------------------

    async def send_message(
        self,
        channel: FakeChannel,
        author: FakeUser,
        content: str,
        *,
        files: Sequence[tuple[str, bytes]] = (),
        reply_to: FakeMessage | None = None,
    ) -> FakeMessage:
        """A user posts a message: stored, then dispatched as MESSAGE_CREATE (intents permitting)."""
        await self.flush_events()
        if channel.deleted:
            raise ValueError(f"channel {channel.id} is deleted")
        if channel.guild_id is not None and author.id not in self.world.guilds[channel.guild_id].members:
            raise ValueError(f"{author.name} is not a member of the channel's guild")
        message = self.world.create_message(channel, author, content)
        message.attachments = [self._user_attachment(channel, name, data) for name, data in files]
        if reply_to is not None:
            message.message_reference = {"message_id": str(reply_to.id), "channel_id": str(reply_to.channel_id)}
        await self.gateway.dispatch("MESSAGE_CREATE", self.world.message_payload(message, gateway=True))
        return message

    async def send_dm(self, author: FakeUser, content: str) -> FakeMessage:
        """A user sends the bot a direct message."""
        return await self.send_message(self.dm_channel(author), author, content)

    def _user_attachment(self, channel: FakeChannel, filename: str, data: bytes) -> FakeAttachment:
        content_type = "image/png" if filename.lower().endswith(".png") else "application/octet-stream"
        return self.world.new_attachment(channel.id, filename, content_type, data)

    async def slash_command(
        self,
        name: str,
        options: Mapping[str, Any] | None = None,
        *,
        user: FakeUser,
        channel: FakeChannel | None = None,
    ) -> FakeInteraction:
        """A user runs ``/name`` (``name`` may be "group sub" or "group subgroup sub") with ``options``.

        Option values: str / int / float / bool as declared; a FakeUser, FakeChannel or FakeRole (or an
        id) for user, channel, role and mentionable options; ``(filename, bytes)`` for attachments.
        Raises LookupError if the bot did not sync the command, ValueError for options Discord's
        client would refuse, PermissionError if the user could not see the command.
        """
        return await self._command_interaction(name, options or {}, user, channel, focused=None)

    async def autocomplete(
        self,
        name: str,
        options: Mapping[str, Any],
        *,
        focused: str,
        user: FakeUser,
        channel: FakeChannel | None = None,
    ) -> FakeInteraction:
        """A user is typing option ``focused`` of ``/name``; dispatches an autocomplete interaction (type 4).

        ``options[focused]`` is the partial text typed so far. Read the answer with
        ``(await fake.wait_for_response(i)).choices``.
        """
        return await self._command_interaction(name, options, user, channel, focused=focused)

    async def click_button(self, message: FakeMessage | int, custom_id: str, *, user: FakeUser) -> FakeInteraction:
        """A user clicks the button ``custom_id`` on ``message`` (component interaction, component_type 2)."""
        target = self._component_message(message)
        component = self._component(target, custom_id, expected_type=payloads.COMPONENT_BUTTON)
        data: JSON = {"custom_id": custom_id, "component_type": component["type"]}
        return await self._component_interaction(target, user, data)

    async def select(
        self, message: FakeMessage | int, custom_id: str, values: Sequence[str], *, user: FakeUser
    ) -> FakeInteraction:
        """A user picks ``values`` in the string select ``custom_id`` on ``message`` (component_type 3)."""
        target = self._component_message(message)
        component = self._component(target, custom_id, expected_type=payloads.COMPONENT_STRING_SELECT)
        allowed = [str(o["value"]) for o in component.get("options", [])]
        unknown = [v for v in values if v not in allowed]
        if unknown:
            raise ValueError(f"select {custom_id!r} has no option(s) {unknown}; it offers {allowed}")
        low, high = int(component.get("min_values", 1)), int(component.get("max_values", 1))
        if not low <= len(values) <= high:
            raise ValueError(f"select {custom_id!r} takes {low}..{high} values, got {len(values)}")
        data: JSON = {
            "custom_id": custom_id,
            "component_type": payloads.COMPONENT_STRING_SELECT,
            "values": list(values),
        }
        return await self._component_interaction(target, user, data)

    async def submit_modal(
        self, interaction: FakeInteraction, values: Mapping[str, str], *, user: FakeUser | None = None
    ) -> FakeInteraction:
        """Submit the modal the bot answered ``interaction`` with (callback type 9); ``values`` by custom_id."""
        if interaction.callback_type != 9 or interaction.callback_data is None:
            raise ValueError("the bot did not answer this interaction with a modal")
        modal = interaction.callback_data
        submitted = [_submitted_component(c, values) for c in modal.get("components", [])]
        inputs = {c.get("custom_id") for c in _walk(modal.get("components", []))}
        unknown = set(values) - inputs
        if unknown:
            raise ValueError(f"modal {modal.get('custom_id')!r} has no input(s) {sorted(unknown)}")
        channel = self.world.channels[interaction.channel_id]
        submitter = user or self.world.users[interaction.user_id]
        data: JSON = {"custom_id": modal["custom_id"], "components": submitted}
        message = self.world.messages.get(interaction.message_id or 0)
        return await self._dispatch_interaction(
            payloads.INTERACTION_MODAL_SUBMIT, channel, submitter, data, message=message
        )

    # -- interaction building -----------------------------------------------------------------------

    def _component_message(self, message: FakeMessage | int) -> FakeMessage:
        target = self.world.messages.get(message if isinstance(message, int) else message.id)
        if target is None or target.deleted:
            raise ValueError("that message does not exist (or was deleted)")
        return target

    def _component(self, message: FakeMessage, custom_id: str, *, expected_type: int) -> JSON:
        component = message.component(custom_id)
        if component is None:
            raise ValueError(f"message {message.id} has no component {custom_id!r}; it has {message.custom_ids}")
        if component.get("type") != expected_type:
            raise ValueError(f"component {custom_id!r} has type {component.get('type')}, not {expected_type}")
        if component.get("disabled"):
            raise ValueError(f"component {custom_id!r} is disabled")
        return component

    async def _component_interaction(self, message: FakeMessage, user: FakeUser, data: JSON) -> FakeInteraction:
        channel = self.world.channels[message.channel_id]
        return await self._dispatch_interaction(
            payloads.INTERACTION_MESSAGE_COMPONENT, channel, user, data, message=message
        )

    async def _dispatch_interaction(
        self,
        interaction_type: int,
        channel: FakeChannel,
        user: FakeUser,
        data: JSON,
        *,
        message: FakeMessage | None = None,
        command_name: str | None = None,
    ) -> FakeInteraction:
        await self.flush_events()
        if channel.deleted:
            raise ValueError(f"channel {channel.id} is deleted")
        guild = self.world.guilds.get(channel.guild_id) if channel.guild_id else None
        interaction = self.world.new_interaction(
            interaction_type,
            channel,
            user,
            data,
            message_id=message.id if message else None,
            command_name=command_name,
        )
        member_payload = None
        channel_payload = self.world.channel_payload(channel)
        if guild is not None:
            member = guild.members.get(user.id)
            if member is None:
                raise ValueError(f"{user.name} is not a member of {guild.name}")
            member_payload = self.world.member_payload(member, permissions=True)
            channel_payload["permissions"] = str(self.world.member_permissions(guild, user.id))
        payload = payloads.interaction(
            interaction.id,
            self.world.application_id,
            interaction_type,
            interaction.token,
            data,
            channel_payload=channel_payload,
            guild_id=guild.id if guild else None,
            member_payload=member_payload,
            user_payload=user.payload() if guild is None else None,
            app_permissions=self.world.bot_permissions(guild) if guild else payloads.DEFAULT_MEMBER_PERMISSIONS,
            message_payload=self.world.message_payload(message) if message else None,
            locale=user.locale,
            guild_locale=guild.preferred_locale if guild else "en-US",
        )
        if not await self.gateway.dispatch("INTERACTION_CREATE", payload):
            raise RuntimeError("no bot is connected to the fake gateway")
        return interaction

    async def _command_interaction(
        self,
        name: str,
        options: Mapping[str, Any],
        user: FakeUser,
        channel: FakeChannel | None,
        *,
        focused: str | None,
    ) -> FakeInteraction:
        channel = channel or self.channel
        command, guild_id = self._find_command(name.split()[0], channel)
        self._check_can_use(command, channel, user)
        resolved: JSON = {}
        builder = _OptionBuilder(self, channel, resolved, focused)
        data: JSON = {
            "id": command["id"],
            "name": command["name"],
            "type": 1,
            "options": builder.build(command, name.split()[1:], options),
        }
        if resolved:
            data["resolved"] = resolved
        if guild_id is not None:
            data["guild_id"] = str(guild_id)
        interaction_type = payloads.INTERACTION_AUTOCOMPLETE if focused else payloads.INTERACTION_APPLICATION_COMMAND
        return await self._dispatch_interaction(interaction_type, channel, user, data, command_name=name)

    def _find_command(self, name: str, channel: FakeChannel) -> tuple[JSON, int | None]:
        if channel.guild_id is not None:
            for command in self.world.guild_commands.get(channel.guild_id, []):
                if command["name"] == name and command.get("type", 1) == 1:
                    return command, channel.guild_id
        for command in self.world.global_commands:
            if command["name"] == name and command.get("type", 1) == 1:
                return command, None
        synced = [c["name"] for c in self.world.global_commands]
        synced += [c["name"] for c in self.world.guild_commands.get(channel.guild_id or 0, [])]
        raise LookupError(f"/{name} is not synced for this channel; synced: {sorted(synced)}")

    def _check_can_use(self, command: JSON, channel: FakeChannel, user: FakeUser) -> None:
        if channel.guild_id is None:
            contexts = command.get("contexts")
            if command.get("dm_permission") is False or (contexts is not None and 1 not in contexts):
                raise PermissionError(f"/{command['name']} is not available in DMs")
            return
        required = command.get("default_member_permissions")
        if required is not None:
            have = self.world.member_permissions(self.world.guilds[channel.guild_id], user.id)
            if int(required) & ~have:
                raise PermissionError(f"{user.name} lacks the permissions /{command['name']} requires")

    async def _download(self, request: web.Request) -> web.StreamResponse:
        attachment = self.world.attachments.get(int(request.match_info["attachment_id"]))
        if attachment is None:
            return web.Response(status=404, text="no such attachment")
        return web.Response(body=attachment.data, content_type=attachment.content_type or "application/octet-stream")

    async def _outside_api(self, request: web.Request) -> web.StreamResponse:
        recorded = RecordedRequest(
            len(self.world.requests), request.method, request.path, dict(request.query), dict(request.headers), None, []
        )
        recorded.status = 404
        recorded.response = payloads.error(0, f"fake Discord serves the API only under {API_PREFIX}")
        self.world.requests.append(recorded)
        self.rest.unhandled.append(recorded)
        return json_response(404, recorded.response)


class _OptionBuilder:
    """Turns ``{"name": value}`` into Discord's nested interaction options, checked against the command."""

    def __init__(self, fake: FakeDiscord, channel: FakeChannel, resolved: JSON, focused: str | None) -> None:
        self.fake = fake
        self.world = fake.world
        self.channel = channel
        self.resolved = resolved
        self.focused = focused

    def build(self, command: JSON, path: list[str], values: Mapping[str, Any]) -> list[JSON]:
        definitions: list[JSON] = command.get("options", [])
        if path:
            head, *rest = path
            sub = next((o for o in definitions if o["name"] == head and o["type"] in (1, 2)), None)
            if sub is None:
                names = [o["name"] for o in definitions if o["type"] in (1, 2)]
                raise LookupError(f"/{command['name']} has no subcommand {head!r}; it has {names}")
            return [{"type": sub["type"], "name": head, "options": self.build(sub, rest, values)}]
        if any(o["type"] in (1, 2) for o in definitions):
            raise LookupError(f"/{command['name']} needs a subcommand: {[o['name'] for o in definitions]}")
        by_name = {o["name"]: o for o in definitions}
        unknown = set(values) - set(by_name)
        if unknown:
            raise ValueError(f"/{command['name']} has no option(s) {sorted(unknown)}; it has {sorted(by_name)}")
        missing = [o["name"] for o in definitions if o.get("required") and o["name"] not in values]
        if missing and self.focused is None:
            raise ValueError(f"/{command['name']} requires option(s) {missing}")
        built = []
        for definition in definitions:  # Discord sends options in declaration order
            if definition["name"] in values:
                built.append(self.option(definition, values[definition["name"]]))
        return built

    def option(self, definition: JSON, value: Any) -> JSON:
        name, kind = definition["name"], definition["type"]
        if name == self.focused:
            return {"type": kind, "name": name, "value": str(value), "focused": True}
        return {"type": kind, "name": name, "value": self.value(definition, value)}

    def value(self, definition: JSON, value: Any) -> Any:
        name, kind = definition["name"], definition["type"]
        if kind == OPTION_STRING:
            _expect(isinstance(value, str), name, "a str", value)
            _check_range(name, len(value), definition.get("min_length"), definition.get("max_length"), "length")
        elif kind == OPTION_INTEGER:
            _expect(isinstance(value, int) and not isinstance(value, bool), name, "an int", value)
            _check_range(name, value, definition.get("min_value"), definition.get("max_value"), "value")
        elif kind == OPTION_NUMBER:
            _expect(isinstance(value, int | float) and not isinstance(value, bool), name, "a number", value)
            _check_range(name, value, definition.get("min_value"), definition.get("max_value"), "value")
        elif kind == OPTION_BOOLEAN:
            _expect(isinstance(value, bool), name, "a bool", value)
        elif kind in (OPTION_USER, OPTION_MENTIONABLE) and isinstance(value, FakeUser | int) and self._is_user(value):
            return self.resolve_user(value)
        elif kind in (OPTION_ROLE, OPTION_MENTIONABLE):
            return self.resolve_role(value)
        elif kind == OPTION_CHANNEL:
            return self.resolve_channel(value)
        elif kind == OPTION_ATTACHMENT:
            return self.resolve_attachment(value)
        else:
            raise ValueError(f"option {name!r}: cannot pass {value!r}")
        choices = definition.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise ValueError(f"option {name!r}: {value!r} is not one of {[c['value'] for c in choices]}")
        return value

    def _is_user(self, value: FakeUser | int) -> bool:
        return isinstance(value, FakeUser) or value in self.world.users

    def resolve_user(self, value: FakeUser | int) -> str:
        user = value if isinstance(value, FakeUser) else self.world.users[value]
        self.resolved.setdefault("users", {})[str(user.id)] = user.payload()
        guild = self.world.guilds.get(self.channel.guild_id or 0)
        if guild is not None and user.id in guild.members:
            member = self.world.member_payload(guild.members[user.id], with_user=False, permissions=True)
            self.resolved.setdefault("members", {})[str(user.id)] = member
        return str(user.id)

    def resolve_role(self, value: FakeRole | int) -> str:
        role_id = value.id if isinstance(value, FakeRole) else int(value)
        guild = self.world.guilds.get(self.channel.guild_id or 0)
        if guild is None or role_id not in guild.roles:
            raise ValueError(f"role {role_id} is not in this guild")
        self.resolved.setdefault("roles", {})[str(role_id)] = guild.roles[role_id].payload()
        return str(role_id)

    def resolve_channel(self, value: FakeChannel | int) -> str:
        channel = value if isinstance(value, FakeChannel) else self.world.channels[int(value)]
        payload = self.world.channel_payload(channel)
        guild = self.world.guilds.get(channel.guild_id or 0)
        payload["permissions"] = str(self.world.bot_permissions(guild) if guild else 0)
        self.resolved.setdefault("channels", {})[str(channel.id)] = payload
        return str(channel.id)

    def resolve_attachment(self, value: tuple[str, bytes]) -> str:
        filename, data = value
        attachment = self.fake._user_attachment(self.channel, filename, data)
        self.resolved.setdefault("attachments", {})[str(attachment.id)] = attachment.payload()
        return str(attachment.id)


def _expect(ok: bool, name: str, kind: str, value: Any) -> None:
    if not ok:
        raise ValueError(f"option {name!r} must be {kind}, got {value!r}")


def _check_range(name: str, value: float, low: float | None, high: float | None, what: str) -> None:
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValueError(f"option {name!r}: {what} {value} is outside {low}..{high}")


def _walk(components: list[JSON]) -> Iterator[JSON]:
    for component in components:
        yield component
        yield from _walk(component.get("components", []))
        if isinstance(component.get("component"), dict):
            yield from _walk([component["component"]])


def _submitted_component(component: JSON, values: Mapping[str, str]) -> JSON:
    """The modal-submit shape of one modal component: rows and labels wrap inputs that carry values."""
    kind = component.get("type")
    if kind == 1:
        return {"type": 1, "components": [_submitted_component(c, values) for c in component.get("components", [])]}
    if kind == 18:
        return {
            "type": 18,
            "id": component.get("id", 0),
            "component": _submitted_component(component["component"], values),
        }
    submitted: JSON = {"type": kind, "id": component.get("id", 0)}
    if "custom_id" in component:
        custom_id = component["custom_id"]
        submitted["custom_id"] = custom_id
        if kind == 4:
            submitted["value"] = values.get(custom_id, component.get("value") or "")
        else:
            chosen = values.get(custom_id)
            submitted["values"] = [chosen] if isinstance(chosen, str) else list(chosen or [])
    return submitted
