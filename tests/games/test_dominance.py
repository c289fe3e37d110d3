"""Dominance rules (shared/rules/dominance.md): one or more tests per ruling and notation form.

Most positions use one fixed layout, the 21 tiles in canonical order, which gives these
space values (rank 7 at the top):

    7 | 5 5 5 6 6 6
    6 | 4 4 4 5 4 6
    5 | 3 4 3 5 3 6
    4 | 2 5 2 6 3 3
    3 | 2 2 2 3 2 4
    2 | 1 4 1 5 1 6
    1 | 1 1 1 2 1 3
        a b c d e f
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.games import CHANCE, GAMES, IllegalMove
from bot.games.dominance import DominanceState
from tests.games.playout import playout

RULES = GAMES["dominance"]
LAYOUT = "11 12 13 14 15 16 22 23 24 25 26 33 34 35 36 44 45 46 55 56 66"
ORANGE, BLUE = 0, 1


def position(
    stones: dict[str, int],
    *,
    to_move: int = BLUE,
    under: tuple[list[int], list[int]] | None = None,
    turns: int = 0,
    options: dict[str, Any] | None = None,
) -> DominanceState:
    """A position after setup, at the start of `to_move`'s turn (the four dice are due)."""
    state = RULES.load(
        {
            "options": options or {},
            "layout": LAYOUT,
            "stones": stones,
            "underworld": list(under) if under else [[0] * 7, [0] * 7],
            "unplaced": [0, 0],
            "phase": "roll",
            "to_move": to_move,
            "dice": [],
            "pair": [],
            "eligible": [],
            "uw_eligible": [0] * 7,
            "moved": [],
            "uw_moved": [0] * 7,
            "captured": [],
            "turns": turns,
            "ply": 0,
        }
    )
    assert isinstance(state, DominanceState)
    return state


def to_capture(state: DominanceState) -> DominanceState:
    """End the move phase with `done` and check that the capture phase follows."""
    assert state.phase == "move"
    state = state.play(state.to_move, "done")
    assert state.phase == "capture"
    return state


def targets(state: DominanceState, src: str) -> set[str]:
    return {m.split("-")[1] for m in state.legal_moves(state.to_move) if m.startswith(f"{src}-")}


# --- rule 1: the Battlefield layout -------------------------------------------------------


def test_start_asks_chance_for_the_layout() -> None:
    state = RULES.start()
    assert state.turn == {CHANCE}
    assert state.view(None)["phase"] == "layout"
    assert state.sample_chance(random.Random(1)).startswith("layout ")


def test_layout_gives_each_space_its_half_value_row_by_row_from_a1() -> None:
    state = RULES.start().play(CHANCE, "layout " + LAYOUT.replace("12", "2-1"))
    view = state.view(None)
    assert view["layout"][0] == [1, 1, 2, 1, 1, 3]
    assert view["layout"][6] == [5, 5, 5, 6, 6, 6]
    assert view["tiles"][1] == {"tile": "1-2", "left": "c1", "right": "d1"}
    assert view["tiles"][20] == {"tile": "6-6", "left": "e7", "right": "f7"}
    assert state.dump()["layout"].startswith("11 21 13")


@pytest.mark.parametrize(
    "layout",
    [
        LAYOUT.replace("12", "11"),  # a duplicate tile, 1-2 missing
        LAYOUT.replace("12", "02"),  # a blank
        LAYOUT[:-3],  # 20 tiles
        LAYOUT + " 12",  # 22 tiles
        LAYOUT.replace("12", "1x"),
    ],
)
def test_a_layout_must_be_exactly_the_21_non_blank_tiles(layout: str) -> None:
    with pytest.raises(IllegalMove):
        RULES.start().play(CHANCE, f"layout {layout}")


def test_sampled_layouts_are_valid_and_vary() -> None:
    rng = random.Random(4)
    layouts = {RULES.start().sample_chance(rng) for _ in range(5)}
    assert len(layouts) == 5
    for layout in layouts:
        RULES.start().play(CHANCE, layout)


# --- rules 4-5: setup ---------------------------------------------------------------------


def laid() -> DominanceState:
    state = RULES.start().play(CHANCE, f"layout {LAYOUT}")
    assert isinstance(state, DominanceState)
    return state


