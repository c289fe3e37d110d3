"""The commands that only answer: /games, /rules, /help, /board, /matches, /match info, /hand."""

from __future__ import annotations

from typing import Any

import pytest

from bot.games import GAMES
from tests.e2e.harness import Harness, assert_board_for, board_png

pytestmark = pytest.mark.e2e


def embed_of(interaction_data: dict[str, Any] | None) -> dict[str, Any]:
    assert interaction_data is not None
    embeds = interaction_data.get("embeds")
    assert isinstance(embeds, list) and len(embeds) == 1, interaction_data
    embed = embeds[0]
    assert isinstance(embed, dict)
    return embed


async def test_games_and_rules_answer_anyone(harness: Harness) -> None:
    carol = harness.fake.players[2]
    games = await harness.command("games", user=carol)
    assert games.ephemeral
    fields = embed_of(games.callback_data)["fields"]
    assert [f["name"] for f in fields] == [f"{r.info.name} (`{key}`)" for key, r in GAMES.items()]
    focus = next(f for f in fields if f["name"] == "Focus (`focus`)")
    assert "ply_limit" in focus["value"] and "repetitions" in focus["value"]

    for key in GAMES:
        rules = await harness.command("rules", {"game": key}, user=carol)
        shown = await harness.fake.wait_for_answer(rules, ephemeral=True)
        (embed,) = shown.embeds
        info = GAMES[key].info
        assert embed["title"] == f"How to play {info.name}" and embed["description"] == info.how_to_play[:4000]
        assert embed["image"]["url"] == "attachment://move.png"
        picture = shown.files()["move.png"]
        assert picture.startswith(b"\x89PNG") and len(picture) > 10_000
        assert harness.fake.bot_messages(harness.fake.channel) == [], "only the asker sees the rules"


async def test_help_lists_the_commands_by_task_and_match_commands_stay_out_of_dms(harness: Harness) -> None:
    fake = harness.fake
    carol = fake.players[2]
    shown = await harness.command("help", user=carol)
    embed = embed_of(shown.callback_data)
    assert shown.ephemeral
    tasks = [f["name"] for f in embed["fields"]]
    assert tasks[:2] == ["Start a match", "Play your move"]
    text = str(embed)
    for example in ("`/play game:Focus opponent:@bob`", "`/move d2-d1`", "`/rules game:Domineering`"):
        assert example in text
    # As synced: the match commands are marked server-only, so Discord hides them in DMs.
    synced = {c["name"]: c for c in fake.commands(fake.guild)}
    for name in ("move", "board", "play", "resign", "clock", "leaderboard", "match", "tournament"):
        assert synced[name].get("dm_permission") is False or synced[name].get("contexts") == [0], synced[name]
    for name in ("help", "rules", "games"):
        assert synced[name].get("dm_permission") is not False and synced[name].get("contexts") != [0]


async def test_board_matches_and_match_info_describe_the_channel_match(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, carol = fake.players
    assert "no match in this channel" in await harness.error_reply("board", user=carol)
    assert "no running matches" in await harness.ephemeral_reply(await harness.command("matches", user=alice))

    challenge = await harness.challenge("focus", alice, bob, options="ply_limit=50")
    assert "has not been accepted" in await harness.error_reply("board", user=carol)
    match_id, _ = await harness.accept(challenge, bob)
    await harness.slash_move(alice, "d2-d1")

    board = await harness.command("board", user=carol)  # spectators may look
    assert board.callback_type == 5 and not board.ephemeral
    shown = await fake.wait_for_followup(board)
    assert_board_for(shown, bob)
    assert shown.content.startswith(f"Focus · match #{match_id}")
    assert board_png(shown) == board_png(fake.bot_messages(fake.channel)[-2]), "the same position as the last move"

    listing = await harness.ephemeral_reply(await harness.command("matches", user=bob))
    # each match with its opponent, whose turn it is, the time left and a link
    assert f"**Focus** #{match_id} vs {alice.mention} — **your turn** (⏱ " in listing, listing
    assert str(fake.channel.id) in listing

    info = await harness.command("match info", user=carol)
    shown_info = await fake.wait_for_answer(info, ephemeral=True)
    embed = shown_info.embeds[0]
    row = await harness.bot.service.get(match_id)
    assert info.ephemeral and embed["title"] == f"Focus · match #{match_id}"
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields["Orange"] == alice.mention and fields["Blue"] == bob.mention
    assert fields["Status"] == "active" and fields["Moves everyone knows"] == "1"
    assert fields["Options"] == "`ply_limit=50`"
    assert fields["Seed hash (sha256)"] == f"`{row.seed_hash}`" and row.seed not in str(embed)

    assert "has no hidden information" in await harness.error_reply("hand", user=alice)
