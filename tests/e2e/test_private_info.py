"""Hidden information: private views go by DM only; closed DMs get one channel notice."""

from __future__ import annotations

import re

import pytest

from tests.e2e.harness import Harness, board_png
from tests.fake_discord import FakeUser

pytestmark = pytest.mark.e2e

TILE = re.compile(r"\b[0-6]-[0-6]\b")


async def play_draft(harness: Harness, match_id: int, user: FakeUser, picks: int) -> None:
    """`user` drafts `picks` tiles by `/move`, each the first legal pick: every reply is
    private, and the channel gets no board for a pick."""
    for _ in range(picks):
        move = (await harness.bot.service.legal_moves(match_id, user.id))[0]
        mark = harness.fake.mark()
        reply = await harness.slash_move_answered_privately(user, move)  # nothing public left beside it
        assert reply.ephemeral and move in reply.content
        await harness.fake.wait_until_idle()
        posted = [m for m in harness.fake.bot_messages(harness.fake.channel) if m.id > mark.snowflake]
        assert all("direct messages" in m.content for m in posted), [m.content for m in posted]


async def test_closed_dms_get_one_notice_and_nothing_private_reaches_the_channel(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, _ = fake.players
    fake.close_dms(bob)
    match_id, first_board = await harness.start_match("domino_wars", alice, bob)
    board_png(first_board)
    dealt = await harness.move_count(match_id)  # the chance moves of the start

    await play_draft(harness, match_id, alice, 3)
    await play_draft(harness, match_id, bob, 3)
    await fake.wait_until_idle()

    notices = [m for m in fake.bot_messages(fake.channel) if "direct messages" in m.content]
    assert len(notices) == 1, [m.content for m in notices]
    notice = notices[0]
    assert bob.mention in notice.content and "/hand" in notice.content and "Allow DMs" in notice.content
    assert not notice.attachments
    refused = fake.find_requests("POST", rf"/channels/{fake.dm_channel(bob).id}/messages")
    # bob's view changed three times, but after the first 50007 the bot stops trying
    assert len(refused) == 1 and {r.status for r in refused} == {403}, "one failed DM, then no more"
    assert fake.dms_to(bob) == []

    # Alice's DMs are open: ONE private message, sent when the draft began and edited in
    # place after each of her picks (a new DM for each would bury it), showing her picture
    # and her last pick.
    (alice_dm,) = fake.dms_to(alice)
    assert alice_dm.files()["hand.png"].startswith(b"\x89PNG") and alice_dm.edited
    edits = fake.find_requests("PATCH", rf"/channels/{fake.dm_channel(alice).id}/messages/{alice_dm.id}")
    assert len(edits) >= 3 and {r.status for r in edits} == {200}, "one edit per pick"
    alice_draft = (await harness.bot.service.view(match_id, alice.id))["private"]["draft"]
    assert len(alice_draft) == 3 and f"`pick {alice_draft[-1]}`" in alice_dm.content

    # Bob can still see his hand, just for him.
    hand = await harness.command("hand", user=bob)
    assert hand.callback_type == 5 and hand.ephemeral
    private = await fake.wait_for_followup(hand)
    assert private.ephemeral and private.files()["hand.png"].startswith(b"\x89PNG")

    # No channel message, and no picture name, carries bob's (or alice's) private tiles.
    secret_tiles: set[str] = set()
    for user in (alice, bob):
        view = (await harness.bot.service.view(match_id, user.id))["private"]
        secret_tiles |= {t for v in view.values() if isinstance(v, list) for t in v if isinstance(t, str)}
    bob_draft = (await harness.bot.service.view(match_id, bob.id))["private"]["draft"]
    assert len(bob_draft) == 3 and set(bob_draft) <= secret_tiles
    for message in fake.messages_in(fake.channel):
        if message.author_id != fake.bot.id:
            continue
        leaked = set(TILE.findall(message.content)) & secret_tiles
        assert not leaked, f"message {message.id} reveals {leaked}: {message.content!r}"
        assert all(a.filename == "board.png" for a in message.attachments)

    # The match goes on as usual.
    assert await harness.move_count(match_id) == dealt + 6
    await play_draft(harness, match_id, alice, 1)
    await fake.wait_until_idle()
    assert len([m for m in fake.bot_messages(fake.channel) if "direct messages" in m.content]) == 1
