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

Endings that are not moves of the game (a resignation, a loss on time, an agreed draw, an
abort) are lines of the log too, so that the record alone proves the result: ONE record

    seat = ENDING_SEAT (-3), move = "resign 1" | "timeout 0 0:00+0:00" | "draw agreed"
                                    | "abort" | "abort moderator", public, not forced

written in the same transaction that ends the match, always the log's last line.  It is
not a move: everything that replays the log (`effective`, `effective_after`) skips it like
it skips takeback records.

A draft completed at random because its time ran out starts with ONE marker record

    seat = COMPLETION_SEAT (-4), move = "complete <seat>", public, not forced

and the picks that follow it, while that seat must still pick, are drawn with ONE generator,
`chance_rng(seed, <the marker's ply>)`: `rng.choice(sorted(legal picks))` each.  So the record
says which picks the player made and which the seed made, and the checker redraws the latter.
Replays skip the marker like the other records that are not moves.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Final, Protocol, TypeVar

from bot.i18n import tr

TAKEBACK_SEAT: Final = -2
"""The log's seat for takeback records (CHANCE is -1, players 0 and 1)."""
_RECORD = re.compile(r"takeback (\d+)")
ENDING_SEAT: Final = -3
"""The log's seat for the line that ends a match outside the game's rules."""
_ENDING = re.compile(
    r"(?P<how>resign) (?P<seat>[01])|(?P<how2>timeout) (?P<loser>[01]) [0-9a-z:.+-]{1,40}"
    r"|draw agreed|abort(?: moderator)?"
)


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


COMPLETION_SEAT: Final = -4
"""The log's seat for the marker before the picks of a draft completed at random."""
_COMPLETION = re.compile(r"complete ([01])")


def completion_record(seat: int) -> str:
    """The marker's text: `seat`'s draft is completed at random from here."""
    return f"complete {seat}"


def completed_seat(entry: LoggedMove) -> int | None:
    """The seat a completion marker names (None: not a marker); ValueError when malformed."""
    if entry.seat != COMPLETION_SEAT:
        return None
    found = _COMPLETION.fullmatch(entry.move or "")
    if found is None:
        raise ValueError(f"malformed completion record at ply {entry.ply}: {entry.move!r}")
    return int(found[1])


def resign_record(seat: int) -> str:
    """The ending line of `seat`'s resignation (a tournament forfeit is one too)."""
    return f"resign {seat}"


def timeout_record(seat: int, clock: str) -> str:
    """The ending line of `seat` losing on time; `clock` is its stopped clock as the board
    showed it (`0:00` or `0:00 + 0:00`), written without spaces."""
    return f"timeout {seat} {''.join(clock.split()) or '-'}"


DRAW_RECORD: Final = "draw agreed"
ABORT_RECORD: Final = "abort"
MODERATOR_ABORT_RECORD: Final = "abort moderator"


def is_ending_text(text: str) -> bool:
    """`text` is one of the canonical ending lines."""
    return _ENDING.fullmatch(text) is not None


def _ending(text: str) -> tuple[str, int | None]:
    """(kind, losing seat or None) of an ending line; ValueError for a text that is none."""
    found = _ENDING.fullmatch(text)
    if found is None:
        raise ValueError(f"not an ending: {text!r}")
    if found["how"]:
        return "resign", int(found["seat"])
    if found["how2"]:
        return "timeout", int(found["loser"])
    return text, None


def ending_result(text: str) -> tuple[str, str]:
    """(status, result) an ending line gives: `finished` with `1-0`, `0-1`, `1/2-1/2`, or
    `aborted` with `-`.  ValueError for a text that is no ending."""
    _, seat = _ending(text)
    if seat is not None:  # a resignation or a loss on time: the other seat wins
        return "finished", ("0-1" if seat == 0 else "1-0")
    if text == DRAW_RECORD:
        return "finished", "1/2-1/2"
    return "aborted", "-"


def ending_reason(text: str, seat_names: Sequence[str]) -> str:
    """The `Reason` a match ended by the ending line `text` is stored and exported with: the
    service writes it and the checker expects it, so the header's reason follows from the line."""
    kind, seat = _ending(text)
    if kind == "resign" and seat is not None:
        return tr("{seat} resigned.", seat=seat_names[seat])
    if kind == "timeout" and seat is not None:
        return tr("{seat} ran out of time", seat=seat_names[seat])
    if text == DRAW_RECORD:
        return tr("Drawn by agreement.")
    return tr("A moderator aborted the match.") if text == MODERATOR_ABORT_RECORD else tr("The match was aborted.")


NOT_PLAYED: Final = frozenset((TAKEBACK_SEAT, ENDING_SEAT, COMPLETION_SEAT))
"""The seats of the log's records that are not moves (all below CHANCE, -1)."""


def is_play(entry: LoggedMove) -> bool:
    """A line that a replay plays: a move of a seat or of chance, not a takeback record, an
    ending or a completion marker."""
    return entry.seat not in NOT_PLAYED


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
        if entry.seat in (ENDING_SEAT, COMPLETION_SEAT):
            continue
        first = undone_from(entry)
        if first is None:
            kept.append(entry)
        else:
            kept = [e for e in kept if e.ply < first]
    return kept


def effective_after(count: int, records: Sequence[M], total: int) -> list[M] | None:
    """`effective(log)[count:]` from part of the log: `records` holds every record of the log
    that is not a move (seats in NOT_PLAYED: takebacks, completion markers, the ending) and
    every entry at ply >= `count`, in ply order; `total` is the log's length.
    None when the log's plies do not run 0..total-1 without a gap (never written so: the
    caller then reads the whole log).

    Why: a snapshot that leaves its recent history to the log needs only the log's tail, and
    a long game's whole log is thousands of rows.  An entry's place among the effective ones
    is at most its ply, so the tail lies at plies >= `count`; those records alone say
    which plies are not in force (the records themselves and, for a record at ply r taking
    back from ply f, every entry at f <= ply < r), hence where the effective tail starts.
    An ending record is the log's last line, so it shifts no place: it is only left out."""
    tail = [e for e in records if e.ply >= count]
    if (tail[-1].ply if tail else None) != (total - 1 if total > count else None):
        return None  # the last ply is not total - 1: a gap somewhere
    spans = sorted(
        [(e.ply, e.ply + 1) for e in records if e.seat in NOT_PLAYED]
        + [(first, e.ply) for e in records if (first := undone_from(e)) is not None and first < e.ply]
    )
    merged: list[tuple[int, int]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    first_kept = count  # the ply of the effective entry at place `count`
    for start, end in merged:
        if start > first_kept:
            break
        first_kept += end - start
    return [
        e for e in tail if e.ply >= first_kept and e.seat != ENDING_SEAT and not any(a <= e.ply < b for a, b in merged)
    ]
