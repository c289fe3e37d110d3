"""Records that cannot lie: random honest records of all five games verify, and every
tampering the checker is meant to catch is refused with one sentence naming where.

The records are built from engine playouts (random options, random seats to move, chance
drawn from a random seed exactly as the service draws it), ending either by the game's own
rules or by an ending line (resignation, time, agreed draw, abort) written as the service
writes it.  Mutations: dropped tails, flipped results and statuses, lines appended after the
end, altered ending lines, and random bytes; none may pass and none may crash the checker.
"""

from __future__ import annotations

import dataclasses
import random
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from bot.games import CHANCE, GAMES
from bot.records.fairness import chance_rng, seed_hash
from bot.records.format import RESULTS, STATUSES, Record, RecordMove, format_record, parse_record
from bot.records.move_log import (
    ABORT_RECORD,
    DRAW_RECORD,
    ENDING_SEAT,
    MODERATOR_ABORT_RECORD,
    ending_reason,
    ending_result,
    resign_record,
    timeout_record,
)
from bot.records.verify import Verdict, verify, verify_bytes, verify_text
from bot.verify import main as verify_main
from tests.games.playout import PLAYOUT_OPTIONS, step
from tests.slow import slow_cases

GAME_KEYS = sorted(GAMES)
ENDINGS = ("resign", "timeout", "draw", "abort", "moderator")


def random_options(game: str, rng: random.Random) -> dict[str, str]:
    """A random choice for every option of `game` that lists its choices, over the playout bound."""
    chosen: dict[str, object] = dict(PLAYOUT_OPTIONS.get(game, {}))
    for option in GAMES[game].info.options:
        if option.choices:
            chosen[option.name] = rng.choice(option.choices)
    return {name: str(value) for name, value in GAMES[game].resolve_options(chosen).items()}


def honest_record(game: str, rng: random.Random, *, ending: str | None = None) -> Record:
    """A finished (or aborted) record as the service would export it.  `ending` None: play
    to the game's own end, else stop after a random number of moves and end that way."""
    rules = GAMES[game]
    options = random_options(game, rng)
    seed = "".join(rng.choice("0123456789abcdef") for _ in range(32))
    state = rules.start(options=options)
    moves: list[RecordMove] = []
    stop = rng.randrange(0, 40) if ending is not None else None
    while state.outcome is None and (stop is None or len(moves) < stop):
        seat, move = step(state, rng)
        if seat == CHANCE:
            move = state.sample_chance(chance_rng(seed, len(moves)))
        state = state.play(seat, move)
        base = len(moves)
        moves.extend(RecordMove(base + i, e.seat, e.move, e.public, e.forced) for i, e in enumerate(state.applied))
    names = rules.info.seat_names
    if state.outcome is not None:
        outcome = state.outcome
        status, reason, scores = "finished", outcome.reason, outcome.scores
        result = {(0,): "1-0", (1,): "0-1"}.get(tuple(sorted(outcome.winners)), "1/2-1/2")
    else:
        seat = rng.randrange(2)
        line = {
            "resign": resign_record(seat),
            "timeout": timeout_record(seat, rng.choice(["0:00", "0:00 + 0:00", "", "0m + 0s"])),
            "draw": DRAW_RECORD,
            "abort": ABORT_RECORD,
            "moderator": MODERATOR_ABORT_RECORD,
        }[ending or "resign"]
        moves.append(RecordMove(len(moves), ENDING_SEAT, line))
        status, result = ending_result(line)
        reason, scores = ending_reason(line, names), None
    return Record(
        game=game,
        options=options,
        players=("alice", "bob"),
        player_ids=(1001, 1002),
        match_id=rng.randrange(1, 10**6),
        start="2026-11-23T13:00:00Z",
        end="2026-11-23T14:00:00Z",
        status=status,
        result=result,
        reason=reason,
        scores=scores,
        seed_hash=seed_hash(seed),
        seed=seed,
        moves=tuple(moves),
    )


def records(game: str, count: int, salt: str) -> list[Record]:
    rng = random.Random(f"{salt}-{game}")
    return [honest_record(game, rng, ending=rng.choice((None, *ENDINGS))) for _ in range(count)]


def assert_one_clean_sentence(verdict: Verdict) -> None:
    sentence = verdict.sentence
    assert sentence and "\n" not in sentence and len(sentence) < 500, sentence
    assert not any(unicodedata.category(c) in ("Cc", "Cf") for c in sentence), repr(sentence)


