"""Focus: one or more tests per ruling in `shared/rules/focus.md`, plus notation and a property test.

Positions are built with `FocusRules().load(...)` from the `dump()` format (a stack is a string of
owners, bottom to top) or by playing moves from a start position.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games import GAMES, IllegalMove, SnapshotMismatch
from bot.games.focus import FocusRules, FocusState, _encode
from tests.games.playout import reload

RULES = FocusRules()


def start(options: dict[str, object] | None = None) -> FocusState:
    """A new game, typed as the Focus state it is."""
    state = RULES.start(options=options)
    assert isinstance(state, FocusState)
    return state


FILES = "bcdefg"


def position(
    board: dict[str, str],
    *,
    to_move: int = 0,
    reserves: tuple[int, int] = (0, 0),
    captured: tuple[int, int] = (0, 0),
    ply: int = 10,
    options: dict[str, Any] | None = None,
) -> FocusState:
    """A mid-game position in the `dump()` format."""
    return RULES.load(
        {
            "board": board,
            "reserves": list(reserves),
            "captured": list(captured),
            "to_move": to_move,
            "setup_left": [0, 0],
            "ply": ply,
            "seen": {},
            "last_move": None,
            "outcome": None,
            "options": options or {},
        }
    )


def stacks(state: FocusState) -> dict[str, str]:
    return dict(state.dump()["board"])


def play_all(state: FocusState, *moves: str) -> FocusState:
    seat = state.to_move
    for move in moves:
        state = state.play(seat, move)
        seat = state.to_move
    return state


def pieces_in_play(state: FocusState) -> int:
    data = state.dump()
    return int(sum(len(s) for s in data["board"].values()) + sum(data["reserves"]) + sum(data["captured"]))


def pieces_of(state: FocusState, seat: int) -> int:
    """A seat's pieces still in the game (board + reserve) plus those the opponent captured."""
    data = state.dump()
    on_board = sum(s.count(str(seat)) for s in data["board"].values())
    return int(on_board + data["reserves"][seat] + data["captured"][1 - seat])


# --- ruling 1: the board and its cut corners ----------------------------------------

CUT = ["a1", "b1", "a2", "g1", "h1", "h2", "a7", "a8", "b8", "g8", "h8", "h7"]


def test_ruling1_cut_corners_are_listed_in_the_view() -> None:
    assert sorted(start().view(None)["cut"]) == sorted(CUT)


@pytest.mark.parametrize("square", CUT)
def test_ruling1_a_cut_corner_cannot_be_dropped_on(square: str) -> None:
    state = position({"d4": "0"}, reserves=(1, 0))
    with pytest.raises(IllegalMove, match="cut corner"):
        state.play(0, f"*{square}")
    assert f"*{square}" not in state.legal_moves(0)


def test_ruling1_moves_onto_a_cut_corner_are_refused_and_not_listed() -> None:
    state = start()  # b7 is Orange's, next to a7 and b8
    for move in ("b7-a7", "b7-b8"):
        with pytest.raises(IllegalMove, match="cut corner"):
            state.play(0, move)
        assert move not in state.legal_moves(0)


def test_ruling1_moves_from_a_cut_corner_are_refused() -> None:
    with pytest.raises(IllegalMove, match="a2 is a cut corner"):
        start().play(0, "a2-a3")


def test_ruling1_fifty_two_squares_remain() -> None:
    state = start(options={"setup": "drop"})
    assert len(state.legal_moves(0)) == 52


# --- ruling 2: the standard start ----------------------------------------------------


def test_ruling2_start_pattern_per_rank() -> None:
    board = stacks(start())
    for rank in range(2, 8):
        row = "".join(board[f"{f}{rank}"] for f in FILES)
        assert row == ("001100" if rank % 2 else "110011"), rank
    assert len(board) == 36


def test_ruling2_eighteen_pieces_each_no_reserves_seat0_first() -> None:
    state = start()
    owners = "".join(stacks(state).values())
    assert owners.count("0") == 18 and owners.count("1") == 18
    view = state.view(None)
    assert view["reserves"] == [0, 0] and view["captured"] == [0, 0]
    assert state.turn == frozenset({0})
    assert view["ply"] == 0 and view["last_move"] is None


