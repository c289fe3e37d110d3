"""Pool selection, dice, the roll and summoning (rulings 2–7, 13) through the contract."""

from __future__ import annotations

import random

import pytest

from bot.games import CHANCE, IllegalMove
from bot.games.wonderland.board import format_path, path_error, shape_error
from bot.games.wonderland.notation import parse_move
from tests.games.wonderland.helpers import BOARD, POOL0, POOL1, RULES, after_pools, position, sq

# --- pool (rule 2) ---------------------------------------------------------------------


def test_pool_selection_is_simultaneous_and_listed_as_single_picks() -> None:
    state = RULES.start()
    assert state.turn == frozenset({0, 1})
    moves = state.legal_moves(0)
    assert len(moves) == 52 and "pick AH" in moves and "pick 10S" in moves


def test_a_pick_excludes_the_other_card_of_the_same_rank_and_colour() -> None:
    state = RULES.start().play(0, "pick 7H")
    moves = state.legal_moves(0)
    assert "pick 7D" not in moves and "pick 7H" not in moves
    assert "pick 7S" in moves and "pick 7C" in moves
    with pytest.raises(IllegalMove, match="rank and colour"):
        state.play(0, "pick 7D")
    # the other seat picks from its own deck
    assert "pick 7H" in state.legal_moves(1)


def test_pool_shorthand_needs_exactly_the_missing_cards() -> None:
    state = RULES.start()
    with pytest.raises(IllegalMove, match="15 more"):
        state.play(0, "pool AH 2S")
    done = state.play(0, "pool " + " ".join(POOL0))
    assert done.turn == frozenset({1})
    assert done.legal_moves(0) == []


def test_picks_stay_secret_in_the_public_and_the_other_seat_view() -> None:
    state = RULES.start().play(0, "pick KH")
    assert state.view(None)["last_move"] == "pick"
    assert "KH" not in str(state.view(None))
    assert "KH" not in str(state.view(1))
    assert state.view(0)["private"]["pool"] == ["KH"]


def test_both_pools_complete_starts_seat_0s_dice_step() -> None:
    state = after_pools()
    assert state.turn == frozenset({0})
    assert state.phase == "dice"
    assert len(state.legal_moves(0)) == 15 + 105 + 455


# --- dice and roll (rules 3–5) --------------------------------------------------------------


def test_dice_are_canonicalised_by_level() -> None:
    state = after_pools().play(0, "dice 5d ah")
    assert state.last_move == "dice 1:AH 2:5D"
    assert state.turn == frozenset({CHANCE})
    assert state.view(None)["dice"] == [{"card": "AH", "level": 1}, {"card": "5D", "level": 2}]


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ("dice 2:AH", "level 1"),
        ("dice AC", "not in your pool"),
        ("dice AH AH", "different card"),
        ("dice AH 2H 3H 4H", "1 to 3"),
    ],
)
def test_bad_dice_are_refused(move: str, reason: str) -> None:
    with pytest.raises(IllegalMove, match=reason):
        after_pools().play(0, move)


def test_roll_faces_must_exist_on_the_die_and_match_the_count() -> None:
    state = after_pools().play(0, "dice AH 5D")
    with pytest.raises(IllegalMove, match="faces are"):
        state.play(CHANCE, "roll D S")  # a level-1 die has no D
    with pytest.raises(IllegalMove, match="2 faces"):
        state.play(CHANCE, "roll S")


def test_non_summon_faces_become_factors_that_are_kept() -> None:
    state = position(phase="roll", dice=["8S", "9S", "10S"], f0=[1, 0, 0, 0, 2])
    after = state.play(CHANCE, "roll C F D")
    assert after.view(None)["factors"][0] == {"C": 2, "F": 1, "D": 1, "A": 0, "M": 2}


def test_sample_chance_rolls_each_die_from_its_level_faces() -> None:
    state = after_pools().play(0, "dice 1:AH 4:8S")
    rng = random.Random(1)
    seen = set()
    for _ in range(200):
        faces = state.sample_chance(rng).split()[1:]
        assert faces[0] in "SSSSAM" and faces[1] in "DFCSAM"
        seen.add(faces[1])
    assert seen == set("DFCSAM")


def test_two_summon_faces_of_one_level_allow_either_card() -> None:
    state = after_pools().play(0, "dice AH 4H 5D").play(CHANCE, "roll S S S")
    assert state.summonable() == ("AH", "4H")
    assert any(m.startswith("summon AH ") for m in state.legal_moves(0))
    assert not any(m.startswith("summon 5D ") for m in state.legal_moves(0))


def test_summon_faces_of_different_levels_do_not_combine() -> None:
    state = after_pools().play(0, "dice AH 5D").play(CHANCE, "roll S S")
    assert state.summonable() == ()
    assert not any(m.startswith("summon") for m in state.legal_moves(0))


# --- summoning (rules 6–7) ------------------------------------------------------------------


def test_first_summon_starts_at_the_image_and_the_being_stands_next_to_it() -> None:
    state = after_pools().play(0, "dice AH 4H 5D").play(CHANCE, "roll S S M")
    after = state.play(0, "summon AH g2-g3 h3-h4 i4-i5")
    assert after.last_move == "summon AH g2-g3 h3-h4 i4-i5 @g2"
    view = after.view(None)
    assert view["beings"][0]["square"] == "g2" and view["beings"][0]["card"] == "AH"
    assert view["paths"] == [{"owner": 0, "face_up": True, "dominoes": [["g2", "g3"], ["h3", "h4"], ["i4", "i5"]]}]
    assert view["summoned"] == [["AH"], []]
    assert "AH" not in after.view(0)["private"]["pool"]