def refused(record: Record) -> Verdict:
    verdict = verify_text(format_record(record))
    assert not verdict.ok, f"a tampered record was accepted: {verdict.sentence}"
    assert_one_clean_sentence(verdict)
    return verdict


@pytest.mark.parametrize("game", GAME_KEYS)
def test_honest_records_with_every_kind_of_ending_hold(game: str) -> None:
    rng = random.Random(f"honest-{game}")
    for ending in (None, *ENDINGS):
        record = honest_record(game, rng, ending=ending)
        verdict = verify_text(format_record(record))
        assert verdict.ok, verdict.sentence
        if record.moves[-1].seat == ENDING_SEAT:
            assert f"it ended with `{record.moves[-1].move}` at ply {record.moves[-1].ply}" in verdict.sentence


@pytest.mark.parametrize("game", GAME_KEYS)
def test_dropped_tails_are_refused(game: str) -> None:
    """Dropping the last lines — the game's last move or the ending line — with or without
    a flipped result, leaves no line that ends the match."""
    rng = random.Random(f"tails-{game}")
    for record in records(game, 6, "tails"):
        cut = rng.randrange(1, min(len(record.moves), 8) + 1)
        dropped = dataclasses.replace(record, moves=record.moves[:-cut])
        for result in {record.result, rng.choice(RESULTS)}:
            verdict = refused(dataclasses.replace(dropped, result=result))
            assert "ply" in verdict.sentence.lower(), verdict.sentence


@pytest.mark.parametrize("game", slow_cases(GAME_KEYS, {"wonderland"}))
def test_flipped_results_and_statuses_are_refused(game: str) -> None:
    for record in records(game, 6, "flips"):
        for status in STATUSES:
            for result in RESULTS:
                if (status, result) == (record.status, record.result):
                    continue
                verdict = refused(dataclasses.replace(record, status=status, result=result))
                assert (
                    "`Status` says" in verdict.sentence
                    or "`Result` says" in verdict.sentence
                    or ("running" in verdict.sentence)
                ), verdict.sentence


@pytest.mark.parametrize("game", GAME_KEYS)
def test_lines_after_the_end_are_refused(game: str) -> None:
    """A takeback, a move, a chance move or a second ending after the end: refused at its ply."""
    rng = random.Random(f"after-{game}")
    for record in records(game, 6, "after"):
        last = len(record.moves)
        earlier = rng.randrange(0, last)
        for extra in (
            RecordMove(last, ENDING_SEAT, resign_record(rng.randrange(2))),
            RecordMove(last, -2, f"takeback {earlier}"),
            RecordMove(last, rng.randrange(2), "pass"),
            RecordMove(last, CHANCE, "roll 1 1"),
        ):
            verdict = refused(dataclasses.replace(record, moves=(*record.moves, extra)))
            assert verdict.sentence.startswith(f"Ply {last}: "), verdict.sentence


@pytest.mark.parametrize("game", GAME_KEYS)
def test_altered_endings_are_refused(game: str) -> None:
    """The ending line changed but not the header, or the header but not the line."""
    rng = random.Random(f"endings-{game}")
    for _ in range(6):
        record = honest_record(game, rng, ending=rng.choice(ENDINGS))
        line = record.moves[-1]
        if line.seat != ENDING_SEAT:  # the game ended by its rules before the chosen stop
            continue
        assert line.move is not None
        others = [
            text
            for text in (resign_record(0), resign_record(1), timeout_record(0, "0:00"), DRAW_RECORD, ABORT_RECORD)
            if ending_result(text) != ending_result(line.move)
        ]
        changed = dataclasses.replace(line, move=rng.choice(others))
        verdict = refused(dataclasses.replace(record, moves=(*record.moves[:-1], changed)))
        assert f"ply {line.ply}" in verdict.sentence, verdict.sentence
        verdict = refused(dataclasses.replace(record, reason="Orange resigned." + " really" * rng.randrange(1, 3)))
        assert "`Reason` says" in verdict.sentence and f"ply {line.ply}" in verdict.sentence