def test_ruling2_seat0_has_68_legal_moves_at_the_start() -> None:
    moves = start().legal_moves(0)
    assert len(moves) == 68
    assert len(set(moves)) == 68
    assert all("*" not in m for m in moves)  # no reserve, so no drops


# --- ruling 3: setup=drop ------------------------------------------------------------


def test_ruling3_drop_setup_starts_empty_and_alternates() -> None:
    state = start(options={"setup": "drop"})
    assert stacks(state) == {} and state.turn == frozenset({0})
    state = state.play(0, "*d4")
    assert state.turn == frozenset({1})
    state = state.play(1, "*e5")
    assert state.turn == frozenset({0})
    assert stacks(state) == {"d4": "0", "e5": "1"}
    assert state.view(None)["setup_left"] == [17, 17]


def test_ruling3_setup_placement_only_on_empty_or_own_stack() -> None:
    state = play_all(start(options={"setup": "drop"}), "*d4")
    with pytest.raises(IllegalMove, match="not yours"):
        state.play(1, "*d4")
    assert "*d4" not in state.legal_moves(1)
    state = play_all(state, "*e5", "*d4")
    assert stacks(state)["d4"] == "00"


def test_ruling3_setup_never_taller_than_five() -> None:
    state = start(options={"setup": "drop"})
    for i in range(5):
        state = play_all(state, "*d4", f"*b{i + 2}")
    assert stacks(state)["d4"] == "00000"
    assert "*d4" not in state.legal_moves(0)
    with pytest.raises(IllegalMove, match="already 5 tall"):
        state.play(0, "*d4")


def test_ruling3_moves_are_refused_during_setup() -> None:
    state = play_all(start(options={"setup": "drop"}), "*d4", "*e5")
    with pytest.raises(IllegalMove, match="still being placed"):
        state.play(0, "d4-d5")


def test_ruling3_after_36_placements_seat0_moves_first() -> None:
    state = start(options={"setup": "drop"})
    squares = [f"{f}{r}" for r in range(2, 8) for f in FILES]
    for i, square in enumerate(squares):
        assert state.in_setup
        state = state.play(i % 2, f"*{square}")
    assert not state.in_setup
    assert state.turn == frozenset({0})
    assert state.view(None)["ply"] == 0  # placements are not plies of the game
    assert state.view(None)["reserves"] == [0, 0]
    assert pieces_in_play(state) == 36
    assert all("*" not in m for m in state.legal_moves(0))
    assert "b2-b3" in state.legal_moves(0)


# --- rulings 4 and 5: moving --------------------------------------------------------


def test_ruling4_a_stack_belongs_to_its_top_piece() -> None:
    state = position({"d4": "110", "e5": "001"})
    assert "d4-d5" in state.legal_moves(0)
    assert not any(m.startswith("e5") for m in state.legal_moves(0))
    with pytest.raises(IllegalMove, match="not yours"):
        state.play(0, "e5-e6")


def test_ruling5_top_k_pieces_move_exactly_k_squares() -> None:
    state = position({"d4": "100", "b2": "1"})
    one = state.play(0, "d4-d5")
    assert stacks(one)["d4"] == "10" and stacks(one)["d5"] == "0"
    all_three = state.play(0, "d4-d7")
    assert "d4" not in stacks(all_three) and stacks(all_three)["d7"] == "100"


def test_ruling5_splitting_leaves_the_rest_to_whoever_is_on_top() -> None:
    state = position({"d4": "100", "b2": "0"}).play(0, "d4-d6")
    assert stacks(state)["d6"] == "00"
    assert stacks(state)["d4"] == "1"
    assert "d4-d5" in state.legal_moves(1)  # the piece left behind is Blue's stack now


def test_ruling5_not_further_than_the_stack_is_tall() -> None:
    state = position({"d4": "100", "b2": "1"})
    with pytest.raises(IllegalMove, match="only 3 tall"):
        state.play(0, "d4-d8")
    assert "d4-d8" not in state.legal_moves(0)
    assert {m for m in state.legal_moves(0) if m.startswith("d4")} == {
        "d4-c4",
        "d4-e4",
        "d4-d3",
        "d4-d5",
        "d4-b4",
        "d4-f4",
        "d4-d2",
        "d4-d6",
        "d4-a4",
        "d4-g4",
        "d4-d1",
        "d4-d7",
    }


