"""Elo: expected score, symmetric updates, draws and the K-factor schedule."""

from __future__ import annotations

import pytest

from bot.ratings import (
    DEFAULT_RATING,
    K_ESTABLISHED,
    K_MASTER,
    K_PROVISIONAL,
    PROVISIONAL_GAMES,
    Rating,
    expected_score,
    k_factor,
    rating_changes,
    update,
)


def test_expected_score_of_equals_is_one_half() -> None:
    assert expected_score(1500, 1500) == 0.5


def test_expected_score_for_a_400_point_edge_is_ten_to_one() -> None:
    assert expected_score(1900, 1500) == pytest.approx(10 / 11)
    assert expected_score(1500, 1900) == pytest.approx(1 / 11)


def test_expected_scores_of_both_sides_sum_to_one() -> None:
    assert expected_score(1712, 1433) + expected_score(1433, 1712) == pytest.approx(1.0)


def test_k_schedule_provisional_then_established_then_master() -> None:
    assert k_factor(Rating(DEFAULT_RATING, 0)) == K_PROVISIONAL
    assert k_factor(Rating(DEFAULT_RATING, PROVISIONAL_GAMES - 1)) == K_PROVISIONAL
    assert k_factor(Rating(DEFAULT_RATING, PROVISIONAL_GAMES)) == K_ESTABLISHED
    assert k_factor(Rating(2400, PROVISIONAL_GAMES)) == K_MASTER


def test_win_between_equals_moves_half_k() -> None:
    winner, loser = update(Rating(1500, 40), Rating(1500, 40), 1.0)
    assert winner.value == pytest.approx(1500 + K_ESTABLISHED / 2)
    assert loser.value == pytest.approx(1500 - K_ESTABLISHED / 2)
    assert (winner.games, loser.games) == (41, 41)


def test_update_is_symmetric_when_the_players_swap() -> None:
    a, b = Rating(1620, 50), Rating(1480, 12)
    a_won = update(a, b, 1.0)
    b_lost = update(b, a, 0.0)
    assert a_won[0] == b_lost[1]
    assert a_won[1] == b_lost[0]


def test_equal_k_update_is_zero_sum() -> None:
    change_a, change_b = rating_changes(Rating(1830, 60), Rating(1510, 90), 0.0)
    assert change_a + change_b == pytest.approx(0.0)
    assert change_a < 0 < change_b


def test_draw_moves_the_favourite_down_and_the_underdog_up() -> None:
    favourite, underdog = update(Rating(1700, 60), Rating(1500, 60), 0.5)
    assert favourite.value < 1700
    assert underdog.value > 1500
    assert favourite.value - 1700 == pytest.approx(-(underdog.value - 1500))


def test_draw_between_equals_changes_nothing() -> None:
    a, b = update(Rating(1500, 3), Rating(1500, 70), 0.5)
    assert (a.value, b.value) == (1500, 1500)


def test_provisional_player_moves_more_than_an_established_one() -> None:
    new, old = rating_changes(Rating(1500, 2), Rating(1500, 100), 1.0)
    assert new == pytest.approx(K_PROVISIONAL / 2)
    assert old == pytest.approx(-K_ESTABLISHED / 2)


def test_score_must_be_win_draw_or_loss() -> None:
    with pytest.raises(ValueError, match=r"0, 0\.5 or 1"):
        update(Rating(), Rating(), 0.7)


def test_rating_json_round_trip() -> None:
    rating = Rating(1543.25, 17)
    assert Rating.load(rating.dump()) == rating
