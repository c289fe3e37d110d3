"""Records through the real bot: /export, /replay, /history and the Verify dice button, as two
players and a spectator would use them, for a running match with secrets and a finished one."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.games import CHANCE, GAMES
from bot.records.format import parse_record
from bot.records.verify import verify_text
from bot.services.matches import job_for
from renderers import rating_chart
from renderers.replay_frames import replay_frames
from tests.e2e.harness import Harness
from tests.fake_discord import FakeInteraction, FakeMessage

pytestmark = pytest.mark.e2e


def _only_file(message: FakeMessage | None, suffix: str) -> tuple[str, bytes]:
    assert message is not None
    files = message.files()
    assert len(files) == 1, list(files)
    name, data = next(iter(files.items()))
    assert name.endswith(suffix), name
    return name, data


async def _deferred_followup(harness: Harness, interaction: FakeInteraction) -> FakeMessage:
    """The private answer of a command or button that first said "thinking..."."""
    assert interaction.callback_type == 5 and interaction.ephemeral, interaction.callback_data
    return await harness.fake.wait_for_followup(interaction)


async def test_records_of_a_running_and_a_finished_match(harness: Harness) -> None:
    fake, service = harness.fake, harness.bot.service
    alice, bob, carol = fake.players
    side = fake.add_text_channel(fake.guild, "side-table")

    # A running Domino Wars match with a secret draft pick: the spectator's export and replay keep it secret.
    wars_id, _ = await harness.start_match("domino_wars", alice, bob, channel=side)
    row = await service.get(wars_id)
    assert row.seats is not None
    waiting = await harness.to_move(wars_id)
    drafter = next(u for u in (alice, bob) if u.id in waiting)
    pick = next(m for m in await service.legal_moves(wars_id, drafter.id) if m.startswith("pick"))
    await harness.slash_move_answered_privately(drafter, pick, channel=side)
    export = await harness.command("export", {"match": wars_id}, user=carol)
    exported = fake.original_response(export)
    assert exported is not None and exported.ephemeral
    assert "secret moves and the seed are withheld" in exported.content
    name, data = _only_file(exported, ".txt")
    assert name == f"boneyard-match-{wars_id}.txt"
    text = data.decode()
    assert "{withheld}" in text and pick not in text and row.seed not in text and '[Result "*"]' in text
    assert not verify_text(text).ok
    replay = await _deferred_followup(harness, await harness.command("replay", {"match": wars_id}, user=carol))
    assert "public information only" in replay.content
    listed = await harness.command("moves", {"match": wars_id}, user=carol)
    shown = await fake.wait_for_answer(listed, ephemeral=True)
    lines = shown.embeds[0]["description"]
    assert "(secret)" in lines and pick not in lines, "a running match's move list withholds its secrets"
    _only_file(replay, ".gif")

    # A Domineering match played to its end by slash commands.
    match_id, _ = await harness.start_match("domineering", alice, bob)
    rng = random.Random(5)
    final: FakeMessage | None = None
    while (await service.get(match_id)).status == "active":
        waiting = await harness.to_move(match_id)
        user = next(u for u in (alice, bob) if u.id in waiting)
        final = await harness.slash_move(user, rng.choice(await service.legal_moves(match_id, user.id)))
    assert final is not None and ("wins" in final.content or "Draw" in final.content)
    row = await service.get(match_id)
    assert final.custom_ids == [
        f"boneyard:verify:{match_id}",
        f"boneyard:moves:{match_id}:0:f",
        f"boneyard:lbrematch:{match_id}",
    ], "the final board offers the dice check, the move list and a rematch"

    # The spectator reads the move list privately, numbered by ply like the record.
    listed = await fake.click_button(final, f"boneyard:moves:{match_id}:0:f", user=carol)
    first_page = await fake.wait_for_followup(listed)
    assert first_page.ephemeral
    logged = await service.log(match_id)
    embed = first_page.embeds[0]
    assert embed["title"].endswith(f"match #{match_id} · moves")
    assert embed["description"].splitlines()[0] == f"0. {_who(logged[0].seat)}: `{logged[0].move}`"
    assert f"of {-(-len(logged) // 25)}" in embed["footer"]["text"]

    # The spectator checks the dice with the button: the answer is private.
    click = await fake.click_button(final, f"boneyard:verify:{match_id}", user=carol)
    verdict = await _deferred_followup(harness, await fake.wait_for_response(click))
    assert verdict.content.startswith(f"✅ The record of match #{match_id} holds: all ")

    # Exports: a spectator with no match of their own must name one; a player gets their latest.
    assert "give a match number" in await harness.error_reply("export", user=carol)
    export = await harness.command("export", user=alice)
    name, data = _only_file(fake.original_response(export), ".txt")
    record = parse_record(data.decode())
    assert name == f"boneyard-match-{match_id}.txt" and record.seed == row.seed and record.result != "*"
    assert record.players == ("alice", "bob") or record.players == ("bob", "alice")
    assert verify_text(data.decode()).ok

    # The replay has one frame per action (a move with the forced moves it caused is one
    # action), the last showing the final position.
    replay = await _deferred_followup(harness, await harness.command("replay", {"match": match_id}, user=bob))
    assert "the whole match" in replay.content
    _, gif = _only_file(replay, ".gif")
    moves = await service.store.moves(match_id)
    frames = replay_frames(job_for(row, moves, record.players))
    actions = sum(1 for move in moves if not move.forced)
    assert Image.open(io.BytesIO(gif)).n_frames == len(frames) == 1 + actions

    # History: five more (resigned) matches push the Domineering one to page 2.
    for _ in range(5):
        challenge = await service.challenge(
            game="focus", channel_id=fake.channel.id, guild_id=fake.guild.id, challenger_id=alice.id, opponent_id=bob.id
        )
        await service.accept(challenge.id, bob.id)
        await service.resign(challenge.id, alice.id)
    listing = await harness.command("history", {"member": bob}, user=carol)
    page = fake.original_response(listing)
    assert page is not None and listing.ephemeral
    first = page.embeds[0]["description"]
    assert first.count("Focus** vs alice · 🏆 won · rating +") == 5 and f"#{match_id} " not in first
    assert f"https://discord.com/channels/{fake.guild.id}/{fake.channel.id}" in first
    theirs = fake.original_response(await harness.command("history", {"member": alice}, user=alice))
    assert theirs is not None and theirs.embeds[0]["description"].count("vs bob · 💀 lost · rating -") == 5
    older = next(c for c in page.custom_ids if c.endswith(":o"))
    turn = await harness.settled(await fake.click_button(page, older, user=carol))
    assert harness.updated(turn)
    second = fake.original_response(listing)
    assert second is not None
    text = second.embeds[0]["description"]
    assert f"#{match_id} Domineering** vs alice" in text and "rating " in text and "Page 2" in str(second.embeds)
    assert str(row.outcome and row.outcome["reason"]) in text
    assert (
        "no finished matches"
        in str(
            (fake.original_response(await harness.command("history", {"member": carol}, user=carol)) or page).embeds
        ).lower()
    )

    # The rating trend: six rated results for alice in two games, a sparkline and a chart.
    stats = await harness.command("stats", {"member": alice}, user=carol)
    shown = await harness.public_reply(stats)
    fields = {f["name"]: f["value"] for f in shown.embeds[0]["fields"]}
    assert "Trend: 1500 → " in fields["Focus"] and "Trend: 1500 → " in fields["Domineering"]
    _, chart = _only_file(fake.original_response(stats), "ratings.png")
    assert Image.open(io.BytesIO(chart)).size == (rating_chart.WIDTH, rating_chart.HEIGHT)


async def test_records_are_for_the_server_they_were_played_in_and_their_players(harness: Harness) -> None:
    """Members of the match's server and its players (also in DMs) read it; a member of another
    server, or a stranger in DMs, is refused whatever match number they try, and /history
    elsewhere lists none of it."""
    fake = harness.fake
    alice, bob, carol = fake.players
    match_id, _ = await harness.start_match("domineering", alice, bob)
    elsewhere = fake.add_guild("Elsewhere")
    dave = fake.add_member(elsewhere, fake.add_user("dave"))
    fake.add_member(elsewhere, alice)
    hall = fake.add_text_channel(elsewhere, "hall")
    # The harness syncs the commands to its one guild; in production they are global, so they
    # exist in every server and in DMs: make them so here.
    commands = fake.world.guild_commands[fake.guild.id]
    fake.world.guild_commands[elsewhere.id] = commands
    fake.world.global_commands = [c for c in commands if c["name"] in ("export", "replay", "history")]

    carol_export = fake.original_response(await harness.command("export", {"match": match_id}, user=carol))
    assert carol_export is not None and f"Record of match #{match_id}" in carol_export.content
    for user, channel in ((alice, fake.dm_channel(alice)), (alice, hall)):
        export = fake.original_response(
            await harness.command("export", {"match": match_id}, user=user, channel=channel)
        )
        assert export is not None and f"Record of match #{match_id}" in export.content, (user, channel)
    refusal = f"Match #{match_id} was played on another server"
    for command in ("export", "replay"):
        for channel in (hall, fake.dm_channel(dave)):
            reply = await harness.error_reply(command, {"match": match_id}, user=dave, channel=channel)
            assert refusal in reply, reply

    await service_resign(harness, match_id, bob)
    listed = fake.original_response(await harness.command("history", {"member": alice}, user=dave, channel=hall))
    assert listed is not None and f"#{match_id}" not in str(listed.embeds), listed.embeds
    here = fake.original_response(await harness.command("history", {"member": alice}, user=carol))
    assert here is not None and f"#{match_id}" in str(here.embeds), here.embeds
    reply = await harness.error_reply("history", {"member": alice}, user=dave, channel=fake.dm_channel(dave))
    assert "only your own matches" in reply


async def service_resign(harness: Harness, match_id: int, user: object) -> None:
    await harness.bot.service.resign(match_id, user.id)  # type: ignore[attr-defined]


def _who(seat: int) -> str:
    """Domineering's seat names as the move list shows them."""
    return "Chance" if seat == CHANCE else GAMES["domineering"].info.seat_names[seat]