def test_ruling5_stacks_jump_over_what_lies_between() -> None:
    board = {"d4": "000", "d5": "11111", "d6": "1", "c4": "1", "e4": "1", "d3": "1"}
    state = position(board).play(0, "d4-d7")
    after = stacks(state)
    assert after["d7"] == "000"
    assert after["d5"] == "11111" and after["d6"] == "1"  # jumped-over stacks untouched


def test_ruling5_no_diagonal_moves() -> None:
    with pytest.raises(IllegalMove, match="diagonally"):
        start().play(0, "c3-d4")


def test_ruling5_no_wrap_around_at_the_board_edge() -> None:
    state = position({"h4": "0", "d4": "1"})
    assert sorted(m for m in state.legal_moves(0) if m.startswith("h4")) == ["h4-g4", "h4-h3", "h4-h5"]
    two = position({"h4": "00", "d4": "1"})
    assert sorted(m for m in two.legal_moves(0) if m.startswith("h4")) == [
        "h4-f4",
        "h4-g4",
        "h4-h3",
        "h4-h5",
        "h4-h6",
    ]


def test_ruling5_landing_off_the_board_is_refused() -> None:
    state = position({"d7": "00", "d4": "1"})
    with pytest.raises(IllegalMove, match="off the board"):
        state.play(0, "d7-d9")
    assert "d7-d9" not in state.legal_moves(0)


def test_ruling5_landing_on_any_stack_puts_the_mover_on_top() -> None:
    state = position({"d4": "0", "d5": "1101", "e4": "0"})
    onto_enemy = state.play(0, "d4-d5")
    assert stacks(onto_enemy)["d5"] == "11010"
    onto_own = state.play(0, "d4-e4")
    assert stacks(onto_own)["e4"] == "00"


def test_ruling5_moving_from_an_empty_square_is_refused() -> None:
    with pytest.raises(IllegalMove, match="no stack on d4"):
        position({"c3": "0"}).play(0, "d4-d5")


# --- ruling 6: drops ---------------------------------------------------------------


def test_ruling6_drop_anywhere_including_an_enemy_stack_takes_it() -> None:
    state = position({"d4": "111", "b2": "1"}, reserves=(1, 0))
    drops = [m for m in state.legal_moves(0) if m.startswith("*")]
    assert len(drops) == 52
    after = state.play(0, "*d4")
    assert stacks(after)["d4"] == "1110"
    assert after.view(None)["reserves"] == [0, 0]
    assert "d4-d8" not in after.legal_moves(1) and after.legal_moves(1)  # d4 is no longer Blue's


def test_ruling6_restricted_drops_only_on_empty_or_own() -> None:
    state = position({"d4": "111", "e4": "0"}, reserves=(1, 0), options={"drops": "restricted"})
    assert "*d4" not in state.legal_moves(0)
    assert "*e4" in state.legal_moves(0) and "*e5" in state.legal_moves(0)
    with pytest.raises(IllegalMove, match="restricted"):
        state.play(0, "*d4")
    assert stacks(state.play(0, "*e4"))["e4"] == "00"


def test_ruling6_no_reserve_no_drop() -> None:
    with pytest.raises(IllegalMove, match="no pieces in reserve"):
        start().play(0, "*d4")


# --- ruling 7: trimming to five ---------------------------------------------------------


def test_ruling7_trim_own_pieces_to_reserve_opponents_captured() -> None:
    state = position({"d4": "10101", "d6": "00"}).play(0, "d6-d4")
    assert stacks(state)["d4"] == "10100"  # the bottom "10" was removed
    view = state.view(None)
    assert view["reserves"] == [1, 0]
    assert view["captured"] == [1, 0]


def test_ruling7_a_drop_onto_a_five_stack_trims_too() -> None:
    state = position({"d4": "11111", "b2": "0"}, reserves=(1, 0)).play(0, "*d4")
    assert stacks(state)["d4"] == "11110"
    assert state.view(None)["captured"] == [1, 0] and state.view(None)["reserves"] == [0, 0]


def test_ruling7_blue_trimming_its_own_pieces() -> None:
    state = position({"d4": "11000", "d5": "1", "b2": "0"}, to_move=1).play(1, "d5-d4")
    assert stacks(state)["d4"] == "10001"
    assert state.view(None)["reserves"] == [0, 1] and state.view(None)["captured"] == [0, 0]


