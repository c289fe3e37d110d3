"""Attacks (rule 9), the defence step (10), Images (11), abilities and the Rook's blast (12)."""

from __future__ import annotations

import pytest

from bot.games import IllegalMove
from bot.games.wonderland import WonderlandState
from tests.games.wonderland.helpers import BOARD, LINE, being, factors, position, sq

# seat 0's 5H on c4 faces seat 1's 5S on c5 (hearts beat spades)


def _duel(attacker: str = "5H", target: str = "5S", **kw: object) -> WonderlandState:
    beings = [being(0, attacker, "c4"), being(1, target, "c5"), *kw.pop("extra", [])]  # type: ignore[misc]
    return position(paths=[(0, LINE)], beings=beings, **kw)  # type: ignore[arg-type]


def _to_defence(state: WonderlandState) -> WonderlandState:
    return state.play(0, "end")


def test_attack_costs_one_attack_factor_and_records_pending_points() -> None:
    state = _duel(f0=factors(a=2, m=1)).play(0, "attack 5H c5")
    assert state.factors[0][3] == 1
    assert state.view(None)["pending_attacks"] == [
        {
            "attacker": {"owner": 0, "card": "5H"},
            "target": {"owner": 1, "card": "5S", "square": "c5"},
            "points": 4,  # Atk 3 + 1: hearts beat spades
        }
    ]
    assert state.being(1, "5S").damage == 0  # type: ignore[union-attr]  # only recorded during the turn


def test_each_being_attacks_once_a_turn() -> None:
    state = _duel(f0=factors(a=2, m=1)).play(0, "attack 5H c5")
    with pytest.raises(IllegalMove, match="already attacked"):
        state.play(0, "attack 5H c5")


def test_no_suit_bonus_the_other_way_or_within_a_colour() -> None:
    backwards = _duel("5S", "5H", f0=factors(a=1, m=1)).play(0, "attack 5S c5")
    assert backwards.attacks[0].points == 3
    same_colour = _duel("5H", "5D", f0=factors(a=1, m=1)).play(0, "attack 5H c5")
    assert same_colour.attacks[0].points == 3


def test_attacks_are_orthogonal_except_for_bishop_and_rook() -> None:
    beings = [being(0, "5H", "c4"), being(0, "9S", "c6"), being(1, "6C", "d5")]
    state = position(paths=[(0, LINE), (1, [sq("d5")])], beings=beings, f0=factors(a=2, m=1))
    moves = state.legal_moves(0)
    assert "attack 9S d5" in moves and "attack 5H d5" not in moves
    with pytest.raises(IllegalMove, match="orthogonally next"):
        state.play(0, "attack 5H d5")
    assert state.play(0, "attack 9S d5").attacks[0].points == 3


def test_defence_with_a_defend_factor_subtracts_def_plus_the_suit_bonus() -> None:
    # 5S (Str 2, Def 1) defends against 5D: spades beat diamonds, so Def 1 + 1
    state = _duel("5D", "5S", f0=factors(a=1, m=1), f1=factors(d=1, c=1)).play(0, "attack 5D c5")
    defence = _to_defence(state)
    assert defence.turn == frozenset({1}) and "defend 5S" in defence.legal_moves(1)
    after = defence.play(1, "defend 5S")  # nothing else to do: `done` is forced
    assert after.forced == ((1, "done"),) and after.active == 1
    assert after.being(1, "5S").damage == 1  # type: ignore[union-attr]  # 3 - (1 + 1)
    assert after.factors[1][2] == 0


def test_defence_without_factors_takes_the_full_attack() -> None:
    state = _duel("5D", "9S", f0=factors(a=1, m=1)).play(0, "attack 5D c5")
    after = _to_defence(state)  # no Defend factor, no ability: `done` is forced
    assert after.active == 1
    assert after.being(1, "9S").damage == 3  # type: ignore[union-attr]


def test_damage_is_permanent_and_str_0_leaves_play_for_good() -> None:
    state = _duel("5D", "8S", f0=factors(a=1, m=1), extra=[]).play(0, "attack 5D c5")
    state = state.play(0, "end")  # 8S: Str 3, 3 damage
    assert state.being(1, "8S") is None
    assert state.view(None)["pool_left"][1] == 15  # it was never summoned from this pool in the test


def test_damage_accumulates_over_turns() -> None:
    beings = [being(0, "AD", "c4"), being(1, "8S", "c5", damage=1)]
    state = position(paths=[(0, LINE)], beings=beings, f0=factors(a=1, m=1)).play(0, "attack AD c5")
    after = state.play(0, "end")
    assert after.being(1, "8S").damage == 2  # type: ignore[union-attr]
    assert after.view(None)["beings"][1]["strength"] == 1


