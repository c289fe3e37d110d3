"""Checking an exported match record, dice included (`python -m bot.verify FILE`).

The check needs nothing but the record and this package's rules: it starts the game from
the record's options, plays every move and checks it is legal, checks that every move the
record marks as forced is exactly what the rules applied by themselves, that the seed's
hash is the one published when the match started, and that every chance move (roll, draw,
shuffle) is the one `bot.records.fairness.chance_rng(seed, ply)` draws.  Moves an agreed takeback
withdrew are checked too, in the position they were played in: they were played, so they
must have been legal and their dice fair.  It prints one sentence and
exits 0 when the record holds, 1 when it does not (the sentence says where).

The same `verify` runs behind the "Verify dice" button under a finished match.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games import CHANCE, GAMES, IllegalMove, InvalidOptions
from bot.games.base import GameState, normalise
from bot.records.fairness import chance_rng, seed_hash
from bot.records.format import Record, RecordError, parse_record, result_of
from bot.records.move_log import TAKEBACK_SEAT, undone_from


@dataclass(frozen=True)
class Verdict:
    ok: bool
    sentence: str


def _who(record: Record, seat: int) -> str:
    if seat == CHANCE:
        return "chance"
    return f"{GAMES[record.game].info.seat_names[seat]} ({record.players[seat]})"


def verify(record: Record) -> Verdict:
    """Replay `record` and check it; never raises for a bad record."""
    rules = GAMES.get(record.game)
    if rules is None:
        return Verdict(False, f"There is no game called `{record.game}`.")
    if record.seed is None:
        return Verdict(False, "This record has no seed: the match was still running when it was exported.")
    if seed_hash(record.seed) != record.seed_hash:
        return Verdict(False, "The seed does not match the seed hash published when the match started.")
    withheld = [m.ply for m in record.moves if m.move is None]
    if withheld:
        return Verdict(False, f"Ply {withheld[0]} is withheld: export the record again after the match ended.")
    try:
        state = rules.start(options=record.options)
    except InvalidOptions as exc:
        return Verdict(False, f"The options cannot start a game: {exc}")
    moves, index, chance = record.moves, 0, 0
    in_force: list[tuple[int, GameState, int]] = []  # (first ply, state before, records incl. forced)
    while index < len(moves):
        entry = moves[index]
        assert entry.move is not None
        try:
            first_undone = undone_from(entry)
        except ValueError as exc:
            return Verdict(False, str(exc))
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
            return Verdict(False, f"Ply {entry.ply}: `{entry.move}` is marked forced, but the rules did not force it.")
        if entry.seat == CHANCE:
            if CHANCE not in state.turn or state.outcome is not None:
                return Verdict(False, f"Ply {entry.ply}: no chance move is due, yet the record has `{entry.move}`.")
            drawn = state.sample_chance(chance_rng(record.seed, entry.ply))
            if normalise(drawn) != normalise(entry.move):
                return Verdict(
                    False, f"Ply {entry.ply}: the record has chance move `{entry.move}`, but the seed gives `{drawn}`."
                )
            chance += 1
        before = state
        try:
            state = state.play(entry.seat, entry.move)
        except IllegalMove as exc:
            return Verdict(False, f"Ply {entry.ply}: `{entry.move}` by {_who(record, entry.seat)} is illegal: {exc}")
        for offset, applied in enumerate(state.applied[1:], start=1):
            logged = moves[index + offset] if index + offset < len(moves) else None
            if logged is None or (logged.seat, logged.move, logged.forced) != (applied.seat, applied.move, True):
                at = logged.ply if logged is not None else len(moves)
                return Verdict(
                    False, f"Ply {at}: the rules force `{applied.move}` by {_who(record, applied.seat)} here."
                )
        in_force.append((entry.ply, before, len(state.applied)))
        index += len(state.applied)
    outcome = state.outcome
    if outcome is not None:
        expected = result_of("finished", sorted(outcome.winners))
        if record.status != "finished" or record.result != expected:
            return Verdict(False, f"The moves end the game {expected}, but the record says {record.result}.")
    elif record.status == "finished" and record.result != "-" and not record.reason:
        return Verdict(False, "The record says the game ended, but its moves do not end it and give no reason.")
    number = f"match #{record.match_id}" if record.match_id is not None else "this match"
    played = sum(records for _, _, records in in_force)
    withdrawn = sum(1 for m in moves if m.seat != TAKEBACK_SEAT) - played
    also = f" (and the {withdrawn} withdrawn by takebacks were legal when played)" if withdrawn else ""
    return Verdict(
        True,
        f"The record of {number} holds: all {played} moves are legal{also} and all {chance} chance moves "
        "are the ones the revealed seed gives.",
    )


def verify_text(text: str) -> Verdict:
    """Parse and verify a record's text."""
    try:
        record = parse_record(text)
    except RecordError as exc:
        return Verdict(False, f"This is not a readable record: {exc}")
    return verify(record)
