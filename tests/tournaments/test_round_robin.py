"""Round robin: every pair exactly once, one game per round, rests with odd counts."""

from __future__ import annotations

import random

import pytest

from bot.tournaments import Format, Tournament
from bot.tournaments.roundrobin import circle_schedule
from tests.tournaments.driver import all_pairs, play_out, players


@pytest.mark.parametrize("n", range(2, 15))
def test_circle_schedule_meets_every_pair_once(n: int) -> None:
    ids = list(range(1, n + 1))
    schedule = circle_schedule(ids)
    assert len(schedule) == (n - 1 if n % 2 == 0 else n)
    met = [frozenset(pair) for round_ in schedule for pair in round_ if None not in pair]
    assert len(met) == len(set(met)) == n * (n - 1) // 2
    for round_ in schedule:
        seated = [pid for pair in round_ for pid in pair if pid is not None]
        assert sorted(seated) == ids
    rests = [pid for round_ in schedule for pair in round_ if None in pair for pid in pair if pid is not None]
    assert sorted(rests) == (ids if n % 2 else [])


@pytest.mark.parametrize("n", [4, 5])
def test_round_robin_to_the_end(n: int) -> None:
    t = play_out(Tournament.new(Format.ROUND_ROBIN, players(n), best_of=3), random.Random(n), draw_chance=0.2)
    ids = [pid for pid, _ in players(n)]
    played = {frozenset(p.participants) for p in t.pairings if p.method == "games"}
    assert played == all_pairs(ids)
    assert t.round == t.rounds == (n - 1 if n % 2 == 0 else n)
    table = t.standings()
    assert sum(s.points for s in table) == len(all_pairs(ids))  # one point per series, rests score nothing
    assert t.winner == table[0].player


def _needs_next_round(t: Tournament) -> bool:
    """Read through a call so the type checker does not pin the property's value between steps."""
    return t.needs_next_round


def test_round_robin_releases_one_round_at_a_time() -> None:
    t = Tournament.new(Format.ROUND_ROBIN, players(4))
    assert {p.round for p in t.pairings} == {1}
    assert not _needs_next_round(t)
    with pytest.raises(ValueError, match="still being played"):
        t.next_round()
    for game in t.pairings_to_start():
        t.record_result(game.pairing_id, 1)
    assert t.is_round_complete()
    assert _needs_next_round(t)
    assert len(t.next_round()) == 2


def test_round_robin_tie_break_is_sonneborn_berger() -> None:
    t = Tournament.new(Format.ROUND_ROBIN, players(3))
    a, b, c = (pid for pid, _ in players(3))
    wins = {frozenset((a, b)): a, frozenset((b, c)): b, frozenset((a, c)): c}
    while not t.finished:
        if t.needs_next_round:
            t.next_round()
        for game in t.pairings_to_start():
            t.record_result(game.pairing_id, game.seats.index(wins[frozenset(game.seats)]))
    assert {s.points for s in t.standings()} == {1.0}
    assert [s.place for s in t.standings()] == [1, 1, 1]  # a perfect cycle: nothing separates them


def test_dropped_player_forfeits_the_rest_of_the_schedule() -> None:
    t = Tournament.new(Format.ROUND_ROBIN, players(4))
    quitter = players(4)[3][0]
    t.drop(quitter)
    t = play_out(t, random.Random(1))
    theirs = t.pairings_of(quitter)
    assert len(theirs) == 3
    assert all(p.method == "forfeit" and p.winner != quitter for p in theirs)
    assert not any(p.games for p in theirs)
