"""Domino Wars rules engine: one or more tests per ruling of `shared/rules/domino-wars.md`,
the notation forms, and hidden information (no seat learns the other's secrets)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bot.games import CHANCE, GAMES, IllegalMove, InvalidOptions
from bot.games.domino_wars import SEAT_NAMES, DominoWarsState
from tests.games.playout import playout, start

RULES = GAMES["domino_wars"]
DRAFT_0 = "0-1 0-2 1-3 2-5 2-6 3-4 4-6 5-6"
DRAFT_1 = "0-3 1-2 1-4 2-4 3-5 3-6 4-5 5-6"
ALL_TILES = [f"{a}-{b}" for a in range(7) for b in range(a + 1, 7)]


def _start(options: dict[str, str] | None = None) -> DominoWarsState:
    state = RULES.start(options=options)
    assert isinstance(state, DominoWarsState)
    return state


def dealt(
    order0: str = "5-6 2-6 4-6 0-1 0-2 1-3 2-5 3-4",
    order1: str = "4-5 3-6 3-5 0-3 1-2 1-4 2-4 5-6",
    options: dict[str, str] | None = None,
    first: int = 0,
) -> DominoWarsState:
    """A game through first player, drafts and both shuffles (piles given top first)."""
    state = _start(options)
    if CHANCE in state.turn:
        state = state.play(CHANCE, f"first {first}")
    state = state.play(0, "draft " + order0).play(1, "draft " + order1)
    return state.play(CHANCE, f"shuffle 0 {order0}").play(CHANCE, f"shuffle 1 {order1}")


def position(
    *,
    hands: tuple[str, str],
    piles: tuple[str, str] = ("", ""),
    board: dict[str, tuple[int, int, int]] | None = None,
    discards: tuple[str, str] = ("", ""),
    to_move: int = 0,
    first: int = 0,
    skips: tuple[int, int] = (0, 0),
    options: dict[str, str] | None = None,
) -> DominoWarsState:
    """A play-phase position built through `load` (board: square -> (number, owner, under))."""
    cells = [[-1, -1, 0] for _ in range(16)]
    for name, (number, owner, under) in (board or {}).items():
        cells["abcd".index(name[0]) + 4 * (int(name[1]) - 1)] = [number, owner, under]
    data: dict[str, Any] = {
        "options": {"repeat": "none", "mulligan": "none", "tie": "none", **(options or {})},
        "phase": "play",
        "first": first,
        "to_move": to_move,
        "board": cells,
        "drafts": [DRAFT_0, DRAFT_1],
        "hands": list(hands),
        "piles": list(piles),
        "known": ["0" * len(p.split()) for p in piles],
        "discards": list(discards),
        "skips": list(skips),
        "shuffle_due": [False, False],
        "mulligans_left": [0, 0],
        "deciding": [False, False],
        "effects": [],
        "pending": None,
        "no_draw": False,
        "skipped": [],
        "last_move": None,
        "last_seat": None,
        "last_placement": None,
        "ply": 10,
        "outcome": None,
    }
    state = RULES.load(data)
    assert isinstance(state, DominoWarsState)
    return state


def private(state: DominoWarsState, seat: int) -> dict[str, Any]:
    result: dict[str, Any] = state.view(seat)["private"]
    return result


# --- rules 1-2: board and pool ---------------------------------------------------------


def test_rule_1_a_new_mino_covers_the_old_one_and_the_view_counts_what_is_under() -> None:
    state = position(hands=("3-5", "1-2"), board={"b2": (2, 1, 0), "b3": (4, 1, 1)})
    after = state.play(0, "3-5 b2-b3")
    board = after.view(None)["board"]
    assert board["b2"] == {"number": 3, "owner": 0, "under": 1}
    assert board["b3"] == {"number": 5, "owner": 0, "under": 2}


def test_rule_1_squares_off_the_4x4_board_are_refused() -> None:
    state = position(hands=("3-5", "1-2"))
    with pytest.raises(IllegalMove, match="off the board"):
        state.play(0, "3-5 a4-a5")


def test_rule_2_the_pool_is_the_21_tiles_without_doubles() -> None:
    state = _start({"tie": "0"}).play(0, "first me")
    assert state.legal_moves(0) == [f"pick {t}" for t in ALL_TILES]
    with pytest.raises(IllegalMove, match="Doubles"):
        state.play(0, "pick 3-3")
    with pytest.raises(IllegalMove, match="Doubles"):
        state.play(0, "draft 0-0 0-2 1-3 2-5 2-6 3-4 4-6 5-6")


# --- rules 3-4, 17: items and the first player -------------------------------------------


def test_rule_3_items_are_per_seat_options_and_tie_cannot_be_held_by_both() -> None:
    options = {o.name: o.choices for o in RULES.info.options}
    assert options == {
        "repeat": ("none", "0", "1", "both"),
        "mulligan": ("none", "0", "1", "both"),
        "tie": ("none", "0", "1"),
    }
    with pytest.raises(InvalidOptions):
        RULES.start(options={"tie": "both"})


def test_rule_4_without_tie_the_first_player_is_a_chance_move() -> None:
    state = _start()
    assert state.turn == {CHANCE}
    assert state.sample_chance(random.Random(1)) in ("first 0", "first 1")
    after = state.play(CHANCE, "first 1")
    assert after.first == 1
    assert after.view(None)["directions"] == ["horizontal", "vertical"]
    assert after.turn == {0, 1}


@pytest.mark.parametrize(("holder", "move", "first"), [(0, "first me", 0), (0, "first you", 1), (1, "first me", 1)])
def test_rules_4_and_17_the_tie_holder_chooses_the_first_player(holder: int, move: str, first: int) -> None:
    state = _start({"tie": str(holder)})
    assert state.turn == {holder}
    assert state.legal_moves(holder) == ["first me", "first you"]
    after = state.play(holder, move)
    assert after.first == first
    assert after.view(None)["last_move"] == move


def test_rule_4_the_tie_holder_may_also_name_a_seat_number() -> None:
    after = _start({"tie": "1"}).play(1, "First 0")
    assert after.first == 0
    assert after.last_move == "first you"


def test_rule_4_the_first_player_places_vertically_the_second_horizontally() -> None:
    first = position(hands=("3-5", "1-2"), first=0, to_move=0)
    assert "3-5 a1-a2" in first.legal_moves(0)
    assert all(m.split()[1][0] == m.split()[1][3] for m in first.legal_moves(0))
    with pytest.raises(IllegalMove, match="vertically"):
        first.play(0, "3-5 a1-b1")
    second = position(hands=("3-5", "1-2"), first=0, to_move=1)
    assert all(m.split()[1][1] == m.split()[1][4] for m in second.legal_moves(1))
    with pytest.raises(IllegalMove, match="horizontally"):
        second.play(1, "1-2 a1-a2")


# --- rule 5 and 15: the draft -------------------------------------------------------------


def test_rule_5_the_draft_is_simultaneous_and_both_may_pick_the_same_tile() -> None:
    state = _start().play(CHANCE, "first 0")
    assert state.turn == {0, 1}
    state = state.play(1, "pick 2-5").play(0, "pick 5-2")
    assert private(state, 0)["draft"] == ["2-5"]
    assert private(state, 1)["draft"] == ["2-5"]
    assert "pick 2-5" not in state.legal_moves(0)
    with pytest.raises(IllegalMove, match="already picked"):
        state.play(0, "pick 2-5")


def test_rule_5_eight_single_picks_finish_a_draft_and_then_the_other_seat_alone_drafts() -> None:
    state = _start().play(CHANCE, "first 0")
    for tile in DRAFT_0.split():
        assert 0 in state.turn
        state = state.play(0, f"pick {tile}")
    assert state.turn == {1}
    assert state.view(None)["drafted"] == [True, False]
    assert state.legal_moves(0) == []


def test_rule_5_the_whole_draft_shorthand_is_canonical_and_checked() -> None:
    state = _start().play(CHANCE, "first 0")
    after = state.play(0, "DRAFT 6-5 6-4 4-3 6-2 5-2 3-1 2-0 1-0")
    assert private(after, 0)["draft"] == DRAFT_0.split()
    with pytest.raises(IllegalMove, match="8 tiles"):
        state.play(0, "draft 0-1 0-2")
    with pytest.raises(IllegalMove, match="8 different"):
        state.play(0, "draft 0-1 0-1 1-3 2-5 2-6 3-4 4-6 5-6")


def test_rule_5_the_shorthand_may_complete_a_begun_draft_only_if_it_keeps_the_picks() -> None:
    state = _start().play(CHANCE, "first 0").play(0, "pick 0-6")
    with pytest.raises(IllegalMove, match="already picked"):
        state.play(0, "draft " + DRAFT_0)
    after = state.play(0, "draft 0-6 0-2 1-3 2-5 2-6 3-4 4-6 5-6")
    assert after.view(None)["drafted"] == [True, False]


def test_rule_5_single_picks_change_nothing_public_and_a_finished_draft_shows_no_tiles() -> None:
    state = _start().play(CHANCE, "first 0")
    before = state.view(None)
    picked = state.play(0, "pick 3-4")
    assert picked.view(None) == before
    assert picked.view(1) == state.view(1)
    done = state.play(1, "draft " + DRAFT_1)
    assert done.view(None)["last_move"] == "draft"
    assert "0-3" not in json.dumps(done.view(None))
    assert "0-3" not in json.dumps(done.view(0))


def test_rule_15_a_repeat_holder_may_pick_one_copy_and_only_one() -> None:
    state = _start({"repeat": "0"}).play(CHANCE, "first 0").play(0, "pick 2-5")
    assert "pick 2-5" in state.legal_moves(0)
    state = state.play(0, "pick 2-5")
    assert private(state, 0)["draft"] == ["2-5", "2-5"]
    state = state.play(0, "pick 1-3")
    assert "pick 1-3" not in state.legal_moves(0)
    with pytest.raises(IllegalMove, match="only one tile"):
        state.play(0, "pick 1-3")


def test_rule_15_the_copy_is_optional_eight_distinct_single_picks_complete_a_holders_draft() -> None:
    state = _start({"repeat": "both"}).play(CHANCE, "first 0")
    for tile in DRAFT_0.split():
        assert f"pick {tile}" in state.legal_moves(0)
        state = state.play(0, f"pick {tile}")
    assert private(state, 0)["draft"] == DRAFT_0.split()
    assert state.view(None)["drafted"] == [True, False] and 0 not in state.turn


def test_rule_15_the_help_texts_say_the_copy_is_optional() -> None:
    option = next(o for o in RULES.info.options if o.name == "repeat")
    assert "optional" in option.help
    assert "drafted twice; optional" in RULES.info.how_to_play


def test_rule_15_without_the_item_no_copy_is_listed() -> None:
    state = _start({"repeat": "0"}).play(CHANCE, "first 0").play(1, "pick 2-5")
    assert "pick 2-5" not in state.legal_moves(1)


def test_rule_15_repeat_draft_shorthand_validity() -> None:
    state = _start({"repeat": "1"}).play(CHANCE, "first 0")
    seven_plus_copy = "0-1 0-1 0-2 1-3 2-5 2-6 3-4 4-6"
    after = state.play(1, "draft " + seven_plus_copy)
    assert private(after, 1)["draft"] == seven_plus_copy.split()
    with pytest.raises(IllegalMove, match="one tile twice"):
        state.play(1, "draft 0-1 0-1 0-2 0-2 2-5 2-6 3-4 4-6")
    with pytest.raises(IllegalMove, match="8 different"):
        state.play(0, "draft " + seven_plus_copy)
    with pytest.raises(IllegalMove):
        state.play(1, "draft 0-1 0-1 0-1 1-3 2-5 2-6 3-4 4-6")
    assert state.play(1, "draft " + DRAFT_1).view(None)["drafted"] == [False, True]


# --- rule 6 and 16: shuffles, opening hands, mulligans ---------------------------------------


def test_rule_6_each_draft_is_shuffled_by_chance_and_the_owner_draws_the_top_three() -> None:
    state = _start().play(CHANCE, "first 0").play(0, "draft " + DRAFT_0).play(1, "draft " + DRAFT_1)
    assert state.turn == {CHANCE}
    sampled = state.sample_chance(random.Random(4))
    assert sampled.startswith("shuffle 0 ")
    assert sorted(sampled.split()[2:]) == DRAFT_0.split()
    with pytest.raises(IllegalMove, match="exactly the tiles"):
        state.play(CHANCE, "shuffle 0 0-1 0-2 1-3")
    after = state.play(CHANCE, "shuffle 0 5-6 2-6 4-6 0-1 0-2 1-3 2-5 3-4")
    assert private(after, 0)["hand"] == ["2-6", "4-6", "5-6"]
    assert private(after, 0)["pile"] == ["0-1", "0-2", "1-3", "2-5", "3-4"]
    assert after.piles[0][0].low == 0 and after.piles[0][0].high == 1  # the order is kept, top first
    assert after.view(None)["last_move"] == "shuffle 0"
    assert after.view(None)["hand_sizes"] == [3, 0]


def test_play_starts_with_the_first_player_after_the_deal() -> None:
    state = dealt(first=1)
    assert state.phase == "play"
    assert state.turn == {1}


def test_rule_16_a_mulligan_returns_the_hand_reshuffles_and_draws_three() -> None:
    state = dealt(options={"mulligan": "0"})
    assert state.turn == {0}
    assert state.legal_moves(0) == ["keep", "mulligan"]
    state = state.play(0, "mulligan")
    assert state.turn == {CHANCE}
    assert private(state, 0)["hand"] == [] and len(private(state, 0)["pile"]) == 8
    state = state.play(CHANCE, "shuffle 0 0-1 0-2 1-3 2-5 2-6 3-4 4-6 5-6")
    assert private(state, 0)["hand"] == ["0-1", "0-2", "1-3"]
    assert state.turn == {0}


def test_rule_16_at_most_two_mulligans() -> None:
    state = dealt(options={"mulligan": "both"})
    assert state.turn == {0, 1}
    state = state.play(1, "keep")
    for _ in range(2):
        state = state.play(0, "mulligan")
        state = state.play(CHANCE, state.sample_chance(random.Random(2)))
    assert state.view(None)["mulligans_left"] == [0, 2]
    assert state.phase == "play"
    assert state.turn == {0}


def test_rule_16_without_the_item_nobody_is_asked() -> None:
    state = dealt(options={"mulligan": "1"}, first=0)
    assert state.turn == {1}
    with pytest.raises(IllegalMove):
        state.play(0, "mulligan")
    assert state.play(1, "keep").turn == {0}


# --- rule 7: skipped turns --------------------------------------------------------------------


def test_rule_7_a_player_without_a_fitting_tile_is_skipped() -> None:
    board = {f"{f}{r}": (6, 1, 0) for f in "abcd" for r in "1234"}
    board["a1"], board["a2"], board["a3"] = (0, 1, 0), (0, 1, 0), (0, 1, 0)
    # Seat 1 (horizontal) cannot place 0-1 anywhere; seat 0 (vertical) can, in file a.
    state = position(hands=("3-5 5-6", "0-1"), piles=("", "3-4"), board=board, to_move=0)
    after = state.play(0, "3-5 a1-a2")
    assert after.turn == {0}
    assert after.view(None)["skipped"] == [1]
    assert after.hands[1] == state.hands[1]  # no draw on a skipped turn
    assert len(after.piles[1]) == 1


def test_rule_7_an_empty_hand_is_skipped() -> None:
    state = position(hands=("3-5 1-3", ""), piles=("", "3-4"), to_move=0)
    after = state.play(0, "3-5 a1-a2")
    assert after.turn == {0}
    assert after.view(None)["skipped"] == [1]


# --- rule 8: placement --------------------------------------------------------------------------


def test_rule_8_numbers_follow_the_squares_and_either_order_parses_the_same() -> None:
    state = position(hands=("3-5", "1-2"))
    a = state.play(0, "5-3 b2-b3")
    b = state.play(0, "3-5 b3-b2")
    c = state.play(0, "  5:3   B2 B3 ")
    assert a.dump() == b.dump() == c.dump()
    assert a.last_move == "5-3 b2-b3"
    board = a.view(None)["board"]
    assert board["b2"]["number"] == 5 and board["b3"]["number"] == 3


def test_rule_8_legal_moves_list_both_orientations_in_canonical_form() -> None:
    state = position(hands=("3-5", "1-2"))
    moves = state.legal_moves(0)
    assert "3-5 a1-a2" in moves and "5-3 a1-a2" in moves
    assert len(moves) == 12 * 2
    assert all(state.play(0, m) for m in moves[:3])


def test_rule_8_each_square_must_be_empty_or_strictly_lower() -> None:
    state = position(hands=("3-5", "1-2"), board={"b2": (3, 1, 0), "b3": (1, 0, 0)})
    with pytest.raises(IllegalMove, match="b2 shows a 3"):
        state.play(0, "3-5 b2-b3")
    after = state.play(0, "5-3 b2-b3")  # 5 > 3 and 3 > 1
    assert after.view(None)["board"]["b2"]["owner"] == 0
    with pytest.raises(IllegalMove, match="higher"):
        position(hands=("3-5", "1-2"), board={"b2": (5, 1, 0)}).play(0, "5-3 b2-b3")


def test_rule_8_the_tile_must_be_in_the_hand_and_squares_adjacent() -> None:
    state = position(hands=("3-5", "1-2"))
    with pytest.raises(IllegalMove, match="no 4-6"):
        state.play(0, "4-6 a1-a2")
    with pytest.raises(IllegalMove, match="not such a pair"):
        state.play(0, "3-5 a1-a3")
    with pytest.raises(IllegalMove, match="not a placement"):
        state.play(0, "3-5")


def test_rule_8_a_single_legal_placement_is_played_by_the_engine() -> None:
    board = {f"{f}{r}": (6, 1, 0) for f in "abcd" for r in "1234"}
    board["c1"], board["c2"] = (0, 1, 0), (1, 1, 0)  # seat 0's only spot
    board["a4"], board["b4"] = (0, 1, 0), (0, 1, 0)  # seat 1's only spot
    state = position(hands=("0-3 1-2", "4-5"), board=board, to_move=1)
    assert position(hands=("0-3 1-2", "4-5"), board=board, to_move=0).legal_moves(0) == ["1-2 c1-c2"]
    after = state.play(1, "4-5 a4-b4")
    assert after.forced == ((0, "1-2 c1-c2"),)
    assert after.view(None)["board"]["c2"] == {"number": 2, "owner": 0, "under": 1}


# --- rule 9: discard pile and effects ----------------------------------------------------------


def test_rule_9_the_placed_tile_goes_to_the_public_discard_pile() -> None:
    after = position(hands=("3-4", "1-2"), piles=("5-6", "")).play(0, "3-4 a1-a2")
    assert after.view(None)["discards"] == [["3-4"], []]
    assert private(after, 0)["hand"] == ["5-6"]  # effect 4 draws even with an empty hand


def test_effect_0_takes_back_the_tile_just_played_when_it_is_the_only_discard() -> None:
    state = position(hands=("0-3 2-4", "1-2"), piles=("5-6 4-5", ""))
    after = state.play(0, "0-3 a1-a2")
    assert after.forced == ((0, "recycle 0-3"),)
    assert after.view(None)["discards"] == [[], []]
    assert private(after, 0)["pile"] == ["0-3", "4-5"]  # 5-6 was drawn at the end of the turn
    assert private(after, 0)["known_bottom"] == ["0-3"]
    assert after.turn == {1}


def test_effect_0_offers_every_discarded_tile() -> None:
    state = position(hands=("0-3 2-4", "1-2"), piles=("5-6", ""), discards=("4-5 1-4", ""))
    after = state.play(0, "0-3 a1-a2")
    assert after.phase == "effect" and after.turn == {0}
    assert after.legal_moves(0) == ["recycle 0-3", "recycle 1-4", "recycle 4-5"]
    assert private(after, 0)["choices"] == after.legal_moves(0)
    assert "choices" not in after.view(None)
    done = after.play(0, "recycle 4-5")
    assert done.view(None)["discards"][0] == ["1-4", "0-3"]
    assert done.piles[0][-1].high == 5
    with pytest.raises(IllegalMove, match="not in your discard"):
        after.play(0, "recycle 2-6")
    with pytest.raises(IllegalMove, match="recycle"):
        after.play(0, "top 4-5")


def test_effect_1_draws_a_tile_and_nothing_from_an_empty_pile() -> None:
    after = position(hands=("1-3 2-4", "1-2"), piles=("5-6 4-5 0-2", "")).play(0, "1-3 a1-a2")
    assert private(after, 0)["hand"] == ["2-4", "4-5", "5-6"]  # effect 1 then the end draw
    empty = position(hands=("1-3 2-4", "1-2")).play(0, "1-3 a1-a2")
    assert private(empty, 0)["hand"] == ["2-4"]


def test_effect_2_puts_the_chosen_tile_on_top_and_the_owner_knows_it() -> None:
    state = position(hands=("2-5 0-6", "1-2"), piles=("0-1 3-4 4-6", ""))
    after = state.play(0, "2-5 a1-a2")
    assert after.legal_moves(0) == ["top 0-1", "top 3-4", "top 4-6"]
    chosen = after.play(0, "top 4-6")
    # effect 5 of the same tile: no end-of-turn draw, so 4-6 stays on top
    assert [str(t) for t in chosen.piles[0]] == ["4-6", "0-1", "3-4"]
    assert private(chosen, 0)["known_top"] == ["4-6"]
    assert chosen.view(None)["last_move"] == "top"
    assert "4-6" not in json.dumps(chosen.view(1))


def test_effect_2_is_skipped_with_an_empty_pile_and_forced_with_one_tile() -> None:
    empty = position(hands=("2-3 0-6", "1-2")).play(0, "2-3 a1-a2")
    assert empty.turn == {1}
    one = position(hands=("2-3 0-6", "1-2"), piles=("4-5", "")).play(0, "2-3 a1-a2")
    assert one.forced == ((0, "top 4-5"),)
    assert private(one, 0)["hand"] == ["0-6", "4-5"]


def test_effects_resolve_lower_number_first() -> None:
    # 1-2: effect 1 draws the top tile, then effect 2 chooses among what is left.
    state = position(hands=("1-2 0-6", "3-4"), piles=("0-1 3-4 4-6", ""))
    after = state.play(0, "1-2 a1-a2")
    assert private(after, 0)["hand"] == ["0-1", "0-6"]
    assert after.legal_moves(0) == ["top 3-4", "top 4-6"]


def test_effect_3_does_nothing() -> None:
    # 3-5: effect 3 changes nothing and effect 5 only cancels the end-of-turn draw
    after = position(hands=("3-5 0-6", "1-2"), piles=("0-1 2-5", "")).play(0, "3-5 a1-a2")
    assert after.phase == "play" and after.turn == {1}
    assert after.view(None)["hand_sizes"] == [1, 1] and after.view(None)["pile_sizes"] == [2, 0]
    assert after.view(None)["skips"] == [0, 0] and after.view(None)["discards"] == [["3-5"], []]


def test_effect_4_discards_a_chosen_tile_then_draws() -> None:
    state = position(hands=("3-4 0-6 1-5", "1-2"), piles=("0-1 2-5", ""))
    after = state.play(0, "3-4 a1-a2")
    assert after.legal_moves(0) == ["discard 0-6", "discard 1-5"]
    done = after.play(0, "discard 1-5")
    assert done.view(None)["discards"][0] == ["3-4", "1-5"]
    assert private(done, 0)["hand"] == ["0-1", "0-6", "2-5"]  # effect 4's draw and the end draw


def test_effect_4_with_an_empty_hand_just_draws() -> None:
    state = position(hands=("3-4", "1-2"), piles=("0-1 2-5", ""))
    done = state.play(0, "3-4 a1-a2")
    assert done.turn == {1}
    assert private(done, 0)["hand"] == ["0-1", "2-5"]
    assert done.view(None)["discards"][0] == ["3-4"]


def test_effect_5_skips_the_end_of_turn_draw() -> None:
    after = position(hands=("3-5 0-6", "1-2"), piles=("0-1", "")).play(0, "3-5 a1-a2")
    assert private(after, 0)["hand"] == ["0-6"]
    assert after.view(None)["pile_sizes"][0] == 1


def test_effect_5_with_an_empty_pile_is_harmless() -> None:
    after = position(hands=("3-5 0-6", "1-2")).play(0, "3-5 a1-a2")
    assert private(after, 0)["hand"] == ["0-6"]
    assert after.turn == {1}


def test_effect_6_makes_the_opponent_move_twice() -> None:
    state = position(hands=("3-6 2-4", "1-2 1-3"), piles=("", ""))
    after = state.play(0, "3-6 a1-a2")
    assert after.view(None)["skips"] == [1, 0]
    after = after.play(1, "1-2 c1-d1")
    assert after.turn == {1}
    assert after.view(None)["skipped"] == [0]
    assert after.view(None)["skips"] == [0, 0]
    after = after.play(1, "1-3 c3-d3")
    assert after.turn == {0}


# --- rules 10-12: the end-of-turn draw, the end, the score -----------------------------------


def test_rule_10_the_turn_ends_with_a_draw_of_the_top_tile() -> None:
    after = position(hands=("3-6 0-6", "1-2"), piles=("2-5 0-1", "")).play(0, "3-6 a1-a2")
    assert private(after, 0)["hand"] == ["0-6", "2-5"]
    assert private(after, 0)["pile"] == ["0-1"]


def test_rule_11_the_game_ends_when_neither_player_can_place() -> None:
    board = {f"{f}{r}": (6, 1, 0) for f in "abcd" for r in "1234"}
    board["a1"], board["a2"] = (0, 1, 0), (0, 1, 0)
    state = position(hands=("2-4", "3-4"), board=board)
    after = state.play(0, "2-4 a1-a2")
    assert after.outcome is not None
    assert after.turn == frozenset()
    assert after.view(None)["phase"] == "over"


def test_rule_11_the_game_goes_on_while_one_player_can_place() -> None:
    state = position(hands=("2-4", "1-2"), piles=("", ""))
    after = state.play(0, "2-4 a1-a2")
    assert after.outcome is None and after.turn == {1}


def _ending(scores_equal: bool, options: dict[str, str] | None = None) -> DominoWarsState:
    board = {f"{f}{r}": (6, 1 if f in "cd" else 0, 0) for f in "abcd" for r in "1234"}
    if not scores_equal:
        board["c4"] = (6, 0, 0)
    board["a1"], board["a2"] = (0, 1, 0), (0, 1, 0)
    return position(hands=("2-4", "3-4"), board=board, options=options).play(0, "2-4 a1-a2")


def test_rule_12_more_squares_wins() -> None:
    outcome = _ending(scores_equal=False).outcome
    assert outcome is not None
    assert outcome.winners == {0} and outcome.scores == (9, 7)


def test_rule_12_a_tie_without_the_item_is_a_draw() -> None:
    outcome = _ending(scores_equal=True).outcome
    assert outcome is not None
    assert outcome.is_draw and outcome.scores == (8, 8)


@pytest.mark.parametrize("holder", [0, 1])
def test_rule_17_the_tie_holder_wins_a_tied_score(holder: int) -> None:
    outcome = _ending(scores_equal=True, options={"tie": str(holder)}).outcome
    assert outcome is not None
    assert outcome.winners == {holder}
    assert "Tie Advantage" in outcome.reason


def test_rule_17_a_tie_holder_does_not_win_a_lost_game() -> None:
    outcome = _ending(scores_equal=False, options={"tie": "1"}).outcome
    assert outcome is not None and outcome.winners == {0}


# --- known pile positions -------------------------------------------------------------------


def test_known_positions_follow_top_and_bottom_and_a_shuffle_forgets_them() -> None:
    state = position(hands=("0-2 1-3", "1-2"), piles=("3-4 4-6 5-6", ""), discards=("1-4", ""))
    state = state.play(0, "0-2 a1-a2").play(0, "recycle 1-4").play(0, "top 5-6")
    mine = private(state, 0)
    # the end-of-turn draw took 5-6 back off the top; 1-4 is still known at the bottom
    assert mine["hand"] == ["1-3", "5-6"]
    assert mine["known_top"] == [] and mine["known_bottom"] == ["1-4"]
    mulligan = dealt(options={"mulligan": "0"}).play(0, "mulligan")
    assert private(mulligan, 0)["known_bottom"] == []


# --- dump / load, notation --------------------------------------------------------------------


def test_dump_and_load_round_trip_mid_effect() -> None:
    state = position(hands=("3-4 0-6 1-5", "1-2"), piles=("0-1 2-5", "")).play(0, "3-4 a1-a2")
    again = RULES.load(json.loads(json.dumps(state.dump())))
    assert again.dump() == state.dump()
    assert again.legal_moves(0) == state.legal_moves(0)


def test_move_pattern_recognises_attempts_only() -> None:
    pattern = RULES.info.move_pattern
    for text in ("pick 2-5", "draft 0-1", "5-3 b2-b3", "top 1-4", "keep", "first me"):
        assert pattern.search(text), text
    assert not pattern.search("good game")


def test_how_to_play_fits_discord() -> None:
    assert len(RULES.info.how_to_play) <= 1800


# --- hidden information -----------------------------------------------------------------------


def _secret_variant(state: DominoWarsState, seat: int, rng: random.Random) -> DominoWarsState:
    """The same state with `seat`'s draft, hand, pile contents, order and known flags replaced by
    other random tiles of the same counts: everything public is unchanged."""
    data = state.dump()
    for key in ("drafts", "hands", "piles"):
        count = len(data[key][seat].split())
        data[key][seat] = " ".join(rng.choice(ALL_TILES) for _ in range(count))
    data["known"][seat] = "".join(rng.choice("01") for _ in data["known"][seat])
    variant = RULES.load(data)
    assert isinstance(variant, DominoWarsState)
    return variant


def _random_states(seed: int) -> list[tuple[DominoWarsState, int, str]]:
    rng = random.Random(seed)
    options = {"repeat": rng.choice(["none", "0", "both"]), "mulligan": rng.choice(["none", "1", "both"])}
    state = _start(options)
    out = []
    while state.outcome is None:
        if CHANCE in state.turn:
            seat, move = CHANCE, state.sample_chance(rng)
        else:
            seat = rng.choice(sorted(state.turn))
            move = rng.choice(state.legal_moves(seat))
        out.append((state, seat, move))
        state = state.play(seat, move)
    return out


@pytest.mark.parametrize("seed", range(12))
def test_public_and_opponent_views_do_not_depend_on_a_seats_secrets(seed: int) -> None:
    rng = random.Random(1000 + seed)
    for state, _seat, _move in _random_states(seed):
        for secret in (0, 1):
            other = 1 - secret
            variant = _secret_variant(state, secret, rng)
            assert json.dumps(variant.view(None), sort_keys=True) == json.dumps(state.view(None), sort_keys=True)
            assert json.dumps(variant.view(other), sort_keys=True) == json.dumps(state.view(other), sort_keys=True)


def _alternatives(state: DominoWarsState, seat: int, move: str, rng: random.Random) -> list[str]:
    """Other secret moves of the same kind as `move` (another pick, pile order or top choice)."""
    if seat == CHANCE and move.startswith("shuffle"):
        tiles = move.split()[2:]
        rng.shuffle(tiles)
        return [" ".join([*move.split()[:2], *tiles])]
    if move.startswith(("pick", "top")):
        return [m for m in state.legal_moves(seat) if m != move][:3]
    return []


@pytest.mark.parametrize("seed", range(12))
def test_a_secret_move_leaves_the_same_public_and_opponent_view_whatever_it_was(seed: int) -> None:
    rng = random.Random(seed)
    checked = 0
    for state, seat, move in _random_states(50 + seed):
        owner = int(move.split()[1]) if seat == CHANCE else seat
        actual = state.play(seat, move)
        for other_move in _alternatives(state, seat, move, rng):
            alternative = state.play(seat, other_move)
            if (actual.has_placement(owner), actual.outcome) != (alternative.has_placement(owner), alternative.outcome):
                continue  # rule 7 legitimately reveals that a hand cannot be placed
            assert alternative.view(None) == actual.view(None), (move, other_move)
            assert alternative.view(1 - owner) == actual.view(1 - owner), (move, other_move)
            checked += 1
    assert checked > 8


def test_no_secret_tile_text_appears_in_last_move_or_the_public_view_during_the_draft() -> None:
    state = _start().play(CHANCE, "first 0")
    for tile in DRAFT_0.split():
        state = state.play(0, f"pick {tile}")
        public = json.dumps(state.view(None))
        opponent_view = json.dumps(state.view(1))
        assert tile not in public and tile not in opponent_view


def test_the_narration_says_a_pile_tile_went_on_top_and_which_turns_were_skipped_never_which_tile() -> None:
    """`describe` in random games with every item: effect 2 is told without its tile, and a
    turn ending with the opponent (or oneself) skipped says so, naming the skipped seat."""
    told_top = told_skip = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = start("domino_wars", {"repeat": "both", "mulligan": "both", "tie": "0"})
        for before, seat, move in playout(state, rng):
            after = before.play(seat, move)
            for entry, text in before.narrate(after.applied):
                if entry.seat not in (0, 1) or not text:
                    continue
                if entry.move.startswith("top"):
                    told_top += 1
                    assert "puts a tile of their draw pile on top" in text
                    assert entry.move.split()[1] not in text, "the tile stays secret"
                if "skipped" in text:
                    told_skip += 1
                    assert any(f"{SEAT_NAMES[s]}" in text.split(".", 1)[-1] for s in (0, 1)), text
            if after.skipped and before.phase in ("play", "effect"):
                texts = [t or "" for _, t in before.narrate(after.applied)]
                named = {SEAT_NAMES[s] for s in after.skipped}
                assert any("skipped" in t and all(n in t for n in named) for t in texts), (move, texts)
    assert told_top and told_skip, "the random games reached both cases"
