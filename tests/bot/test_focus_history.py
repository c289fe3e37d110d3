"""Focus's repetition draw (ruling 9) through the stored match: the snapshot keeps no history
since the last capture, the move log does, and a service with a cold cache (a restart) rebuilds
it from the log, on SQLite and on PostgreSQL."""

from __future__ import annotations

import random

from bot.games import GAMES
from bot.games.focus import FocusState
from bot.services.matches import Agreements, MatchService
from bot.store import Store
from tests.bot.conftest import ALICE, BOB
from tests.bot.match_driver import start_match

RULES = GAMES["focus"]
USERS = (ALICE, BOB)


def restarted(store: Store) -> MatchService:
    """A new service on the same database: nothing cached, as after a restart."""
    return MatchService(store, cache_size=4)


async def current(service: MatchService, match_id: int) -> FocusState:
    state = await service.replay(match_id)
    assert isinstance(state, FocusState)
    return state


def back(move: str) -> str:
    return "-".join(reversed(move.split("-")))


def cycle(state: FocusState) -> list[str]:
    """Four plies (each side moves and moves back) that return to `state` without a capture."""
    for first in state.legal_moves(state.to_move):
        if "-" not in first:
            continue
        one = state.play(state.to_move, first)
        for reply in one.legal_moves(one.to_move):
            if "-" not in reply or one.play(one.to_move, reply).captured != state.captured:
                continue
            moves = [first, reply, back(first), back(reply)]
            try:
                end = state
                for move in moves:
                    end = end.play(end.to_move, move)
            except ValueError:
                continue
            if end.dump() == state.dump() | {"ply": state.ply + 4, "last_move": back(reply)}:
                return moves
    raise AssertionError("no four-ply cycle here")


async def play(store: Store, match_id: int, moves: list[str]) -> MatchService:
    """Play `moves`, each through a freshly started service; the last service."""
    service = restarted(store)
    for move in moves:
        service = restarted(store)
        state = await current(service, match_id)
        await service.play(match_id, USERS[state.to_move], move)
    return service


async def after_a_capture(store: Store, seed: int) -> int:
    """A Focus match (Alice in seat 0) played at random until a piece was captured, so the
    snapshot's anchor lies inside the log."""
    service = restarted(store)
    match_id = await start_match(service, "focus", seat_pref="first")
    rng = random.Random(seed)
    state = await current(service, match_id)
    while state.captured == (0, 0):
        moves = state.legal_moves(state.to_move)
        while True:  # a random move among those that do not end the game
            move = rng.choice(moves)
            after = state.play(state.to_move, move)
            if after.outcome is None:
                break
            moves = [m for m in moves if m != move]
        await service.play(match_id, USERS[state.to_move], move)
        state = after  # the service's position, without replaying the log each ply
    assert state == await current(service, match_id)
    return match_id


async def test_a_third_repetition_across_restarts_is_a_draw(store: Store) -> None:
    match_id = await after_a_capture(store, seed=1)
    service = restarted(store)
    row = await service.get(match_id)
    assert row.snapshot is not None and "trail" not in row.snapshot
    start = await current(service, match_id)
    shuffle = cycle(start)
    service = await play(store, match_id, shuffle)
    row = await service.get(match_id)
    assert row.snapshot is not None
    needed = RULES.log_needed(row.snapshot)
    assert needed is not None and needed > 0  # the history after the capture comes from the log
    assert (await restarted(store).view(match_id, None))["repetitions"] == 2
    service = await play(store, match_id, shuffle[:3])
    assert (await restarted(store).view(match_id, None))["repetitions"] == 2  # the 3rd ply's position, twice
    service = await play(store, match_id, shuffle[3:])
    row = await restarted(store).get(match_id)
    assert row.status == "finished" and row.outcome is not None
    assert row.outcome["winners"] == [] and "3 times" in row.outcome["reason"]


async def test_a_third_repetition_after_an_agreed_takeback_is_a_draw(store: Store) -> None:
    match_id = await after_a_capture(store, seed=2)
    start = await current(restarted(store), match_id)
    shuffle = cycle(start)
    await play(store, match_id, shuffle)  # the start position twice
    mover = USERS[start.to_move]
    other = next(m for m in start.legal_moves(start.to_move) if m != shuffle[0] and "-" in m)
    await play(store, match_id, [other])
    agreements = Agreements(restarted(store))
    await agreements.request_takeback(match_id, mover)
    await Agreements(restarted(store)).answer_takeback(match_id, USERS[1 - start.to_move], accept=True)
    cold = restarted(store)
    view = await cold.view(match_id, None)
    assert view["repetitions"] == 2 and view["last_move"] == shuffle[3]  # the withdrawn move counts for nothing
    await play(store, match_id, shuffle[:3])
    assert (await restarted(store).get(match_id)).status == "active"
    await play(store, match_id, shuffle[3:])
    row = await restarted(store).get(match_id)
    assert row.status == "finished" and row.outcome is not None and "3 times" in row.outcome["reason"]


async def test_a_stale_row_is_read_again_with_its_log(store: Store) -> None:
    """Another process moves the match on between reading the row and its log: the moves are
    never loaded into the older snapshot; the newer row comes back with its own moves."""
    match_id = await after_a_capture(store, seed=3)
    await play(store, match_id, cycle(await current(restarted(store), match_id))[:1])
    reader = restarted(store)
    stale = await reader.get(match_id)
    mover = restarted(store)
    state = await current(mover, match_id)
    await mover.play(match_id, USERS[state.to_move], state.legal_moves(state.to_move)[0])
    row, later = await reader.snapshot_moves(stale)
    assert row.version == stale.version + 1 and row.snapshot is not None
    assert RULES.load(row.snapshot, later) == await current(mover, match_id)
    assert await store.effective_moves_after(match_id, 0, version=stale.version) is None
