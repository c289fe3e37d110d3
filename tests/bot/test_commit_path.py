"""Every kind of change of a running match goes through the one commit, and gets the same steps after it.

Each case makes one change of its kind (a move, a resignation, an abort, an agreed draw, a
takeback, a loss on time, a draft completed at random) on a match with a clock, and checks
what the commit path promises: exactly one `MatchService.commit` of one `Transition`, one
store write, the `moves.committed` crash point, the board's outbox row, the log grown by the
transition's lines, the returned row equal to the stored one, and then — the steps that once
differed between code paths — the cache holding the new state with the log's length (or
nothing once the match ended), the clock keeper told (`track` with the stored clock, or
`forget`), and the finish listeners called once when the match ended.

The keeper is real but never started (`FakeTime`), so no clock fires by itself: a timeout is
a player's `/claim`, made after the fake time ran past the flag.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from bot.clocks import ClockEvent, ClockKeeper, ClockState
from bot.games import Outcome
from bot.infra import crashpoints
from bot.services.matches import Agreements, MatchConflict, MatchService, Transition, Update, clock_of
from bot.store import MatchRow, MatchStatus, Store
from bot.store.clocks import MatchClockStore
from bot.store.outbox import Fresh
from tests.bot.conftest import ALICE, BOB, CHANNEL, GUILD
from tests.clocks.fake_time import FakeTime

T0 = 1_000_000.0


class RecordingKeeper(ClockKeeper):
    """A ClockKeeper that remembers what the service told it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.told: list[tuple[str, int, ClockState | None]] = []

    def track(self, match_id: int, clock: ClockState) -> None:
        self.told.append(("track", match_id, clock))
        super().track(match_id, clock)

    def forget(self, match_id: int) -> None:
        self.told.append(("forget", match_id, None))
        super().forget(match_id)


@dataclass
class World:
    store: Store
    service: MatchService
    agreements: Agreements
    keeper: RecordingKeeper
    time: FakeTime
    finished: list[MatchRow] = field(default_factory=list)

    async def start(self, game: str = "focus") -> int:
        """A blitz match of `game`, Alice in seat 0."""
        row = await self.service.challenge(
            game=game,
            channel_id=CHANNEL,
            guild_id=GUILD,
            challenger_id=ALICE,
            opponent_id=BOB,
            seat_pref="first",
            clock="blitz",
        )
        await self.service.accept(row.id, BOB)
        return row.id

    async def first_move(self, match_id: int, user: int) -> Update:
        return await self.service.play(match_id, user, (await self.service.legal_moves(match_id, user))[0])


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    store = await Store.open(tmp_path / "boneyard.sqlite3")
    time = FakeTime(T0)
    service = MatchService(store, cache_size=8)

    async def on_event(match_id: int, event: ClockEvent) -> None:
        raise AssertionError("the keeper is never started: no clock event fires")

    keeper = RecordingKeeper(
        MatchClockStore(store), on_event, now=time.now, sleep=time.sleep, lock_for=service.lock_for
    )
    service.clocks = keeper
    world = World(store, service, Agreements(service), keeper, time)

    async def listener(row: MatchRow) -> None:
        world.finished.append(row)

    service.finish_listeners.append(listener)
    try:
        yield world
    finally:
        await store.close()


# --- the kinds of change: (game, arrange, act) ------------------------------------------------

Step = Callable[[World, int], Awaitable[Any]]


async def nothing(world: World, match_id: int) -> None:
    return None


async def move(world: World, match_id: int) -> Update:
    return await world.first_move(match_id, ALICE)


async def resign(world: World, match_id: int) -> Update:
    return await world.service.resign(match_id, BOB)


INTERACTION = 2**61 + 7
"""The interaction a slash command's change answers (`reply_to`): its board's row names it."""


async def abort(world: World, match_id: int) -> Update:
    assert await world.service.abort(match_id, ALICE) is None  # waits for Bob's agreement
    update = await world.service.abort(match_id, BOB, reply_to=INTERACTION)
    assert update is not None
    return update


async def offer_draw(world: World, match_id: int) -> None:
    await world.agreements.draw(match_id, ALICE)


async def accept_draw(world: World, match_id: int) -> Update:
    update = await world.agreements.draw(match_id, BOB, reply_to=INTERACTION)
    assert isinstance(update, Update)
    return update


async def move_and_ask_to_take_it_back(world: World, match_id: int) -> None:
    await world.first_move(match_id, ALICE)
    await world.agreements.request_takeback(match_id, ALICE)


async def accept_takeback(world: World, match_id: int) -> Update:
    update = await world.agreements.answer_takeback(match_id, BOB, accept=True)
    assert isinstance(update, Update)
    return update


async def let_alice_run_out(world: World, match_id: int) -> None:
    await world.time.advance(1000)  # blitz: 1 min a move and 3 min of reserve


async def let_the_draft_run_out(world: World, match_id: int) -> None:
    await world.first_move(match_id, ALICE)  # one pick of eight
    await world.time.advance(121)  # the draft has 2 minutes of its own


async def claim_alices_time(world: World, match_id: int) -> Update:
    return await world.service.claim_time(match_id, BOB, reply_to=INTERACTION)


