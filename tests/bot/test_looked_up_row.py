"""A move uses the row its caller just read, only while that row is still the match.

Why: finding a command's match reads its row, and reading it again under the match lock cost
every move a round trip.  The row is reused when nothing changed it since: not another move
(the state cache is at its version) and not a change of its clock that is not a move (a pause,
a reminder marked sent: the clock keeper holds the stored clock).  A row read before either is
read again, so the move never writes back an old clock.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.clocks import ClockEvent, ClockKeeper
from bot.services.matches import MatchService, clock_of
from bot.store import MatchRow, Store
from bot.store.clocks import MatchClockStore
from tests.bot.conftest import ALICE, BOB, CHANNEL, GUILD
from tests.clocks.fake_time import FakeTime


@pytest.fixture
async def clocked(tmp_path: Path) -> AsyncIterator[tuple[MatchService, FakeTime]]:
    store = await Store.open(tmp_path / "boneyard.sqlite3")
    time = FakeTime(1_000_000.0)
    service = MatchService(store, cache_size=8)

    async def on_event(match_id: int, event: ClockEvent) -> None:
        return None

    service.clocks = ClockKeeper(
        MatchClockStore(store), on_event, now=time.now, sleep=time.sleep, lock_for=service.lock_for
    )
    try:
        yield service, time
    finally:
        await store.close()


async def started(service: MatchService, clock: str | None) -> int:
    row = await service.challenge(
        game="focus",
        channel_id=CHANNEL,
        guild_id=GUILD,
        challenger_id=ALICE,
        opponent_id=BOB,
        seat_pref="first",
        clock=clock,
    )
    await service.accept(row.id, BOB)
    await service.play(row.id, ALICE, "d2-d1")  # the state cache now holds the match
    return row.id


def count_reads(service: MatchService, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    reads: list[int] = []
    real = service.store.get_match

    async def counted(match_id: int) -> MatchRow | None:
        reads.append(match_id)
        return await real(match_id)

    monkeypatch.setattr(service.store, "get_match", counted)
    return reads


@pytest.mark.parametrize("clock", [None, "blitz"])
async def test_a_current_row_is_not_read_again(
    clocked: tuple[MatchService, FakeTime], monkeypatch: pytest.MonkeyPatch, clock: str | None
) -> None:
    service, _ = clocked
    match_id = await started(service, clock)
    row = await service.get(match_id)
    reads = count_reads(service, monkeypatch)
    await service.play(match_id, BOB, "c2-c1", looked_up=row)
    assert reads == []


async def test_a_row_read_before_another_move_is_read_again(
    clocked: tuple[MatchService, FakeTime], monkeypatch: pytest.MonkeyPatch
) -> None:
    service, _ = clocked
    match_id = await started(service, None)
    stale = await service.get(match_id)
    await service.play(match_id, BOB, "c2-c1")
    reads = count_reads(service, monkeypatch)
    update = await service.play(match_id, ALICE, "d1-d2", looked_up=stale)
    assert reads == [match_id] and update.match.version == stale.version + 2


async def test_a_row_read_before_a_pause_is_read_again_and_the_pause_kept(
    clocked: tuple[MatchService, FakeTime],
) -> None:
    service, time = clocked
    match_id = await started(service, "blitz")
    stale = await service.get(match_id)
    assert not clock_of(stale).paused  # type: ignore[union-attr]
    await service.pause(match_id, ALICE, moderator=True)
    await time.advance(5)
    update = await service.play(match_id, BOB, "c2-c1", looked_up=stale)
    stored = clock_of(await service.get(match_id))
    assert stored is not None and stored.paused, "the move wrote back the clock from before the pause"
    assert clock_of(update.match) == stored
