"""Elimination brackets as a graph of pairings whose slots name where their players come from.

A slot's source is `seed:N` (the N-th seed, 1-based), `winner:ID` or `loser:ID` (of pairing
ID).  Pairing ids are 1-based positions in the list `build_*` returns, so the tournament can
store the list as is.  A bracket of size S = the next power of two holds every player; the
missing seeds (N > players) are *nobody*, and a pairing against nobody is a bye.  Resolving
sources lazily (in `Tournament`) makes byes, walkovers and drops flow through both brackets
without special cases: the loser of a bye is nobody, so nobody drops to the losers bracket.

Standard placement: seed s meets seed S+1-s in the first round and the bracket halves are
built recursively, so seeds 1 and 2 can only meet in the final, 1-4 in the semi-finals, and
byes (the top seeds' first-round opponents) go to the best seeds.

Double elimination: losers-bracket round 1 pairs the losers of winners round 1; each even
losers round brings in the losers of the next winners round (in alternately reversed order,
which keeps early rematches away); each odd one halves the field.  The grand final pits
the winners-bracket champion (slot 0) against the losers-bracket champion; an optional
reset is played only if the losers-bracket champion wins it.

`stage` orders elimination: a player knocked out in a later stage places higher.
Pure functions, standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass

WINNERS, LOSERS, FINAL, RESET, MAIN = "winners", "losers", "final", "reset", "main"


@dataclass(frozen=True, slots=True)
class Slot:
    """Template of one bracket pairing."""

    bracket: str
    round: int
    sources: tuple[str, str]
    stage: int


def bracket_size(players: int) -> int:
    """The smallest power of two that holds `players` (at least 2)."""
    size = 2
    while size < players:
        size *= 2
    return size


def seed_order(size: int) -> list[int]:
    """Seeds in bracket order for a power-of-two `size`: 8 -> [1, 8, 4, 5, 2, 7, 3, 6]."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


def _winners_rounds(size: int, bracket: str) -> list[list[Slot]]:
    """Rounds of a single-elimination tree; ids are assigned in flattened order from 1."""
    order = seed_order(size)
    rounds: list[list[Slot]] = [
        [Slot(bracket, 1, (f"seed:{order[i]}", f"seed:{order[i + 1]}"), 1) for i in range(0, size, 2)]
    ]
    first_id = 1
    while len(rounds[-1]) > 1:
        previous = rounds[-1]
        number = len(rounds) + 1
        rounds.append(
            [
                Slot(bracket, number, (f"winner:{first_id + i}", f"winner:{first_id + i + 1}"), number)
                for i in range(0, len(previous), 2)
            ]
        )
        first_id += len(previous)
    return rounds


def build_single(players: int) -> list[Slot]:
    """The pairings of a single-elimination bracket for `players` seeds (2 or more)."""
    return [slot for round_ in _winners_rounds(bracket_size(players), MAIN) for slot in round_]


def build_double(players: int, *, reset: bool) -> list[Slot]:
    """The pairings of a double-elimination bracket: winners, losers, grand final (and reset)."""
    winners = _winners_rounds(bracket_size(players), WINNERS)
    # A winners-round loss is no elimination; its stage is that of the losers round it feeds.
    slots = [Slot(s.bracket, s.round, s.sources, max(1, 2 * (s.round - 1))) for round_ in winners for s in round_]
    ids: list[list[int]] = []
    next_id = 1
    for round_ in winners:
        ids.append(list(range(next_id, next_id + len(round_))))
        next_id += len(round_)
    champion_source = f"winner:{ids[-1][0]}"
    if len(winners) == 1:
        challenger_source = f"loser:{ids[0][0]}"
        final_stage = 1
    else:
        current = [(f"loser:{ids[0][i]}", f"loser:{ids[0][i + 1]}") for i in range(0, len(ids[0]), 2)]
        losers_round = 0
        for drop_round in range(1, len(winners)):
            survivors, next_id, losers_round = _emit(slots, current, next_id, losers_round)
            dropped = ids[drop_round] if drop_round % 2 == 0 else ids[drop_round][::-1]
            current = [(f"winner:{s}", f"loser:{d}") for s, d in zip(survivors, dropped, strict=True)]
            survivors, next_id, losers_round = _emit(slots, current, next_id, losers_round)
            current = [
                (f"winner:{survivors[i]}", f"winner:{survivors[i + 1]}") for i in range(0, len(survivors) - 1, 2)
            ]
        challenger_source = f"winner:{next_id - 1}"
        final_stage = losers_round + 1
    slots.append(Slot(FINAL, 1, (champion_source, challenger_source), final_stage))
    final_id = len(slots)
    if reset:
        slots.append(Slot(RESET, 1, (f"winner:{final_id}", f"loser:{final_id}"), final_stage))
    return slots


def _emit(slots: list[Slot], pairs: list[tuple[str, str]], next_id: int, last_round: int) -> tuple[list[int], int, int]:
    """Append one losers-bracket round; return its pairing ids, the next free id and its number."""
    number = last_round + 1
    slots.extend(Slot(LOSERS, number, pair, number) for pair in pairs)
    return list(range(next_id, next_id + len(pairs))), next_id + len(pairs), number
