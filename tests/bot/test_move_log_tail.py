"""Reading only the log's tail: `effective_after` (and the store's read through it) gives what
`effective(log)[count:]` gives."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from bot.records.move_log import (
    COMPLETION_SEAT,
    ENDING_SEAT,
    NOT_PLAYED,
    TAKEBACK_SEAT,
    completion_record,
    effective,
    effective_after,
    resign_record,
    takeback_record,
)
from bot.store import Store
from tests.bot.conftest import ALICE, BOB
from tests.bot.match_driver import stored_challenge


@dataclass(frozen=True)
class Entry:
    ply: int
    seat: int
    move: str


def random_log(rng: random.Random, length: int) -> list[Entry]:
    """Moves, takeback records and completion markers, sometimes an ending line last; a
    record may take back from any earlier ply (even one already withdrawn, or another
    record's), as the reader must cope with any record."""
    log: list[Entry] = []
    for ply in range(length):
        if ply and rng.random() < 0.2:
            first = rng.choice([rng.randrange(ply), max(0, ply - rng.randint(1, 3))])
            log.append(Entry(ply, TAKEBACK_SEAT, takeback_record(first)))
        elif rng.random() < 0.1:
            log.append(Entry(ply, COMPLETION_SEAT, completion_record(rng.randrange(2))))
        else:
            log.append(Entry(ply, rng.randrange(2), f"m{ply}"))
    if length and rng.random() < 0.5:
        log.append(Entry(length, ENDING_SEAT, resign_record(rng.randrange(2))))
    return log


def read(log: list[Entry], count: int) -> list[Entry]:
    """What the store reads: every record that is not a move and every entry at ply >= count."""
    return [e for e in log if e.ply >= count or e.seat in NOT_PLAYED]


@pytest.mark.parametrize("seed", range(40))
def test_the_tail_equals_the_effective_log_after_count(seed: int) -> None:
    rng = random.Random(seed)
    log = random_log(rng, rng.randint(0, 60))
    kept = effective(log)
    assert all(e.seat in (0, 1) for e in kept)
    for count in range(len(kept) + 2):
        assert effective_after(count, read(log, count), len(log)) == kept[count:], count


def test_a_log_without_takebacks_is_read_from_count_on() -> None:
    log = [Entry(p, p % 2, f"m{p}") for p in range(10)]
    assert effective_after(4, read(log, 4), 10) == log[4:]
    assert effective_after(10, read(log, 10), 10) == []


def test_a_gap_in_the_plies_asks_for_the_whole_log() -> None:
    log = [Entry(p, p % 2, f"m{p}") for p in (0, 1, 2, 4, 5)]
    assert effective_after(2, read(log, 2), len(log)) is None
    assert effective_after(7, [Entry(8, 0, "m8")], 3) is None


async def test_the_store_reads_the_same_tail_on_either_backend(store: Store) -> None:
    """Through the store (SQLite and PostgreSQL): the tail after every count equals the
    effective log's, a stale version reads nothing, and a log with a gap in its plies (never
    written by the bot; made here by hand) is read whole instead."""
    match_id = await stored_challenge(store)
    version = (await store.start_match(match_id, (ALICE, BOB), {}, [], BOB)).version
    log = random_log(random.Random(5), 40)
    for entry in log:
        version, _ = await store.commit_moves(
            match_id,
            expected_version=version,
            first_ply=entry.ply,
            moves=[(entry.seat, entry.move, True, False)],
            snapshot={},
        )

    async def all_tails() -> None:
        kept = effective(await store.moves(match_id))
        for count in range(len(kept) + 2):
            tail = await store.effective_moves_after(match_id, count, version=version)
            assert tail == [m.move for m in kept[count:]], count

    assert any(e.seat == TAKEBACK_SEAT for e in log) and len(effective(log)) < len(log)
    assert any(e.seat == COMPLETION_SEAT for e in log), "the log has markers the tail must skip"
    await all_tails()
    assert await store.effective_moves_after(match_id, 0, version=version - 1) is None
    await store.db.execute("DELETE FROM moves WHERE match_id = ? AND ply = ?", (match_id, 30))
    await all_tails()
