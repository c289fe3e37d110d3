"""The fake Discord works with the real discord.py 2.7: a tiny real bot logs in, syncs and answers.

The bot below is deliberately ordinary discord.py code (slash commands, a group, autocomplete, a
view with a button and a select, a modal, a message listener, DMs, threads); the tests drive it only
through the fake's user-side API and assert on the HTTP requests it made and the messages that
resulted.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fake_discord import FakeDiscord, point_discord_at, restore_discord_defaults
from tests.fake_discord.bot_wiring import sequences_read, tasks_running
from tests.fake_discord.payloads import ADMINISTRATOR, CREATE_PUBLIC_THREADS

pytestmark = pytest.mark.e2e

PNG_BYTES = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4
GAMES = ["dominance", "domineering", "domino_wars", "focus", "wonderland"]


class ChallengeView(discord.ui.View):
    """One button that edits the message it is on (callback type 7)."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Accept", style=discord.ButtonStyle.success, custom_id="challenge:accept")
    async def accept(self, interaction: discord.Interaction, button: discord.ui.Button[ChallengeView]) -> None:
        await interaction.response.edit_message(content=f"Accepted by {interaction.user.name}", view=None)


class GameSelect(discord.ui.View):
    @discord.ui.select(
        custom_id="game:pick",
        options=[discord.SelectOption(label=g, value=g) for g in GAMES],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[GameSelect]) -> None:
        await interaction.response.send_message(f"You picked {select.values[0]}", ephemeral=True)


class NameModal(discord.ui.Modal, title="Name your match"):
    match_name: discord.ui.TextInput[NameModal] = discord.ui.TextInput(label="Name", custom_id="modal:name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Match named {self.match_name.value}")


class TinyBot(commands.Bot):
    """A small but real discord.py bot: what the fake must support, in miniature."""

    def __init__(self) -> None:
        intents = discord.Intents.default()
        intents.message_content = True
        intents.members = True
        # guild_ready_timeout: discord.py waits this long after the last GUILD_CREATE before on_ready.
        super().__init__(command_prefix="!", intents=intents, guild_ready_timeout=0.05)
        self.send_failures: list[int] = []  # Discord error codes of failed sends, for assertions
        self.failure_seen = asyncio.Event()

    async def setup_hook(self) -> None:
        self.tree.add_command(hello)
        self.tree.add_command(later)
        self.tree.add_command(invite)
        self.tree.add_command(pick)
        self.tree.add_command(menu)
        self.tree.add_command(name_match)
        self.tree.add_command(thread)
        self.tree.add_command(match_group)
        self.tree.add_command(slow)

    async def on_message(self, message: discord.Message) -> None:
        if message.author.bot:
            return
        if message.content == "ping":
            pong = await message.reply("pong")
            await message.add_reaction("\N{WHITE HEAVY CHECK MARK}")
            await pong.edit(content="pong!")
        elif isinstance(message.channel, discord.DMChannel):
            async with message.channel.typing():
                hand = discord.File(io.BytesIO(PNG_BYTES), filename="hand.png")
                await message.channel.send(f"You said: {message.content}", file=hand)


@app_commands.command(description="Say hello with a picture and a button")
async def hello(interaction: discord.Interaction) -> None:
    picture = discord.File(io.BytesIO(PNG_BYTES), filename="board.png")
    await interaction.response.send_message("Hello!", file=picture, view=ChallengeView())


@app_commands.command(description="Think, then answer")
async def later(interaction: discord.Interaction) -> None:
    await interaction.response.defer(thinking=True)
    await interaction.followup.send("Done thinking")
    await interaction.followup.send("One more thing", ephemeral=True)
    await interaction.edit_original_response(content="Done thinking (edited)")


@app_commands.command(description="Invite someone by DM")
async def invite(interaction: discord.Interaction, player: discord.Member) -> None:
    try:
        await player.send(f"{interaction.user.name} invites you to a match")
    except discord.Forbidden as exc:
        assert isinstance(interaction.client, TinyBot)
        interaction.client.send_failures.append(exc.code)
        interaction.client.failure_seen.set()
        await interaction.response.send_message(f"{player.name} does not accept DMs", ephemeral=True)
    else:
        await interaction.response.send_message(f"Invited {player.name}")


