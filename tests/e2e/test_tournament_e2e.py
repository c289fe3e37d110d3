"""Tournaments through the fake Discord: the Domino Wars death match of the sources, end to end.

A host opens the event, two contestants join, items are given (by the host, as gifts from
other members), the host starts it; the bot opens the match in a thread with the items as
match options and the blitz clock, results flow back when the match ends, and the champion
is announced with the standings picture.  A restart in the middle changes nothing.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.records.format import format_record
from bot.records.move_log import ENDING_SEAT
from bot.records.verify import verify_text
from bot.services.matches import build_record
from tests.e2e.harness import Harness, is_png
from tests.fake_discord import FakeChannel, FakeMessage

pytestmark = pytest.mark.e2e


async def _thread_of_match(harness: Harness, tournament_channel: FakeChannel) -> tuple[FakeChannel, int]:
    """The thread the bot opened for the event's game, and the match played in it."""
    fake = harness.fake
    message = await fake.wait_for_message(tournament_channel, lambda m: "▶️" in m.content)
    threads = [c for c in fake.world.channels.values() if c.is_thread and c.parent_id == tournament_channel.id]
    assert len(threads) == 1, [t.name for t in threads]
    thread = threads[0]
    assert f"<#{thread.id}>" in message.content
    row = await harness.bot.service.store.open_match_in_channel(thread.id)
    assert row is not None and row.status == "active"
    return thread, row.id