def test_ruling7_stacks_of_exactly_five_are_not_trimmed() -> None:
    state = position({"d4": "1010", "d5": "0"}).play(0, "d5-d4")
    assert stacks(state)["d4"] == "10100"
    assert state.view(None)["reserves"] == [0, 0] and state.view(None)["captured"] == [0, 0]


# --- ruling 8: losing -----------------------------------------------------------------


def test_ruling8_no_stack_and_no_reserve_loses() -> None:
    state = position({"d4": "1", "d5": "0"}).play(0, "d5-d4")
    assert state.outcome is not None
    assert state.outcome.winners == frozenset({0})
    assert "Blue controls no stack" in state.outcome.reason
    assert state.turn == frozenset()
    assert state.view(None)["outcome"]["winners"] == [0]


def test_ruling8_no_stack_but_a_reserve_is_not_a_loss() -> None:
    state = position({"d4": "1", "d5": "0"}, reserves=(0, 1)).play(0, "d5-d4")
    assert state.outcome is None
    assert state.turn == frozenset({1})
    moves = state.legal_moves(1)
    assert moves and all(m.startswith("*") for m in moves)
    back = state.play(1, "*d4")  # Blue retakes the only stack: now Orange has nothing
    assert stacks(back)["d4"] == "101"
    assert back.outcome is not None and back.outcome.winners == frozenset({1})


# --- ruling 9: draws ------------------------------------------------------------------

SHUFFLE = ("c3-c4", "f4-f5", "c4-c3", "f5-f4")  # four plies that restore the start position


def test_ruling9_third_occurrence_of_a_position_is_a_draw() -> None:
    state = play_all(start(), *SHUFFLE)
    assert stacks(state) == stacks(start())
    assert state.outcome is None and state.view(None)["repetitions"] == 2
    state = play_all(state, *SHUFFLE[:3])
    assert state.outcome is None
    state = play_all(state, SHUFFLE[3])
    assert state.outcome is not None and state.outcome.is_draw
    assert "3 times" in state.outcome.reason


def test_ruling9_repetitions_option() -> None:
    twice = play_all(start(options={"repetitions": 2}), *SHUFFLE)
    assert twice.outcome is not None and twice.outcome.is_draw
    never = play_all(start(options={"repetitions": 0}), *(SHUFFLE * 4))
    assert never.outcome is None


def test_ruling9_reserves_are_part_of_the_position() -> None:
    """Within one capture-free stretch a seat's pieces on the board plus its reserve stay
    constant, so the same board with other reserves cannot arise in play: the table is built
    by hand, in the snapshot format that still held its trail (which `load` takes as it is)."""
    board = {"d4": "0", "e5": "1"}
    table = position(board, reserves=(1, 0)).dump()
    kept = {"anchor": table["anchor"], "trail": _encode(["d4-d5"])}  # the table holds d4-d5 with reserves 1, 0
    same = position(board, reserves=(1, 0)).dump() | kept
    other = position(board, reserves=(2, 0)).dump() | kept
    assert RULES.load(same).play(0, "d4-d5").view(None)["repetitions"] == 2
    assert RULES.load(other).play(0, "d4-d5").view(None)["repetitions"] == 1


def test_ruling9_no_ply_limit_by_default() -> None:
    """The source has no move limit; a 400-ply default turned real wins into draws."""
    assert RULES.resolve_options({})["ply_limit"] == 0
    for ply in (399, 400, 4999, 20_000):
        assert position({"d4": "0", "e5": "1"}, ply=ply).play(0, "d4-d5").outcome is None


def test_ruling9_ply_limit_option_counts_plies() -> None:
    state = position({"d4": "0", "e5": "1"}, ply=399, options={"ply_limit": 400}).play(0, "d4-d5")
    assert state.outcome is not None and state.outcome.is_draw
    assert state.outcome.reason == "400 plies were played without a result."
    early = position({"d4": "0", "e5": "1"}, ply=398, options={"ply_limit": 400}).play(0, "d4-d5")
    assert early.outcome is None


def test_the_help_texts_say_plies_and_no_limit() -> None:
    option = next(o for o in RULES.info.options if o.name == "ply_limit")
    assert "plies" in option.help and "moves" not in option.help.replace("single moves", "")
    assert "400" not in RULES.info.how_to_play
    assert "no move limit" in RULES.info.how_to_play and "plies" in RULES.info.how_to_play


