"""A burst of `/tournament join`: each is acknowledged before any of its work is done.

Why by order and not by time: Discord forgets an interaction not acknowledged within 3 s, and
under a burst (a thousand joins, `python -m bench joins`) what decides it is that a join does no
database work before its acknowledgement.  So the test watches, for every join of a burst,
that its callback reached Discord before the service looked anything up for it, and that
every join was answered with the number of players counted right.
"""

from __future__ import annotations

import random
import re

import pytest

from bot.store.tournaments import TournamentStore
from tests.e2e.harness import Harness

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("seed", [1, 2])
async def test_every_join_of_a_burst_is_acknowledged_before_its_lookups(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    fake = harness.fake
    host = fake.players[2]
    created = await harness.command(
        "tournament create", {"name": "Burst", "game": "focus", "format": "swiss"}, user=host
    )
    await harness.public_reply(created)
    count = random.Random(seed).randint(20, 40)
    players = [fake.add_member(fake.guild, fake.add_user(f"p{i}")) for i in range(count)]
    await fake.flush_events()

    looked_up: dict[int, int] = {}  # user -> requests the fake had seen when the lookup began
    real = TournamentStore.signed_up

    async def watched(self: TournamentStore, tournament_id: int, user_id: int) -> tuple[int, bool]:
        looked_up[user_id] = len(fake.requests)
        return await real(self, tournament_id, user_id)

    monkeypatch.setattr(TournamentStore, "signed_up", watched)
    joins = [await fake.slash_command("tournament join", user=p) for p in players]
    for join in joins:
        await fake.wait_for_followup(join, timeout=30)
    await fake.wait_until_idle()

    for player, join in zip(players, joins, strict=True):
        first = join.requests[0]
        assert join.callback_type == 5 and first.path.endswith("/callback"), "deferred first"
        assert first.index < looked_up[player.id], f"{player.name}'s join looked something up before deferring"
    counts = sorted(
        int(re.search(r"\((\d+) players?\)", fake.world.messages[j.followup_ids[0]].content)[1])  # type: ignore[index]
        for j in joins
    )
    assert counts == list(range(1, count + 1))  # each join counted the players with it, no two alike
