"""Who a board pings: the player the turn passes to, never the player who just acted.

A Dominance turn is several stone moves after one roll: they are added to the turn's post
(edited, no new ping), and a board that is posted while the mover's turn goes on names them
without notifying them.  When the turn passes, the new player to move is notified, once.
The fake Discord computes who a new message notifies from its `allowed_mentions`, as Discord
does.
"""

from __future__ import annotations

import random

import pytest

from tests.e2e.harness import Harness

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("seed", [3, 11])
async def test_a_turn_pings_whom_it_passes_to_once_and_never_the_mover(harness: Harness, seed: int) -> None:
    fake = harness.fake
    alice, bob, _ = fake.players
    users = {alice.id: alice, bob.id: bob}
    match_id, _ = await harness.start_match("dominance", alice, bob)
    service = harness.bot.service
    rng = random.Random(seed)
    kept, passed = 0, 0
    for _ in range(40):
        row = await service.get(match_id)
        if row.outcome is not None or row.seats is None:
            break
        [mover_id] = await harness.to_move(match_id)
        move = rng.choice(await service.legal_moves(match_id, mover_id))
        mark = fake.mark()
        await harness.command("move", {"notation": move}, user=users[mover_id])
        await fake.wait_until_idle()
        new_posts = [m for m in fake.bot_messages(fake.channel) if m.id > mark.snowflake]
        pinged = [u for m in new_posts for u in m.pinged_ids]
        assert mover_id not in pinged, [m.content for m in new_posts]
        after = await service.get(match_id)
        to_move = await harness.to_move(match_id) if after.outcome is None else []
        if to_move and to_move != [mover_id]:
            assert pinged == to_move, "the player the turn passes to is notified once"
            passed += 1
        else:
            assert pinged == [], "nobody is notified while the mover's turn goes on"
            kept += 1
    assert kept and passed, "the game gave both a turn that went on and one that passed"