def test_ruling9_ply_limit_option() -> None:
    state = play_all(start(options={"ply_limit": 3}), "c3-c4", "f4-f5")
    assert state.outcome is None
    state = play_all(state, "c4-c3")
    assert state.outcome is not None and state.outcome.is_draw


def test_ruling9_a_win_beats_the_ply_limit() -> None:
    state = position({"d4": "1", "d5": "0"}, ply=399, options={"ply_limit": 400}).play(0, "d5-d4")
    assert state.outcome is not None and state.outcome.winners == frozenset({0})


# --- notation -------------------------------------------------------------------------


@pytest.mark.parametrize("typed", ["c3-c5", "C3 - C5", "c3c5", "c3 c5", "  c3-C5 "])
def test_notation_move_variants_are_canonicalised(typed: str) -> None:
    state = position({"c3": "00", "b2": "1"}).play(0, typed)
    assert state.last_move == "c3-c5"
    assert state.view(None)["last_move"] == "c3-c5"
    assert stacks(state)["c5"] == "00"


@pytest.mark.parametrize("typed", ["*d4", "* d4", "drop d4", "DROP D4", "*D4"])
def test_notation_drop_variants_are_canonicalised(typed: str) -> None:
    state = position({"c3": "0", "b2": "1"}, reserves=(1, 0)).play(0, typed)
    assert state.last_move == "*d4"
    assert stacks(state)["d4"] == "0"


@pytest.mark.parametrize("typed", ["c3-c5", "C3 - C5", "c3c5", "*d4", "* d4", "drop d4"])
def test_notation_variants_look_like_moves_in_chat(typed: str) -> None:
    assert RULES.info.move_pattern.match(typed)


def test_notation_garbage_gets_a_readable_reason() -> None:
    with pytest.raises(IllegalMove, match="not a Focus move"):
        start().play(0, "push the big one")


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ("c3-d4", "never diagonally"),
        ("c3-c5", "only 1 tall"),
        ("b2-b3", "not yours"),
        ("d3-d4", "not yours"),
        ("*d4", "no pieces in reserve"),
        ("c3-c3", "at least one square"),
    ],
)
def test_illegal_move_reasons_are_sentences(move: str, reason: str) -> None:
    with pytest.raises(IllegalMove, match=reason) as info:
        start().play(0, move)
    assert info.value.reason.endswith(".")


def test_illegal_move_from_an_empty_square_names_it() -> None:
    state = play_all(start(), "c3-c4", "f4-f5")
    with pytest.raises(IllegalMove, match="There is no stack on c3"):
        state.play(0, "c3-c2")


# --- registration and views -------------------------------------------------------------


def test_focus_is_registered() -> None:
    assert isinstance(GAMES["focus"], FocusRules)


def test_view_lists_stacks_bottom_to_top() -> None:
    view = position({"d4": "100", "b2": "1"}, reserves=(2, 1), captured=(3, 0)).view(None)
    assert view["stacks"]["d4"] == [1, 0, 0]
    assert view["reserves"] == [2, 1] and view["captured"] == [3, 0]
    assert view["to_move"] == 0


# --- property: conservation of pieces ---------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    setup=st.sampled_from(["standard", "drop"]),
    drops=st.sampled_from(["anywhere", "restricted"]),
    plies=st.integers(1, 200),
)
def test_property_random_play_conserves_36_pieces(seed: int, setup: str, drops: str, plies: int) -> None:
    rng = random.Random(seed)
    state = start(options={"setup": setup, "drops": drops})
    for _ in range(plies + 36):
        if state.outcome is not None:
            break
        seat = state.to_move
        state = state.play(seat, rng.choice(state.legal_moves(seat)))
        data = state.dump()
        assert all(1 <= len(s) <= 5 for s in data["board"].values())
        if not state.in_setup:
            assert pieces_in_play(state) == 36
            assert pieces_of(state, 0) == pieces_of(state, 1) == 18


# --- long games (no move limit) and the snapshot ------------------------------------------


def reloaded(state: FocusState, log: list[str]) -> FocusState:
    """`state` stored and loaded as the match service does (`tests.games.playout.reload`)."""
    again = reload(state, log)
    assert isinstance(again, FocusState)
    return again


