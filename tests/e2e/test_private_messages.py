"""A player's private view is ONE direct message per match, edited in place within a turn.

Through the fake Discord: a DM the bot can no longer edit (deleted) is replaced by a fresh one
with working controls; after a restart the same DM is edited (its id is stored); a view that
would show nothing new is not sent again; and over a whole match played from the DMs, each
player gets at most one new DM each time their turn comes.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from tests.e2e.harness import Harness
from tests.e2e.test_domino_wars_dm import ScriptedPlayer, fixed_seed, has_controls, newest_controls, steps
from tests.fake_discord import FakeMessage, FakeUser

pytestmark = pytest.mark.e2e

CONTROLS = {"domino_wars": "boneyard:dw:", "wonderland": "boneyard:wl:"}


def with_controls(game: str, message: FakeMessage) -> bool:
    return any(c.startswith(CONTROLS[game]) for c in message.custom_ids)


async def pick(harness: Harness, match_id: int, user: FakeUser, rng: random.Random) -> str:
    """One secret pick of the draft (Domino Wars) or pool (Wonderland) by `/move`."""
    move = rng.choice([m for m in await harness.bot.service.legal_moves(match_id, user.id) if m.startswith("pick ")])
    await harness.slash_move_answered_privately(user, move)
    return move


@pytest.mark.parametrize("game", ["domino_wars", "wonderland"])
async def test_a_deleted_dm_is_replaced_by_a_fresh_one_with_working_controls(harness: Harness, game: str) -> None:
    fake = harness.fake
    rng = random.Random(game)
    alice, bob, _ = fake.players
    player = rng.choice([alice, bob])
    match_id, _ = await harness.start_match(game, alice, bob)
    await fake.wait_until_idle()
    (first,) = [m for m in fake.dms_to(player) if with_controls(game, m)]

    await pick(harness, match_id, player, rng)  # edits the DM in place
    assert fake.dms_to(player) == [first] and first.edited

    await fake.delete_message(first)
    mark = fake.mark()
    move = await pick(harness, match_id, player, rng)
    refused = fake.find_requests("PATCH", rf"/channels/\d+/messages/{first.id}", since=mark)
    assert [r.status for r in refused] == [404], "the bot tried the old DM first"
    (fresh,) = fake.dms_to(player)
    assert fresh.id > first.id and with_controls(game, fresh), "a fresh DM, with controls, not a dead end"
    assert fresh.files()["hand.png"].startswith(b"\x89PNG") and f"`{move}`" in fresh.content

    # The fresh controls work: the next change edits the fresh DM, not another new one.
    await pick(harness, match_id, player, rng)
    assert fake.dms_to(player) == [fresh] and fake.message(fresh.id).edited


async def test_after_a_restart_the_same_dm_is_edited(harness: Harness) -> None:
    fake = harness.fake
    rng = random.Random(7)
    alice, bob, _ = fake.players
    match_id, _ = await harness.start_match(rng.choice(["domino_wars", "wonderland"]), alice, bob)
    await pick(harness, match_id, bob, rng)
    assert len(fake.dms_to(bob)) == 1, [(m.content[-200:], m.edited, m.custom_ids[:1]) for m in fake.dms_to(bob)]
    (dm,) = fake.dms_to(bob)

    await harness.restart()
    mark = fake.mark()
    move = await pick(harness, match_id, bob, rng)
    assert fake.dms_to(bob) == [dm], "no second DM for the same turn after a restart"
    edits = fake.find_requests("PATCH", rf"/channels/\d+/messages/{dm.id}", since=mark)
    assert [r.status for r in edits] == [200] and f"`{move}`" in fake.message(dm.id).content


async def test_a_view_that_shows_nothing_new_is_not_sent_again(harness: Harness) -> None:
    fake, service, presenter = harness.fake, harness.bot.service, harness.bot.presenter
    alice, bob, _ = fake.players
    match_id, _ = await harness.start_match("domino_wars", alice, bob)
    await fake.wait_until_idle()
    row = await service.get(match_id)
    assert row.seats is not None
    seat = row.seats.index(alice.id)
    view = await service.view(match_id, alice.id)
    controls = await presenter.controls(row, alice.id, seat, view)
    (dm,) = fake.dms_to(alice)

    mark = fake.mark()
    assert await presenter.dm_view(row, alice.id, seat, view, controls=controls)
    await fake.wait_until_idle()
    assert fake.find_requests("PATCH", r"/channels/\d+/messages/\d+", since=mark) == [], "nothing new: no edit"
    assert fake.dms_to(alice) == [dm]

    changed = {**view, "private": {**view["private"], "draft": ["0-1"]}}  # something new to show
    assert await presenter.dm_view(row, alice.id, seat, changed, controls=controls)
    await fake.wait_until_idle()
    edits = fake.find_requests("PATCH", rf"/channels/\d+/messages/{dm.id}", since=mark)
    assert len(edits) == 1 and fake.dms_to(alice) == [dm]

    # An older update announced late (two tasks at once) never overwrites a newer view.
    newer = replace(row, version=row.version + 1)
    assert await presenter.dm_view(newer, alice.id, seat, view, controls=controls)
    mark = fake.mark()
    late = {**view, "private": {**view["private"], "draft": ["0-2"]}}
    assert await presenter.dm_view(row, alice.id, seat, late, controls=controls, new_turn=True)
    await fake.wait_until_idle()
    assert fake.find_requests("PATCH", r"/channels/\d+/messages/\d+", since=mark) == []
    assert fake.dms_to(alice) == [dm], "no new DM either"


async def test_a_whole_match_from_dms_sends_each_player_at_most_one_new_dm_a_turn(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Domino Wars with every item, played from the DMs only: count the new DMs against the
    number of times each player's turn came (a placement and its effect's choice, a draft's
    steps, a mulligan decision: one turn each, one DM)."""
    fixed_seed(monkeypatch)
    fake, service = harness.fake, harness.bot.service
    alice, bob, _ = fake.players
    match_id, _ = await harness.start_match("domino_wars", alice, bob, options="repeat=me tie=me mulligan=opponent")
    players = {alice.id: ScriptedPlayer(harness, alice), bob.id: ScriptedPlayer(harness, bob, drafts_high=True)}
    turns = {alice.id: 0, bob.id: 0}
    waiting: set[int] = set()
    clicks = 0
    while movers := await harness.to_move(match_id):
        for user_id in set(movers) - waiting:
            turns[user_id] += 1
        waiting = set(movers)
        player = players[movers[0]]
        await harness.settled(await player.act(await newest_controls(harness, player.user)))
        clicks += 1
        assert clicks < 400, "the match does not end"
    await fake.wait_until_idle()
    assert (await service.view(match_id, None))["outcome"] is not None
    for user in (alice, bob):
        new = fake.dms_to(user)
        # one DM per turn, and one at the start for the player not asked anything then
        assert len(new) <= turns[user.id] + 1, (user.name, len(new), turns[user.id])
        assert sum(has_controls(m) for m in new) <= 1, "only the newest DM carries controls"
        assert all(m.files()["hand.png"].startswith(b"\x89PNG") for m in new)
        assert not any("p" in steps(m) for m in new), "no placement left offered after the end"