def test_attacking_the_image_costs_it_one_life_however_many_attacks() -> None:
    beings = [being(0, "5H", "g19"), being(0, "9S", "f19")]
    paths = [(0, [sq("g19"), sq("f19")])]
    state = position(paths=paths, beings=beings, f0=factors(a=2, m=1))
    assert "attack 5H image" in state.legal_moves(0)
    assert "attack 9S image" in state.legal_moves(0)  # the Bishop diagonally
    after = state.play(0, "attack 5H image").play(0, "attack 9S image")  # then `end` is forced
    assert after.lives == (3, 2)


def test_an_image_at_zero_loses() -> None:
    state = position(paths=[(0, [sq("g19")])], beings=[being(0, "5H", "g19")], f0=factors(a=1), lives=(3, 1))
    after = state.play(0, "attack 5H image")
    assert after.outcome is not None and after.outcome.winners == frozenset({0})
    assert "Image" in after.outcome.reason


def test_both_images_at_zero_the_same_turn_is_a_draw() -> None:
    # a Rook in the middle blasts both Images (distance 9 and 10)
    state = position(paths=[(0, [sq("g10")])], beings=[being(0, "10S", "g10")], f0=factors(f=10), lives=(1, 1))
    after = state.play(0, "detonate 10S 10")
    after = after.play(0, "end") if after.outcome is None else after
    assert after.outcome is not None and after.outcome.is_draw
    assert after.lives == (0, 0)


def test_rook_detonation_hits_friend_and_foe_within_range_and_leaves_play() -> None:
    beings = [being(0, "10S", "c6"), being(0, "AH", "c8"), being(1, "8D", "d7"), being(1, "2C", "c10")]
    paths = [(0, LINE), (1, [sq("d7")])]
    state = position(paths=paths, beings=beings, f0=factors(f=2, m=1))
    assert "detonate 10S 2" in state.legal_moves(0)
    blast = state.play(0, "detonate 10S 2")
    assert blast.being(0, "10S") is None
    hit = {(a.target_owner, a.target_card, a.points) for a in blast.attacks}
    assert hit == {(0, "AH", 3), (1, "8D", 4)}  # spades beat diamonds: +1; 2C at distance 4 is safe
    after = blast.play(0, "end")
    assert after.being(0, "AH") is None and after.being(1, "8D") is None and after.being(1, "2C") is not None


def test_defender_may_use_a_red_queen_in_the_defence_step() -> None:
    beings = [being(0, "5D", "c4"), being(1, "8C", "c5"), being(1, "QD", "c7")]
    state = position(paths=[(0, LINE)], beings=beings, f0=factors(a=1, m=1), f1=factors(c=2, d=1))
    defence = state.play(0, "attack 5D c5").play(0, "end")
    assert "ability QD 2 c5" in defence.legal_moves(1)  # QD on c7 sees c6 (empty), then c5
    after = defence.play(1, "ability QD 2 c5").play(1, "defend 8C")  # `done` is then forced
    # 5D Atk 3 + 1 (diamonds beat clubs); 8C Def 2 + 2 = 4: no damage
    assert after.being(1, "8C").damage == 0  # type: ignore[union-attr]


def test_the_active_player_defends_its_own_beings_after_the_opponent() -> None:
    beings = [being(0, "10S", "c6"), being(0, "8H", "c7"), being(1, "AC", "d6")]
    paths = [(0, LINE), (1, [sq("d6")])]
    state = position(paths=paths, beings=beings, f0=factors(f=1, d=1, m=1), f1=factors(d=1))
    state = state.play(0, "detonate 10S 1").play(0, "end")
    assert state.turn == frozenset({1})
    state = state.play(1, "done")
    assert state.turn == frozenset({0}) and state.phase == "defence"
    with pytest.raises(IllegalMove, match="only `defend`"):
        state.play(0, "detonate 10S 1")
    after = state.play(0, "defend 8H")  # `done` is then forced
    assert after.being(0, "8H").damage == 0  # type: ignore[union-attr]  # Atk 3 - (Def 2 + 1: hearts beat spades)


# --- abilities (rule 12) ------------------------------------------------------------------


def _court(card: str, target_card: str = "5S", **kw: object) -> WonderlandState:
    beings = [being(0, card, "c2"), being(0, "AH", "c12"), being(1, target_card, "c5")]
    return position(paths=[(0, LINE)], beings=beings, f0=factors(c=3, f=3, a=1, m=1), **kw)  # type: ignore[arg-type]