async def test_domino_wars_death_match_with_items_end_to_end(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, carol = fake.players
    channel = fake.channel

    created = await harness.command(
        "tournament create",
        {"name": "Death Match", "game": "domino_wars", "format": "deathmatch", "clock": "blitz"},
        user=carol,
    )
    assert created.callback_type == 5 and not created.ephemeral  # acknowledged before the database
    assert (await harness.public_reply(created)).embeds[0]["title"] == "🏆 Death Match"
    for player in (alice, bob):
        joined = await harness.public_reply(await harness.command("tournament join", user=player))
        assert "joined **Death Match**" in joined.content

    gift = await harness.command(
        "tournament item give", {"player": alice, "item": "repeat", "giver": carol}, user=carol
    )
    assert "receives the item **repeat**" in (await harness.public_reply(gift)).content
    await harness.public_reply(
        await harness.command("tournament item give", {"player": bob, "item": "tie"}, user=carol)
    )
    refused = await harness.error_reply("tournament item give", {"player": alice, "item": "tie"}, user=carol)
    assert "Only one player can hold `tie`" in refused

    # host-only commands are refused to a contestant, and change nothing
    for command in ("tournament start", "tournament cancel"):
        assert "Only the tournament's host" in await harness.error_reply(command, user=alice)
    assert (await harness.bot.tournaments.in_channel(channel.id)).status == "open"

    mark = fake.mark()
    start = await harness.command("tournament start", user=carol)
    started = await fake.wait_for_followup(start)
    assert is_png(started.files()["bracket.png"])
    thread, match_id = await _thread_of_match(harness, channel)
    row = await harness.bot.service.get(match_id)
    assert row.seats is not None
    alice_seat = row.seats.index(alice.id)
    assert row.options == {"repeat": str(alice_seat), "tie": str(1 - alice_seat)}
    assert row.clock is not None and row.clock["control"]["name"] == "blitz"
    board = await fake.wait_for_message(thread, lambda m: bool(m.attachments), since=mark)
    assert alice.mention in board.content and bob.mention in board.content

    # Discord archives the idle thread: the bot reopens it while the match runs
    mark = fake.mark()
    thread.archived = True
    await fake.gateway.dispatch("THREAD_UPDATE", fake.world.channel_payload(thread))
    await fake.wait_for_request(
        "PATCH", rf"/channels/{thread.id}", lambda r: (r.json or {}).get("archived") is False, since=mark
    )
    assert not thread.archived

    # a restart mid-event: the match and the tournament carry on from SQLite
    await harness.restart()

    # bob resigns inside the thread: the result flows back and alice is champion
    mark = fake.mark()
    resign = await harness.command("resign", user=bob, channel=thread)
    confirm = await fake.wait_for_answer(resign, ephemeral=True)
    click = await fake.click_button(confirm, f"boneyard:resign:{match_id}", user=bob)
    await fake.wait_for_response(click)

    def champion(m: FakeMessage) -> bool:
        return "Champion" in m.content

    final = await fake.wait_for_message(channel, champion, since=mark)
    assert alice.mention in final.content
    assert is_png(final.files()["standings.png"])
    ended = await harness.bot.tournaments.in_channel(channel.id)
    assert ended.status == "finished"
    winner = await harness.bot.ratings.rating(alice.id, "domino_wars")
    assert winner.rating.value > 1500 and winner.wins == 1

    standings = await harness.command("tournament standings", user=bob, channel=thread)
    reply = await fake.wait_for_followup(standings)
    assert is_png(reply.files()["standings.png"])
    stats = await harness.public_reply(await harness.command("stats", {"member": alice}, user=bob))
    assert "1 W 0 D 0 L" in str(stats.embeds[0]["fields"][0]["value"])


async def test_tournament_commands_outside_a_tournament_explain_themselves(harness: Harness) -> None:
    alice = harness.fake.players[0]
    text = await harness.error_reply("tournament join", user=alice)
    assert "no tournament in this channel" in text
    text = await harness.error_reply("leaderboard", {"game": "focus"}, user=alice)
    assert "Nobody has finished a rated Focus match" in text


async def test_the_creator_hosts_without_playing_and_a_player_may_drop_themselves(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, carol = fake.players
    await harness.command(
        "tournament create", {"name": "Cup", "game": "focus", "format": "single_elimination"}, user=carol
    )
    for player in (alice, bob, carol):
        await harness.command("tournament join", user=player)
    drop = await harness.command("tournament drop", user=carol)
    assert (await fake.wait_for_followup(drop)).content.startswith("🚪")
    entries = await harness.bot.tournaments.entries((await harness.bot.tournaments.in_channel(fake.channel.id)).id)
    assert [e.user_id for e in entries] == [alice.id, bob.id]
    # carol still hosts the event although she no longer plays in it
    start = await harness.command("tournament start", user=carol)
    await fake.wait_for_followup(start)
    _thread, match_id = await _thread_of_match(harness, fake.channel)
    row = await harness.bot.service.get(match_id)
    assert set(row.seats or ()) == {alice.id, bob.id}
    # the host pauses the clock of a game she does not play, like a moderator
    assert "no clock" in await harness.ephemeral_reply(await harness.command("pause", user=carol, channel=_thread))


async def test_members_of_a_configured_host_role_and_server_managers_are_hosts(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, carol = fake.players
    staff = fake.add_role(fake.guild, "Tournament Staff", permissions=0)
    managers = fake.add_role(fake.guild, "Managers", permissions=1 << 5)  # MANAGE_GUILD
    harness.bot.settings = replace(harness.bot.settings, host_roles=frozenset({"tournament staff"}))
    await harness.command("tournament create", {"name": "Open", "game": "focus", "format": "swiss"}, user=carol)
    await harness.command("tournament join", user=alice)
    assert "Only the tournament's host" in await harness.error_reply("tournament start", user=bob)
    fake.member(fake.guild, bob).role_ids.append(staff.id)
    # now a host: the start gets past the host check and fails only for want of players
    assert "needs at least 2 players" in await harness.error_reply("tournament start", user=bob)
    fake.member(fake.guild, bob).role_ids.remove(staff.id)
    fake.member(fake.guild, alice).role_ids.append(managers.id)
    cancel = await harness.command("tournament cancel", user=alice)
    assert "was cancelled" in (await fake.wait_for_followup(cancel)).content


async def test_a_forfeit_and_a_host_s_decision_end_tournament_games_with_lines_the_record_proves(
    harness: Harness,
) -> None:
    """A player withdrawn mid-game resigns it (`end resign <seat>`); a series the host decides
    voids its open game (`end abort moderator`); both records hold and say so."""
    fake = harness.fake
    alice, bob, carol = fake.players
    second = fake.add_text_channel(fake.guild, "cup-two")
    wanted: dict[int, str] = {}
    for channel, name in ((fake.channel, "Cup"), (second, "Shield")):
        await harness.command(
            "tournament create",
            {"name": name, "game": "focus", "format": "single_elimination"},
            user=carol,
            channel=channel,
        )
        for player in (alice, bob):
            await harness.command("tournament join", user=player, channel=channel)
        await fake.wait_for_followup(await harness.command("tournament start", user=carol, channel=channel))
        _thread, match_id = await _thread_of_match(harness, channel)
        row = await harness.bot.service.get(match_id)
        assert row.seats is not None
        if channel is fake.channel:
            dropped = await harness.command("tournament drop", {"player": bob}, user=carol, channel=channel)
            assert (await fake.wait_for_followup(dropped)).content.startswith("🚪")
            wanted[match_id] = f"resign {row.seats.index(bob.id)}"
        else:
            reported = await harness.command(
                "tournament report", {"player": alice, "result": "win"}, user=carol, channel=channel
            )
            assert (await fake.wait_for_followup(reported)).content.startswith("📝")
            wanted[match_id] = "abort moderator"
    for match_id, line in wanted.items():
        row = await harness.bot.service.get(match_id)
        logged = await harness.bot.service.store.moves(match_id)
        assert (logged[-1].seat, logged[-1].move) == (ENDING_SEAT, line)
        verdict = verify_text(format_record(build_record(row, logged, ("alice", "bob"))))
        assert verdict.ok and verdict.sentence.endswith(f"it ended with `{line}` at ply {logged[-1].ply}."), verdict