def test_setup_roll_puts_two_stones_on_the_rolled_tile_then_the_other_player_rolls() -> None:
    state = laid()
    assert state.to_move == ORANGE and state.turn == {CHANCE}
    state = state.play(CHANCE, "roll 4 3")  # tile 3-4: c5 (3) and d5 (4)... no: a5-b5 is 3-4
    view = state.view(None)
    assert view["stones"] == {"a5": ORANGE, "b5": ORANGE}
    assert view["unplaced"] == [2, 4]
    assert view["to_move"] == BLUE and view["phase"] == "setup"


def test_setup_duplicate_roll_returns_the_stones_to_their_owner() -> None:
    state = laid().play(CHANCE, "roll 3 4").play(CHANCE, "roll 4 3")
    view = state.view(None)
    assert view["stones"] == {"a5": BLUE, "b5": BLUE}
    assert view["unplaced"] == [4, 2]


def test_setup_skips_a_player_with_no_unplaced_stones_and_blue_starts() -> None:
    state = laid()
    for roll in ("1 1", "2 2", "1 2"):  # Orange, Blue, Orange (all placed)
        state = state.play(CHANCE, f"roll {roll}")
    assert state.view(None)["unplaced"] == [0, 2]
    assert state.to_move == BLUE and state.phase == "setup"
    state = state.play(CHANCE, "roll 2 2")  # Blue returns its own stones and re-places them
    assert state.view(None)["unplaced"] == [0, 2]
    assert state.to_move == BLUE and state.phase == "setup"  # Orange is skipped
    state = state.play(CHANCE, "roll 4 4")
    assert state.phase == "roll" and state.to_move == BLUE and state.turn == {CHANCE}
    assert len(state.view(None)["stones"]) == 8


def test_setup_return_of_opponent_stones_gives_them_back_their_roll() -> None:
    state = laid()
    for roll in ("1 1", "2 2", "1 2"):  # Orange has placed all four
        state = state.play(CHANCE, f"roll {roll}")
    state = state.play(CHANCE, "roll 1 1")  # Blue lands on Orange's a1-b1
    view = state.view(None)
    assert view["unplaced"] == [2, 0]
    assert view["stones"]["a1"] == BLUE and view["stones"]["b1"] == BLUE
    assert state.to_move == ORANGE and state.phase == "setup"


# --- rule 6: the roll and active spaces -----------------------------------------------------


def test_turn_roll_lights_every_space_of_a_rolled_value() -> None:
    state = position({"a1": BLUE, "f7": ORANGE}).play(CHANCE, "roll 6 3 6 1")
    view = state.view(None)
    assert view["roll"] == [1, 3, 6, 6]
    assert view["active_values"] == [1, 3, 6]
    assert "a1" in view["active"] and "f7" in view["active"] and "d1" not in view["active"]
    assert "u6" in view["active"] and "u0" not in view["active"] and "u2" not in view["active"]


def test_turn_roll_needs_four_dice() -> None:
    with pytest.raises(IllegalMove, match="4 dice"):
        position({"a1": BLUE, "f7": ORANGE}).play(CHANCE, "roll 1 2")


# --- rule 7: the move phase -----------------------------------------------------------------


def test_moves_run_through_active_empty_spaces_and_may_end_on_an_inactive_one() -> None:
    # Active 1: a1 b1 c1 e1 a2 c2 e2.  Blue on a1; Orange on c2 blocks.
    state = position({"a1": BLUE, "c2": ORANGE, "f7": ORANGE}).play(CHANCE, "roll 1 1 1 1")
    assert state.phase == "move"
    # a1 -> b1 (1) -> c1 (1) -> d1 (2, inactive end); c1 -> c2 blocked; a2 (1) -> a3 (2), b2 (4)
    # b1 -> b2 (4, end).  e1/e2 are unreachable: d1 is inactive and c2 is occupied.
    assert targets(state, "a1") == {"b1", "c1", "d1", "a2", "a3", "b2"}


def test_a_stone_on_an_inactive_space_cannot_move() -> None:
    state = position({"a1": BLUE, "d1": BLUE, "f7": ORANGE}).play(CHANCE, "roll 1 1 1 1")
    assert targets(state, "d1") == set()
    with pytest.raises(IllegalMove, match="did not start the phase on an active space"):
        state.play(BLUE, "d1-d2")


def test_each_stone_moves_once_and_the_phase_ends_when_no_move_remains() -> None:
    state = position({"a1": BLUE, "f7": ORANGE, "f6": BLUE}).play(CHANCE, "roll 1 1 1 1")
    state = state.play(BLUE, "a1-d1")
    assert state.view(None)["last_path"] == ["a1", "b1", "c1", "d1"]
    # Nothing else can move and nothing can capture: the turn passes to Orange.
    assert state.phase == "roll" and state.to_move == ORANGE
    assert state.view(None)["last_move"] == "a1-d1"


