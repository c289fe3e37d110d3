"""Store queries the start-up path relies on, on both backends (`store` runs each test twice)."""

from __future__ import annotations

from bot.services.matches import MatchService
from bot.store import Store
from tests.bot.conftest import ALICE, BOB, CAROL, GUILD
from tests.bot.match_driver import start_match


async def test_active_match_ids_of_lists_only_running_matches_with_a_seat(store: Store) -> None:
    service = MatchService(store)
    ids = {}
    for channel, (challenger, opponent) in enumerate([(ALICE, BOB), (BOB, CAROL), (CAROL, ALICE), (ALICE, CAROL)]):
        ids[(challenger, opponent)] = await start_match(
            service, "domineering", channel=700 + channel, seat_pref="first", challenger=challenger, opponent=opponent
        )
    await service.resign(ids[(ALICE, CAROL)], CAROL)  # finished: no longer to be taken up
    await service.challenge(game="focus", channel_id=800, guild_id=GUILD, challenger_id=ALICE, opponent_id=None)

    assert await store.active_match_ids_of(ALICE) == [ids[(ALICE, BOB)], ids[(CAROL, ALICE)]]
    assert await store.active_match_ids_of(BOB) == [ids[(ALICE, BOB)], ids[(BOB, CAROL)]]
    assert await store.active_match_ids_of(9999) == []


async def test_save_clocks_writes_every_running_match_and_no_finished_one(store: Store) -> None:
    service = MatchService(store)
    ids = []
    for channel in range(3):
        ids.append(await start_match(service, "domineering", channel=900 + channel, seat_pref="first", clock="daily"))
    await service.resign(ids[2], BOB)
    ended = (await store.get_match(ids[2])).clock  # type: ignore[union-attr]
    marked = {"v": 1, "marker": "re-armed"}

    await store.save_clocks([(match_id, {**marked, "id": match_id}) for match_id in ids])

    running = dict(await store.running_clocks())
    assert running == {ids[0]: {**marked, "id": ids[0]}, ids[1]: {**marked, "id": ids[1]}}
    assert (await store.get_match(ids[2])).clock == ended, "a finished match keeps its final clock"  # type: ignore[union-attr]