def test_only_one_summon_a_turn() -> None:
    state = after_pools().play(0, "dice AH 4H 5D").play(CHANCE, "roll S S M")
    state = state.play(0, "summon AH g2-g3 h3-h4 i4-i5")
    assert not any(m.startswith("summon") for m in state.legal_moves(0))
    with pytest.raises(IllegalMove, match="already summoned"):
        state.play(0, "summon 4H f1-e1 e2-d2 d3-c3")


def test_a_reversed_path_is_canonicalised_to_its_legal_laying_order() -> None:
    mine = [sq(s) for s in ("c2", "c3", "c4", "c5", "c6", "c7")]
    state = position(paths=[(0, mine)], phase="action", dice=["AH", "4H"], faces=["S", "S"], f0=[0, 0, 0, 0, 1])
    # d3-d4 e4-e5 f5-f6 can only be laid from d3 (next to c3); typed backwards it is the same
    # layout, so it is accepted and written in its legal order
    after = state.play(0, "summon AH f6-f5 e5-e4 d4-d3 @d3")
    assert after.last_move == "summon AH d3-d4 e4-e5 f5-f6 @d3"


def test_the_being_must_stand_next_to_an_earlier_path() -> None:
    mine = [sq(s) for s in ("c2", "c3", "c4", "c5", "c6", "c7")]
    state = position(paths=[(0, mine)], phase="action", dice=["AH", "4H"], faces=["S", "S"], f0=[0, 0, 0, 0, 1])
    with pytest.raises(IllegalMove, match="next to an earlier path"):
        state.play(0, "summon AH d3-d4 e4-e5 f5-f6 @f6")
    after = state.play(0, "summon AH d3-d4 e4-e5 f5-f6 @d4")
    assert after.being(0, "AH") is not None


def test_paths_anchor_on_your_own_paths_only() -> None:
    theirs = [sq(s) for s in ("c2", "c3", "c4", "c5", "c6", "c7")]
    state = position(paths=[(1, theirs)], phase="action", dice=["AH", "4H"], faces=["S", "S"])
    with pytest.raises(IllegalMove, match="first domino"):
        state.play(0, "summon AH d3-d4 e4-e5 f5-f6 @d3")


def test_seat_1_lays_face_down() -> None:
    state = position(active=1, phase="action", dice=["AC", "4S"], faces=["S", "S"], pools=(POOL0, POOL1))
    after = state.play(1, "summon AC g19-g18 f18-f17 e17-e16")
    assert after.view(None)["paths"][0]["face_up"] is False
    assert after.being(1, "AC") is not None and BOARD.names[after.being(1, "AC").square] == "g19"  # type: ignore[union-attr]


def test_every_listed_summon_obeys_the_shape_rules_and_none_is_missing() -> None:
    rng = random.Random(4)
    state = after_pools()
    checked = 0
    while checked < 3 and state.outcome is None:
        if state.turn == frozenset({CHANCE}):
            state = state.play(CHANCE, state.sample_chance(rng))
            continue
        seat = min(state.turn)
        moves = state.legal_moves(seat)
        summons = [m for m in moves if m.startswith("summon")]
        if summons:
            used, anchor_squares = state.used_squares(), state.summon_anchors(seat)
            everything = list(state.summon_moves(seat))
            if len(everything) <= 3000:
                assert sorted(summons) == sorted(everything)
            for move in everything:
                parsed = parse_move(state.board, move)
                assert path_error(state.board, used, anchor_squares, parsed.path) is None  # type: ignore[union-attr]
                assert shape_error(state.board, parsed.path) is None  # type: ignore[union-attr]
            layouts = {format_path(state.board, p) for p in state.layouts(seat)}
            assert {" ".join(m.split()[2:5]) for m in everything} == layouts
            checked += 1
            state = state.play(seat, rng.choice(summons))
        else:
            if state.phase == "dice":  # three dice of one level: summons come often
                moves = [m for m in moves if len({w[0] for w in m.split()[1:]}) == 1 and m.count(":") == 3] or moves
            state = state.play(seat, rng.choice(moves))
    assert checked == 3


def test_summon_moves_narrow_by_prefix_for_autocomplete() -> None:
    state = after_pools().play(0, "dice AH 4H").play(CHANCE, "roll S S")
    everything = list(state.summon_moves(0))
    narrowed = list(state.summon_moves(0, "summon ah g2-g3"))
    assert narrowed and len(narrowed) < len(everything)
    assert all(m.startswith("summon AH g2-g3") for m in narrowed)
    assert narrowed == [m for m in everything if m.startswith("summon AH g2-g3")]


def test_a_long_summon_list_is_capped_and_shared_by_the_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.games.wonderland import state as state_module

    monkeypatch.setattr(state_module, "SUMMON_LIST_CAP", 10)
    state = after_pools().play(0, "dice AH 4H 5D").play(CHANCE, "roll S S M")
    summons = [m for m in state.legal_moves(0) if m.startswith("summon")]
    assert len(summons) == 10
    assert sum(m.startswith("summon AH ") for m in summons) == 5
    assert len(list(state.summon_moves(0))) > 10  # the full listing for autocomplete stays complete
