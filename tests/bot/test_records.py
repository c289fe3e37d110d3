"""Match records: the text format's round trip, export → verify for every game, tampering."""

from __future__ import annotations

import dataclasses
import random
import string
from pathlib import Path

import pytest

from bot.games import CHANCE, GAMES
from bot.records.fairness import chance_rng
from bot.records.format import Record, RecordError, RecordMove, format_record, parse_record, result_of
from bot.records.move_log import ENDING_SEAT, TAKEBACK_SEAT, effective, is_play, takeback_record
from bot.records.verify import verify, verify_text
from bot.services.matches import Agreements, MatchService, Offered, ServiceError, build_record
from bot.verify import main as verify_main
from tests.bot.conftest import ALICE, BOB, on_sqlite_only
from tests.bot.match_driver import play_randomly, start_match
from tests.bot.test_fair_dice_readme import rederive
from tests.games.playout import PLAYOUT_OPTIONS, step
from tests.slow import slow_cases

NASTY = string.ascii_letters + string.digits + ' "\\\n\t{}[]=-_é🎲'


def _random_text(rng: random.Random, size: int = 12) -> str:
    return "".join(rng.choice(NASTY) for _ in range(rng.randrange(1, size)))


MAX_PLIES = 2_000
"""Where `_random_record` cuts a game that has not ended.  Random Focus ends by its own
`ply_limit` (the shared playout bound, a draw at ply 400) long before; this bounds any game,
and a game cut here is simply a running record."""


def _random_record(game: str, rng: random.Random, max_plies: int = MAX_PLIES) -> Record:
    """A record of one random game of `game` (engine log, chance drawn from a random seed),
    started with the shared playout bound and cut after `max_plies` plies if still running."""
    rules = GAMES[game]
    options = rules.resolve_options(PLAYOUT_OPTIONS.get(game))
    seed = "".join(rng.choice("0123456789abcdef") for _ in range(32))
    state = rules.start(options=options)
    moves: list[RecordMove] = []
    while state.outcome is None and len(moves) < max_plies:
        seat, move = step(state, rng)
        if seat == CHANCE:
            move = state.sample_chance(chance_rng(seed, len(moves)))
        state = state.play(seat, move)
        base = len(moves)
        moves.extend(RecordMove(base + i, e.seat, e.move, e.public, e.forced) for i, e in enumerate(state.applied))
    outcome = state.outcome
    running = rng.random() < 0.3 or outcome is None
    if running:
        moves = [RecordMove(m.ply, m.seat, None, public=False) if not m.public else m for m in moves]
    status = "active" if running else rng.choice(["finished", "aborted"])
    return Record(
        game=game,
        options={k: str(v) for k, v in options.items()},
        players=(_random_text(rng), _random_text(rng)),
        player_ids=(rng.randrange(10**18), None if rng.random() < 0.2 else rng.randrange(10**18)),
        match_id=rng.choice([None, rng.randrange(1, 10**6)]),
        site=rng.choice([None, "https://discord.com/channels/1/2"]),
        start="2026-11-23T13:00:00Z",
        end="-" if running else "2026-11-23T14:00:00Z",
        status=status,
        result=result_of(status, sorted(outcome.winners) if outcome is not None else None),
        reason=None if running else _random_text(rng, 40),
        scores=None if running or outcome is None else outcome.scores,
        seed_hash="ab" * 32,
        seed=None if running else seed,
        moves=tuple(moves),
        extra=tuple((f"X{rng.randrange(100)}y{i}", _random_text(rng)) for i in range(rng.randrange(3))),
    )


@pytest.mark.parametrize("game", slow_cases(sorted(GAMES), {"wonderland"}))
def test_parse_then_format_round_trips_random_games(game: str) -> None:
    rng = random.Random(f"records-{game}")
    for _ in range(6):
        record = _random_record(game, rng)
        text = format_record(record)
        assert parse_record(text) == record
        assert format_record(parse_record(text)) == text
        assert len(text.splitlines()) == len([t for t in text.splitlines() if t.startswith("[")]) + 1 + len(
            record.moves
        ), "one line per move after one blank line"


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        ('[Boneyard "3"]\n', "version 3 record; this reader knows versions 1 and 2"),
        ('[Boneyard "1.0"]\n', "version 1.0 record"),
        ('[Boneyard "1"]\n[Game "focus"]\n', "lacks the tags"),
        ("hello\n", "Line 1"),
        ('[Game "a\\q"]\n', "unknown escape"),
    ],
)
def test_unreadable_texts_are_refused_with_the_reason(text: str, wanted: str) -> None:
    with pytest.raises(RecordError, match=wanted):
        parse_record(text)


