"""The stored private message of each seat (both backends), and whom an update starts a turn for."""

from __future__ import annotations

import random

from bot.services.matches import MatchService
from bot.services.private_messages import PrivateMessage, PrivateMessages
from bot.store import Store
from tests.bot.conftest import ALICE, BOB, CHANNEL, GUILD


async def _match(service: MatchService, game: str, channel_id: int = CHANNEL) -> int:
    row = await service.challenge(
        game=game, channel_id=channel_id, guild_id=GUILD, challenger_id=ALICE, opponent_id=BOB, seat_pref="first"
    )
    await service.accept(row.id, BOB)
    return row.id


async def test_a_private_message_is_kept_per_seat_replaced_and_survives_a_reopen(store: Store) -> None:
    service = MatchService(store)
    match_id = await _match(service, "domino_wars")
    messages = PrivateMessages(store)
    assert await messages.of(match_id, 0) is None
    first = PrivateMessage(match_id, 0, 2**62 + 7, 2**62 + 11, 3, "digest-a", True)
    await messages.keep(first)
    await messages.keep(PrivateMessage(match_id, 1, 5, 6, 2, "digest-b", False))
    assert await messages.of(match_id, 0) == first  # snowflakes beyond 32 bits stay exact
    newer = PrivateMessage(match_id, 0, 2**62 + 7, 2**62 + 99, 4, "digest-c", False)
    await messages.keep(newer)
    assert await messages.of(match_id, 0) == newer, "one message per seat: the newer replaces it"
    assert (await messages.of(match_id, 1)) == PrivateMessage(match_id, 1, 5, 6, 2, "digest-b", False)


async def test_a_turn_begins_for_a_seat_only_when_it_was_not_to_act_before(store: Store) -> None:
    """`turn_began` (a new DM) only for seats newly to act; a seat acting again (an effect's
    choice after a placement, a defence step) continues its turn (its DM is edited)."""
    service = MatchService(store)
    for seed in range(3):
        rng = random.Random(seed)
        game = ["domino_wars", "wonderland", "dominance"][seed]
        match_id = await _match(service, game, CHANNEL + seed)
        seats = (await service.get(match_id)).seats
        assert seats is not None
        before = set((await service.view(match_id, None))["turn"])
        for _ in range(60):
            row = await service.get(match_id)
            if row.status != "active":
                break
            view = await service.view(match_id, None)
            user = seats[rng.choice([s for s in view["turn"] if s in (0, 1)])]
            update = await service.play(match_id, user, rng.choice(await service.legal_moves(match_id, user)))
            after = {s for s in update.public_view["turn"] if s in (0, 1)} if update.outcome is None else set()
            assert set(update.turn_began) == after - before, (update.told, before, after)
            assert set(update.turn_began) <= set(update.prompt)
            before = after
