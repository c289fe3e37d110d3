"""The Tournament object: series flow, seats, items, deathmatch, drops, host reports, errors."""

from __future__ import annotations

import random

import pytest

from bot.tournaments import Format, Tournament, TournamentError, item_options
from tests.tournaments.driver import play_out, players, round_trip

A, B = 101, 102


def test_ratings_seed_the_players_highest_first() -> None:
    t = Tournament.new(Format.SINGLE_ELIMINATION, players(3), ratings={101: 1400.0, 102: 1700.0, 103: 1550.0})
    assert [(p.id, p.seed) for p in t.players] == [(102, 1), (103, 2), (101, 3)]
    assert t.pairing(1).winner == 102  # the top seed's bye


def test_best_of_three_series_alternates_seats_and_ends_at_two_wins() -> None:
    t = Tournament.new(Format.DEATHMATCH, players(2), best_of=3)
    (first,) = t.pairings_to_start()
    assert (first.game_number, first.seats) == (1, (A, B))
    t.mark_started(1, "m1")
    assert t.pairings_to_start() == []  # a game is open
    t.record_result(1, 1)  # B wins game 1
    (second,) = t.pairings_to_start()
    assert (second.game_number, second.seats) == (2, (B, A))
    t.mark_started(1, "m2")
    t.record_result(1, 1)  # A (seat 1 now) wins game 2
    assert not t.pairing(1).finished
    t.record_result(1, 0)  # game 3 opened implicitly; A in seat 0 wins
    pairing = t.pairing(1)
    assert pairing.finished and pairing.winner == A
    assert [g.match for g in pairing.games] == ["m1", "m2", None]
    assert t.finished and t.winner == A


def test_deathmatch_replays_draws() -> None:
    t = Tournament.new(Format.DEATHMATCH, players(2))
    t.record_result(1, None)
    assert not t.finished
    assert t.pairings_to_start()[0].game_number == 2
    t.record_result(1, 0)
    assert t.winner == t.pairing(1).games[1].seats[0]


def test_deathmatch_takes_exactly_two_players_and_odd_series() -> None:
    with pytest.raises(TournamentError, match="exactly two"):
        Tournament.new(Format.DEATHMATCH, players(3))
    assert Tournament.new(Format.DEATHMATCH, players(2), best_of=7).best_of == 7
    with pytest.raises(TournamentError, match="best of"):
        Tournament.new(Format.DEATHMATCH, players(2), best_of=4)


@pytest.mark.parametrize(
    ("fmt", "count", "best_of", "message"),
    [
        ("league", 4, 1, "not a tournament format"),
        (Format.SWISS, 1, 1, "2 to"),
        (Format.SWISS, 4, 2, "best of"),
        (Format.ROUND_ROBIN, 4, 7, "best of"),
    ],
)
def test_bad_settings_are_refused(fmt: str, count: int, best_of: int, message: str) -> None:
    with pytest.raises(TournamentError, match=message):
        Tournament.new(fmt, players(count), best_of=best_of)


def test_duplicate_players_are_refused() -> None:
    with pytest.raises(TournamentError, match="twice"):
        Tournament.new(Format.SWISS, [(1, "a"), (1, "b")])


def test_results_for_decided_or_unknown_pairings_are_refused() -> None:
    t = Tournament.new(Format.SINGLE_ELIMINATION, players(4))
    t.record_result(1, 0)
    with pytest.raises(TournamentError, match="already decided"):
        t.record_result(1, 0)
    with pytest.raises(TournamentError, match="waiting for its players"):
        t.record_result(3, 0)
    with pytest.raises(TournamentError, match="no pairing 9"):
        t.record_result(9, 0)
    with pytest.raises(TournamentError, match="seat 0 or 1"):
        t.record_result(2, 2)


def test_item_options_name_the_seat_that_holds_each_item() -> None:
    assert item_options([{"mulligan"}, {"tie", "repeat"}]) == {"mulligan": "0", "repeat": "1", "tie": "1"}
    assert item_options([{"tie"}, {"tie"}]) == {"tie": "both"}
    assert item_options([set(), set()]) == {}


def test_items_follow_their_holder_from_seat_to_seat() -> None:
    t = Tournament.new(Format.DEATHMATCH, players(2), best_of=3, options={"variant": "classic"})
    t.give_item(B, "tie")
    t.give_item(A, "Mulligan")
    game = t.pairings_to_start()[0]
    assert game.seats == (A, B)
    assert game.options == {"variant": "classic", "mulligan": "0", "tie": "1"}
    t.record_result(1, 0)
    assert t.match_options(1) == {"variant": "classic", "mulligan": "1", "tie": "0"}  # game 2: seats swap
    t.take_item(B, "tie")
    assert t.match_options(1, game_number=3) == {"variant": "classic", "mulligan": "0"}
    t = round_trip(t)
    assert t.player(A).items == ["mulligan"]


def test_bad_item_names_and_missing_items_are_refused() -> None:
    t = Tournament.new(Format.DEATHMATCH, players(2))
    with pytest.raises(TournamentError, match="not an item"):
        t.give_item(A, "tie!")
    with pytest.raises(TournamentError, match="holds no"):
        t.take_item(A, "tie")


