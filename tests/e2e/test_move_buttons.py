"""One-click move buttons under the board (Dominance's `done`), persistent and checked."""

from __future__ import annotations

import pytest

from tests.e2e.harness import Harness

pytestmark = pytest.mark.e2e


async def test_done_button_plays_done_for_the_player_to_move_only(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.services.matches.service.secrets.token_hex", lambda n: "fixed-seed-for-buttons")
    fake = harness.fake
    alice, bob, carol = fake.players
    match_id, board = await harness.start_match("dominance", alice, bob)
    service = harness.bot.service
    row = await service.get(match_id)
    view = await service.view(match_id, None)
    assert row.seats is not None and view["phase"] == "move"
    mover_id = row.seats[view["turn"][0]]
    mover = alice if mover_id == alice.id else bob
    other = bob if mover is alice else alice
    done_id = f"boneyard:mv:{match_id}:v{row.version}:done"
    assert done_id in board.custom_ids

    before = await service.store.move_count(match_id)
    for intruder, reason in ((other, "not your turn"), (carol, "not playing in this match")):
        click = await fake.click_button(board, done_id, user=intruder)
        assert reason in await harness.ephemeral_reply(click)
    assert await service.store.move_count(match_id) == before

    click = await fake.click_button(board, done_id, user=mover)
    reply = await fake.wait_for_followup(click)
    await harness.wait_for_handlers()
    # the mover's turn goes on (the roll's last stone): one post per turn, edited as it goes
    assert reply.ephemeral and "Played `done`" in reply.content and "added to this turn's message" in reply.content
    assert board.edited and "played `done`" in board.content
    assert board.files()["board.png"].startswith(b"\x89PNG")
    assert await service.store.move_count(match_id) > before