def reference_repetitions(log: list[str], options: dict[str, object]) -> list[int]:
    """How often each position of the game occurred, counted from the start: for each
    position after a log move, its occurrences so far.  Ruling 9 read plainly (board, both
    reserves, side to move), over every position since the start; nothing of the engine's
    trail, anchor or counts is used, only `play` and the public view."""
    state = start(options)
    counts: dict[str, int] = {}
    found = []
    positions = [state, *_states_after(state, log)]
    for position_now in positions:
        view = position_now.view(None)
        if any(view["setup_left"]):
            found.append(0)  # no position is counted during a drop setup
            continue
        key = json.dumps([view["stacks"], view["reserves"], view["to_move"]], sort_keys=True)
        counts[key] = counts.get(key, 0) + 1
        found.append(counts[key])
    return found


def _states_after(state: FocusState, log: list[str]) -> list[FocusState]:
    states = []
    for move in log:
        state = state.play(state.to_move, move)
        states.append(state)
    return states


def wandering_move(state: FocusState, rng: random.Random, last_own: dict[int, str]) -> str:
    """A random move, but now and then the one that undoes the mover's previous move, so that
    positions recur and games end by repetition (with captures on the way)."""
    seat = state.to_move
    moves = state.legal_moves(seat)
    previous = last_own.get(seat, "")
    back = "-".join(reversed(previous.split("-"))) if "-" in previous else ""
    move = back if back in moves and rng.random() < 0.2 else rng.choice(moves)
    last_own[seat] = move
    return move


WANDERING_SEEDS = range(12)


def wandering_game(seed: int) -> Iterator[tuple[FocusState, list[str]]]:
    """A random game of `wandering_move`s (both set-ups by seed), at most 700 log moves:
    yields each state after a move with the log so far."""
    rng = random.Random(seed)
    state = start({"setup": ("standard", "drop")[seed % 2]})
    log = [e.move for e in state.applied]
    last_own: dict[int, str] = {}
    while state.outcome is None and len(log) < 700:
        state = state.play(state.to_move, wandering_move(state, rng, last_own))
        log.extend(e.move for e in state.applied)
        yield state, log


@pytest.mark.parametrize("seed", WANDERING_SEEDS)
def test_ruling9_repetition_counts_survive_the_snapshot_and_match_a_count_from_the_start(seed: int) -> None:
    """Random games: at every ply the state rebuilt from its snapshot and the log has the
    same history and repetition count as the played one, the count equals a plain count of
    every position since the start, and the game is drawn exactly at a third occurrence."""
    for state, log in wandering_game(seed):
        again = reloaded(state, log)
        assert again == state
        assert again.view(None)["repetitions"] == state.view(None)["repetitions"]
    counted = reference_repetitions(log, {"setup": ("standard", "drop")[seed % 2]})
    assert state.view(None)["repetitions"] == counted[-1]
    assert max(counted) <= 3
    drawn = state.outcome is not None and "3 times" in state.outcome.reason
    assert drawn == (counted[-1] == 3)


def test_ruling9_the_random_games_capture_and_end_by_repetition() -> None:
    """The games above are not vacuous: most reach a third occurrence, several after captures
    (which move the anchor the snapshot keeps)."""
    drawn = captured_then_drawn = 0
    for seed in WANDERING_SEEDS:
        state = [state for state, _log in wandering_game(seed)][-1]
        if state.outcome is not None and "3 times" in state.outcome.reason:
            drawn += 1
            captured_then_drawn += state.captured != (0, 0)
    assert drawn >= 6 and captured_then_drawn >= 3


def capture_free_game(plies: int, seed: int) -> Iterator[tuple[FocusState, list[str]]]:
    """A game of random moves that never captures and never ends, `plies` long: yields each
    state with the log so far."""
    rng = random.Random(seed)
    state = start()
    log: list[str] = []
    yield state, log
    while state.ply < plies:
        moves = state.legal_moves(state.to_move)
        while True:
            after = state.play(state.to_move, rng.choice(moves))
            if after.captured == state.captured and after.outcome is None:
                break
        state = after
        log.extend(e.move for e in state.applied)
        yield state, log