KINDS: dict[str, tuple[str, Step, Step, MatchStatus]] = {
    "move": ("focus", nothing, move, MatchStatus.ACTIVE),
    "resignation": ("focus", nothing, resign, MatchStatus.FINISHED),
    "abort": ("focus", nothing, abort, MatchStatus.ABORTED),
    "draw": ("focus", offer_draw, accept_draw, MatchStatus.FINISHED),
    "takeback": ("focus", move_and_ask_to_take_it_back, accept_takeback, MatchStatus.ACTIVE),
    "timeout": ("focus", let_alice_run_out, claim_alices_time, MatchStatus.FINISHED),
    "completed draft": ("domino_wars", let_the_draft_run_out, claim_alices_time, MatchStatus.ACTIVE),
}


@pytest.mark.parametrize("kind", list(KINDS))
async def test_every_kind_of_change_is_one_transition_with_the_same_steps_after_it(
    world: World, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, arrange, act, status = KINDS[kind]
    service, store, keeper = world.service, world.store, world.keeper
    match_id = await world.start(game)
    await arrange(world, match_id)
    before = await service.get(match_id)
    plies_before = await store.move_count(match_id)

    commits: list[Transition] = []
    commit = service.commit

    async def counted_commit(transition: Transition) -> Update:
        commits.append(transition)
        return await commit(transition)

    writes: list[int] = []
    commit_moves = store.commit_moves

    async def counted_commit_moves(match_id: int, **kwargs: Any) -> tuple[int, Fresh | None]:
        writes.append(match_id)
        return await commit_moves(match_id, **kwargs)

    points: list[str] = []
    monkeypatch.setattr(service, "commit", counted_commit)
    monkeypatch.setattr(store, "commit_moves", counted_commit_moves)
    monkeypatch.setattr(crashpoints, "reached", points.append)
    keeper.told.clear()

    update = await act(world, match_id)

    after = await service.get(match_id)
    [transition] = commits  # one commit of one transition, through the public entry point
    assert writes == [match_id]  # one store transaction
    assert points.count("moves.committed") == 1
    assert transition.row.version == before.version
    assert after.status == status and transition.status == status

    # the update carries the row as written: no re-read needed, and nothing differs from the store
    assert update.match.version == after.version == before.version + 1
    assert (update.match.status, update.match.outcome, update.match.clock) == (after.status, after.outcome, after.clock)
    assert json.loads(json.dumps(update.match.snapshot)) == after.snapshot

    # the board was stored with the change, showing the version it was committed at
    assert update.announcement is not None
    board = await store.announcement(update.announcement)
    assert board is not None and board.match_id == match_id
    assert board.payload["version"] == after.version
    # the board that answers /abort, /draw or /claim in public names it; a completed draft's
    # picks are secret, so that /claim is answered privately and its board is no reply
    answered = kind in ("abort", "draw", "timeout")
    assert board.follow_up_of == (INTERACTION if answered else None), "noted by the change's own write"

    # the log grew by the transition's lines, written where the log ended
    assert transition.first_ply == plies_before
    assert await store.move_count(match_id) == plies_before + len(transition.moves) == transition.plies

    if status == MatchStatus.ACTIVE:
        assert service.cache.get(match_id, after.version) is transition.state
        assert service.cache.plies(match_id, after.version) == await store.move_count(match_id)
        stored = clock_of(after)
        assert stored is not None
        assert keeper.told == [("track", match_id, stored)]
        assert keeper.get(match_id) == stored
        assert world.finished == []
    else:
        assert match_id not in service.cache
        assert keeper.told == [("forget", match_id, None)]
        assert keeper.get(match_id) is None
        assert [(row.id, row.version, row.status) for row in world.finished] == [(match_id, after.version, status)]


async def test_a_transition_from_a_stale_row_writes_nothing_and_drops_the_cached_state(world: World) -> None:
    service, store = world.service, world.store
    match_id = await world.start()
    stale = await service.get(match_id)
    state = await service.state_of(stale)
    await world.first_move(match_id, ALICE)  # another writer moved the match on
    current = await service.get(match_id)
    assert match_id in service.cache
    plies = await store.move_count(match_id)

    clock = clock_of(stale)
    assert clock is not None
    rules = service.games[stale.game]
    moved = state.play(0, state.legal_moves(0)[0])
    transition = Transition.of_moves(rules, stale, state, moved, plies, list(moved.applied), clock=clock)
    with pytest.raises(MatchConflict, match="while your move was being saved"):
        await service.commit(transition)

    assert await store.move_count(match_id) == plies
    assert (await service.get(match_id)).version == current.version
    assert await store.announcement(transition.key) is None
    assert match_id not in service.cache
    assert world.finished == []


async def test_a_transition_must_show_its_match_at_the_version_it_writes(world: World) -> None:
    match_id = await world.start()
    row = await world.service.get(match_id)
    state = await world.service.state_of(row)
    ending = Transition.ending(
        row, state, Outcome(frozenset(), "Drawn."), MatchStatus.FINISHED, line="draw agreed", first_ply=0, clock=None
    )
    assert ending.update.match.version == row.version + 1
    with pytest.raises(ValueError, match="version"):  # an update built for the row as loaded
        Transition(row=row, state=state, update=replace(ending.update, match=row), first_ply=0)