def test_a_skipped_ply_is_refused_with_its_line() -> None:
    record = _random_record("focus", random.Random(3))
    lines = format_record(record).splitlines()
    blank = lines.index("")
    del lines[blank + 2]
    with pytest.raises(RecordError, match=f"Line {blank + 3}: expected ply 1, found ply 2"):
        parse_record("\n".join(lines))


async def _finished_record(service: MatchService, game: str, seed: int) -> Record:
    # Random Focus play rarely ends by itself now that the source's "no ply limit" is the
    # default (ruling 9), so these matches use the ply_limit option to end as a draw.
    options = {"ply_limit": "400"} if game == "focus" else {}
    match_id = await start_match(service, game, **options)
    await play_randomly(service, match_id, random.Random(seed))
    row = await service.get(match_id)
    assert row.status == "finished"
    return build_record(row, await service.store.moves(match_id), ("alice", "bob"))


@pytest.mark.parametrize("game", slow_cases(sorted(GAMES), {"wonderland"}))
async def test_export_then_verify_holds_for_every_game(service: MatchService, game: str) -> None:
    record = await _finished_record(service, game, 11)
    assert record.seed is not None and record.result in ("1-0", "0-1", "1/2-1/2")
    verdict = verify_text(format_record(record))
    assert verdict.ok, verdict.sentence
    assert verdict.sentence.startswith(f"The record of match #{record.match_id} holds")
    chance = sum(1 for m in record.moves if m.seat == CHANCE)
    assert (verdict.moves, verdict.chance) == (sum(1 for m in record.moves if is_play(m)), chance)  # no takebacks
    assert f"all {verdict.moves} moves are legal" in verdict.sentence  # the counts the button translates


async def test_a_resigned_match_verifies(service: MatchService) -> None:
    match_id = await start_match(service, "dominance")
    await play_randomly(service, match_id, random.Random(5), max_moves=6)
    await service.resign(match_id, ALICE)
    row = await service.get(match_id)
    record = build_record(row, await service.store.moves(match_id), ("alice", "bob"))
    assert record.reason is not None and "resigned" in record.reason
    assert verify(record).ok, verify(record).sentence


def _replace_move(record: Record, index: int, text: str) -> Record:
    moves = list(record.moves)
    moves[index] = dataclasses.replace(moves[index], move=text)
    return dataclasses.replace(record, moves=tuple(moves))


@on_sqlite_only
async def test_a_changed_roll_fails_at_its_ply(service: MatchService) -> None:
    record = await _finished_record(service, "dominance", 12)
    index = next(i for i, m in enumerate(record.moves) if m.seat == CHANCE and i > 3)
    original = record.moves[index].move
    other = next(f"roll {a} {b}" for a in range(1, 7) for b in range(1, 7) if f"roll {a} {b}" != original)
    assert original is not None and original.startswith("roll")
    verdict = verify_text(format_record(_replace_move(record, index, other)))
    assert not verdict.ok
    assert verdict.sentence == (f"Ply {index}: the record has chance move `{other}`, but the seed gives `{original}`.")


@on_sqlite_only
async def test_an_illegal_move_fails_at_its_ply(service: MatchService) -> None:
    record = await _finished_record(service, "focus", 13)
    verdict = verify_text(format_record(_replace_move(record, 2, "a1-h8")))
    assert not verdict.ok
    assert verdict.sentence.startswith("Ply 2: `a1-h8` by ") and "is illegal" in verdict.sentence


@on_sqlite_only
async def test_a_wrong_seed_fails(service: MatchService) -> None:
    record = await _finished_record(service, "domineering", 14)
    assert record.seed is not None
    wrong = ("0" if record.seed[0] != "0" else "1") + record.seed[1:]  # always a different seed
    verdict = verify(dataclasses.replace(record, seed=wrong))
    assert not verdict.ok and verdict.sentence == (
        "The seed does not match the seed hash published when the match started."
    )


@on_sqlite_only
async def test_a_swapped_result_fails(service: MatchService) -> None:
    record = await _finished_record(service, "domineering", 15)
    flipped = {"1-0": "0-1", "0-1": "1-0"}[record.result]
    verdict = verify(dataclasses.replace(record, result=flipped))
    assert not verdict.ok and verdict.sentence == (
        f"`Result` says {flipped}, but the moves end the game {record.result}."
    )


