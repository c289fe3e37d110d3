"""The move log's takeback records, and the log a replay plays.

Why a record instead of deleting rows: the log is the match's history and exports replay it,
so an agreed takeback must stay visible.  A takeback appends ONE record:

    seat = TAKEBACK_SEAT (-2), move = "takeback <first undone ply>", public, not forced

meaning "every record from that ply up to here is withdrawn".  Replaying a log therefore
reads it in order and, at each takeback record, drops the records at plies >= the named
one (earlier takebacks included); `effective` does exactly that, and playing what it
returns from the match's start state gives the current state.  Ply numbers keep growing
after a takeback (the log's key is (match, ply)), so a later chance move gets a fresh
number and hence a fresh draw of the match RNG.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final, Protocol, TypeVar

TAKEBACK_SEAT: Final = -2
"""The log's seat for takeback records (CHANCE is -1, players 0 and 1)."""
_RECORD = re.compile(r"takeback (\d+)")


class LoggedMove(Protocol):
    @property
    def ply(self) -> int: ...
    @property
    def seat(self) -> int: ...
    @property
    def move(self) -> str | None: ...


M = TypeVar("M", bound=LoggedMove)


def takeback_record(first_undone_ply: int) -> str:
    """The move text of a takeback record withdrawing plies from `first_undone_ply` on."""
    return f"takeback {first_undone_ply}"


def undone_from(entry: LoggedMove) -> int | None:
    """The first ply a takeback record withdraws (None: not a takeback record)."""
    if entry.seat != TAKEBACK_SEAT:
        return None
    found = _RECORD.fullmatch(entry.move or "")
    if found is None:
        raise ValueError(f"malformed takeback record at ply {entry.ply}: {entry.move!r}")
    return int(found[1])


def effective(log: Iterable[M]) -> list[M]:
    """The records still in force, in order: what a replay plays."""
    kept: list[M] = []
    for entry in log:
        first = undone_from(entry)
        if first is None:
            kept.append(entry)
        else:
            kept = [e for e in kept if e.ply < first]
    return kept
