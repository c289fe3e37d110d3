"""Drive a tournament to its end with random results, checking the JSON round trip at every step."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from itertools import combinations

from bot.tournaments import Tournament


def round_trip(t: Tournament) -> Tournament:
    """The tournament rebuilt from its JSON text; asserts nothing was lost."""
    data = t.dump()
    again = Tournament.load(json.loads(json.dumps(data)))
    assert again.dump() == data
    return again


def players(n: int) -> list[tuple[int, str]]:
    return [(100 + i, f"Player {i}") for i in range(1, n + 1)]


def play_out(
    t: Tournament,
    rng: random.Random,
    *,
    draw_chance: float = 0.0,
    after_step: Callable[[Tournament], None] | None = None,
    max_steps: int = 10_000,
) -> Tournament:
    """Play every game with random results until the tournament is over; returns the final object."""
    for _ in range(max_steps):
        if t.finished:
            return t
        games = t.pairings_to_start()
        if not games:
            assert t.needs_next_round, "stuck: nothing to play and no round to pair"
            t.next_round()
        for game in games:
            t.mark_started(game.pairing_id, f"match-{game.pairing_id}-{game.game_number}")
            t = round_trip(t)
            result = None if rng.random() < draw_chance else rng.randrange(2)
            t.record_result(game.pairing_id, result)
            t = round_trip(t)
            if after_step is not None:
                after_step(t)
    raise AssertionError("the tournament did not end")


def perfect_matching_exists(people: list[int], forbidden: set[frozenset[int]]) -> bool:
    """Brute force: can `people` be paired without any forbidden pair (small fields only)?"""
    if not people:
        return True
    first, rest = people[0], people[1:]
    for other in rest:
        if frozenset((first, other)) in forbidden:
            continue
        if perfect_matching_exists([p for p in rest if p != other], forbidden):
            return True
    return False


def met_pairs(t: Tournament, before_round: int) -> set[frozenset[int]]:
    return {
        frozenset(p.participants)
        for p in t.pairings
        if p.round < before_round and len(p.participants) == 2 and p.method != "bye"
    }


def all_pairs(ids: list[int]) -> set[frozenset[int]]:
    return {frozenset(c) for c in combinations(ids, 2)}