async def test_a_running_export_withholds_secret_moves_and_the_seed(service: MatchService) -> None:
    match_id = await start_match(service, "domino_wars")
    await play_randomly(service, match_id, random.Random(16), max_moves=12)
    row = await service.get(match_id)
    assert row.status == "active"
    logged = await service.store.moves(match_id)
    secret = [m for m in logged if not m.public]
    assert secret, "the draft has secret picks and shuffles"
    text = format_record(build_record(row, logged, ("alice", "bob")))
    move_lines = [line for line in text.split("\n\n", 1)[1].splitlines() if not line.startswith("-1 seats ")]
    assert row.seed not in text and "[Seed " not in text and '[End "-"]' in text and '[Result "*"]' in text
    for move in secret:
        assert move_lines[move.ply] == f"{move.ply} {'chance' if move.seat == CHANCE else move.seat} {{withheld}}"
    assert all(m.move in move_lines[m.ply] for m in logged if m.public)
    assert not verify_text(text).ok


@on_sqlite_only
async def test_the_command_line_prints_one_sentence_and_exits_0_or_1(
    service: MatchService, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = await _finished_record(service, "dominance", 17)
    good, bad = tmp_path / "good.txt", tmp_path / "bad.txt"
    good.write_text(format_record(record))
    index = next(i for i, m in enumerate(record.moves) if m.seat == CHANCE)
    bad.write_text(format_record(_replace_move(record, index, "roll 9 9")))
    assert verify_main([str(good)]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and out.startswith(f"The record of match #{record.match_id} holds")
    assert verify_main([str(bad)]) == 1
    assert capsys.readouterr().out == (
        f"Ply {index}: the record has chance move `roll 9 9`, but the seed gives `{record.moves[index].move}`.\n"
    )
    assert verify_main([str(tmp_path / "missing.txt")]) == 1
    assert capsys.readouterr().out.startswith("Cannot read ")


async def test_moves_a_takeback_withdrew_are_checked_too(service: MatchService) -> None:
    """A withdrawn move was still played: an illegal one must not hide behind the takeback
    that withdrew it, and a takeback record must name the start of a move in force."""
    match_id = await start_match(service, "focus", seat_pref="first", ply_limit="400")
    agreements = Agreements(service)
    for user in (ALICE, BOB):
        await service.play(match_id, user, (await service.legal_moves(match_id, user))[0])
    assert isinstance(await agreements.request_takeback(match_id, ALICE), Offered)
    await agreements.answer_takeback(match_id, BOB, accept=True)
    await play_randomly(service, match_id, random.Random(3), max_moves=6)
    await service.resign(match_id, ALICE)
    record = build_record(await service.get(match_id), await service.store.moves(match_id), ("alice", "bob"))
    in_force = {m.ply for m in effective(record.moves)}
    withdrawn = [i for i, m in enumerate(record.moves) if is_play(m) and m.ply not in in_force]
    assert withdrawn, "the takeback withdrew moves"
    honest = verify(record)
    assert honest.ok and f"the {len(withdrawn)} withdrawn by takebacks were legal" in honest.sentence

    tampered = verify(_replace_move(record, withdrawn[0], "a1-h8"))
    assert not tampered.ok
    assert tampered.sentence.startswith(f"Ply {record.moves[withdrawn[0]].ply}: `a1-h8` by ")

    takeback = next(i for i, m in enumerate(record.moves) if m.seat == TAKEBACK_SEAT)
    nowhere = verify(_replace_move(record, takeback, takeback_record(len(record.moves) + 5)))
    assert not nowhere.ok and "begins no move in force" in nowhere.sentence


@pytest.mark.parametrize("how", ["resign", "timeout", "draw", "abort", "moderator"])
async def test_every_ending_is_the_last_line_of_the_log_and_the_record_proves_it(
    service: MatchService, how: str
) -> None:
    """The ending line is written with the end; the checker derives the result from it; a
    takeback after the end is refused; replaying the log skips the line."""
    match_id = await start_match(service, "focus", seat_pref="first", ply_limit="400")
    await play_randomly(service, match_id, random.Random(8), max_moves=4)
    before = await service.store.move_count(match_id)
    agreements = Agreements(service)
    if how == "resign":
        await service.resign(match_id, BOB)
    elif how == "timeout":
        await service.claim_timeout(match_id, 0)
    elif how == "draw":
        assert isinstance(await agreements.draw(match_id, ALICE), Offered)
        await agreements.draw(match_id, BOB)
    elif how == "abort":
        assert await service.abort(match_id, ALICE) is None
        await service.abort(match_id, BOB)
    else:
        await service.abort(match_id, 4242, moderator=True)
    logged = await service.store.moves(match_id)
    assert len(logged) == before + 1
    last = logged[-1]
    wanted = {
        "resign": "resign 1",
        "timeout": "timeout 0 -",
        "draw": "draw agreed",
        "abort": "abort",
        "moderator": "abort moderator",
    }[how]
    assert (last.seat, last.move, last.public, last.forced) == (ENDING_SEAT, wanted, True, False)
    row = await service.get(match_id)
    record = build_record(row, logged, ("alice", "bob"))
    verdict = verify_text(format_record(record))
    assert verdict.ok and verdict.sentence.endswith(f"it ended with `{wanted}` at ply {last.ply}."), verdict.sentence
    assert [m.ply for m in await service.effective_log(match_id)] == list(range(before))
    assert (await service.replay(match_id)).dump() == (await service.state_of(row)).dump()
    with pytest.raises(ServiceError):
        await agreements.request_takeback(match_id, ALICE)
    assert await service.store.move_count(match_id) == before + 1


async def test_a_seat_draw_is_a_line_naming_the_challenger_and_rechecked(service: MatchService) -> None:
    """A challenge that left the seats to chance: the record's first line says who challenged
    and which seat the seed gave them; a record that claims the other seat, or seats someone
    else there, is refused at that line."""
    match_id = await start_match(service, "dominance")
    await service.resign(match_id, ALICE)
    row = await service.get(match_id)
    assert row.seats is not None
    record = build_record(row, await service.store.moves(match_id), ("alice", "bob"))
    seat = row.seats.index(ALICE)
    assert (record.seat_draw, record.challenger_id) == (seat, ALICE)
    text = format_record(record)
    line = f"-1 seats challenger {ALICE} seat {seat}"
    assert f"\n\n{line}\n0 " in text and "SeatDraw" not in text
    holds = verify_text(text)
    assert holds.ok and "chance moves and the seat draw are the ones the revealed seed gives" in holds.sentence
    assert record.seed is not None and chance_rng(record.seed, -1).randrange(2) == seat
    seeded = rederive(text)  # the README's words alone give the service's seat line and dice
    assert seeded[0] == (-1, line.split(" ", 2)[2], line.split(" ", 2)[2]) and all(r == d for _, r, d in seeded)
    lied = verify_text(text.replace(line, f"-1 seats challenger {ALICE} seat {1 - seat}"))
    assert not lied.ok and lied.sentence.startswith("Ply -1: ") and f"the seed draws seat {seat}" in lied.sentence
    other = verify_text(text.replace(line, f"-1 seats challenger {BOB} seat {seat}"))
    assert (
        not other.ok
        and other.sentence.startswith("Ply -1: ")
        and f"the header's `Player{seat}Id` is {ALICE}." in other.sentence
    )
    chosen = await start_match(service, "dominance", seat_pref="first")
    await service.resign(chosen, ALICE)
    row = await service.get(chosen)
    assert build_record(row, await service.store.moves(chosen), ("alice", "bob")).seat_draw is None


@pytest.mark.parametrize("how", ["resign", "timeout", "abort"])
async def test_a_takeback_asked_before_the_end_cannot_be_granted_after_it(service: MatchService, how: str) -> None:
    """A request standing when the match ends is dead: granting it is refused, the log keeps
    its ending line last, and the record still holds."""
    match_id = await start_match(service, "focus", seat_pref="first", ply_limit="400")
    await play_randomly(service, match_id, random.Random(f"late-{how}"), max_moves=6)
    agreements = Agreements(service)
    row = await service.get(match_id)
    assert row.status == "active" and row.seats is not None
    asker = row.seats[0] if any(m.seat == 0 for m in await service.store.moves(match_id)) else row.seats[1]
    await agreements.request_takeback(match_id, asker)
    if how == "resign":
        await service.resign(match_id, asker)
    elif how == "timeout":
        await service.claim_timeout(match_id, row.seats.index(asker))
    else:
        await service.abort(match_id, 4242, moderator=True)
    logged = await service.store.moves(match_id)
    other = row.seats[1 - row.seats.index(asker)]
    with pytest.raises(ServiceError):
        await agreements.answer_takeback(match_id, other, accept=True)
    assert await service.store.moves(match_id) == logged and logged[-1].seat == ENDING_SEAT
    assert verify_text(format_record(build_record(await service.get(match_id), logged, ("alice", "bob")))).ok
