"""A stored match as a `Record` (bot.records.format): what `/export` writes and `/replay` draws.

Why here and not in the store or the cog: deciding what a record may show is a rule of
matches, not of storage or of Discord.  While a match runs, its secret moves (those the
engine logged as not public) and its seed are withheld, so an export can be shared in the
channel without helping either player; once it ended, everything is in it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from bot.ai.analysis import Analysis
from bot.games import GAMES
from bot.games.base import LogEntry
from bot.records.format import RUNNING, Record, RecordMove, result_of
from bot.records.move_log import COMPLETION_SEAT, ENDING_SEAT, takeback_record, undone_from
from bot.records.replay import ReplayJob
from bot.services.matches.options import started_options
from bot.store import MatchRow, MatchStatus, MoveRow


def iso_time(timestamp: float) -> str:
    """`2026-11-23T13:00:00Z` (UTC, whole seconds)."""
    return datetime.fromtimestamp(timestamp, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def engine_options(row: MatchRow) -> dict[str, str]:
    """The options the engine started with: per-seat words (`me`, `opponent`) mapped to seat
    numbers exactly as the service did at accept time, defaults filled in."""
    resolved = started_options(GAMES[row.game], row)
    return {name: str(value) for name, value in resolved.items()}


def build_record(
    row: MatchRow,
    moves: Sequence[MoveRow],
    names: tuple[str, str],
    *,
    site: str | None = None,
) -> Record:
    """The record of a started match; secrets withheld while it is still active."""
    if row.seats is None:
        raise ValueError(f"match {row.id} has not started")
    ended = row.status != MatchStatus.ACTIVE
    outcome: dict[str, Any] = row.outcome or {}
    winners = outcome.get("winners") if row.status == MatchStatus.FINISHED else None
    scores = outcome.get("scores")
    drawn = row.seat_pref == "random" and row.challenger_id in row.seats  # the seed seated them
    return Record(
        game=row.game,
        options=engine_options(row),
        match_id=row.id,
        site=site,
        players=names,
        player_ids=row.seats,
        start=iso_time(row.created_at),
        end=iso_time(row.updated_at) if ended else RUNNING,
        status="aborted" if row.status == MatchStatus.ABORTED else ("finished" if ended else "active"),
        result=result_of("active" if not ended else row.status, winners),
        reason=outcome.get("reason") if ended else None,
        scores=tuple(int(s) for s in scores) if ended and scores is not None else None,
        seed_hash=row.seed_hash,
        seed=row.seed if ended else None,
        seat_draw=row.seats.index(row.challenger_id) if drawn else None,
        challenger_id=row.challenger_id if drawn else None,
        moves=tuple(
            RecordMove(m.ply, m.seat, m.move, m.public, m.forced)
            if ended or m.public
            else RecordMove(m.ply, m.seat, None, public=False)
            for m in moves
        ),
    )


def job_for(
    row: MatchRow, moves: Sequence[MoveRow], players: tuple[str, str], analysis: Analysis | None = None
) -> ReplayJob:
    """The replay job of a started match as stored (its ending line and completion markers,
    which are not moves, left out; takeback records stay: the replay shows them).  With the
    match's `analysis`, its costly moves are marked."""
    skipped = [m.ply for m in moves if m.seat in (ENDING_SEAT, COMPLETION_SEAT)]
    log: list[LogEntry] = []
    line_of: dict[int, int] = {}
    for m in moves:
        if m.seat in (ENDING_SEAT, COMPLETION_SEAT):
            continue
        first = undone_from(m)
        move = m.move
        if first is not None:  # the job's lines are numbered without the skipped ones
            move = takeback_record(first - sum(1 for p in skipped if p < first))
        line_of[m.ply] = len(log)
        log.append(LogEntry(m.seat, move, m.public, m.forced))
    ended = row.status != MatchStatus.ACTIVE
    marks = tuple(
        (line_of[j.ply], f"{j.label}, the computer preferred {j.best}")
        for j in (analysis.judgements if analysis is not None and ended else ())
        if j.label is not None and j.ply in line_of
    )
    return ReplayJob(row.game, engine_options(row), tuple(log), players, ended=ended, marks=marks)