def test_black_king_lowers_and_red_king_raises_atk_never_below_zero() -> None:
    lowered = _court("KS").play(0, "ability KS 3 c5")
    assert lowered.being(1, "5S").attack == 0  # type: ignore[union-attr]  # 3 - 3
    raised = _court("KH").play(0, "ability KH 2 c2")
    assert raised.being(0, "KH").attack == 4  # type: ignore[union-attr]
    assert raised.factors[0][0] == 1  # red cards pay Chance


def test_black_queen_lowers_and_red_queen_raises_def() -> None:
    lowered = _court("QS", "8C").play(0, "ability QS 3 c5")
    assert lowered.being(1, "8C").defence == 0  # type: ignore[union-attr]  # max(0, 2 - 3)
    assert lowered.factors[0][1] == 0  # black cards pay Force
    raised = _court("QH", "8C").play(0, "ability QH 1 c5")
    assert raised.being(1, "8C").defence == 3  # type: ignore[union-attr]


def test_jacks_change_the_target_moves() -> None:
    slowed = _court("JS").play(0, "ability JS 2 c2")
    assert slowed.being(0, "JS").slow == 2  # type: ignore[union-attr]
    quick = _court("JH").play(0, "ability JH 1 c2")
    assert quick.being(0, "JH").speed == 1  # type: ignore[union-attr]


def test_abilities_need_an_unbroken_line_with_no_being_between() -> None:
    beings = [being(0, "KH", "c2"), being(0, "AH", "c4"), being(1, "5S", "c5")]
    state = position(paths=[(0, LINE)], beings=beings, f0=factors(c=3, m=1))
    with pytest.raises(IllegalMove, match="first being"):
        state.play(0, "ability KH 1 c5")  # AH stands between
    assert "ability KH 1 c4" in state.legal_moves(0)
    gap = position(paths=[(0, [sq("c2"), sq("c3"), sq("c5")])], beings=[being(0, "KH", "c2"), being(1, "5S", "c5")])
    assert not [m for m in gap.legal_moves(0) if m.endswith(" c5")]


def test_effects_end_with_the_turn() -> None:
    after = _court("KH").play(0, "ability KH 2 c2").play(0, "end")
    assert after.being(0, "KH").atk_mod == 0  # type: ignore[union-attr]


def test_atk_change_after_an_attack_has_no_effect_on_it() -> None:
    state = _court("KS", "AC").play(0, "ability KS 1 c2")
    assert state.being(0, "KS").attack == 1  # type: ignore[union-attr]


def test_abilities_cost_what_the_player_has() -> None:
    with pytest.raises(IllegalMove, match="Force"):
        _court("KS").play(0, "ability KS 4 c5")
    with pytest.raises(IllegalMove, match="at least 1"):
        _court("KS").play(0, "ability KS 0 c5")


def test_target_by_card_is_accepted_and_canonicalised_to_the_square() -> None:
    after = _court("KS").play(0, "ability ks -2 5s")
    assert after.last_move == "ability KS 2 c5"


def test_pending_points_are_fixed_when_the_attack_is_made() -> None:
    beings = [being(0, "KS", "c2"), being(1, "5D", "c3"), being(0, "AH", "c12")]
    state = position(paths=[(0, LINE)], beings=beings, f0=factors(f=3, a=1, m=1))
    hit = state.play(0, "attack KS c3")
    assert hit.attacks[0].points == 3  # Atk 2 + spades beat diamonds
    later = hit.play(0, "ability KS 2 c2")
    assert later.attacks[0].points == 3


def test_board_square_helper() -> None:
    assert BOARD.names[sq("m20")] == "m20"


def test_defender_may_detonate_a_rook_in_the_defence_step() -> None:
    beings = [being(0, "5D", "c4"), being(1, "8C", "c5"), being(1, "10C", "c7")]
    state = position(paths=[(0, LINE)], beings=beings, f0=factors(a=1, d=1, m=1), f1=factors(f=3))
    defence = state.play(0, "attack 5D c5").play(0, "end")
    assert "detonate 10C 3" in defence.legal_moves(1)
    blast = defence.play(1, "detonate 10C 3")  # hits 8C (its own), 5D (c4, distance 3)
    assert {(a.target_owner, a.target_card) for a in blast.attacks} == {(1, "8C"), (0, "5D")}
    assert blast.turn == frozenset({0}) and blast.legal_moves(0) == ["done", "defend 5D"]
    after = blast.play(0, "defend 5D")  # Def 1 against clubs' Atk 3: diamonds beat clubs, so +1
    assert after.being(0, "5D").damage == 1  # type: ignore[union-attr]
    assert after.being(1, "8C") is None  # 4 (5D, +1 vs clubs) + 3 (own Rook) > Str 3