def test_done_is_listed_only_with_another_action_and_ends_the_move_phase() -> None:
    state = position({"a1": BLUE, "c1": BLUE, "f7": ORANGE}).play(CHANCE, "roll 1 1 1 1")
    moves = state.legal_moves(BLUE)
    assert "done" in moves and "a1-b1" in moves
    state = state.play(BLUE, "a1-a2")
    assert state.view(None)["moved"] == ["a2"]
    with pytest.raises(IllegalMove, match="already moved"):
        state.play(BLUE, "a2-a3")
    state = state.play(BLUE, "done")  # c1 could still have moved; no capture possible
    assert state.phase == "roll" and state.to_move == ORANGE


def test_no_movable_stone_skips_straight_to_the_capture_phase() -> None:
    # 6 rolled: Blue's f2 (6) is boxed in by stones, but may capture.
    state = position({"f2": BLUE, "e2": ORANGE, "f1": ORANGE, "f3": ORANGE}).play(CHANCE, "roll 6 6 6 6")
    assert state.phase == "capture"
    assert set(state.legal_moves(BLUE)) == {"f2xe2", "f2xf1", "f2xf3", "done"}


def test_a_turn_with_nothing_to_do_passes_to_the_opponent() -> None:
    state = position({"a1": BLUE, "f7": ORANGE}).play(CHANCE, "roll 4 4 4 4")
    assert state.phase == "roll" and state.to_move == ORANGE and state.turns == 1
    view = state.view(None)
    assert view["roll"] == [4, 4, 4, 4] and view["roll_seat"] == BLUE  # the skipped turn's roll stays visible
    assert view["active"] == []


def test_a_passed_turn_says_so_in_its_roll_sentence() -> None:
    before = position({"a1": BLUE, "f7": ORANGE})
    passed = before.play(CHANCE, "roll 4 4 4 4")
    [(_, sentence)] = before.narrate(passed.applied)
    assert sentence == "Blue rolls 4, 4, 4, 4: nothing can move or capture, and the turn passes"
    played = before.play(CHANCE, "roll 1 2 3 4")  # a1 is a 1: Blue may move
    [(_, sentence)] = before.narrate(played.applied)
    assert sentence == "Blue rolls 1, 2, 3, 4"


@pytest.mark.parametrize("seed", range(6))
def test_in_random_games_a_roll_says_the_turn_passes_exactly_when_the_other_side_rolls_next(seed: int) -> None:
    """Reference from the log's shape alone: a turn roll (four dice) followed at once by
    another turn roll left its roller nothing to do; any other next entry (a move, `done`,
    a return roll of two dice) is the roller's own."""
    rng = random.Random(seed)
    told: list[tuple[bool, str | None]] = []  # (a turn roll?, its sentence), in log order
    for before, seat, move in playout(RULES.start(), rng):
        for entry, sentence in before.narrate(before.play(seat, move).applied):
            told.append((entry.seat == CHANCE and len(entry.move.split()) == 1 + 4, sentence))
    passes = [i for i, (roll, _) in enumerate(told[:-1]) if roll and told[i + 1][0]]
    said = [i for i, (_, sentence) in enumerate(told) if (sentence or "").endswith("and the turn passes")]
    assert said == passes
    assert passes, "no turn passed in this game: the seed tests nothing"


def test_underworld_walk_u4_to_u0_and_return_in_the_same_turn() -> None:
    under = ([0] * 7, [0, 0, 0, 1, 0, 0, 0])  # Blue stone on u4
    state = position({"a1": BLUE, "f7": ORANGE}, under=under).play(CHANCE, "roll 4 5 6 6")
    assert targets(state, "u4") == {"u3", "u5", "u6", "u0"}
    state = state.play(BLUE, "u4-u0")
    assert state.view(None)["last_path"] == ["u4", "u5", "u6", "u0"]
    # No other action: the return phase starts and two dice are due.
    assert state.phase == "return" and state.turn == {CHANCE}
    state = state.play(CHANCE, "roll 5 2")  # tile 2-5: a4 (2) / b4 (5)
    assert state.legal_moves(BLUE) == ["enter a4", "enter b4"]
    state = state.play(BLUE, "enter b4")
    view = state.view(None)
    assert view["stones"]["b4"] == BLUE
    assert view["underworld"]["u0"] == [0, 0]
    assert state.phase == "roll" and state.to_move == ORANGE


