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
from collections.abc import Sequence
from pathlib import Path

import pytest

from bot.games import CHANCE, GAMES, GameState
from bot.games.base import LogEntry
from bot.records.fairness import chance_rng, seed_hash
from bot.records.format import RESULTS, STATUSES, Record, RecordMove, format_record, parse_record
from bot.records.move_log import (
    ABORT_RECORD,
    COMPLETION_SEAT,
    DRAW_RECORD,
    ENDING_SEAT,
    MODERATOR_ABORT_RECORD,
    TAKEBACK_SEAT,
    completion_record,
    ending_reason,
    ending_result,
    resign_record,
    takeback_record,
    timeout_record,
)
from bot.records.verify import Verdict, verify, verify_bytes, verify_text
from bot.verify import main as verify_main
from tests.games.playout import PLAYOUT_OPTIONS, step
from tests.slow import slow_cases

GAME_KEYS = sorted(GAMES)
ENDINGS = ("resign", "timeout", "draw", "abort", "moderator")
PICKS = {
    "domino_wars": [f"pick {a}-{b}" for a in range(7) for b in range(a + 1, 7)],
    "wonderland": [f"pick {rank}{suit}" for rank in ("A", "2", "7", "10", "Q") for suit in "CDHS"],
}
"""Draft picks to swap a completed draft's picks for (legal or not, any other is refused)."""


def random_options(game: str, rng: random.Random, variant: int | None = None) -> dict[str, str]:
    """A choice for every option of `game` that lists its choices, over the playout bound:
    random, or with `variant` the variant-th choice of each (counting from a different one per
    option), so that four variants in a row cover every choice (both board sizes, every item)."""
    chosen: dict[str, object] = dict(PLAYOUT_OPTIONS.get(game, {}))
    for index, option in enumerate(GAMES[game].info.options):
        if option.choices:
            at = rng.randrange(len(option.choices)) if variant is None else variant + index
            chosen[option.name] = option.choices[at % len(option.choices)]
    return {name: str(value) for name, value in GAMES[game].resolve_options(chosen).items()}


def honest_record(game: str, rng: random.Random, *, ending: str | None = None, variant: int | None = None) -> Record:
    """A finished (or aborted) record as the service would export it.  `ending` None: play
    to the game's own end, else stop after a random number of moves and end that way.  Seats
    drawn from the seed or chosen, random players, and (in the games with a secret draft)
    drafts sometimes completed at random from the seed, each as the service does it."""
    rules = GAMES[game]
    options = random_options(game, rng, variant)
    seed = "".join(rng.choice("0123456789abcdef") for _ in range(32))
    ids = [rng.randrange(10**17, 10**19) for _ in range(2)]
    challenger = ids[0]
    drawn = rng.random() < 0.5
    if drawn and chance_rng(seed, -1).randrange(2) != 0:  # the challenger got seat 1
        ids.reverse()
    state = rules.start(options=options)
    moves: list[RecordMove] = []
    stop = rng.randrange(0, 40) if ending is not None else None
    completed: set[int] = set()
    groups: list[tuple[int, GameState]] = []  # (first ply, state before) of each move in force
    takebacks = rng.randrange(3)

    def log(before: GameState, applied: Sequence[LogEntry]) -> None:
        groups.append((len(moves), before))
        moves.extend(RecordMove(len(moves), e.seat, e.move, e.public, e.forced) for e in applied)

    while state.outcome is None and (stop is None or len(moves) < stop):
        undoable = [
            i for i, (_, before) in enumerate(groups[-4:], start=max(0, len(groups) - 4)) if not before.drafting
        ]
        if takebacks and undoable and rng.random() < 0.05:  # an agreed takeback, outside a secret draft
            first, state = groups[rng.choice(undoable)]
            groups[:] = [g for g in groups if g[0] < first]
            moves.append(RecordMove(len(moves), TAKEBACK_SEAT, takeback_record(first)))
            takebacks -= 1
            continue
        picking = sorted(s for s in state.turn if s != CHANCE and s not in completed) if state.drafting else []
        if picking and CHANCE not in state.turn and rng.random() < 0.15:  # the draft limit ran out
            seat = rng.choice(picking)
            completed.add(seat)
            moves.append(RecordMove(len(moves), COMPLETION_SEAT, completion_record(seat)))
            draw = chance_rng(seed, len(moves) - 1)
            while state.outcome is None and seat in state.turn and CHANCE not in state.turn:
                before, state = state, state.play(seat, draw.choice(sorted(state.legal_moves(seat))))
                log(before, state.applied)
            continue
        seat, move = step(state, rng)
        if seat == CHANCE:
            move = state.sample_chance(chance_rng(seed, len(moves)))
        before, state = state, state.play(seat, move)
        log(before, state.applied)
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
    players = ("alice", "bob") if ids[0] == challenger else ("bob", "alice")
    return Record(
        game=game,
        options=options,
        players=players,
        player_ids=(ids[0], ids[1]),
        match_id=rng.randrange(1, 10**6),
        start="2026-11-23T13:00:00Z",
        end="2026-11-23T14:00:00Z",
        status=status,
        result=result,
        reason=reason,
        scores=scores,
        seed_hash=seed_hash(seed),
        seed=seed,
        seat_draw=ids.index(challenger) if drawn else None,
        challenger_id=challenger if drawn else None,
        moves=tuple(moves),
    )