def test_a_long_capture_free_game_keeps_its_snapshot_small_and_the_same_size() -> None:
    """No move limit and no capture for 3,000 plies: the snapshot stays under 4 KB at every ply
    and does not grow with the plies (what it holds besides the board is the same size at ply
    1,500 and 3,000), while the state rebuilt from it and the log keeps the whole history."""
    beside_board: dict[int, int] = {}
    for state, log in capture_free_game(3_000, seed=4):
        data = state.dump()
        size = len(json.dumps(data))
        assert size <= 4096, state.ply
        if state.ply in (1_500, 3_000):
            beside_board[state.ply] = size - len(json.dumps(data["board"])) - len(json.dumps(data["reserves"]))
        if state.ply % 500 == 0:
            again = reloaded(state, log)
            assert again == state and len(again.trail) == 2 * state.ply
            assert again.view(None)["repetitions"] == state.view(None)["repetitions"]
    assert state.captured == (0, 0) and state.anchor_moves == 0
    assert RULES.log_needed(state.dump()) == 0
    assert beside_board[3_000] == beside_board[1_500]


def test_a_capture_clears_the_repetition_trail() -> None:
    state = position({"c3": "00000", "d3": "11111", "f6": "1"}, to_move=0)
    state = state.play(0, "c3-c2").play(1, "f6-f5")
    assert len(state.trail) == 4  # two plies, two characters each
    assert "trail" not in state.dump() and RULES.log_needed(state.dump()) == state.anchor_moves == 10
    taken = state.play(0, "c3-d3")  # d3 grows to 6: seat 1's bottom piece is captured
    assert taken.captured == (1, 0)
    assert taken.trail == "" and taken.view(None)["repetitions"] == 1
    assert taken.anchor_moves == 13 and RULES.log_needed(taken.dump()) is None  # complete at a capture


def test_a_drop_setup_counts_its_placements_as_log_moves() -> None:
    rng = random.Random(2)
    state = start({"setup": "drop"})
    log: list[str] = []
    while state.in_setup:
        state = state.play(state.to_move, rng.choice(state.legal_moves(state.to_move)))
        log.extend(e.move for e in state.applied)
    assert len(log) == 36 and RULES.log_needed(state.dump()) is None
    state = play_all(state, *[m for m in state.legal_moves(0) if "-" in m][:1])
    log.append(str(state.last_move))
    if state.captured == (0, 0):
        assert RULES.log_needed(state.dump()) == 36
    assert reloaded(state, log) == state


def test_load_refuses_log_moves_that_do_not_lead_to_the_snapshot() -> None:
    state = play_all(start(), *SHUFFLE, "c3-c4", "f4-f5")
    log = [*SHUFFLE, "c3-c4", "f4-f5"]
    data = state.dump()
    assert RULES.log_needed(data) == 0 and RULES.load(data, log) == state
    wrong = [
        [],  # none given
        log[:-1],  # one short
        [*log, "c4-c3"],  # one too many
        [*log[:-2], "c3-c4", "e4-e5"],  # another last move
        [*log[:-2], "f4-f5", "c3-c4"],  # the right moves by the wrong seats (same end position)
        [*log[:-2], "c3-c5", "f4-f5"],  # further than the stack is tall
        [*log[:-2], "c3-d4", "f4-f5"],  # diagonal
        [*log[:-1], "f4 - f5"],  # not the log's own notation
        [*log[:-1], "resign"],
    ]
    for later in wrong:
        with pytest.raises(SnapshotMismatch):
            RULES.load(data, later)


def test_load_refuses_a_snapshot_whose_anchor_is_not_its_position_when_it_needs_no_log() -> None:
    data = play_all(start(), "c3-c4").dump()
    assert RULES.log_needed(data) == 0
    with pytest.raises(SnapshotMismatch):
        RULES.load(data | {"anchor_moves": 1})  # "nothing since the anchor", but it is another position


def test_load_refuses_log_moves_that_would_capture() -> None:
    """A trail never holds a capture: moves that capture on the way do not belong to it."""
    before = position({"c3": "00000", "d3": "11111", "f6": "1"}, to_move=0, ply=0)
    data = before.play(0, "c3-c2").dump()  # no capture: the anchor is the position before it
    assert RULES.log_needed(data) == 0
    with pytest.raises(SnapshotMismatch):
        RULES.load(data, ["c3-d3"])  # captures, and leads elsewhere