@app_commands.command(description="Pick a game")
async def pick(interaction: discord.Interaction, game: str, seats: app_commands.Range[int, 2, 2] = 2) -> None:
    await interaction.response.send_message(f"{game} for {seats}")


@pick.autocomplete("game")
async def pick_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=g, value=g) for g in GAMES if g.startswith(current)]


@app_commands.command(description="A select menu")
async def menu(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("Pick one", view=GameSelect())


@app_commands.command(name="name", description="Name a match through a modal")
async def name_match(interaction: discord.Interaction) -> None:
    await interaction.response.send_modal(NameModal())


@app_commands.command(description="Open a thread for a match")
async def thread(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("Opening a thread")
    assert isinstance(interaction.channel, discord.TextChannel)
    created = await interaction.channel.create_thread(name="match-1", type=discord.ChannelType.private_thread)
    await created.send("Welcome to the match")
    await created.edit(archived=True, auto_archive_duration=60)


@app_commands.command(description="Too slow to answer in time")
async def slow(interaction: discord.Interaction) -> None:
    await asyncio.sleep(0.2)
    try:
        await interaction.response.send_message("Finally")
    except discord.NotFound as exc:
        assert isinstance(interaction.client, TinyBot)
        interaction.client.send_failures.append(exc.code)
        interaction.client.failure_seen.set()


match_group = app_commands.Group(
    name="match", description="Matches", default_permissions=discord.Permissions(manage_guild=True)
)


@match_group.command(name="start", description="Start a match")
async def match_start(interaction: discord.Interaction, opponent: discord.Member, game: str) -> None:
    await interaction.response.send_message(f"{interaction.user.name} vs {opponent.display_name}: {game}")


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as server:
        point_discord_at(server.base_url)
        try:
            yield server
        finally:
            restore_discord_defaults()


@pytest.fixture
async def bot(fake: FakeDiscord) -> AsyncIterator[TinyBot]:
    """The tiny bot, logged in; watched, so that `wait_until_idle` asks it whether it is done
    (a handler running, an event unread) instead of waiting for a quiet period."""
    client = TinyBot()
    runner = asyncio.create_task(client.start("dummy-token"))
    unwatch = fake.watch_client(lambda: bool(tasks_running()) or fake.unread_events(sequences_read(client)))
    try:
        await fake.wait_until_ready()
        await asyncio.wait_for(client.wait_until_ready(), 5)
        yield client
    finally:
        await fake.wait_until_idle()
        unwatch()
        await client.close()
        await asyncio.wait_for(runner, 5)
    fake.assert_clean()


async def sync_commands(bot: TinyBot, fake: FakeDiscord) -> None:
    await bot.tree.sync()
    await fake.wait_for_request("PUT", rf"/applications/{fake.application_id}/commands")


async def test_login_identifies_with_intents_and_compression(fake: FakeDiscord, bot: TinyBot) -> None:
    assert [(r.method, r.path) for r in fake.requests[:2]] == [
        ("GET", "/users/@me"),
        ("GET", "/oauth2/applications/@me"),
    ]
    assert fake.requests[0].headers["Authorization"] == "Bot dummy-token"
    assert fake.gateway.connections[0].query["compress"] == "zlib-stream"
    session = fake.gateway.active_sessions[0]
    assert session.intents == bot.intents.value
    guild = bot.get_guild(fake.guild.id)
    assert guild is not None and guild.get_channel(fake.channel.id) is not None
    assert {m.name for m in guild.members} >= {"alice", "bob", "carol", bot.user.name if bot.user else ""}


async def test_slash_command_replies_with_file_and_button_then_click_edits(fake: FakeDiscord, bot: TinyBot) -> None:
    await sync_commands(bot, fake)
    synced = {c["name"]: c for c in fake.commands()}
    assert set(synced) == {"hello", "later", "invite", "pick", "menu", "name", "thread", "match", "slow"}
    alice, bob, _ = fake.players

    interaction = await fake.slash_command("hello", user=alice)
    await fake.wait_for_response(interaction)
    callback = interaction.requests[0]
    assert callback.path == f"/interactions/{interaction.id}/{interaction.token}/callback"
    assert callback.json["type"] == 4
    assert [(f.filename, f.data) for f in callback.files] == [("board.png", PNG_BYTES)]
    reply = fake.original_response(interaction)
    assert reply is not None and reply.content == "Hello!"
    assert reply.files() == {"board.png": PNG_BYTES}
    assert reply.custom_ids == ["challenge:accept"]

    click = await fake.click_button(reply, "challenge:accept", user=bob)
    await fake.wait_for_response(click)
    assert click.callback_type == 7
    assert reply.content == "Accepted by bob"
    assert reply.components == []


async def test_message_listener_replies_and_dm_round_trip(fake: FakeDiscord, bot: TinyBot) -> None:
    alice = fake.players[0]
    mark = fake.mark()
    ping = await fake.send_message(fake.channel, alice, "ping")
    edit = await fake.wait_for_request("PATCH", rf"/channels/{fake.channel.id}/messages/\d+", since=mark)
    assert edit.json["content"] == "pong!"
    request = await fake.wait_for_request("POST", rf"/channels/{fake.channel.id}/messages", since=mark)
    assert request.json["content"] == "pong"
    pong = await fake.wait_for_message(fake.channel, since=mark)
    assert pong.content == "pong!" and pong.edited
    assert pong.message_reference is not None and pong.message_reference["message_id"] == str(ping.id)
    assert ping.reactions == [("\N{WHITE HEAVY CHECK MARK}", fake.bot.id)]

    await fake.send_dm(alice, "hi bot")
    dm_channel = fake.dm_channel(alice)
    answer = await fake.wait_for_message(dm_channel)
    assert answer.content == "You said: hi bot" and answer.files() == {"hand.png": PNG_BYTES}
    upload = await fake.wait_for_request("POST", rf"/channels/{dm_channel.id}/messages")
    assert upload.json["attachments"] == [{"id": 0, "filename": "hand.png"}]
    assert [(f.field, f.filename, f.data) for f in upload.files] == [("files[0]", "hand.png", PNG_BYTES)]
    assert fake.find_requests("POST", rf"/channels/{dm_channel.id}/typing")


async def test_idle_waits_for_a_watched_client_and_for_the_events_it_has_not_read(
    fake: FakeDiscord, bot: TinyBot
) -> None:
    """With a client watched, `wait_until_idle` is a condition, not a quiet period: it returns
    only once the client says it is done; an event sent to its session and not read yet counts."""
    done = asyncio.Event()
    unwatch = fake.watch_client(lambda: not done.is_set())
    try:
        asyncio.get_running_loop().call_later(0.1, done.set)
        await fake.wait_until_idle()
        assert done.is_set()
    finally:
        unwatch()
    session = fake.gateway.active_sessions[0]
    assert session.seq > 0 and not fake.unread_events({session.id: session.seq})
    assert fake.unread_events({session.id: session.seq - 1}) and fake.unread_events({session.id: None})
    assert not fake.unread_events({"a session of another client": 0})


async def test_dm_send_and_closed_dms_403(fake: FakeDiscord, bot: TinyBot) -> None:
    await sync_commands(bot, fake)
    alice, bob, carol = fake.players
    ok = await fake.wait_for_response(await fake.slash_command("invite", {"player": bob}, user=alice))
    assert fake.original_response(ok) is not None
    assert [m.content for m in fake.dms_to(bob)] == ["alice invites you to a match"]
    assert fake.find_requests("POST", "/users/@me/channels")[0].json == {"recipient_id": bob.id}

    fake.close_dms(carol)
    refused = await fake.wait_for_response(await fake.slash_command("invite", {"player": carol}, user=alice))
    assert bot.send_failures == [50007]
    assert refused.ephemeral and refused.callback_data is not None
    assert refused.callback_data["content"] == "carol does not accept DMs"
    failed = fake.find_requests("POST", rf"/channels/{fake.dm_channel(carol).id}/messages")
    assert [(r.status, r.response["code"]) for r in failed] == [(403, 50007)]
    assert fake.dms_to(carol) == []


async def test_deleted_channel_gives_404_unknown_channel(fake: FakeDiscord, bot: TinyBot) -> None:
    doomed = fake.add_text_channel(fake.guild, "doomed")
    await fake.flush_events()
    channel = await bot.fetch_channel(doomed.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("last words")
    assert (await channel.fetch_message(sent.id)).content == "last words"
    await fake.delete_channel(doomed, notify_bot=False)
    with pytest.raises(discord.NotFound) as caught:
        await channel.send("anyone?")
    assert caught.value.code == 10003
    assert [m.content for m in fake.bot_messages(doomed)] == ["last words"]


async def test_a_dm_is_edited_in_place_until_deleted_then_404_unknown_message(fake: FakeDiscord, bot: TinyBot) -> None:
    alice = fake.players[0]
    user = await bot.fetch_user(alice.id)
    sent = await user.send("your hand: 1-2", file=discord.File(io.BytesIO(PNG_BYTES), filename="hand.png"))
    dm = bot.get_partial_messageable(sent.channel.id, type=discord.ChannelType.private)
    await dm.get_partial_message(sent.id).edit(content="your hand: 1-2 3-4", attachments=[])
    (shown,) = fake.dms_to(alice)
    assert shown.id == sent.id and shown.content == "your hand: 1-2 3-4" and shown.edited and not shown.attachments
    await fake.delete_message(shown)
    with pytest.raises(discord.NotFound) as caught:
        await dm.get_partial_message(sent.id).edit(content="anyone?")
    assert caught.value.code == 10008
    assert fake.dms_to(alice) == []


async def test_deferred_response_followups_and_edit_original(fake: FakeDiscord, bot: TinyBot) -> None:
    await sync_commands(bot, fake)
    interaction = await fake.slash_command("later", user=fake.players[0])
    await fake.wait_for_request("PATCH", r"/webhooks/\d+/[^/]+/messages/@original")
    assert interaction.callback_type == 5
    original = fake.original_response(interaction)
    assert original is not None and original.content == "Done thinking (edited)" and not original.loading
    followups = fake.followups(interaction)
    assert followups[0] is original  # the first follow-up after a defer fills the "thinking" message
    assert followups[1].content == "One more thing" and followups[1].ephemeral
    assert [m.content for m in fake.bot_messages(fake.channel)] == ["Done thinking (edited)"]


async def test_autocomplete_select_and_modal(fake: FakeDiscord, bot: TinyBot) -> None:
    await sync_commands(bot, fake)
    alice = fake.players[0]
    typing = await fake.autocomplete("pick", {"game": "dom"}, focused="game", user=alice)
    assert [c["value"] for c in (await fake.wait_for_response(typing)).choices] == GAMES[:3]
    with pytest.raises(ValueError, match="outside"):
        await fake.slash_command("pick", {"game": "focus", "seats": 3}, user=alice)

    menu_call = await fake.wait_for_response(await fake.slash_command("menu", user=alice))
    menu_message = fake.original_response(menu_call)
    assert menu_message is not None
    chosen = await fake.wait_for_response(await fake.select(menu_message, "game:pick", ["focus"], user=alice))
    assert chosen.callback_data is not None and chosen.callback_data["content"] == "You picked focus"
    assert chosen.ephemeral

    asked = await fake.wait_for_response(await fake.slash_command("name", user=alice))
    assert asked.callback_type == 9
    submitted = await fake.wait_for_response(await fake.submit_modal(asked, {"modal:name": "Friday final"}))
    assert submitted.callback_data is not None and submitted.callback_data["content"] == "Match named Friday final"


async def test_guild_sync_subcommand_with_member_option_and_permissions(fake: FakeDiscord, bot: TinyBot) -> None:
    guild = discord.Object(id=fake.guild.id)
    bot.tree.copy_global_to(guild=guild)
    await bot.tree.sync(guild=guild)
    assert {c["name"] for c in fake.commands(fake.guild)} >= {"match", "hello"}
    alice, bob, _ = fake.players
    with pytest.raises(PermissionError):
        await fake.slash_command("match start", {"opponent": bob, "game": "focus"}, user=alice)
    admin = fake.add_role(fake.guild, "Admin", permissions=ADMINISTRATOR)
    fake.member(fake.guild, alice).role_ids.append(admin.id)
    fake.guild.members[bob.id].nick = "Bobby"
    started = await fake.slash_command("match start", {"opponent": bob, "game": "focus"}, user=alice)
    await fake.wait_for_response(started)
    assert started.callback_data is not None and started.callback_data["content"] == "alice vs Bobby: focus"
    with pytest.raises(LookupError):
        await fake.slash_command("match stop", user=alice)


async def test_thread_created_archived_and_unknown_routes_reported(fake: FakeDiscord, bot: TinyBot) -> None:
    await sync_commands(bot, fake)
    await fake.slash_command("thread", user=fake.players[0])
    edit = await fake.wait_for_request("PATCH", r"/channels/\d+")
    thread = fake.world.channels[int(edit.path.rsplit("/", 1)[1])]
    assert thread.is_thread and thread.archived and thread.auto_archive_duration == 60
    assert [m.content for m in fake.bot_messages(thread)] == ["Welcome to the match"]
    events = [(p["t"], p["d"].get("id")) for p in fake.gateway.active_sessions[0].sent]
    assert ("THREAD_CREATE", str(thread.id)) in events and ("THREAD_UPDATE", str(thread.id)) in events
    assert bot.get_channel(thread.id) is None  # discord.py drops archived threads from its cache

    with pytest.raises(discord.NotFound):
        await bot.http.request(discord.http.Route("GET", "/voice/regions"))
    assert [r.path for r in fake.unhandled] == ["/voice/regions"]
    fake.unhandled.clear()


async def test_reconnect_resumes_the_same_session(fake: FakeDiscord, bot: TinyBot) -> None:
    session = fake.gateway.active_sessions[0]
    await fake.request_reconnect()
    resumed = [p for p in fake.gateway.received if p["op"] == 6]
    assert resumed and resumed[0]["d"]["session_id"] == session.id
    assert len(fake.gateway.connections) == 2 and fake.gateway.active_sessions == [session]
    mark = fake.mark()
    await fake.send_message(fake.channel, fake.players[1], "ping")
    await fake.wait_for_request("PATCH", rf"/channels/{fake.channel.id}/messages/\d+", since=mark)
    assert (await fake.wait_for_message(fake.channel, since=mark)).content == "pong!"


async def test_message_content_is_blanked_without_the_intent(fake: FakeDiscord) -> None:
    seen: list[str] = []
    all_seen = asyncio.Event()

    class DeafBot(commands.Bot):
        async def on_message(self, message: discord.Message) -> None:
            seen.append(message.content)
            if len(seen) == 3:
                all_seen.set()

    client = DeafBot(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.05)
    runner = asyncio.create_task(client.start("dummy-token"))
    try:
        await fake.wait_until_ready()
        await fake.send_message(fake.channel, fake.players[0], "e4")
        await fake.send_message(fake.channel, fake.players[0], f"{fake.bot.mention} e4")
        await fake.send_dm(fake.players[0], "e4")
        await asyncio.wait_for(all_seen.wait(), 5)
    finally:
        await client.close()
        await asyncio.wait_for(runner, 5)
    assert seen == ["", f"{fake.bot.mention} e4", "e4"]


async def test_interaction_not_acknowledged_in_time_is_unknown(fake: FakeDiscord, bot: TinyBot) -> None:
    await sync_commands(bot, fake)
    fake.ack_deadline = 0.1
    interaction = await fake.slash_command("slow", user=fake.players[0])
    callback = await fake.wait_for_request("POST", rf"/interactions/{interaction.id}/[^/]+/callback")
    assert (callback.status, callback.response["code"]) == (404, 10062)
    assert not interaction.acknowledged
    await asyncio.wait_for(bot.failure_seen.wait(), 5)
    assert bot.send_failures == [10062]


async def test_slash_command_in_a_dm(fake: FakeDiscord, bot: TinyBot) -> None:
    await sync_commands(bot, fake)
    alice = fake.players[0]
    interaction = await fake.wait_for_response(
        await fake.slash_command("hello", user=alice, channel=fake.dm_channel(alice))
    )
    assert interaction.guild_id is None and interaction.callback_type == 4
    assert [m.content for m in fake.dms_to(alice)] == ["Hello!"]


async def test_thread_refused_without_the_create_threads_permission(fake: FakeDiscord, bot: TinyBot) -> None:
    fake.deny_bot(CREATE_PUBLIC_THREADS)
    channel = bot.get_channel(fake.channel.id)
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.Forbidden) as refused:
        await channel.create_thread(name="match-2", type=discord.ChannelType.public_thread)
    assert refused.value.code == 50013
    assert not any(c.is_thread and c.name == "match-2" for c in fake.world.channels.values())
    fake.deny_bot(CREATE_PUBLIC_THREADS, denied=False)
    made = await channel.create_thread(name="match-2", type=discord.ChannelType.public_thread)
    assert fake.world.channels[made.id].parent_id == fake.channel.id


async def test_each_guild_s_events_reach_only_the_shard_that_owns_it(fake: FakeDiscord) -> None:
    """Two processes each running one shard of two: READY lists, and messages reach, only the
    guilds of the shard given in IDENTIFY ((guild_id >> 22) % 2); DMs go to shard 0."""
    zero_guild = fake.add_guild("Zero", shard=(0, 2))
    one_guild = fake.add_guild("One", shard=(1, 2))
    assert (zero_guild.id >> 22) % 2 == 0 and (one_guild.id >> 22) % 2 == 1
    channels = {0: fake.add_text_channel(zero_guild, "a"), 1: fake.add_text_channel(one_guild, "b")}
    player = fake.players[0]
    fake.add_member(zero_guild, player)
    fake.add_member(one_guild, player)
    heard: dict[int, list[str]] = {0: [], 1: []}

    class Listener(commands.AutoShardedBot):
        async def on_message(self, message: discord.Message) -> None:
            heard[self.shard_ids[0] if self.shard_ids else -1].append(message.content)

    clients = [
        Listener(
            command_prefix="!",
            intents=discord.Intents.default() | discord.Intents(message_content=True),
            shard_ids=[shard],
            shard_count=2,
            guild_ready_timeout=0.05,
        )
        for shard in (0, 1)
    ]
    runners = [asyncio.create_task(client.start("dummy-token")) for client in clients]
    try:
        await fake.wait_for_shards({0, 1}, 2)
        for client in clients:
            await asyncio.wait_for(client.wait_until_ready(), 5)
        for shard, client in enumerate(clients):
            owned = {g for g in fake.world.guilds if (g >> 22) % 2 == shard}
            assert {g.id for g in client.guilds} == owned and (zero_guild.id in owned) == (shard == 0)
        await fake.send_message(channels[0], player, "to zero")
        await fake.send_message(channels[1], player, "to one")
        await fake.send_dm(player, "a dm")
        for _ in range(200):
            if len(heard[0]) + len(heard[1]) >= 3:
                break
            await asyncio.sleep(0.01)
        await fake.wait_until_idle()
    finally:
        for client in clients:
            await client.close()
        for runner in runners:
            await asyncio.wait_for(runner, 5)
    assert sorted(heard[0]) == ["a dm", "to zero"] and heard[1] == ["to one"]


async def test_a_shard_outside_the_count_is_refused_as_discord_does(fake: FakeDiscord) -> None:
    client = commands.AutoShardedBot(
        command_prefix="!", intents=discord.Intents.default(), shard_ids=[2], shard_count=2
    )
    with pytest.raises(discord.ConnectionClosed) as closed:
        await asyncio.wait_for(client.start("dummy-token"), 10)
    assert closed.value.code == 4010
    await client.close()


async def test_a_nonce_is_echoed_on_create_and_a_repeat_within_the_window_returns_the_first_message(
    fake: FakeDiscord, bot: TinyBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.fake_discord import rest

    channel = await bot.fetch_channel(fake.channel.id)
    assert isinstance(channel, discord.TextChannel)
    first = await channel.send("board", nonce="by0001")  # discord.py adds enforce_nonce
    assert first.nonce == "by0001"
    assert fake.find_requests("POST", rf"/channels/{fake.channel.id}/messages")[-1].json["enforce_nonce"] is True
    again = await channel.send("board, sent again after a crash", nonce="by0001")
    assert again.id == first.id and again.content == "board"
    other = await channel.send("board", nonce="by0002")  # the same text under another key is a new message
    assert other.id != first.id
    assert (await channel.fetch_message(first.id)).nonce is None  # read back later: no nonce
    monkeypatch.setattr(rest, "NONCE_WINDOW", 0.0)  # past Discord's few minutes: a new message
    late = await channel.send("board", nonce="by0001")
    assert late.id not in (first.id, other.id)
    assert [m.content for m in fake.bot_messages(fake.channel)] == ["board", "board", "board"]
