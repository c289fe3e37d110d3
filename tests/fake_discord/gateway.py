"""The gateway half of the fake Discord: one websocket endpoint speaking Discord's gateway protocol v10.

What discord.py 2.7 needs, and nothing it does not: HELLO, IDENTIFY -> READY + one GUILD_CREATE per
guild, heartbeat ACKs, RESUME (missed events are replayed, then RESUMED), REQUEST_GUILD_MEMBERS ->
GUILD_MEMBERS_CHUNK, and DISPATCH of whatever a test triggers. Payloads are JSON; when the client asks
for ``compress=zlib-stream`` (discord.py does unless ``zstandard`` is installed) every payload is one
zlib stream chunk ending with a Z_SYNC_FLUSH, exactly as Discord sends them.

Shards are honoured as Discord does: a session that identified with ``shard: [id, count]`` is sent
only the events of the guilds whose shard is ``(guild_id >> 22) % count`` (READY lists only those
guilds, and DMs go to shard 0); a session without ``shard`` gets every guild. An id outside
``0..count-1`` is refused with close code 4010 (Invalid shard).

Intents are honoured the way Discord does for the events that matter to a text bot: guild and DM
messages need GUILD_MESSAGES / DIRECT_MESSAGES, message content is blanked without MESSAGE_CONTENT
(except in DMs and when the bot is mentioned), and GUILD_CREATE carries all members only with
GUILD_MEMBERS. A bot that forgets an intent therefore fails here as it would in production.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import secrets
import zlib
from typing import Any

from aiohttp import WSMsgType, web

from tests.fake_discord.payloads import JSON
from tests.fake_discord.world import World

_log = logging.getLogger(__name__)

# Opcodes.
DISPATCH = 0
HEARTBEAT = 1
IDENTIFY = 2
PRESENCE_UPDATE = 3
RESUME = 6
RECONNECT = 7
REQUEST_GUILD_MEMBERS = 8
INVALID_SESSION = 9
HELLO = 10
HEARTBEAT_ACK = 11

# Intents.
GUILDS = 1 << 0
GUILD_MEMBERS = 1 << 1
GUILD_MESSAGES = 1 << 9
GUILD_MESSAGE_REACTIONS = 1 << 10
DIRECT_MESSAGES = 1 << 12
MESSAGE_CONTENT = 1 << 15

HEARTBEAT_INTERVAL_MS = 41_250
INVALID_SHARD = 4010


@dataclasses.dataclass
class Session:
    """A gateway session: survives a dropped connection so that the bot can RESUME it."""

    id: str
    intents: int
    identify: JSON
    seq: int = 0
    sent: list[JSON] = dataclasses.field(default_factory=list)
    connection: Connection | None = None

    @property
    def shard(self) -> tuple[int, int] | None:
        """``(shard id, shard count)`` from IDENTIFY, or None for an unsharded session."""
        given = self.identify.get("shard")
        return (int(given[0]), int(given[1])) if given else None

    def receives(self, guild_id: int | None) -> bool:
        """Discord's routing: a guild's events go to shard ``(guild_id >> 22) % count``, DMs to 0."""
        if self.shard is None:
            return True
        shard, count = self.shard
        return (0 if guild_id is None else (guild_id >> 22) % count) == shard


class Connection:
    """One websocket connection; serialises sends so the shared zlib stream stays in order."""

    def __init__(self, ws: web.WebSocketResponse, *, compress: bool, query: dict[str, str]) -> None:
        self.ws = ws
        self.query = query
        self._compressor = zlib.compressobj() if compress else None
        self._lock = asyncio.Lock()
        self.session: Session | None = None

    async def send(self, payload: JSON) -> None:
        text = json.dumps(payload, separators=(",", ":"))
        async with self._lock:
            if self.ws.closed:
                return
            try:
                if self._compressor is None:
                    await self.ws.send_str(text)
                else:
                    chunk = self._compressor.compress(text.encode()) + self._compressor.flush(zlib.Z_SYNC_FLUSH)
                    await self.ws.send_bytes(chunk)
            except ConnectionResetError:
                return  # the bot's process vanished (killed) before the socket closed: as Discord, drop it


class Gateway:
    """Accepts gateway connections and dispatches events to the identified session(s)."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.sessions: dict[str, Session] = {}
        self.connections: list[Connection] = []
        self.received: list[JSON] = []
        self.ready = asyncio.Event()
        self.identified_shards: set[tuple[int, int]] = set()
        """``(shard id, count)`` of every session that identified (sharded ones only)."""
        self.resumed = asyncio.Event()
        self.heartbeats = 0
        self.ws_url = ""

    @property
    def active_sessions(self) -> list[Session]:
        return [s for s in self.sessions.values() if s.connection is not None and not s.connection.ws.closed]

    async def handle(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        compress = request.query.get("compress") == "zlib-stream"
        if request.query.get("compress") not in (None, "zlib-stream"):
            await ws.close(code=4000, message=b"fake Discord supports only zlib-stream compression")
            return ws
        connection = Connection(ws, compress=compress, query=dict(request.query))
        self.connections.append(connection)
        try:
            await connection.send(
                {"op": HELLO, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}, "s": None, "t": None}
            )
            async for msg in ws:
                if msg.type is WSMsgType.TEXT:
                    await self._on_payload(connection, json.loads(msg.data))
                elif msg.type is WSMsgType.BINARY:
                    await self._on_payload(connection, json.loads(zlib.decompress(msg.data)))
        finally:
            if connection.session is not None and connection.session.connection is connection:
                connection.session.connection = None
        return ws

    async def _on_payload(self, connection: Connection, payload: JSON) -> None:
        self.received.append(payload)
        op = payload.get("op")
        data: JSON = payload.get("d") or {}
        if op == HEARTBEAT:
            self.heartbeats += 1
            await connection.send({"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})
        elif op == IDENTIFY:
            await self._identify(connection, data)
        elif op == RESUME:
            await self._resume(connection, data)
        elif op == REQUEST_GUILD_MEMBERS:
            await self._send_member_chunk(connection, data)
        elif op == PRESENCE_UPDATE:
            pass
        else:
            _log.warning("fake gateway ignored opcode %s", op)

    async def _identify(self, connection: Connection, data: JSON) -> None:
        session = Session(id=secrets.token_hex(16), intents=int(data.get("intents", 0)), identify=data)
        if session.shard is not None and not 0 <= session.shard[0] < session.shard[1]:
            await connection.ws.close(code=INVALID_SHARD, message=b"Invalid shard")
            return
        self.sessions[session.id] = session
        session.connection = connection
        connection.session = session
        world = self.world
        ready: JSON = {
            "v": 10,
            "user": {**world.bot.payload(), "verified": True, "mfa_enabled": False, "email": None},
            "guilds": [{"id": str(g), "unavailable": True} for g in world.guilds if session.receives(g)],
            "session_id": session.id,
            "resume_gateway_url": self.ws_url,
            "application": {"id": str(world.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
        }
        if "shard" in data:
            ready["shard"] = data["shard"]
        await self.dispatch("READY", ready, session=session)
        for guild in list(world.guilds.values()):
            if session.receives(guild.id):
                await self.dispatch("GUILD_CREATE", self.guild_create_payload(guild, session), session=session)
        if session.shard is not None:
            self.identified_shards.add(session.shard)
        self.ready.set()

    def guild_create_payload(self, guild: Any, session: Session) -> JSON:
        return self.world.guild_payload(guild, include_all_members=bool(session.intents & GUILD_MEMBERS))

    async def _resume(self, connection: Connection, data: JSON) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        if session is None:
            await connection.send({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        session.connection = connection
        connection.session = session
        last_seen = int(data.get("seq") or 0)
        for payload in session.sent:
            if payload["s"] > last_seen:
                await connection.send(payload)
        await self.dispatch("RESUMED", {}, session=session)
        self.resumed.set()

    async def _send_member_chunk(self, connection: Connection, data: JSON) -> None:
        guild = self.world.guilds.get(int(data["guild_id"]))
        if guild is None or connection.session is None:
            return
        wanted = {int(u) for u in data.get("user_ids") or []}
        query = str(data.get("query") or "").lower()
        members = [
            self.world.member_payload(m)
            for m in guild.members.values()
            if (not wanted or m.user_id in wanted) and self.world.users[m.user_id].name.lower().startswith(query)
        ]
        limit = int(data.get("limit") or 0)
        if limit:
            members = members[:limit]
        chunk: JSON = {"guild_id": str(guild.id), "members": members, "chunk_index": 0, "chunk_count": 1}
        if "nonce" in data:
            chunk["nonce"] = data["nonce"]
        await self.dispatch("GUILD_MEMBERS_CHUNK", chunk, session=connection.session)

    async def dispatch(self, event: str, data: JSON, *, session: Session | None = None) -> int:
        """Send a DISPATCH to one session, or to every active session that has the needed intents
        and runs the shard of the event's guild.

        Returns how many sessions it was sent to.
        """
        guild_id = event_guild(event, data)
        targets = [session] if session is not None else [s for s in self.active_sessions if s.receives(guild_id)]
        sent = 0
        for target in targets:
            shaped = shape_for_intents(event, data, target.intents, self.world.bot.id)
            if shaped is None:
                continue
            target.seq += 1
            payload = {"op": DISPATCH, "t": event, "s": target.seq, "d": shaped}
            target.sent.append(payload)
            if target.connection is not None:
                await target.connection.send(payload)
            sent += 1
        return sent

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT to every active session (the bot should reconnect and RESUME)."""
        for session in self.active_sessions:
            assert session.connection is not None
            await session.connection.send({"op": RECONNECT, "d": None, "s": None, "t": None})

    async def close(self) -> None:
        for connection in self.connections:
            with contextlib.suppress(Exception):
                await connection.ws.close(code=1001, message=b"fake Discord shutting down")


def event_guild(event: str, data: JSON) -> int | None:
    """The guild an event belongs to (None: a DM, or no guild at all), which picks its shard."""
    if event in ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"):
        return int(data["id"])
    guild_id = data.get("guild_id")
    return int(guild_id) if guild_id is not None else None


def shape_for_intents(event: str, data: JSON, intents: int, bot_id: int) -> JSON | None:
    """The event as a session with ``intents`` receives it, or None if it does not receive it at all."""
    if event in ("MESSAGE_CREATE", "MESSAGE_UPDATE", "MESSAGE_DELETE"):
        in_guild = "guild_id" in data
        if not intents & (GUILD_MESSAGES if in_guild else DIRECT_MESSAGES):
            return None
        if event == "MESSAGE_DELETE" or intents & MESSAGE_CONTENT or not in_guild:
            return data
        author_id = int(data.get("author", {}).get("id", 0))
        mentioned = any(int(u["id"]) == bot_id for u in data.get("mentions", []))
        if author_id == bot_id or mentioned:
            return data
        return {**data, "content": "", "embeds": [], "attachments": [], "components": []}
    if event in ("MESSAGE_REACTION_ADD", "MESSAGE_REACTION_REMOVE"):
        return data if intents & GUILD_MESSAGE_REACTIONS else None
    if event in ("GUILD_MEMBER_ADD", "GUILD_MEMBER_REMOVE", "GUILD_MEMBER_UPDATE"):
        return data if intents & GUILD_MEMBERS else None
    return data
