"""Challenges: open ones, declined and withdrawn ones, refused ones, and an abort both players agree to."""

from __future__ import annotations

import pytest

from tests.e2e.harness import Harness, assert_board_for, challenge_match_id

pytestmark = pytest.mark.e2e


async def test_refused_challenges_and_decline_then_an_open_challenge(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, carol = fake.players
    assert "at least 0" in await harness.error_reply("play", {"game": "focus", "options": "ply_limit=-1"}, user=alice)
    assert "name=value" in await harness.error_reply("play", {"game": "focus", "options": "fast"}, user=alice)
    # Another bot is refused (challenging Boneyard itself plays the computer: test_computer_e2e).
    other_bot = fake.add_member(fake.guild, fake.add_user("other-bot", bot=True))
    assert "Other bots do not play" in await harness.error_reply(
        "play", {"game": "focus", "opponent": other_bot}, user=alice
    )
    assert "cannot challenge yourself" in await harness.error_reply(
        "play", {"game": "focus", "opponent": alice}, user=alice
    )

    challenge = await harness.challenge("focus", alice, bob)
    assert "already has a match" in await harness.error_reply("play", {"game": "focus"}, user=carol)
    match_id = challenge_match_id(challenge)
    wrong = await fake.click_button(challenge, f"boneyard:accept:{match_id}", user=carol)
    assert "for someone else" in await harness.ephemeral_reply(wrong)
    decline = await fake.click_button(challenge, f"boneyard:decline:{match_id}", user=bob)
    await fake.wait_for_response(decline)
    await fake.wait_until_idle()
    assert challenge.content == f"❌ {bob.mention} declined." and challenge.components == []
    assert (await harness.bot.service.get(match_id)).status == "declined"

    open_challenge = await harness.challenge("focus", alice, None, seat="second")
    assert "Anyone" in open_challenge.content
    match_id, board = await harness.accept(open_challenge, carol)
    assert (await harness.bot.service.get(match_id)).seats == (carol.id, alice.id)
    assert_board_for(board, carol)


async def test_abort_needs_both_players(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, _ = fake.players
    match_id, _ = await harness.start_match("focus", alice, bob)
    ask = await harness.command("abort", user=alice)
    request = await harness.public_reply(ask)
    assert not ask.ephemeral
    assert f"{bob.mention}, use `/abort` too" in request.content
    assert (await harness.bot.service.get(match_id)).status == "active"

    agree = await harness.command("abort", user=bob)
    final = await fake.wait_for_followup(agree)
    assert (
        "⛔ **Aborted**: The match was aborted." in final.content
        and "Draw" not in final.content
        and final.files()["board.png"].startswith(b"\x89PNG")
    )
    assert (await harness.bot.service.get(match_id)).status == "aborted"