_made: dict[str, list[Record]] = {}
_drawing: dict[str, random.Random] = {}


def records(game: str, count: int) -> list[Record]:
    """The first `count` random honest records of `game` (endings of every kind, option
    variants in turn): one seeded sequence per game, made once per test process and shared by
    the tampering tests (each tampers with its own random choices).  Making a record plays a
    whole random game; each test made its own, 70 of them per game.  The sequence's breadth is
    itself tested (`test_the_random_records_cover_every_option_...`)."""
    made = _made.setdefault(game, [])
    rng = _drawing.setdefault(game, random.Random(f"records-{game}"))
    while len(made) < count:
        made.append(honest_record(game, rng, ending=rng.choice((None, *ENDINGS)), variant=len(made)))
    return made[:count]


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
    for record in records(game, 6):
        cut = rng.randrange(1, min(len(record.moves), 8) + 1)
        dropped = dataclasses.replace(record, moves=record.moves[:-cut])
        for result in {record.result, rng.choice(RESULTS)}:
            verdict = refused(dataclasses.replace(dropped, result=result))
            assert "ply" in verdict.sentence.lower(), verdict.sentence


@pytest.mark.parametrize("game", slow_cases(GAME_KEYS, {"wonderland"}))
def test_flipped_results_and_statuses_are_refused(game: str) -> None:
    for record in records(game, 6):
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
    for record in records(game, 6):
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
    """The ending line changed but not the header — to any other ending, the same result by
    another way included (a resignation for a loss on time, an abort for a moderator's) — or
    the header but not the line.  (A loss on time's clock reading alone is the record's word:
    nothing else in a record says what the clock showed.)"""
    rng = random.Random(f"endings-{game}")
    tried = 0
    while tried < 8:
        record = honest_record(game, rng, ending=rng.choice(ENDINGS))
        line = record.moves[-1]
        if line.seat != ENDING_SEAT:  # the game ended by its rules before the chosen stop
            continue
        assert line.move is not None
        tried += 1
        endings = (*map(resign_record, (0, 1)), *(timeout_record(s, "0:00") for s in (0, 1)), DRAW_RECORD)
        others = [
            text
            for text in (*endings, ABORT_RECORD, MODERATOR_ABORT_RECORD)
            if text.split()[:2] != line.move.split()[:2]
        ]
        for other in others:
            changed = dataclasses.replace(line, move=other)
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


def _without_clock_reading(move: RecordMove) -> RecordMove:
    """`move`, a loss on time's ending line cut to who lost (`timeout 1`)."""
    if move.seat == ENDING_SEAT and (move.move or "").startswith("timeout "):
        return dataclasses.replace(move, move=" ".join((move.move or "").split()[:2]))
    return move


@pytest.mark.parametrize("game", GAME_KEYS)
def test_random_bytes_never_crash_the_checker(game: str) -> None:
    """Bytes overwritten, inserted or deleted anywhere in the move lines: a sentence naming
    a line or ply, never a traceback; random garbage files alike."""
    rng = random.Random(f"bytes-{game}")
    for record in records(game, 4):
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
                # A loss on time's clock reading alone is the record's word, as
                # test_altered_endings_are_refused says: `timeout 1 0:00` may become `timeout 1 0:0`.
                same = parse_record(bytes(mutated).decode("utf-8-sig"))
                assert [_without_clock_reading(m) for m in same.moves if m.seat not in (0, 1)] == [
                    _without_clock_reading(m) for m in record.moves if m.seat not in (0, 1)
                ]
                assert (same.status, same.result, same.reason) == (record.status, record.result, record.reason)
                assert (same.seat_draw, same.challenger_id) == (record.seat_draw, record.challenger_id)
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


@pytest.mark.parametrize("game", GAME_KEYS)
def test_the_random_records_cover_every_option_seat_draws_takebacks_and_completed_drafts(game: str) -> None:
    """What the mutations above run over: every choice of every option (both board sizes),
    drawn and chosen seats, takebacks, and in the draft games drafts completed from the seed."""
    made = records(game, 8)
    seen = {(name, value) for record in made for name, value in record.options.items()}
    for option in GAMES[game].info.options:
        for choice in option.choices:
            assert (option.name, str(choice)) in seen, (option.name, choice)
    assert {record.seat_draw is None for record in made} == {True, False}
    assert any(m.seat == TAKEBACK_SEAT for record in made for m in record.moves)
    completed = any(m.seat == COMPLETION_SEAT for record in made for m in record.moves)
    assert completed == (game in ("domino_wars", "wonderland"))
    assert all(verify(record).ok for record in made)


