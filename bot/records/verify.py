"""Checking an exported match record, dice included (`python -m bot.verify FILE`).

The check needs nothing but the record and this package's rules: it starts the game from
the record's options, plays every move and checks it is legal, checks that every move the
record marks as forced is exactly what the rules applied by themselves, that the seed's
hash is the one published when the match started, and that every chance move (roll, draw,
shuffle) is the one `bot.records.fairness.chance_rng(seed, ply)` draws.  Moves an agreed takeback
withdrew are checked too, in the position they were played in: they were played, so they
must have been legal and their dice fair.  Picks after a `complete <seat>` marker (a draft
whose time ran out) are redrawn from the seed like chance moves, and so is the seat draw
(the `-1 seats` line), whose challenger must be the header's player of the drawn seat.

Older versions: a version 1 record (`Boneyard "1"`) is checked by the same rules as far as it
goes and its verdict says what version 1 cannot prove: its `SeatDraw` tag names the seat the
seed gave the challenger, not who that was; and one written before ending lines existed cannot
prove a resignation, a loss on time, an agreed draw or an abort (refused, with a sentence
saying so: the bot's own copy of such a match has its ending line since migration 8, so
`/export` gives a version 2 record that proves it).

Why the header is not trusted: the lines are what can be replayed, so the result comes from
them alone — the game's own end, else the `end` line (resignation, time, agreed draw,
abort) — and a Status, Result, Reason or Scores tag that says otherwise is refused, as is
any line after the end and an ended record whose lines do not end it.  Moves must be written
as the rules write them, so one match has one record text.  It prints one sentence and
exits 0 when the record holds, 1 when it does not (the sentence says where); whatever the
input, it never raises (`verify_bytes` takes a file's raw bytes).

The same `verify` runs behind the "Verify dice" button under a finished match.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from bot.games import CHANCE, GAMES, IllegalMove, InvalidOptions
from bot.games.base import GameState, normalise
from bot.records.fairness import chance_rng, seed_hash
from bot.records.format import (
    FORMAT_VERSION,
    SEATS_PLY,
    Record,
    RecordError,
    RecordMove,
    format_move,
    parse_record,
    quote,
    result_of,
    seats_line,
)
from bot.records.move_log import (
    COMPLETION_SEAT,
    ENDING_SEAT,
    completed_seat,
    ending_reason,
    ending_result,
    is_play,
    undone_from,
)


@dataclass(frozen=True)
class Verdict:
    """The checker's answer: `sentence` is its full finding (English, as the command line prints
    it); a record that holds also gives its counts, so the bot's Verify button can say the same
    in each reader's language."""

    ok: bool
    sentence: str
    moves: int = 0
    chance: int = 0
    seat_draw: bool = False


def _who(record: Record, seat: int) -> str:
    if seat == CHANCE:
        return "chance"
    return f"{GAMES[record.game].info.seat_names[seat]} ({quote(record.players[seat], 40)})"


def verify(record: Record) -> Verdict:
    """Replay `record` and check it; never raises for a bad record."""
    try:
        return _verify(record)
    except Exception as exc:  # an engine tripping over a crafted record must still give a sentence
        return Verdict(False, f"This record cannot be replayed: the rules stopped on it ({quote(type(exc).__name__)}).")