def test_a_snapshot_that_holds_its_trail_still_loads_without_the_log() -> None:
    """Snapshots written before the log supplied the trail hold it: they load complete."""
    state = play_all(start(), *SHUFFLE, "c3-c4")
    old = {k: v for k, v in state.dump().items() if k != "anchor_moves"} | {"trail": state.trail}
    assert RULES.log_needed(old) is None
    again = RULES.load(old)
    assert again == state and again.anchor_moves == 0
    assert again.view(None)["repetitions"] == 2  # after c3-c4 at plies 1 and 5
    third = play_all(again, "f4-f5", "c4-c3", "f5-f4")  # the start position a third time
    assert third.outcome is not None and third.outcome.is_draw
    assert RULES.load(third.dump(), [*SHUFFLE, "c3-c4", "f4-f5", "c4-c3", "f5-f4"]) == third  # then from the log


def test_a_snapshot_written_with_the_whole_table_still_counts_its_positions() -> None:
    """Snapshots stored before the trail existed hold every position in `seen`."""
    state = play_all(start(), *SHUFFLE)  # the start position twice
    old = {k: v for k, v in state.dump().items() if k not in ("anchor", "anchor_moves")} | {"seen": state.seen}
    assert RULES.log_needed(old) is None
    again = RULES.load(old)
    assert again.view(None)["repetitions"] == 2
    assert play_all(again, *SHUFFLE).outcome is not None  # the third time is a draw
    later = play_all(again, "c3-c4")  # after one move, its snapshot needs the log since the old one
    assert RULES.log_needed(later.dump()) == 4
    assert RULES.load(later.dump(), ["c3-c4"]) == later
    assert play_all(RULES.load(later.dump(), ["c3-c4"]), *SHUFFLE[1:]).outcome is not None


CUT_NAMES = {"a1", "b1", "a2", "g1", "h1", "h2", "a7", "a8", "b8", "g8", "h8", "h7"}  # ruling 1


def reference_stack_moves(stacks: dict[str, list[int]], seat: int) -> set[str]:
    """Ruling 5 read over square names: from each stack `seat` controls (its top piece), the
    top k pieces (1 ≤ k ≤ height) go exactly k squares in a straight orthogonal line, onto a
    square of the board that is not cut."""
    moves = set()
    for name, stack in stacks.items():
        if stack[-1] != seat:
            continue
        file, rank = ord(name[0]) - ord("a"), int(name[1:])
        for k in range(1, len(stack) + 1):
            for to_file, to_rank in ((file + k, rank), (file - k, rank), (file, rank + k), (file, rank - k)):
                target = f"{chr(ord('a') + to_file)}{to_rank}"
                if 0 <= to_file < 8 and 1 <= to_rank <= 8 and target not in CUT_NAMES:
                    moves.add(f"{name}-{target}")
    return moves


@pytest.mark.parametrize("setup", ["standard", "drop"])
def test_stack_moves_in_random_positions_are_the_rule_s_and_listed_once(setup: str) -> None:
    rng = random.Random(setup)
    checked = 0
    for _ in range(3):
        state = RULES.start(options={"setup": setup, "ply_limit": 300})
        while state.outcome is None:
            seat = next(iter(state.turn))
            moves = state.legal_moves(seat)
            if not state.in_setup:
                stack_moves = [m for m in moves if not m.startswith("*")]
                assert len(stack_moves) == len(set(stack_moves))
                assert set(stack_moves) == reference_stack_moves(state.view(None)["stacks"], seat)
                checked += 1
            state = state.play(seat, rng.choice(moves))
    assert checked > 300


def test_a_single_drop_is_the_forced_move_and_a_second_square_makes_a_choice() -> None:
    """Focus's own `forced_move` stops at the second move it finds; its one reachable single
    move is a drop with restricted drops, no stack of one's own and one free square."""
    from bot.games.focus import NAMES, SQUARES

    squares = [NAMES[i] for i in SQUARES]
    crowded = {name: "1" for name in squares[1:]}
    restricted = {"drops": "restricted"}
    one_free = position(crowded, reserves=(1, 0), options=restricted)
    assert one_free.legal_moves(0) == [f"*{squares[0]}"]
    assert one_free.forced_move(0) == f"*{squares[0]}"
    two_free = position(
        {k: v for k, v in crowded.items() if k != squares[-1]}, reserves=(1, 0), options={"drops": "restricted"}
    )
    assert len(two_free.legal_moves(0)) == 2 and two_free.forced_move(0) is None
    anywhere = position(crowded, reserves=(1, 0))
    assert len(anywhere.legal_moves(0)) == len(squares) and anywhere.forced_move(0) is None
