"""The opponent's abilities during the active player's action step (ruling 12).

Source: "Only the acting player's beings may be summoned, be moved and make attacks during
his turn, though the opponent's beings may use their special abilities", and abilities
"produce effects lasting from the time used": a black King (-Atk) or a black Jack (+Move
cost) of the opponent can touch the attacker, but an attack already made keeps its points
and a move already made its cost.  The opponent MAY act then (`may_act`); only the active
seat MUST (`turn`), so the opponent is never waited for and its clock does not run.
"""

from __future__ import annotations

import random

import pytest

from bot.games import CHANCE, IllegalMove
from bot.games.wonderland import WonderlandState
from tests.games.playout import playout
from tests.games.wonderland.helpers import LINE, RULES, after_pools, being, factors, position, sq

ACTIVE, OTHER = 0, 1


def facing(court: str, *, f0: list[int], f1: list[int]) -> WonderlandState:
    """Seat 0's 5H on c4 faces seat 1's 8C on d4; seat 1's `court` on c7 sees c4 down the line."""
    beings = [being(ACTIVE, "5H", "c4"), being(OTHER, "8C", "d4"), being(OTHER, court, "c7")]
    return position(paths=[(ACTIVE, LINE), (OTHER, [sq("d4")])], beings=beings, f0=f0, f1=f1)


def test_the_opponent_may_act_but_only_the_active_seat_must() -> None:
    state = facing("KS", f0=factors(a=1), f1=factors(f=3))
    assert state.turn == {ACTIVE}
    assert state.may_act == {OTHER}
    moves = state.legal_moves(OTHER)
    assert moves and all(m.startswith(("ability ", "detonate ")) for m in moves)
    assert "ability KS 2 c4" in moves
    after = state.play(OTHER, "ability KS 2 c4")
    assert after.turn == {ACTIVE} and after.may_act == {OTHER}  # nobody waits for seat 1
    spent = after.play(OTHER, "ability KS 1 c4")
    assert spent.may_act == frozenset()  # no Force left: nothing more to offer


def test_a_black_king_of_the_opponent_lowers_the_attackers_atk_from_then_on() -> None:
    state = facing("KS", f0=factors(a=1, m=1), f1=factors(f=2))
    assert state.play(ACTIVE, "attack 5H d4").attacks[0].points == 3
    lowered = state.play(OTHER, "ability KS 2 c4")
    assert lowered.factors[OTHER][1] == 0  # paid with Force
    assert lowered.play(ACTIVE, "attack 5H d4").attacks[0].points == 1  # Atk 3 - 2


def test_an_attack_already_made_keeps_its_points() -> None:
    hit = facing("KS", f0=factors(a=1, m=1), f1=factors(f=2)).play(ACTIVE, "attack 5H d4")
    later = hit.play(OTHER, "ability KS 2 c4")
    assert later.being(ACTIVE, "5H").attack == 1  # type: ignore[union-attr]
    assert later.attacks[0].points == 3


def test_a_black_jack_of_the_opponent_raises_the_move_cost_from_then_on() -> None:
    state = facing("JS", f0=factors(m=3), f1=factors(f=1))
    moved = state.play(ACTIVE, "move 5H c4-c3")
    assert moved.factors[ACTIVE][4] == 2  # one square, one Move factor
    slowed = moved.play(OTHER, "ability JS 1 c3")
    assert slowed.factors[ACTIVE][4] == 2  # the move already made keeps its cost
    again = slowed.play(ACTIVE, "move 5H c3-c2")
    assert again.factors[ACTIVE][4] == 0  # now a square costs 1 + 1


@pytest.mark.parametrize("move", ["end", "attack 8C c4", "move 8C d4-d5", "done", "defend 8C"])
def test_meanwhile_the_opponent_may_not_do_anything_else(move: str) -> None:
    state = facing("KS", f0=factors(a=1), f1=factors(f=2, a=1, m=1, d=1))
    before = state.dump()
    with pytest.raises(IllegalMove):
        state.play(OTHER, move)
    assert state.dump() == before


def test_the_opponent_without_an_ability_to_use_is_not_offered_one() -> None:
    assert facing("KS", f0=factors(a=1), f1=factors()).may_act == frozenset()  # no Force to pay
    assert facing("QH", f0=factors(a=1), f1=factors(f=3)).may_act == frozenset()  # red pays Chance
    with pytest.raises(IllegalMove, match="not your turn"):
        facing("KS", f0=factors(a=1), f1=factors()).play(OTHER, "ability KS 1 c4")


def test_not_in_the_dice_step_nor_during_the_roll() -> None:
    state = after_pools()
    assert state.phase == "dice" and state.may_act == frozenset()
    rolled = state.play(ACTIVE, "dice AH 4H")
    assert rolled.turn == {CHANCE} and rolled.may_act == frozenset()
    assert rolled.legal_moves(OTHER) == []


def test_an_opponents_blast_meanwhile_is_defended_by_the_active_seat_after_end() -> None:
    beings = [being(ACTIVE, "8H", "c5"), being(OTHER, "10S", "d6"), being(OTHER, "AC", "c12")]
    state = position(paths=[(ACTIVE, LINE), (OTHER, [sq("d6")])], beings=beings, f0=factors(d=1, m=1), f1=factors(f=1))
    blasted = state.play(OTHER, "detonate 10S 1")
    assert blasted.being(OTHER, "10S") is None and blasted.turn == {ACTIVE} and blasted.phase == "action"
    defence = blasted.play(ACTIVE, "end")  # seat 1 has nothing to defend with: its `done` is forced
    assert defence.phase == "defence" and defence.turn == {ACTIVE}
    assert "defend 8H" in defence.legal_moves(ACTIVE)


@pytest.mark.parametrize("seed", range(3))
def test_in_random_games_every_move_the_opponent_may_make_is_accepted_and_nobody_waits(seed: int) -> None:
    rng = random.Random(seed)
    checked = 0
    state = RULES.start(options={"board": ("standard", "ddm")[seed % 2]})
    for before, _seat, _move in playout(state, rng):
        extra = before.may_act
        assert not extra & before.turn  # a seat either must or may act, not both
        for seat in extra:
            assert isinstance(before, WonderlandState) and before.phase == "action" and seat != before.active
            for move in before.legal_moves(seat)[:6]:
                after = before.play(seat, move)
                assert after.turn == before.turn
                checked += 1
    assert checked or seed  # at least the first game meets the situation


def test_the_help_text_says_the_opponent_may_use_abilities_meanwhile() -> None:
    assert "The opponent may use\n  theirs during your action step" in RULES.info.how_to_play
