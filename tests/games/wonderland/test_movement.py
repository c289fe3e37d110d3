"""Movement (rule 8) and the Jacks' effect on it (rule 12)."""

from __future__ import annotations

import pytest

from bot.games import IllegalMove
from tests.games.wonderland.helpers import BOARD, CROSS, LINE, being, factors, position


def _names(state: object, seat: int, card: str) -> str:
    b = state.being(seat, card)  # type: ignore[attr-defined]
    return str(BOARD.names[b.square])


def test_a_step_costs_one_move_factor_per_square() -> None:
    state = position(paths=[(0, LINE)], beings=[being(0, "5D", "c2")], f0=factors(m=3))
    after = state.play(0, "move 5D c2-c3-c4")
    assert _names(after, 0, "5D") == "c4"
    assert after.factors[0] == (0, 0, 0, 0, 1)
    assert "move 5D c2-c3-c4-c5" in state.legal_moves(0)
    assert not any(m.endswith("c6") for m in state.legal_moves(0) if m.startswith("move"))
    with pytest.raises(IllegalMove, match="needs 4 Move"):
        state.play(0, "move 5D c2-c3-c4-c5-c6")


def test_beings_move_any_number_of_times_while_factors_last() -> None:
    state = position(paths=[(0, LINE)], beings=[being(0, "5D", "c2")], f0=factors(m=3))
    after = state.play(0, "move 5D c2-c3").play(0, "move 5D c3-c4").play(0, "move 5D c4-c3")
    assert _names(after, 0, "5D") == "c3" and after.factors[0][4] == 0


def test_moves_stay_on_path_squares_and_orthogonal() -> None:
    state = position(paths=[(0, LINE)], beings=[being(0, "5D", "c2")], f0=factors(m=3))
    with pytest.raises(IllegalMove, match="not a path square"):
        state.play(0, "move 5D c2-d2")
    with pytest.raises(IllegalMove, match="orthogonally adjacent"):
        state.play(0, "move 5D c2-c4")


def test_pass_a_friendly_being_but_do_not_stop_on_it() -> None:
    beings = [being(0, "5D", "c2"), being(0, "6D", "c3")]
    state = position(paths=[(0, LINE)], beings=beings, f0=factors(m=3))
    assert _names(state.play(0, "move 5D c2-c3-c4"), 0, "5D") == "c4"
    with pytest.raises(IllegalMove, match="not stop"):
        state.play(0, "move 5D c2-c3")


def test_never_enter_an_enemy_square() -> None:
    beings = [being(0, "5D", "c2"), being(1, "6C", "c3")]
    state = position(paths=[(0, LINE)], beings=beings, f0=factors(m=3))
    with pytest.raises(IllegalMove, match="enemy"):
        state.play(0, "move 5D c2-c3-c4")
    assert not [m for m in state.legal_moves(0) if m.startswith("move 5D")]


def test_the_rook_never_moves() -> None:
    state = position(paths=[(0, LINE)], beings=[being(0, "10S", "c2")], f0=factors(m=3))
    assert not [m for m in state.legal_moves(0) if m.startswith("move")]
    with pytest.raises(IllegalMove, match="never moves"):
        state.play(0, "move 10S c2-c3")


def test_entering_the_zone_of_an_enemy_rook_stops_the_being() -> None:
    # enemy Rook on d6 (beside the path): c5, c6, c7 are in its zone
    paths = [(0, LINE), (1, [BOARD.square("d6")])]
    beings = [being(0, "5D", "c2"), being(0, "AH", "c12"), being(1, "10D", "d6")]
    state = position(paths=paths, beings=beings, f0=factors(m=8))
    with pytest.raises(IllegalMove, match="must stop on c5"):
        state.play(0, "move 5D c2-c3-c4-c5-c6")
    after = state.play(0, "move 5D c2-c3-c4-c5")
    assert after.being(0, "5D").halted  # type: ignore[union-attr]
    with pytest.raises(IllegalMove, match="may not move again"):
        after.play(0, "move 5D c5-c4")
    destinations = {m.split("-")[-1] for m in state.legal_moves(0) if m.startswith("move 5D")}
    assert "c5" in destinations and "c6" not in destinations


def test_a_being_that_starts_next_to_a_rook_pays_one_more_inside_its_zone() -> None:
    paths = [(0, LINE), (1, [BOARD.square("d6")])]
    beings = [being(0, "5D", "c5", rook_start=[BOARD.square("d6")]), being(1, "10D", "d6")]
    state = position(paths=paths, beings=beings, f0=factors(m=8))
    after = state.play(0, "move 5D c5-c6-c7-c8")  # c6, c7: 2 each; c8 outside: 1
    assert after.factors[0][4] == 8 - 5
    assert not after.being(0, "5D").halted  # type: ignore[union-attr]


def test_rook_start_is_recorded_when_the_turn_begins() -> None:
    paths = [(0, LINE), (1, [BOARD.square("d6")])]
    beings = [being(0, "5D", "c5"), being(1, "10D", "d6")]
    state = position(paths=paths, beings=beings, active=1, f1=factors(m=1))
    nxt = state.play(1, "end")  # seat 0 has no Defend factors: its defence step is skipped
    assert nxt.active == 0 and nxt.being(0, "5D").rook_start == frozenset({BOARD.square("d6")})  # type: ignore[union-attr]


def test_own_rook_does_not_stop_own_beings() -> None:
    paths = [(0, LINE), (0, [BOARD.square("d6")])]
    beings = [being(0, "5D", "c2"), being(0, "10S", "d6")]
    state = position(paths=paths, beings=beings, f0=factors(m=8))
    after = state.play(0, "move 5D c2-c3-c4-c5-c6-c7-c8")
    assert _names(after, 0, "5D") == "c8"


def test_halted_on_a_friend_by_a_rook_leaves_play() -> None:
    paths = [(0, LINE), (1, [BOARD.square("d6")])]
    beings = [being(0, "5D", "c4"), being(0, "6D", "c5"), being(1, "10D", "d6")]
    state = position(paths=paths, beings=beings, f0=factors(m=3))
    after = state.play(0, "move 5D c4-c5")
    assert after.being(0, "5D") is None and after.being(0, "6D") is not None


def test_black_jack_raises_the_move_cost() -> None:
    beings = [being(0, "5D", "c2", slow=1)]
    state = position(paths=[(0, LINE)], beings=beings, f0=factors(m=4))
    after = state.play(0, "move 5D c2-c3-c4")
    assert after.factors[0][4] == 0


def test_red_jack_gives_extra_squares_per_move_factor_and_keeps_the_rest() -> None:
    beings = [being(0, "5D", "c2", speed=2)]
    state = position(paths=[(0, LINE)], beings=beings, f0=factors(m=2))
    after = state.play(0, "move 5D c2-c3")
    assert after.factors[0][4] == 1 and after.being(0, "5D").credit == 2  # type: ignore[union-attr]
    again = after.play(0, "move 5D c3-c4-c5")  # paid from the credit
    assert again.factors[0][4] == 1
    far = {m.split("-")[-1] for m in state.legal_moves(0) if m.startswith("move 5D")}
    assert "c8" in far and "c9" not in far  # 2 factors × 3 squares


def test_moves_cross_onto_other_paths_orthogonally() -> None:
    state = position(paths=[(0, LINE), (1, CROSS)], beings=[being(0, "5D", "c7")], f0=factors(m=3))
    after = state.play(0, "move 5D c7-c8-d8-e8")
    assert _names(after, 0, "5D") == "e8"
