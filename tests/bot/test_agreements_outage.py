"""An accepted draw or takeback whose commit fails leaves its offer standing (both backends).

The offer is removed by the ending's or the takeback's own commit (`Transition.offers_taken`,
`Store.commit_moves`), never in a write of its own before it: a commit that fails while the
database is away must leave the match running AND the offer open, so accepting again works."""

from __future__ import annotations

import random
import sqlite3
from typing import Any

import pytest

from bot.services.matches import Agreements, MatchService, Offered, Update
from bot.store import MatchStatus, StaleVersion, Store
from bot.store.lobby import LobbyStore
from bot.store.outbox import Fresh
from tests.bot.conftest import ALICE, BOB
from tests.bot.match_driver import start_match, stored_challenge

USERS = (ALICE, BOB)


def fail_the_next_commit(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The store's next `commit_moves` raises as a database gone away does (nothing written);
    the later ones work.  Returns the list of the matches whose commit failed."""
    failed: list[int] = []
    commit_moves = store.commit_moves

    async def once_away(match_id: int, **kwargs: Any) -> tuple[int, Fresh | None]:
        if not failed:
            failed.append(match_id)
            raise sqlite3.OperationalError("database is locked")
        return await commit_moves(match_id, **kwargs)

    monkeypatch.setattr(store, "commit_moves", once_away)
    return failed


async def play_a_few(service: MatchService, match_id: int, rng: random.Random, moves: int) -> None:
    for _ in range(moves):
        row = await service.get(match_id)
        assert row.seats is not None and row.status == MatchStatus.ACTIVE
        [seat] = (await service.state_of(row)).turn
        user = row.seats[seat]
        await service.play(match_id, user, rng.choice(await service.legal_moves(match_id, user)))


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_a_draw_accepted_while_the_commit_fails_still_stands_and_is_accepted_again(
    service: MatchService, monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    rng = random.Random(seed)
    agreements = Agreements(service)
    match_id = await start_match(service, "focus", seat_pref=rng.choice(["first", "second", "random"]))
    await play_a_few(service, match_id, rng, rng.randrange(4))
    offerer, accepter = rng.sample(USERS, 2)
    assert isinstance(await agreements.draw(match_id, offerer), Offered)
    plies = await service.store.move_count(match_id)

    failed = fail_the_next_commit(service.store, monkeypatch)
    with pytest.raises(sqlite3.OperationalError):
        await agreements.draw(match_id, accepter, accept_only=rng.random() < 0.5)
    assert failed == [match_id]
    row = await service.get(match_id)
    assert row.status == MatchStatus.ACTIVE and await service.store.move_count(match_id) == plies
    offer = await agreements.store.offer(match_id, "draw")
    assert offer is not None and (offer.user_id, offer.version) == (offerer, row.version), "the offer still stands"

    drawn = await agreements.draw(match_id, accepter, accept_only=True)  # the offer's button, again
    assert isinstance(drawn, Update) and drawn.match.status == MatchStatus.FINISHED
    assert drawn.outcome is not None and not drawn.outcome.winners
    assert await agreements.store.offer(match_id, "draw") is None, "taken by the ending's own commit"


@pytest.mark.parametrize("seed", [4, 5, 6])
async def test_a_takeback_accepted_while_the_commit_fails_still_stands_and_is_accepted_again(
    service: MatchService, monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    rng = random.Random(seed)
    agreements = Agreements(service)
    match_id = await start_match(service, "focus", setup=rng.choice(["standard", "drop"]))  # no chance moves
    await play_a_few(service, match_id, rng, 1 + rng.randrange(4))
    row = await service.get(match_id)
    assert row.seats is not None
    [to_move] = (await service.state_of(row)).turn
    requester, answerer = row.seats[1 - to_move], row.seats[to_move]  # who moved last asks
    offered = await agreements.request_takeback(match_id, requester)
    before = await service.view(match_id, None)
    plies = await service.store.move_count(match_id)

    fail_the_next_commit(service.store, monkeypatch)
    with pytest.raises(sqlite3.OperationalError):
        await agreements.answer_takeback(match_id, answerer, accept=True)
    row = await service.get(match_id)
    assert await service.view(match_id, None) == before and await service.store.move_count(match_id) == plies
    offer = await agreements.store.offer(match_id, "takeback")
    assert offer is not None and (offer.user_id, offer.version) == (requester, row.version), "the request stands"

    undone = await agreements.answer_takeback(match_id, answerer, accept=True)
    assert isinstance(undone, Update) and undone.match.version == row.version + 1
    assert await service.store.move_count(match_id) == plies + 1  # the takeback record
    assert offered.undo >= 1 and await agreements.store.offer(match_id, "takeback") is None


async def test_a_refused_takeback_is_withdrawn(service: MatchService) -> None:
    agreements = Agreements(service)
    match_id = await start_match(service, "focus", seat_pref="first")
    await play_a_few(service, match_id, random.Random(7), 1)
    await agreements.request_takeback(match_id, ALICE)
    assert await agreements.answer_takeback(match_id, BOB, accept=False) == await service.get(match_id)
    assert await agreements.store.offer(match_id, "takeback") is None


async def test_the_commit_removes_only_the_offers_it_takes_and_only_when_it_writes(store: Store) -> None:
    """The store's side, on each backend: the removal is part of the version-checked write."""
    lobby = LobbyStore(store)
    match_id, other = await stored_challenge(store, channel=1), await stored_challenge(store, channel=2)
    for id_ in (match_id, other):
        started = await store.start_match(id_, (ALICE, BOB), {}, [], BOB)
        for kind in ("draw", "takeback"):
            await lobby.put_offer(id_, kind, ALICE, started.version)
    version = started.version

    with pytest.raises(StaleVersion):  # another writer won: nothing written, the offers stand
        await store.commit_moves(
            match_id, expected_version=version - 1, first_ply=0, moves=[], snapshot={}, offers_taken=["draw"]
        )
    assert await lobby.offer(match_id, "draw") is not None

    await store.commit_moves(
        match_id,
        expected_version=version,
        first_ply=0,
        moves=[(0, "a1", True, False)],
        snapshot={},
        offers_taken=["draw"],
    )
    assert await lobby.offer(match_id, "draw") is None
    assert await lobby.offer(match_id, "takeback") is not None  # a kind it did not take
    assert await lobby.offer(other, "draw") is not None  # another match's