def test_drop_in_single_elimination_gives_walkovers_down_the_bracket() -> None:
    t = Tournament.new(Format.SINGLE_ELIMINATION, players(8))
    quitter = players(8)[0][0]  # seed 1, waiting in round 1
    assert t.drop(quitter) == [1]
    assert t.pairing(1).method == "forfeit"
    t = round_trip(t)
    t = play_out(t, random.Random(2))
    assert t.winner != quitter
    assert [p.id for p in t.pairings_of(quitter)] == [1]
    with pytest.raises(TournamentError, match="already left"):
        t.drop(quitter)


def test_drop_after_a_win_forfeits_the_next_bracket_pairing_when_it_fills() -> None:
    t = Tournament.new(Format.SINGLE_ELIMINATION, players(4))
    t.record_result(1, t.pairing(1).seats_for(1).index(A))  # A wins the first semi-final
    assert t.drop(A) == []  # the final is not ready yet
    t.record_result(2, 0)
    final = t.pairing(3)
    assert final.finished and final.method == "forfeit" and final.winner != A
    assert t.finished and t.winner == final.winner


def test_dropped_player_never_enters_the_losers_bracket() -> None:
    t = Tournament.new(Format.DOUBLE_ELIMINATION, players(8))
    quitter = t.pairing(1).participants[1]
    t.drop(quitter)
    t = play_out(t, random.Random(4))
    assert all(p.bracket == "winners" for p in t.pairings_of(quitter))
    assert t.winner is not None


def test_everyone_dropping_but_one_ends_a_swiss_event() -> None:
    t = Tournament.new(Format.SWISS, players(3), rounds=3)
    t.drop(102)
    t.drop(103)
    assert t.finished and not t.needs_next_round
    assert t.winner == 101


def test_host_report_decides_a_series_in_progress() -> None:
    t = Tournament.new(Format.SINGLE_ELIMINATION, players(4), best_of=5)
    t.mark_started(1, "m")
    t.report(1, t.pairing(1).participants[1])
    assert t.pairing(1).method == "host"
    assert t.pairing(3).players[0] == t.pairing(1).participants[1]
    assert {g.pairing_id for g in t.pairings_to_start()} == {2}


def test_host_correction_in_a_bracket_rewinds_what_was_not_played() -> None:
    t = Tournament.new(Format.DOUBLE_ELIMINATION, players(4))
    first = t.pairing(1)
    t.record_result(1, 0)
    old_winner, old_loser = first.winner, first.loser
    assert old_winner is not None and old_loser is not None
    t.report(1, old_loser)
    assert (first.winner, first.method) == (old_loser, "host")
    winners_final = t.pairing(3)
    assert winners_final.players[0] == old_loser
    losers_first = t.pairing(4)
    assert losers_first.players[0] == old_winner


def test_host_correction_is_refused_once_the_next_pairing_started() -> None:
    t = Tournament.new(Format.SINGLE_ELIMINATION, players(4))
    t.record_result(1, 0)
    t.record_result(2, 0)
    t.mark_started(3)
    loser = t.pairing(1).loser
    with pytest.raises(TournamentError, match="already started"):
        t.report(1, loser)


def test_bracket_series_cannot_be_reported_drawn() -> None:
    t = Tournament.new(Format.SINGLE_ELIMINATION, players(2))
    with pytest.raises(TournamentError, match="draw"):
        t.report(1, None)


def test_points_format_series_can_be_reported_drawn() -> None:
    t = Tournament.new(Format.ROUND_ROBIN, players(2))
    t.report(1, None)
    assert [s.points for s in t.standings()] == [0.5, 0.5]
    assert t.finished


def test_report_names_a_player_of_the_pairing() -> None:
    t = Tournament.new(Format.ROUND_ROBIN, players(4))
    with pytest.raises(TournamentError, match="does not play"):
        t.report(1, 999)


def test_seat_zero_goes_to_whoever_had_it_less() -> None:
    t = Tournament.new(Format.SWISS, players(4), rounds=3)
    firsts = []
    t = play_out(t, random.Random(9))
    for pid, _ in players(4):
        firsts.append(sum(1 for p in t.pairings_of(pid) if p.first == pid))
    assert max(firsts) - min(firsts) <= 1


def test_only_swiss_takes_a_number_of_rounds() -> None:
    with pytest.raises(TournamentError, match="Only a Swiss"):
        Tournament.new(Format.ROUND_ROBIN, players(4), rounds=2)


def test_report_is_refused_for_a_bye_or_an_unneeded_reset() -> None:
    t = Tournament.new(Format.DOUBLE_ELIMINATION, players(2))
    t.record_result(1, 0)
    t.record_result(2, t.pairing(2).seats_for(1).index(t.pairing(2).players[0]))  # favourite takes the final
    assert t.pairing(3).method == "unneeded"
    with pytest.raises(TournamentError, match="no series"):
        t.report(3, t.pairing(3).participants[1])
    single = Tournament.new(Format.SINGLE_ELIMINATION, players(3))
    with pytest.raises(TournamentError, match="no series"):
        single.report(1, 101)
