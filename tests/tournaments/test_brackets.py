"""Single and double elimination: placement, byes, rounds, one champion, two-loss rule."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from bot.tournaments import Format, Tournament
from bot.tournaments.brackets import bracket_size, build_double, build_single, seed_order
from tests.slow import slow_cases
from tests.tournaments.driver import play_out, players

SIZES = range(2, 34)
PLAYED_SIZES = slow_cases(SIZES, set(SIZES) - {2, 3, 4, 5, 6, 8, 9, 12, 16, 17, 24, 32, 33})
"""The field sizes played out with random results: in the quick loop each bracket size (2 to
64) with its most byes, its fewest and one between; every size in the full suite.  A random
playout checks the JSON round trip at every step and costs about the square of the field."""


def test_seed_order_of_eight_is_standard() -> None:
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32, 64])
def test_seeds_one_and_two_are_in_opposite_halves(size: int) -> None:
    order = seed_order(size)
    assert 1 in order[: size // 2]
    assert 2 in order[size // 2 :]
    assert sorted(order) == list(range(1, size + 1))


@pytest.mark.parametrize("size", [4, 8, 16, 32])
def test_top_four_seeds_are_in_different_quarters(size: int) -> None:
    order = seed_order(size)
    quarters = [set(order[i : i + size // 4]) for i in range(0, size, size // 4)]
    assert all(len(q & {1, 2, 3, 4}) == 1 for q in quarters)


@pytest.mark.parametrize("n", SIZES)
def test_single_elimination_has_ceil_log2_rounds(n: int) -> None:
    slots = build_single(n)
    assert max(s.round for s in slots) == math.ceil(math.log2(n))
    assert len(slots) == bracket_size(n) - 1


@pytest.mark.parametrize("n", SIZES)
def test_byes_go_to_the_top_seeds(n: int) -> None:
    t = Tournament.new(Format.SINGLE_ELIMINATION, players(n))
    byes = [p for p in t.pairings if p.method == "bye"]
    assert len(byes) == bracket_size(n) - n
    seeds_with_bye = sorted(t.player(p.winner).seed for p in byes if p.winner is not None)
    assert seeds_with_bye == list(range(1, bracket_size(n) - n + 1))


@pytest.mark.parametrize("n", PLAYED_SIZES)
def test_single_elimination_random_results_give_one_champion(n: int) -> None:
    t = play_out(Tournament.new(Format.SINGLE_ELIMINATION, players(n), best_of=3), random.Random(n))
    assert t.finished and t.winner is not None
    series = [p for p in t.pairings if len(p.participants) == 2]
    assert len(series) == n - 1  # every series knocks out exactly one player
    losses = Counter(p.loser for p in series)
    assert losses[t.winner] == 0
    assert all(losses[pid] == 1 for pid, _ in players(n) if pid != t.winner)


@pytest.mark.parametrize("n", PLAYED_SIZES)
def test_single_elimination_players_play_until_eliminated(n: int) -> None:
    t = play_out(Tournament.new(Format.SINGLE_ELIMINATION, players(n)), random.Random(100 + n))
    for pid, _ in players(n):
        mine = sorted(t.pairings_of(pid), key=lambda p: p.round)
        assert [p.round for p in mine] == list(range(1, len(mine) + 1)), "one pairing per round, no gaps"
        lost = [i for i, p in enumerate(mine) if p.loser == pid]
        assert lost in ([], [len(mine) - 1]), "a loss is the player's last pairing"
        if pid != t.winner:
            assert lost == [len(mine) - 1]


@pytest.mark.parametrize("n", [2, 3, 4, 5, 8, 13, 16, 33])
def test_seeds_one_and_two_meet_only_in_the_final_when_favourites_win(n: int) -> None:
    t = Tournament.new(Format.SINGLE_ELIMINATION, players(n))
    while not t.finished:
        for game in t.pairings_to_start():
            a, b = game.seats
            better = 0 if t.player(a).seed < t.player(b).seed else 1
            t.record_result(game.pairing_id, better)
    final = t.pairings[-1]
    assert sorted(t.player(p).seed for p in final.participants) == [1, 2]
    assert t.winner == players(n)[0][0]
    places = {s.player: s.place for s in t.standings()}
    assert places[players(n)[0][0]] == 1
    assert places[players(n)[1][0]] == 2


def test_single_elimination_standings_share_places_by_round_of_elimination() -> None:
    t = Tournament.new(Format.SINGLE_ELIMINATION, players(8))
    while not t.finished:
        for game in t.pairings_to_start():
            a, b = game.seats
            t.record_result(game.pairing_id, 0 if t.player(a).seed < t.player(b).seed else 1)
    assert [s.place for s in t.standings()] == [1, 2, 3, 3, 5, 5, 5, 5]


def test_bracket_pairings_start_as_soon_as_both_players_are_known() -> None:
    t = Tournament.new(Format.SINGLE_ELIMINATION, players(8))
    first_round = {g.pairing_id for g in t.pairings_to_start()}
    assert first_round == {1, 2, 3, 4}
    t.record_result(1, 0)
    assert {g.pairing_id for g in t.pairings_to_start()} == {2, 3, 4}
    t.record_result(2, 0)
    assert 5 in {g.pairing_id for g in t.pairings_to_start()}  # semi-final, round 1 still running
    assert not t.is_round_complete(1)
    assert t.current_round == 1


def test_next_round_is_refused_in_a_bracket() -> None:
    t = Tournament.new(Format.SINGLE_ELIMINATION, players(4))
    with pytest.raises(ValueError, match="advances by itself"):
        t.next_round()


# ----------------------------------------------------------------- double elimination


def _losses(t: Tournament) -> Counter[int]:
    return Counter(p.loser for p in t.pairings if p.loser is not None)


@pytest.mark.parametrize("n", PLAYED_SIZES)
def test_double_elimination_random_results_out_only_after_two_losses(n: int) -> None:
    rng = random.Random(7 * n)

    def check(t: Tournament) -> None:
        losses = _losses(t)
        for pid, _ in players(n):
            assert losses[pid] <= 2
            if losses[pid] == 2:
                assert not [p for p in t.pairings if not p.finished and pid in p.participants]

    t = play_out(Tournament.new(Format.DOUBLE_ELIMINATION, players(n)), rng, after_step=check)
    losses = _losses(t)
    assert t.winner is not None
    assert losses[t.winner] <= 1
    assert all(losses[pid] == 2 for pid, _ in players(n) if pid != t.winner)


@pytest.mark.parametrize("n", PLAYED_SIZES)
def test_double_elimination_has_a_grand_final_between_the_two_bracket_champions(n: int) -> None:
    t = play_out(Tournament.new(Format.DOUBLE_ELIMINATION, players(n)), random.Random(n))
    final = next(p for p in t.pairings if p.bracket == "final")
    assert len(final.participants) == 2
    champion_side, challenger = final.players
    assert champion_side is not None and challenger is not None
    assert _winners_bracket_losses(t, champion_side) == 0
    assert _winners_bracket_losses(t, challenger) == 1


def _winners_bracket_losses(t: Tournament, pid: int) -> int:
    return sum(1 for p in t.pairings if p.bracket == "winners" and p.loser == pid)


def test_eight_player_double_elimination_to_the_end() -> None:
    t = play_out(Tournament.new(Format.DOUBLE_ELIMINATION, players(8), best_of=3), random.Random(8), draw_chance=0.1)
    assert len([p for p in t.pairings if p.bracket == "winners"]) == 7
    assert len([p for p in t.pairings if p.bracket == "losers"]) == 6
    played = [p for p in t.pairings if p.method == "games"]
    assert len(played) in (14, 15)  # 2n-2 series, plus the reset if the challenger took the final
    places = [s.place for s in t.standings()]
    assert places == [1, 2, 3, 4, 5, 5, 7, 7]


def _play_final(reset: bool, challenger_wins: bool) -> Tournament:
    t = Tournament.new(Format.DOUBLE_ELIMINATION, players(4), bracket_reset=reset)
    while True:
        games = [g for g in t.pairings_to_start() if g.bracket != "reset"]
        if not games:
            return t
        for game in games:
            pairing = t.pairing(game.pairing_id)
            if pairing.bracket == "final":
                wanted = pairing.players[1] if challenger_wins else pairing.players[0]
            else:
                wanted = min(pairing.participants, key=lambda pid: t.player(pid).seed)
            t.record_result(game.pairing_id, game.seats.index(wanted))


def _over(t: Tournament) -> bool:
    """Read through a call so the type checker does not pin the property's value between steps."""
    return t.finished


def test_grand_final_reset_is_played_when_the_challenger_wins() -> None:
    t = _play_final(reset=True, challenger_wins=True)
    reset = t.pairings[-1]
    assert reset.bracket == "reset"
    assert not reset.finished and reset.ready
    assert not _over(t)
    t.record_result(reset.id, 0)
    assert _over(t)
    assert t.winner == reset.seats_for(1)[0]


def test_grand_final_reset_is_skipped_when_the_favourite_wins() -> None:
    t = _play_final(reset=True, challenger_wins=False)
    assert t.finished
    assert t.pairings[-1].method == "unneeded"
    assert t.winner == players(4)[0][0]


def test_without_reset_the_grand_final_decides() -> None:
    t = _play_final(reset=False, challenger_wins=True)
    assert t.finished
    assert t.pairings[-1].bracket == "final"
    assert t.winner == t.pairings[-1].players[1]


def test_double_elimination_of_two_players_replays_them_in_the_final() -> None:
    slots = build_double(2, reset=True)
    assert [s.bracket for s in slots] == ["winners", "final", "reset"]
    assert slots[1].sources == ("winner:1", "loser:1")