def _drawn(game: str, count: int) -> list[Record]:
    """Up to `count` of the first `4 * count` records whose seats were drawn from the seed."""
    return [record for record in records(game, count * 4) if record.seat_draw is not None][:count]


@pytest.mark.parametrize("game", GAME_KEYS)
def test_altered_seat_lines_are_refused(game: str) -> None:
    """The seat line's seat or challenger changed, the players swapped under it, or the line
    moved, doubled or put in a version 1 record: refused, naming ply -1 or the line."""
    rng = random.Random(f"seats-{game}")
    for record in _drawn(game, 4):
        assert record.seat_draw is not None and record.challenger_id is not None
        seat, challenger = record.seat_draw, record.challenger_id
        other_id = record.player_ids[1 - seat]
        for changed in (
            dataclasses.replace(record, seat_draw=1 - seat),
            dataclasses.replace(record, challenger_id=other_id),
            dataclasses.replace(record, challenger_id=challenger + rng.randrange(1, 10**6)),
            dataclasses.replace(record, players=record.players[::-1], player_ids=record.player_ids[::-1]),
        ):
            verdict = refused(changed)
            assert verdict.sentence.startswith("Ply -1: `-1 seats challenger "), verdict.sentence
        text = format_record(record)
        head, body = text.split("\n\n", 1)
        line, rest = body.split("\n", 1)
        first, later = rest.split("\n", 1)
        for bad in (
            f"{head}\n\n{first}\n{line}\n{later}",
            f"{head}\n\n{line}\n{line}\n{rest}",
            text.replace('[Boneyard "2"]', '[Boneyard "1"]'),
        ):
            verdict = verify_text(bad)
            assert not verdict.ok and "This is not a readable record: Line " in verdict.sentence, verdict.sentence
            assert_one_clean_sentence(verdict)


@pytest.mark.parametrize("game", ["domino_wars", "wonderland"])
def test_altered_picks_of_a_completed_draft_are_refused(game: str) -> None:
    """A pick the seed made, swapped for another pick, or the completion marker naming the
    other seat: refused at that ply."""
    rng = random.Random(f"picks-{game}")
    made = [record for record in records(game, 24) if any(m.seat == COMPLETION_SEAT for m in record.moves)]
    assert len(made) >= 3
    for record in made:
        marker = next(m for m in record.moves if m.seat == COMPLETION_SEAT)
        seat = int((marker.move or "")[-1])
        picks = [m for m in record.moves[marker.ply + 1 :] if m.seat == seat and (m.move or "").startswith("pick ")]
        pick = rng.choice(picks[:8])
        other = rng.choice([text for text in PICKS[game] if text != pick.move])
        moves = list(record.moves)
        moves[pick.ply] = dataclasses.replace(pick, move=other)
        verdict = refused(dataclasses.replace(record, moves=tuple(moves)))
        assert verdict.sentence.startswith(f"Ply {pick.ply}: "), verdict.sentence
        moves = list(record.moves)
        moves[marker.ply] = dataclasses.replace(marker, move=completion_record(1 - seat))
        verdict = refused(dataclasses.replace(record, moves=tuple(moves)))
        assert verdict.sentence.startswith(f"Ply {marker.ply + 1}: ") or verdict.sentence.startswith(
            f"Ply {marker.ply}: "
        ), verdict.sentence


def test_a_version_1_record_is_read_and_its_verdict_says_what_version_1_cannot_prove() -> None:
    """Version 1 wrote the seat draw as a `SeatDraw` tag naming the seat only: such a record
    holds and says so; a wrong seat is refused; and a version 1 record without its ending line
    cannot prove a resignation."""
    for record in _drawn("dominance", 3):
        old = dataclasses.replace(record, version=1, challenger_id=None)
        text = format_record(old)
        assert (
            '[Boneyard "1"]' in text and f'[SeatDraw "challenger {old.seat_draw}"]' in text and "-1 seats" not in text
        )
        verdict = verify_text(text)
        assert verdict.ok and verdict.sentence.startswith("The version 1 record of match #"), verdict.sentence
        assert "version 1 does not name the challenger" in verdict.sentence
        assert old.seat_draw is not None
        verdict = refused(dataclasses.replace(old, seat_draw=1 - old.seat_draw))
        assert verdict.sentence.startswith("`SeatDraw` says challenger")
    resigned = honest_record("dominance", random.Random(5), ending="resign")
    assert resigned.moves[-1].seat == ENDING_SEAT
    old = dataclasses.replace(resigned, version=1, seat_draw=None, challenger_id=None, moves=resigned.moves[:-1])
    verdict = refused(old)
    assert "cannot prove an ending its moves do not reach" in verdict.sentence, verdict.sentence
