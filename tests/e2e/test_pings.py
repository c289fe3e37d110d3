"""Who a board pings: the player the turn passes to, never the player who just acted.

A Dominance turn is several stone moves after one roll, each posted with the board and
"@player to move"; that player just moved and is looking at the thread, so the line names
them without notifying them.  When the turn passes, the new player to move is notified.
The fake Discord computes who a new message notifies from its `allowed_mentions`, as
Discord does.
"""

from __future__ import annotations

import random

import pytest

from tests.e2e.harness import Harness

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("seed", [3, 11])
async def test_a_board_pings_whom_the_turn_passes_to_and_never_the_mover(harness: Harness, seed: int) -> None:
    fake = harness.fake
    alice, bob, _ = fake.players
    users = {alice.id: alice, bob.id: bob}
    match_id, _ = await harness.start_match("dominance", alice, bob)
    service = harness.bot.service
    rng = random.Random(seed)
    kept, passed = 0, 0
    for _ in range(24):
        row = await service.get(match_id)
        if row.outcome is not None or row.seats is None:
            break
        view = await service.view(match_id, None)
        [mover_id] = [row.seats[s] for s in view["turn"]]
        moves = await service.legal_moves(match_id, mover_id)
        reply = await harness.slash_move(users[mover_id], rng.choice(moves))
        assert mover_id not in reply.pinged_ids, reply.content
        after = await service.get(match_id)
        to_move = [after.seats[s] for s in (await service.view(match_id, None))["turn"]] if after.seats else []
        if after.outcome is None and to_move != [mover_id]:
            assert reply.pinged_ids == to_move, reply.content
            passed += 1
        else:
            assert reply.pinged_ids == [], reply.content
            kept += mover_id in to_move
    assert kept and passed, "the game gave both a turn that went on and one that passed"