def test_underworld_stones_pass_through_and_stop_on_occupied_spaces() -> None:
    under = ([0, 0, 1, 0, 1, 0, 0], [0, 0, 1, 1, 0, 0, 0])
    state = position({"a1": BLUE, "f7": ORANGE}, under=under).play(CHANCE, "roll 3 4 5 1")
    assert targets(state, "u3") == {"u2", "u4", "u5", "u6"}
    assert targets(state, "u4") == {"u2", "u3", "u5", "u6"}
    state = state.play(BLUE, "u3-u5")
    assert state.view(None)["underworld"]["u5"] == [1, 1]
    assert targets(state, "u5") == set()  # the stone arriving on u5 has moved; none started there


def test_a_battlefield_stone_cannot_move_into_the_underworld() -> None:
    state = position({"a1": BLUE, "c1": BLUE, "f7": ORANGE}).play(CHANCE, "roll 1 1 1 1")
    with pytest.raises(IllegalMove, match="never between"):
        state.play(BLUE, "a1-u1")


# --- rule 8: the capture phase --------------------------------------------------------------


def test_capture_sends_the_stone_to_the_underworld_space_of_its_value() -> None:
    # 2 active: Blue a4 (2) captures Orange on b4 (5): the Orange stone goes to u5.
    state = position({"a4": BLUE, "a3": BLUE, "b4": ORANGE, "f7": ORANGE, "a5": BLUE}).play(CHANCE, "roll 2 2 4 4")
    state = to_capture(state).play(BLUE, "a4xb4")
    view = state.view(None)
    assert view["stones"]["b4"] == BLUE and "a4" not in view["stones"]
    assert view["underworld"]["u5"] == [1, 0]
    assert view["last_path"] == ["a4", "b4"]


def test_a_stone_may_capture_its_own_colour_but_only_once() -> None:
    stones = {"a3": BLUE, "b3": BLUE, "c3": BLUE, "f7": ORANGE}
    state = to_capture(position(stones).play(CHANCE, "roll 2 2 2 2"))
    state = state.play(BLUE, "a3xb3")  # own stone, taken on a 2, goes to Blue's u2
    assert state.view(None)["underworld"]["u2"] == [0, 1]
    assert state.view(None)["captured"] == ["b3"]
    with pytest.raises(IllegalMove, match="already captured"):
        state.play(BLUE, "b3xc3")
    state = state.play(BLUE, "c3xb3")  # the other stone may still capture
    assert state.view(None)["underworld"]["u2"] == [0, 2]
    assert state.phase == "roll" and state.to_move == ORANGE


def test_capture_needs_an_adjacent_stone_and_an_active_space() -> None:
    state = to_capture(position({"a3": BLUE, "b3": ORANGE, "d3": BLUE, "d4": ORANGE}).play(CHANCE, "roll 2 2 2 2"))
    with pytest.raises(IllegalMove, match="not active"):
        state.play(BLUE, "d3xd4")
    with pytest.raises(IllegalMove, match="not next to"):
        state.play(BLUE, "a3xc3")


# --- rule 9: the return phase ----------------------------------------------------------------


def test_return_captures_whatever_stands_on_the_chosen_half() -> None:
    under = ([0] * 7, [0, 0, 0, 0, 0, 1, 0])  # Blue on u6
    stones = {"a1": BLUE, "a4": ORANGE, "f7": ORANGE}
    state = position(stones, under=under).play(CHANCE, "roll 6 6 6 6")
    state = state.play(BLUE, "u6-u0")
    state = state.play(CHANCE, "roll 2 5")
    state = state.play(BLUE, "a4")  # bare square accepted in the return phase
    view = state.view(None)
    assert view["stones"]["a4"] == BLUE
    assert view["underworld"]["u2"] == [1, 0]
    assert view["last_move"] == "enter a4"


