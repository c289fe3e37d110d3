"""Best-of series scoring and the draw policy (replayed in knockouts, capped in points formats)."""

from __future__ import annotations

import pytest

from bot.tournaments.series import series_result, wins_needed


@pytest.mark.parametrize(("best_of", "need"), [(1, 1), (3, 2), (5, 3)])
def test_wins_needed_is_a_majority(best_of: int, need: int) -> None:
    assert wins_needed(best_of) == need


def test_best_of_three_ends_as_soon_as_someone_has_two_wins() -> None:
    assert not series_result([0], 3, draws_replayed=False).finished
    result = series_result([0, 0], 3, draws_replayed=False)
    assert (result.finished, result.winner, result.wins) == (True, 0, (2, 0))


def test_best_of_three_can_go_the_distance() -> None:
    assert not series_result([0, 1], 3, draws_replayed=False).finished
    result = series_result([0, 1, 1], 3, draws_replayed=False)
    assert (result.finished, result.winner) == (True, 1)


def test_best_of_five_needs_three_wins() -> None:
    assert not series_result([1, 1, 0, 0], 5, draws_replayed=True).finished
    assert series_result([1, 1, 0, 0, 1], 5, draws_replayed=True).winner == 1


def test_points_format_single_drawn_game_is_a_drawn_series() -> None:
    result = series_result([None], 1, draws_replayed=False)
    assert (result.finished, result.winner, result.draws) == (True, None, 1)


def test_points_format_drawn_series_after_win_draw_loss() -> None:
    result = series_result([0, None, 1], 3, draws_replayed=False)
    assert (result.finished, result.winner) == (True, None)


def test_points_format_more_wins_take_a_capped_series() -> None:
    result = series_result([None, 0, None], 3, draws_replayed=False)
    assert (result.finished, result.winner) == (True, 0)


def test_knockout_replays_drawn_games_until_a_win() -> None:
    assert not series_result([None, None, None], 1, draws_replayed=True).finished
    result = series_result([None, None, None, 1], 1, draws_replayed=True)
    assert (result.finished, result.winner, result.draws) == (True, 1, 3)
