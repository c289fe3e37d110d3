"""The analysis in records and replays: comment lines that round-trip and that the checker
ignores (`python -m bot.verify` accepts an analysed export), and replays that mark the
costly moves on the right lines."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.ai.analysis import Analysis, Judgement
from bot.records.annotations import annotated
from bot.records.format import format_record, parse_record
from bot.records.verify import verify_text
from bot.services.analysis import AnalysisService
from bot.services.matches import MatchService, build_record, job_for
from renderers.replay_frames import replay_frames
from tests.bot.conftest import on_sqlite_only
from tests.bot.match_driver import play_randomly, start_match

ROOT = str(Path(__file__).resolve().parents[2])
"""This checkout: the checker run on the command line must import its code."""


async def _in_process(fn: Callable[..., Any], *args: Any) -> Any:
    return fn(*args)


async def _analysed(service: MatchService, game: str, seed: int) -> tuple[int, Analysis]:
    """A finished random match and its analysis (tiny budget), made by the real service with
    its runner driven by hand and the worker call run in this process."""
    match_id = await start_match(service, game)
    await play_randomly(service, match_id, random.Random(seed))
    analyses = AnalysisService(service, _in_process, wide=4, focused=2)
    waiting = asyncio.create_task(analyses.analyse(match_id))
    while not waiting.done():
        if analyses.queue.waiting():
            await analyses.run_one()
        else:
            await asyncio.sleep(0)
    return match_id, waiting.result()


def _costly(analysis: Analysis, ply: int) -> Analysis:
    """`analysis` with the judgement at `ply` made a blunder (so a record surely has a mark)."""
    judgements = tuple(
        dataclasses.replace(j, best="elsewhere", before=0.9, after=0.1) if j.ply == ply else j
        for j in analysis.judgements
    )
    return dataclasses.replace(analysis, judgements=judgements)


@on_sqlite_only
async def test_an_analysed_export_verifies_on_the_command_line(service: MatchService, tmp_path: Path) -> None:
    match_id, analysis = await _analysed(service, "domino_wars", 3)
    analysis = _costly(analysis, analysis.judgements[2].ply)
    row = await service.get(match_id)
    record = annotated(build_record(row, await service.log(match_id), ("alice", "bob")), analysis)
    text = format_record(record)
    comments = [line for line in text.splitlines() if line.startswith(";")]
    assert any("Accuracy" in c for c in comments) and any("blunder" in c for c in comments)
    # The blunder's comment follows its own move line.
    lines = text.splitlines()
    planted = analysis.judgements[2].ply
    at = next(i for i, line in enumerate(lines) if line.startswith(f"{planted} "))
    assert lines[at + 1].startswith("; blunder") and "preferred elsewhere" in lines[at + 1]
    assert parse_record(text) == record and format_record(parse_record(text)) == text
    path = tmp_path / "analysed.txt"
    await asyncio.to_thread(path.write_text, text)
    env = {**os.environ, "PYTHONPATH": ROOT}
    command = [sys.executable, "-m", "bot.verify", str(path)]
    done = await asyncio.to_thread(subprocess.run, command, capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith(f"The record of match #{match_id} holds")


@on_sqlite_only
async def test_comments_never_change_what_a_record_proves(service: MatchService) -> None:
    """A comment that claims another result, or junk, changes nothing; a bad move still fails."""
    match_id = await start_match(service, "dominance")
    await play_randomly(service, match_id, random.Random(9))
    record = build_record(await service.get(match_id), await service.log(match_id), ("alice", "bob"))
    plain = verify_text(format_record(record))
    noted = dataclasses.replace(
        record, comments=((-1, 'Result "0-1" {secret} [Seed "x"]'), (record.moves[3].ply, "end resign 0"))
    )
    text = format_record(noted)
    assert verify_text(text).ok == plain.ok and plain.ok
    assert parse_record(text) == noted and format_record(parse_record(text)) == text
    broken = text.replace(f"\n{record.moves[5].ply} ", f"\n{record.moves[5].ply + 1} ", 1)
    assert not verify_text(broken).ok


@on_sqlite_only
async def test_a_replay_marks_the_costly_moves_on_their_lines(service: MatchService) -> None:
    match_id, analysis = await _analysed(service, "domineering", 4)
    marked_ply = analysis.judgements[-1].ply
    analysis = _costly(analysis, marked_ply)
    row = await service.get(match_id)
    log = await service.log(match_id)
    job = job_for(row, log, ("alice", "bob"), analysis)
    (line, note), *_ = [(line, note) for line, note in job.marks if "elsewhere" in note]
    assert job.log[line].move == next(m.move for m in log if m.ply == marked_ply)
    assert note.startswith("blunder") and len(job.marks) == sum(1 for j in analysis.judgements if j.label)
    frames = replay_frames(job, max_frames=4)
    assert any(f.caption.startswith("⚠") for f in frames)  # a marked move is kept when thinned
    plain = replay_frames(job_for(row, log, ("alice", "bob")), max_frames=4)
    assert not any("⚠" in f.caption for f in plain)


def test_a_judgement_of_a_forced_move_is_never_written_as_a_mistake() -> None:
    from bot.records.format import Record, RecordMove

    record = Record(
        game="focus",
        options={},
        players=("a", "b"),
        start="2026-11-23T13:00:00Z",
        end="2026-11-23T14:00:00Z",
        status="finished",
        result="1/2-1/2",
        seed_hash="ab",
        moves=(RecordMove(0, 0, "d2-d1"),),
    )
    forced = Judgement(0, 0, "d2-d1", "d2-d1", 0.9, 0.1, forced=True)
    text = format_record(annotated(record, Analysis("focus", (forced,))))
    assert "blunder" not in text and "mistake" not in text