def test_return_on_a_double_offers_both_halves() -> None:
    under = ([0] * 7, [0, 0, 0, 0, 0, 2, 0])  # two Blue stones on u6
    state = position({"a1": BLUE, "e4": ORANGE, "f7": ORANGE}, under=under).play(CHANCE, "roll 6 6 6 6")
    state = state.play(BLUE, "u6-u0").play(BLUE, "u6-u0")
    state = state.play(CHANCE, "roll 3 3")  # tile 3-3: e4 and f4
    assert state.legal_moves(BLUE) == ["enter e4", "enter f4"]
    with pytest.raises(IllegalMove, match="e4 or f4"):
        state.play(BLUE, "enter a1")
    state = state.play(BLUE, "enter f4")
    assert state.phase == "return"  # the second stone rolls next, one at a time
    state = state.play(CHANCE, "roll 3 3").play(BLUE, "enter e4")
    view = state.view(None)
    assert view["stones"]["e4"] == BLUE and view["stones"]["f4"] == BLUE
    assert view["underworld"]["u3"] == [1, 0]  # Orange taken on a 3


# --- rule 10: loss ------------------------------------------------------------------------


def test_a_side_with_no_stone_on_the_battlefield_loses_at_once() -> None:
    state = to_capture(position({"a3": BLUE, "b3": ORANGE}).play(CHANCE, "roll 2 2 2 2"))
    state = state.play(BLUE, "a3xb3")
    assert state.outcome is not None
    assert state.outcome.winners == {BLUE}
    assert "Orange has no stone left" in state.outcome.reason
    assert state.turn == frozenset()


def test_return_capture_of_the_last_stone_wins() -> None:
    under = ([0] * 7, [0, 0, 0, 0, 0, 1, 0])
    state = position({"a1": BLUE, "a4": ORANGE}, under=under).play(CHANCE, "roll 6 6 6 6")
    state = state.play(BLUE, "u6-u0").play(CHANCE, "roll 2 5").play(BLUE, "enter a4")
    assert state.outcome is not None and state.outcome.winners == {BLUE}


# --- rule 11: the turn cap -------------------------------------------------------------------


def test_draw_after_the_turn_limit() -> None:
    state = position({"a1": BLUE, "f7": ORANGE}, turns=499).play(CHANCE, "roll 4 4 4 4")
    assert state.outcome is not None and state.outcome.is_draw
    assert "500 turns" in state.outcome.reason


def test_turn_limit_option() -> None:
    state = position({"a1": BLUE, "f7": ORANGE}, options={"turn_limit": 3}, turns=1).play(CHANCE, "roll 4 4 4 4")
    assert state.outcome is None
    state = state.play(CHANCE, "roll 4 4 4 4")
    assert state.outcome is not None and state.outcome.is_draw


# --- notation --------------------------------------------------------------------------------


def test_notation_variants_are_canonicalised() -> None:
    state = position({"a1": BLUE, "c1": BLUE, "f7": ORANGE}).play(CHANCE, "ROLL 1, 1, 1, 1")
    assert state.view(None)["roll"] == [1, 1, 1, 1]
    state = state.play(BLUE, " A1 - B2 ")
    assert state.last_move == "a1-b2"
    assert state.play(BLUE, "DONE").last_move == "done"


def test_capture_phase_accepts_a_dash_for_a_capture() -> None:
    state = to_capture(position({"a3": BLUE, "b3": ORANGE, "c3": ORANGE}).play(CHANCE, "roll 2 2 2 2"))
    assert state.play(BLUE, "a3-b3").last_move == "a3xb3"


def test_a_capture_in_the_move_phase_is_explained() -> None:
    state = position({"a1": BLUE, "b1": ORANGE, "f7": ORANGE}).play(CHANCE, "roll 1 1 1 1")
    assert state.phase == "move"
    with pytest.raises(IllegalMove, match="after the move phase"):
        state.play(BLUE, "a1xb1")


def test_garbage_is_refused_with_the_notation() -> None:
    state = position({"a1": BLUE, "f7": ORANGE}).play(CHANCE, "roll 1 1 1 1")
    with pytest.raises(IllegalMove, match="c3-c5"):
        state.play(BLUE, "castle")


# --- views and the engine's skipping of phases -------------------------------------------------


def test_view_shows_what_can_act_now() -> None:
    state = position({"a1": BLUE, "d1": BLUE, "c1": BLUE, "f7": ORANGE}).play(CHANCE, "roll 1 1 1 1")
    view = state.view(None)
    assert view["phase"] == "move" and view["to_move"] == BLUE
    assert view["can_act"] == ["a1", "c1"]
    assert view["ply"] == 1 and view["turn_number"] == 1


def test_every_decision_offers_at_least_two_choices() -> None:
    """The engine skips phases with nothing to decide, so no move is ever forced."""
    for before, seat, _move in playout(RULES.start(), random.Random(21)):
        if seat != CHANCE:
            assert len(before.legal_moves(seat)) >= 2