def _verify(record: Record) -> Verdict:
    rules = GAMES.get(record.game)
    if rules is None:
        return Verdict(False, f"There is no game called `{quote(record.game)}`.")
    if record.seed is None:
        return Verdict(False, "This record has no seed: the match was still running when it was exported.")
    if seed_hash(record.seed) != record.seed_hash:
        return Verdict(False, "The seed does not match the seed hash published when the match started.")
    wrong_seats = _seat_draw_disagrees(record)
    if wrong_seats is not None:
        return Verdict(False, wrong_seats)
    withheld = [m.ply for m in record.moves if m.move is None]
    if withheld:
        return Verdict(False, f"Ply {withheld[0]} is withheld: export the record again after the match ended.")
    try:
        state = rules.start(options=record.options)
    except InvalidOptions as exc:
        return Verdict(False, f"The options cannot start a game: {quote(str(exc))}")
    moves, index, chance = record.moves, 0, 0
    in_force: list[tuple[int, GameState, int]] = []  # (first ply, state before, records incl. forced)
    ending: RecordMove | None = None  # the `end` line, once read
    completing: tuple[int, int, random.Random] | None = None  # (seat, marker ply, rng) of a draft completed at random
    over_at: int | None = None  # the last ply of the move that ended the game by its rules
    while index < len(moves):
        entry = moves[index]
        assert entry.move is not None
        if ending is not None or over_at is not None:
            after = f"ply {ending.ply} ended the match" if ending is not None else f"the game ended at ply {over_at}"
            return Verdict(False, f"Ply {entry.ply}: {after}, yet the record goes on with `{_line(entry)}`.")
        if entry.seat == ENDING_SEAT:
            ending = entry
            index += 1
            continue
        if entry.seat == COMPLETION_SEAT:
            try:
                seat = completed_seat(entry)
            except ValueError:
                return Verdict(False, f"Ply {entry.ply}: `{_line(entry)}` is not a completed draft.")
            assert seat is not None
            if not _picking(state, seat) or not state.drafting:
                return Verdict(False, f"Ply {entry.ply}: {_who(record, seat)} is not drafting here.")
            completing = (seat, entry.ply, chance_rng(record.seed, entry.ply))
            index += 1
            continue
        if completing is not None:  # the picks the seed made for a draft whose time ran out
            seat, since, rng = completing
            if _picking(state, seat):
                wanted = rng.choice(sorted(state.legal_moves(seat)))
                if (entry.seat, entry.move) != (seat, wanted):
                    return Verdict(
                        False,
                        f"Ply {entry.ply}: the draft completed at random from ply {since} picks `{wanted}` here, "
                        f"but the record has `{_line(entry)}`.",
                    )
            else:
                completing = None
        try:
            first_undone = undone_from(entry)
        except ValueError:
            return Verdict(False, f"Ply {entry.ply}: `{_line(entry)}` is not a takeback.")
        if first_undone is not None:  # an agreed takeback: back to the state before that ply
            kept = [group for group in in_force if group[0] < first_undone]
            if len(kept) == len(in_force) or in_force[len(kept)][0] != first_undone:
                return Verdict(
                    False, f"Ply {entry.ply}: the takeback names ply {first_undone}, which begins no move in force."
                )
            state, in_force = in_force[len(kept)][1], kept
            index += 1
            continue
        if entry.forced:
            return Verdict(
                False, f"Ply {entry.ply}: `{quote(entry.move)}` is marked forced, but the rules did not force it."
            )
        if entry.seat == CHANCE:
            if CHANCE not in state.turn or state.outcome is not None:
                return Verdict(
                    False, f"Ply {entry.ply}: no chance move is due, yet the record has `{quote(entry.move)}`."
                )
            drawn = state.sample_chance(chance_rng(record.seed, entry.ply))
            if normalise(drawn) != normalise(entry.move):
                return Verdict(
                    False,
                    f"Ply {entry.ply}: the record has chance move `{quote(entry.move)}`, but the seed gives `{drawn}`.",
                )
            chance += 1
        before = state
        try:
            state = state.play(entry.seat, entry.move)
        except IllegalMove as exc:
            why, who = quote(str(exc), 200), _who(record, entry.seat)
            return Verdict(False, f"Ply {entry.ply}: `{quote(entry.move)}` by {who} is illegal: {why}")
        if state.applied[0].move != entry.move:  # one text per move: the record is what the rules wrote
            return Verdict(
                False,
                f"Ply {entry.ply}: `{quote(entry.move)}` is not written as the rules write it "
                f"(`{state.applied[0].move}`).",
            )
        for offset, applied in enumerate(state.applied[1:], start=1):
            logged = moves[index + offset] if index + offset < len(moves) else None
            if logged is None or (logged.seat, logged.move, logged.forced) != (applied.seat, applied.move, True):
                at = logged.ply if logged is not None else len(moves)
                return Verdict(
                    False, f"Ply {at}: the rules force `{applied.move}` by {_who(record, applied.seat)} here."
                )
        in_force.append((entry.ply, before, len(state.applied)))
        index += len(state.applied)
        if state.outcome is not None:
            over_at = index - 1
    wrong = _header_disagrees(record, state, ending, rules.info.seat_names)
    if wrong is not None:
        return Verdict(False, wrong)
    number = f"match #{record.match_id}" if record.match_id is not None else "this match"
    played = sum(records for _, _, records in in_force)
    withdrawn = sum(1 for m in moves if is_play(m)) - played
    also = f" (and the {withdrawn} withdrawn by takebacks were legal when played)" if withdrawn else ""
    return Verdict(
        True,
        f"The {_version(record)}record of {number} holds: all {played} moves are legal{also} and "
        f"{_seeded(chance, record.seat_draw is not None)}{_ended(ending, state)}{_older(record)}.",
        moves=played,
        chance=chance,
        seat_draw=record.seat_draw is not None,
    )


def _seeded(chance: int, seat_draw: bool) -> str:
    """What the seed was found to give: the chance moves and the seat draw, as there are."""
    if chance:
        return (
            f"all {chance} chance moves{' and the seat draw' if seat_draw else ''} are the ones the revealed seed gives"
        )
    return "the seat draw is the one the revealed seed gives" if seat_draw else "there are no chance moves"