@pytest.mark.parametrize("game", GAME_KEYS)
def test_an_ending_line_where_the_moves_already_ended_the_game_is_refused(game: str) -> None:
    record = honest_record(game, random.Random(f"both-{game}"), ending=None)
    end = RecordMove(len(record.moves), ENDING_SEAT, resign_record(0))
    verdict = refused(dataclasses.replace(record, moves=(*record.moves, end), result="0-1"))
    assert verdict.sentence.startswith(f"Ply {end.ply}: "), verdict.sentence


@pytest.mark.parametrize("game", GAME_KEYS)
def test_random_bytes_never_crash_the_checker(game: str) -> None:
    """Bytes overwritten, inserted or deleted anywhere in the move lines: a sentence naming
    a line or ply, never a traceback; random garbage files alike."""
    rng = random.Random(f"bytes-{game}")
    for record in records(game, 4, "bytes"):
        data = format_record(record).encode()
        moves_at = data.index(b"\n\n") + 2
        for _ in range(25):
            mutated = bytearray(data)
            at = rng.randrange(moves_at, len(data) - 1)
            kind = rng.randrange(3)
            if kind == 0:
                mutated[at] = rng.choice([b for b in range(256) if b != data[at]])
            elif kind == 1:
                mutated[at:at] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 4)))
            else:
                del mutated[at : at + rng.randrange(1, 4)]
            verdict = verify_bytes(bytes(mutated))
            assert_one_clean_sentence(verdict)
            if verdict.ok:
                # A player's move swapped for another legal one may hold (a player's choices are the
                # record's word), but the dice, the ending and the result cannot change.
                same = parse_record(bytes(mutated).decode("utf-8-sig"))
                assert [m for m in same.moves if m.seat not in (0, 1)] == [
                    m for m in record.moves if m.seat not in (0, 1)
                ]
                assert (same.status, same.result, same.reason) == (record.status, record.result, record.reason)
            else:
                assert "line" in verdict.sentence.lower() or "ply" in verdict.sentence.lower(), verdict.sentence
        for size in (0, 1, 100, 5000):
            assert_one_clean_sentence(verify_bytes(bytes(rng.randrange(256) for _ in range(size))))


def test_a_verdict_on_an_unchanged_record_object_agrees_with_its_text() -> None:
    record = honest_record("dominance", random.Random(1), ending="timeout")
    assert verify(record) == verify_text(format_record(record))


def test_the_command_line_reads_any_bytes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A non-UTF-8 byte, a BOM with CRLF, a 5 MB move line, bidi overrides: one sentence each."""
    record = honest_record("dominance", random.Random(2), ending="resign")
    text = format_record(record)
    cases = {
        "bom-crlf": ("\ufeff" + text.replace("\n", "\r\n")).encode(),
        "latin1": text.replace("alice", "alicé").encode("latin-1"),
        "huge": (text + f"{len(record.moves)} 0 " + "x" * 5_000_000 + "\n").encode(),
        "bidi": text.replace("[Game ", "[Ga\u202eme\u200b ").encode(),
        "huge-ply": (text + "9" * 10_000 + " 0 pass\n").encode(),
    }
    outcomes = {}
    for name, data in cases.items():
        path = tmp_path / name
        path.write_bytes(data)
        code = verify_main([str(path)])
        out = capsys.readouterr().out
        assert out.count("\n") == 1 and len(out) < 400, out[:500]
        assert not any(unicodedata.category(c) in ("Cc", "Cf") for c in out.rstrip("\n")), repr(out)
        outcomes[name] = (code, out)
    assert outcomes["bom-crlf"][0] == 0 and "holds" in outcomes["bom-crlf"][1]
    assert outcomes["latin1"] == (1, outcomes["latin1"][1])
    assert "line 5 has a byte that is not UTF-8 (0xe9" in outcomes["latin1"][1]
    assert outcomes["huge"][0] == 1 and outcomes["huge"][1].startswith(f"Ply {len(record.moves)}: ")
    assert outcomes["bidi"][0] == 1 and "Line 2: " in outcomes["bidi"][1]
    assert outcomes["huge-ply"][0] == 1 and "a move line is" in outcomes["huge-ply"][1]


def test_the_checker_imports_only_the_pure_record_and_game_packages() -> None:
    """`python -m bot.verify` needs neither Discord, nor a database, nor the services."""
    code = (
        "import sys, bot.verify; "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('discord', 'aiosqlite', 'asyncpg', 'PIL', 'cogs', "
        "'renderers') or m.startswith(('bot.services', 'bot.store', 'bot.app', 'bot.clocks'))); print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", out
