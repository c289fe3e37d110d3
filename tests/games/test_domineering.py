"""Domineering rules: one or more tests per ruling of shared/rules/domineering.md."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bot.games import CHANCE, GAMES, IllegalMove
from bot.games.domineering import DomineeringState
from bot.games.dominoes import double_six
from tests.games.playout import final

RULES = GAMES["domineering"]
ALL_TILES = [str(t) for t in double_six()]


def position(
    black: list[str],
    white: list[str],
    *,
    drawn: str | None = None,
    laid: list[tuple[str, str]] = (),  # type: ignore[assignment]
    to_move: int = 0,
    pool: list[str] | None = None,
    kept: list[list[str]] | None = None,
    options: dict[str, str] | None = None,
) -> DomineeringState:
    """A position built through `load`: the pool holds every tile not drawn or laid unless given."""
    used = {t for _s, t in laid} | ({drawn} if drawn else set())
    data: dict[str, Any] = {
        "pieces": [black, white],
        "laid": [[sq, t, 0] for sq, t in laid],
        "pool": pool if pool is not None else [t for t in ALL_TILES if t not in used],
        "drawn": drawn,
        "kept": kept or [[], []],
        "to_move": to_move,
        "options": options or {},
    }
    state = RULES.load(data)
    assert isinstance(state, DomineeringState)
    return state


def play_all(state: Any, moves: list[str]) -> Any:
    for move in moves:
        seat = CHANCE if move.startswith("draw") else next(iter(state.turn))
        state = state.play(seat, move)
    return state


WORKED = ["draw 5-2", "d4-b4 e5-e8", "draw 3-0", "h1-h4 a8-b8", "draw 3-1", "e8-h8 b4-b5"]


# --- worked example ------------------------------------------------------------------------


def test_worked_example_three_turns_then_exactly_13_of_25_tiles_lose_for_white() -> None:
    state = play_all(RULES.start(), WORKED)
    view = state.view(None)
    assert view["pieces"] == [["b5", "h8"], ["h4", "b8"]]
    assert [(d["square"], d["tile"]) for d in view["laid"]] == [("d4", "2-5"), ("h1", "0-3"), ("e8", "1-3")]
    assert len(state.pool) == 25
    losing = []
    for tile in view["pool"]:
        after = state.play(CHANCE, f"draw {tile}")
        if after.outcome is not None:
            assert after.outcome.winners == {0}
            assert after.legal_moves(1) == []
            losing.append(tile)
        else:
            assert after.legal_moves(1)
    assert len(losing) == 13
    assert set(losing) == {"0-5", "0-6", "1-5", "1-6", "2-6", "3-5", "3-6", "4-4", "4-5", "4-6", "5-5", "5-6", "6-6"}


def test_worked_example_white_pieces_reach_at_most_3_and_4() -> None:
    state = play_all(RULES.start(), WORKED)
    three = state.play(CHANCE, "draw 3-4")
    assert "h4-h7 b8-b4" in three.legal_moves(1)
    assert "b8-b4 h4-h7" in three.legal_moves(1)
    assert state.play(CHANCE, "draw 4-4").outcome is not None  # h4 cannot move 4


# --- rule 1: 8×8 torus -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("piece", "target", "direction"),
    [("h4", "a4", "right"), ("a4", "h4", "left"), ("e1", "e8", "down"), ("e8", "e1", "up")],
)
def test_rule_1_moves_wrap_around_every_edge(piece: str, target: str, direction: str) -> None:
    state = position([piece, "c6"], ["f3", "f6"], drawn="1-1")
    moves = state.legal_moves(0)
    assert f"{piece}-{target} c6-c7" in moves, direction
    after = state.play(0, f"{piece}-{target} c6-c7")
    assert target in after.view(None)["pieces"][0]


def test_rule_1_wrapping_step_is_blocked_by_a_piece_across_the_edge() -> None:
    state = position(["h4", "c6"], ["a4", "f6"], drawn="1-1")
    assert not any(m.startswith("h4-a4") for m in state.legal_moves(0))


# --- rule 2: start --------------------------------------------------------------------------


def test_rule_2_start_position_and_black_moves_first() -> None:
    state = RULES.start()
    assert state.turn == {CHANCE}
    view = state.view(None)
    assert view["pieces"] == [["d4", "e5"], ["h1", "a8"]]
    assert view["to_move"] == 0
    after = state.play(CHANCE, "draw 1-2")
    assert after.turn == {0}
    assert RULES.info.seat_names == ("Black", "White")


# --- rule 3: the pool -----------------------------------------------------------------------


def test_rule_3_pool_is_the_full_double_six_set_and_public_as_a_sorted_set() -> None:
    view = RULES.start().view(None)
    assert len(view["pool"]) == 28 and "0-0" in view["pool"]
    assert view["pool"] == sorted(view["pool"])
    assert {k: v for k, v in RULES.start().view(1).items() if k not in ("you", "private")} == view


# --- rule 4: the draw -----------------------------------------------------------------------


def test_rule_4_draw_is_a_chance_move_that_takes_the_tile_from_the_pool() -> None:
    state = RULES.start().play(CHANCE, "draw 5-2")
    assert state.view(None)["drawn"] == "2-5"
    assert "2-5" not in state.view(None)["pool"]
    assert len(state.view(None)["pool"]) == 27


def test_rule_4_a_tile_not_in_the_pool_cannot_be_drawn() -> None:
    state = play_all(RULES.start(), ["draw 2-5", "d4-b4 e5-e8"])
    with pytest.raises(IllegalMove, match="no longer in the pool"):
        state.play(CHANCE, "draw 5-2")


def test_rule_4_sample_chance_draws_a_tile_still_in_the_pool() -> None:
    state = play_all(RULES.start(), ["draw 2-5", "d4-b4 e5-e8"])
    for seed in range(20):
        move = state.sample_chance(random.Random(seed))
        assert move.startswith("draw ") and move[5:] in state.view(None)["pool"]


# --- rule 5: both pieces, either order and assignment, blanks ----------------------------------


def test_rule_5_either_order_and_either_assignment() -> None:
    state = RULES.start().play(CHANCE, "draw 2-5")
    moves = state.legal_moves(0)
    assert "d4-b4 e5-e8" in moves  # d4 by 2, e5 by 5
    assert "e5-e8 d4-b4" in moves  # the other order
    assert "d4-d1 e5-e7" in moves  # d4 by 5 (up 5 wraps to d1), e5 by 2
    assert all(len(m.split()) == 2 for m in moves)


def test_rule_5_both_pieces_must_move() -> None:
    state = RULES.start().play(CHANCE, "draw 2-5")
    with pytest.raises(IllegalMove):
        state.play(0, "d4-b4")


def test_rule_5_blank_is_any_distance_1_to_6_but_not_0() -> None:
    state = RULES.start().play(CHANCE, "draw 0-1")
    moves = state.legal_moves(0)
    for distance_target in ("d3", "d2", "d1", "d8", "d7", "d6"):  # d4 down 1..6 (d5 up would be 1 too)
        assert f"e5-e6 d4-{distance_target}" in moves
    with pytest.raises(IllegalMove):
        state.play(0, "d4-d4 e5-e6")


def test_double_blank_turn_gives_two_independent_choices() -> None:
    state = RULES.start().play(CHANCE, "draw 0-0")
    moves = state.legal_moves(0)
    assert "d4-d1 e5-e6" in moves  # 3 and 1
    assert "d4-c4 e5-e2" in moves  # 1 and 3
    assert "d4-a4 e5-b5" in moves  # 3 and 3
    after = state.play(0, "d4-d1 e5-e6")
    assert after.view(None)["pieces"][0] == ["d1", "e6"]
    assert after.view(None)["laid"][0] == {"square": "d4", "tile": "0-0", "seat": 0}


# --- rule 6: straight lines, exact distance, no passing ----------------------------------------


def test_rule_6_no_moving_onto_or_through_a_piece_or_domino() -> None:
    state = position(["d4", "a1"], ["d6", "h8"], laid=[("f4", "0-0")], drawn="3-3")
    moves = state.legal_moves(0)
    assert not any(m.startswith("d4-d7") or " d4-d7" in m for m in moves)  # through White's d6
    assert not any("d4-g4" in m for m in moves)  # through the domino on f4
    assert "d4-d1 a1-a4" in moves
    with pytest.raises(IllegalMove, match="blocked"):
        state.play(0, "d4-g4 a1-a4")


def test_rule_6_diagonal_and_wrong_distance_are_refused_with_reasons() -> None:
    state = RULES.start().play(CHANCE, "draw 2-5")
    with pytest.raises(IllegalMove, match="straight line"):
        state.play(0, "d4-e3 e5-e8")
    with pytest.raises(IllegalMove, match="not 2 or 5 squares"):
        state.play(0, "d4-c4 e5-e8")


# --- rule 7: the tile is laid before the second piece moves --------------------------------------


def test_rule_7_tile_lands_on_the_first_from_square() -> None:
    state = play_all(RULES.start(), ["draw 2-5", "e5-e8 d4-b4"])
    assert state.view(None)["laid"][0]["square"] == "e5"


def test_rule_7_piece_blocked_by_the_tile_its_partner_just_left() -> None:
    # The source's example: c6 is walled in except towards f6, so only f6 stepping aside
    # could free it, and the tile is laid on f6 the moment f6 moves.  White draws 5-6 and loses.
    walls = [("c7", "1-1"), ("c5", "1-2"), ("b6", "1-3")]
    before = position(["a1", "a2"], ["c6", "f6"], laid=walls, to_move=1)
    lost = before.play(CHANCE, "draw 5-6")
    assert lost.outcome is not None
    assert lost.outcome.winners == {0}
    assert lost.outcome.reason == "White cannot move both pieces after drawing 5-6: c6 is blocked."
    # with 2-5 White can play (c6 by 2), but never f6 by 2 first and then c6 by 5 through f6
    state = before.play(CHANCE, "draw 2-5")
    moves = state.legal_moves(1)
    assert "c6-e6 f6-f1" in moves and "f6-f1 c6-e6" in moves
    assert "f6-f4 c6-h6" not in moves and "f6-f8 c6-h6" not in moves
    with pytest.raises(IllegalMove, match="tile is laid on f6"):
        state.play(1, "f6-f4 c6-h6")


def test_rule_7_second_piece_may_not_cross_the_square_the_first_just_left() -> None:
    # b4 moving right 3 passes d4: once d4 has moved away, the tile laid there still closes the way.
    state = position(["d4", "b4"], ["h1", "a8"], drawn="3-3")
    moves = state.legal_moves(0)
    assert "d4-d7 b4-e4" not in moves
    assert "b4-e4 d4-d7" not in moves  # b4 cannot pass d4 while the piece is still there either
    assert "d4-d7 b4-b7" in moves


# --- rule 8: losing --------------------------------------------------------------------------


def test_rule_8_cannot_move_both_pieces_loses_and_the_reason_names_tile_and_piece() -> None:
    state = play_all(RULES.start(), WORKED).play(CHANCE, "draw 4-6")
    assert state.outcome is not None
    assert state.outcome.winners == {0}
    assert state.outcome.reason == "White cannot move both pieces after drawing 4-6: h4 is blocked."
    assert state.turn == frozenset()


def test_rule_8_reason_when_no_piece_can_use_a_number() -> None:
    state = play_all(RULES.start(), WORKED).play(CHANCE, "draw 0-6")
    assert state.outcome is not None
    assert state.outcome.reason.endswith("neither h4 nor b8 can move 6.")


# --- rule 9: empty pool ----------------------------------------------------------------------


def test_rule_9_empty_pool_when_a_turn_begins_is_a_draw() -> None:
    state = position(["d4", "e5"], ["h1", "a8"], drawn="1-2", pool=[])
    after = state.play(0, "d4-d5 e5-e7")
    assert after.outcome is not None
    assert after.outcome.winners == frozenset()
    assert "draw" in after.outcome.reason


# --- options -----------------------------------------------------------------------------------


def test_option_four_pieces_centre_setup() -> None:
    view = RULES.start(options={"pieces": "4"}).view(None)
    assert view["pieces"] == [["d4", "e4", "d5", "e5"], ["a1", "h1", "a8", "h8"]]


def test_option_four_pieces_diagonal_setup() -> None:
    view = RULES.start(options={"pieces": "4", "setup": "diagonal"}).view(None)
    assert view["pieces"] == [["c3", "d4", "e5", "f6"], ["b7", "a8", "h1", "g2"]]


def test_option_setup_is_ignored_with_two_pieces() -> None:
    view = RULES.start(options={"setup": "diagonal"}).view(None)
    assert view["pieces"] == [["d4", "e5"], ["h1", "a8"]]


def test_option_four_pieces_moves_exactly_two_of_them_any_two() -> None:
    state = RULES.start(options={"pieces": "4", "setup": "diagonal"}).play(CHANCE, "draw 1-2")
    moves = state.legal_moves(0)
    pairs = {frozenset((m.split()[0][:2], m.split()[1][:2])) for m in moves}
    assert len(pairs) == 6  # every pair of the four pieces
    after = state.play(0, "c3-c4 f6-f8")
    assert after.view(None)["pieces"][0] == ["c4", "d4", "e5", "f8"]


def test_option_four_pieces_loses_only_when_no_two_pieces_can_move() -> None:
    opts = {"pieces": "4"}
    # a trapped piece does not lose while two others can move
    walls = [("c4", "0-1"), ("d3", "0-2"), ("d2", "0-3")]
    state = position(["d4", "e4", "d5", "e5"], ["a1", "h1", "a8", "h8"], laid=walls, drawn="1-1", options=opts)
    assert state.outcome is None and state.legal_moves(0)


def test_option_keep_stuck_player_keeps_the_tile_and_play_goes_on() -> None:
    state = play_all(RULES.start(options={"unplayable": "keep"}), WORKED)
    after = state.play(CHANCE, "draw 4-6")
    assert after.outcome is None
    assert after.forced == ((1, "keep"),)
    view = after.view(None)
    assert view["kept"] == [[], ["4-6"]]
    assert view["last_move"] == "keep"
    assert view["pieces"][1] == ["h4", "b8"]
    assert after.turn == {CHANCE} and view["to_move"] == 0


def test_option_keep_is_the_only_legal_move_of_a_stuck_player() -> None:
    opts = {"unplayable": "keep"}
    state = position(["h4", "b8"], ["b5", "h8"], laid=[("d4", "2-5"), ("h1", "0-3"), ("e8", "1-3")], options=opts)
    state = RULES.load({**state.dump(), "drawn": "5-6", "pool": [t for t in state.dump()["pool"] if t != "5-6"]})
    assert state.legal_moves(0) == ["keep"]
    with pytest.raises(IllegalMove):
        RULES.start(options=opts).play(CHANCE, "draw 1-2").play(0, "keep")


@pytest.mark.parametrize(("kept", "winner"), [([["1-1"], ["2-2", "3-3"]], 0), ([["1-1", "4-4"], ["2-2"]], 1)])
def test_option_keep_fewer_kept_tiles_wins_when_the_pool_is_empty(kept: list[list[str]], winner: int) -> None:
    opts = {"unplayable": "keep"}
    state = position(["d4", "e5"], ["h1", "a8"], drawn="1-2", pool=[], kept=kept, options=opts)
    after = state.play(0, "d4-d5 e5-e7")
    assert after.outcome is not None and after.outcome.winners == {winner}


def test_option_keep_a_tie_goes_to_the_second_player() -> None:
    opts = {"unplayable": "keep"}
    state = position(["d4", "e5"], ["h1", "a8"], drawn="1-2", pool=[], kept=[["1-1"], ["2-2"]], options=opts)
    after = state.play(0, "d4-d5 e5-e7")
    assert after.outcome is not None and after.outcome.winners == {1}
    assert "tie goes to White" in after.outcome.reason


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"pieces": "4"},
        {"pieces": "4", "setup": "diagonal"},
        {"unplayable": "keep"},
        {"pieces": "4", "setup": "diagonal", "unplayable": "keep"},
    ],
)
def test_every_variant_plays_to_its_end(options: dict[str, str]) -> None:
    for seed in range(5):
        state = final(RULES.start(options=options), random.Random(seed))
        assert state.outcome is not None
        if options.get("unplayable") == "keep":
            assert not state.pool  # keep games only end on an empty pool
            assert state.outcome.winners


# --- notation -------------------------------------------------------------------------------


def test_notation_variants_are_accepted_and_canonicalised() -> None:
    start = RULES.start()
    assert start.play(CHANCE, "DRAW 5:2").view(None)["drawn"] == "2-5"
    state = start.play(CHANCE, "draw 2-5")
    for typed in ("D4-B4 E5-E8", "d4b4 e5e8", "d4-b4, e5-e8", " d4 - b4   e5 - e8 "):
        assert state.play(0, typed).view(None)["last_move"] == "d4-b4 e5-e8"


def test_notation_pieces_not_yours_and_garbage() -> None:
    state = RULES.start().play(CHANCE, "draw 2-5")
    with pytest.raises(IllegalMove, match="no piece of yours on h1"):
        state.play(0, "h1-h3 e5-e8")
    with pytest.raises(IllegalMove, match="two different pieces"):
        state.play(0, "d4-b4 d4-d6")
    with pytest.raises(IllegalMove, match="not a Domineering move"):
        state.play(0, "please move")


def test_move_pattern_recognises_moves() -> None:
    pattern = RULES.info.move_pattern
    assert pattern.match("d4-b4 e5-e8") and pattern.match("keep") and pattern.match("D4B4 E5E8")
    assert not pattern.match("hello there")


# --- views and persistence ----------------------------------------------------------------------


def test_view_carries_everything_public() -> None:
    state = play_all(RULES.start(), [*WORKED, "draw 1-2"])
    view = state.view(None)
    for key in ("pieces", "laid", "drawn", "pool", "kept", "last_move", "last_paths", "ply", "turn", "to_move"):
        assert key in view
    assert view["drawn"] == "1-2"
    assert view["last_paths"] == [["e8", "f8", "g8", "h8"], ["b4", "b5"]]
    assert view["ply"] == 3
    json.dumps(view)


def test_dump_load_round_trip_keeps_the_drawn_tile_and_options() -> None:
    state = play_all(RULES.start(options={"pieces": "4", "unplayable": "keep"}), ["draw 3-4"])
    again = RULES.load(json.loads(json.dumps(state.dump())))
    assert again.dump() == state.dump()
    assert again.legal_moves(0) == state.legal_moves(0)