def _version(record: Record) -> str:
    return f"version {record.version} " if record.version != FORMAT_VERSION else ""


def _older(record: Record) -> str:
    """What a record of an older version leaves unproven, said with the verdict that it holds."""
    if record.version >= 2:
        return ""
    if record.seat_draw is not None:
        return (
            "; version 1 does not name the challenger, so its seat draw proves the seat, not who sat in it "
            "(`/export` writes version 2)"
        )
    return "; it is checked by version 1's rules (`/export` writes version 2)"


def _seat_draw_disagrees(record: Record) -> str | None:
    """Why the seat draw is not the seed's, or names a challenger the header does not seat
    there (None: it holds).  Version 1's `SeatDraw` tag names the seat only."""
    if record.seat_draw is None:
        return None
    assert record.seed is not None
    drawn = chance_rng(record.seed, SEATS_PLY).randrange(2)
    if record.version < 2:
        if drawn != record.seat_draw:
            return f"`SeatDraw` says challenger {record.seat_draw}, but the seed draws the other seat."
        return None
    line = f"Ply {SEATS_PLY}: `{quote(seats_line(record) or '')}`"
    if drawn != record.seat_draw:
        return f"{line} seats the challenger in seat {record.seat_draw}, but the seed draws seat {drawn}."
    seated = record.player_ids[record.seat_draw]
    if seated != record.challenger_id:
        held = f"'s `Player{record.seat_draw}Id` is {seated}" if seated is not None else " names nobody there"
        return f"{line} names the challenger of seat {record.seat_draw}, but the header{held}."
    return None


def _picking(state: GameState, seat: int) -> bool:
    """`seat` must still act, and no chance move is due: a completed draft picks on."""
    return state.outcome is None and seat in state.turn and CHANCE not in state.turn


def _line(entry: RecordMove) -> str:
    return quote(format_move(entry).split(" ", 1)[1])


def _ended(ending: RecordMove | None, state: GameState) -> str:
    if ending is not None:
        return f"; it ended with `{quote(ending.move or '')}` at ply {ending.ply}"
    return "; the moves end the game" if state.outcome is not None else ""


def _header_disagrees(
    record: Record, state: GameState, ending: RecordMove | None, seat_names: Sequence[str]
) -> str | None:
    """Why the header's Status, Result, Reason or Scores contradict the lines (None: they agree).
    The lines decide: the game's own outcome, else the `end` line, else the match still runs
    (a record exported before endings were lines ends here when it claims an ending)."""
    outcome = state.outcome
    if ending is not None and outcome is not None:  # never written: the game was over already
        return f"Ply {ending.ply}: the moves had already ended the game, yet the record has `end {ending.move}`."
    if outcome is not None:
        status, result = "finished", result_of("finished", sorted(outcome.winners))
        reason, scores, source = outcome.reason, outcome.scores, "the moves end the game"
    elif ending is not None:
        assert ending.move is not None
        status, result = ending_result(ending.move)
        reason, scores = ending_reason(ending.move, seat_names), None
        source = f"ply {ending.ply} `end {quote(ending.move)}` ends the match"
    else:
        return (
            f"Ply {len(record.moves)}: the lines stop here with the game still running, but the record says the "
            f"match ended ({quote(record.status)}, {quote(record.result)}); a record exported before endings were "
            "written as lines cannot prove an ending its moves do not reach."
        )
    if record.status != status:
        return f"`Status` says {quote(record.status)}, but {source} {status}."
    if record.result != result:
        return f"`Result` says {quote(record.result)}, but {source} {result}."
    if (record.reason or None) != reason:
        return f"`Reason` says `{quote(record.reason or '')}`, but {source} with `{quote(reason)}`."
    if record.scores != scores:
        shown = " ".join(map(str, record.scores)) if record.scores is not None else "nothing"
        wanted = " ".join(map(str, scores)) if scores is not None else "none"
        return f"`Scores` says {quote(shown)}, but {source} with scores {wanted}."
    return None


def verify_text(text: str) -> Verdict:
    """Parse and verify a record's text (a leading byte order mark and CRLF line ends are fine)."""
    try:
        record = parse_record(text)
    except RecordError as exc:
        return Verdict(False, f"This is not a readable record: {exc}")
    except Exception as exc:  # never a traceback: one sentence whatever the text
        return Verdict(False, f"This is not a readable record ({quote(type(exc).__name__)}).")
    return verify(record)


def verify_bytes(data: bytes) -> Verdict:
    """Verify a record file's bytes: UTF-8 (with or without a byte order mark); a byte that
    is not UTF-8 is refused with its line, never a traceback."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        return Verdict(
            False,
            f"This is not a readable record: line {line} has a byte that is not UTF-8 "
            f"(0x{data[exc.start]:02x} at byte {exc.start}).",
        )
    return verify_text(text)
