"""Domino Wars' private controls: each step is built from the seat's own view and legal moves."""

from __future__ import annotations

import random
import re
from typing import Any

import discord
import pytest

from bot.games import GAMES
from bot.games.base import CHANCE, GameState
from cogs.ui.private import controls_for, dynamic_items
from cogs.ui.private.domino_wars import (
    ITEMS,
    POOL,
    DraftStep,
    decode_tiles,
    draft_step,
    draft_view,
    encode_tiles,
    is_still_open,
    placements_by_tile,
    split_placements,
    tile_of,
    tile_view,
    with_status,
)

RULES = GAMES["domino_wars"]
DRAFTS = ("2-4 1-3 3-5 0-1 0-2 0-3 5-6 4-6", "1-2 2-3 3-4 4-5 5-6 0-6 1-5 2-6")
"""Piles top first: Orange (seat 0) is dealt 1-3 2-4 3-5, Blue 1-2 2-3 3-4."""


def start(**options: str) -> GameState:
    return RULES.start(players=2, options=options)


def dealt(state: GameState) -> GameState:
    """Both drafts, then the piles in the order of `DRAFTS`."""
    for seat, draft in enumerate(DRAFTS):
        state = state.play(seat, f"draft {draft}")
    while CHANCE in state.turn:
        seat = int(state.sample_chance(random.Random(0)).split()[1])  # the seat whose shuffle is due
        state = state.play(CHANCE, f"shuffle {seat} {DRAFTS[seat]}")
    return state


def items(view: discord.ui.View) -> list[Any]:
    """The Discord components (Select / Button) of a view, in order."""
    return [child.item for child in view.children]  # type: ignore[attr-defined]


def custom_ids(view: discord.ui.View) -> list[str]:
    return [str(item.custom_id) for item in items(view)]


def assert_valid(view: discord.ui.View) -> None:
    """What Discord would refuse: long custom ids, more than 25 options, too many rows."""
    for item in items(view):
        assert len(item.custom_id) <= 100
        if isinstance(item, discord.ui.Select):
            assert 1 <= len(item.options) <= 25
            assert 1 <= item.min_values <= item.max_values <= len(item.options)
            assert all(len(o.label) <= 100 and len(o.value) <= 100 for o in item.options)
            assert all(o.description is None or len(o.description) <= 100 for o in item.options)
    assert len(view.to_components()) <= 5
    pattern_ids = [re.compile(cls.__discord_ui_compiled_template__) for cls in ITEMS]
    for custom_id in custom_ids(view):
        assert sum(bool(p.fullmatch(custom_id)) for p in pattern_ids) == 1, custom_id


def test_tiles_travel_as_one_letter_each_in_pool_order() -> None:
    assert encode_tiles(["1-2", "0-1", "1-2"]) == "agg"
    assert decode_tiles("agg") == ["0-1", "1-2", "1-2"]
    assert decode_tiles(encode_tiles(POOL)) == list(POOL) and len(POOL) == 21


def test_a_placement_names_its_tile_lower_number_first() -> None:
    assert tile_of("5-3 b2-b3") == tile_of("3-5 b2-b3") == "3-5"
    with pytest.raises(ValueError):
        tile_of("recycle 3-5")


def test_the_draft_offers_all_21_tiles_and_asks_for_exactly_8() -> None:
    state = start()
    state = state.play(CHANCE, "first 0")
    view = controls_for("domino_wars", 7, 1, state.view(1), state.legal_moves(1))
    assert view is not None
    assert_valid(view)
    (select,) = items(view)
    assert [o.value for o in select.options] == list(POOL)
    assert select.min_values == select.max_values == 8
    assert select.custom_id == "boneyard:dw:7:1:ds:"


def test_repeat_holder_may_choose_seven_and_then_the_copy() -> None:
    state = start(repeat="1").play(CHANCE, "first 0")
    step = draft_step(state.view(1), state.legal_moves(1))
    assert step is not None and step.copy_allowed and (step.min_values, step.need) == (7, 8)
    chosen = list(POOL[:7])
    assert step.wants_copy(chosen) and step.complete(chosen) is None
    copy_view = draft_view(7, 1, step, chosen, copy_step=True)
    assert_valid(copy_view)
    assert custom_ids(copy_view) == ["boneyard:dw:7:1:ds:", "boneyard:dw:7:1:dd:abcdefg"]
    assert [o.value for o in items(copy_view)[1].options] == chosen
    draft = step.complete(chosen, "0-3")
    assert draft == ("0-1", "0-2", "0-3", "0-3", "0-4", "0-5", "0-6", "1-2")
    confirm = draft_view(7, 1, step, chosen, copy="0-3")
    assert custom_ids(confirm)[-1] == "boneyard:dw:7:1:dk:abccdefg"
    assert state.play(1, "draft " + " ".join(draft)).view(1)["private"]["draft"] == list(draft)
    # the seat without the item gets no copy, and a copy of an unchosen tile is refused
    assert draft_step(state.view(0), state.legal_moves(0)) == DraftStep((), POOL, False)
    assert step.complete(chosen, "6-5") is None


def test_earlier_picks_stay_in_and_only_the_rest_is_asked() -> None:
    state = start().play(CHANCE, "first 1").play(0, "pick 2-5").play(0, "pick 0-1")
    step = draft_step(state.view(0), state.legal_moves(0))
    assert step is not None and step.picked == ("0-1", "2-5") and step.need == 6
    assert "2-5" not in step.available and len(step.available) == 19
    draft = step.complete(["0-2", "0-3", "0-4", "0-5", "0-6", "1-2"])
    assert draft is not None and state.play(0, "draft " + " ".join(draft)).view(None)["drafted"][0]
    view = draft_view(3, 0, step)
    assert custom_ids(view) == ["boneyard:dw:3:0:ds:an"]


def test_first_player_and_mulligan_are_buttons_of_the_deciding_seat() -> None:
    state = start(tie="1", mulligan="0")
    view = controls_for("domino_wars", 5, 1, state.view(1), state.legal_moves(1))
    assert view is not None and custom_ids(view) == ["boneyard:dw:5:1:b:first me", "boneyard:dw:5:1:b:first you"]
    state = dealt(state.play(1, "first you"))
    assert state.view(None)["phase"] == "mulligan" and state.legal_moves(1) == []
    view = controls_for("domino_wars", 5, 0, state.view(0), state.legal_moves(0))
    assert view is not None
    assert [b.label for b in items(view)] == ["Keep this hand", "Mulligan (2 left)"]


def test_a_turn_is_a_tile_then_one_of_its_placements() -> None:
    state = dealt(start().play(CHANCE, "first 0"))
    moves = state.legal_moves(0)
    grouped = placements_by_tile(moves)
    assert sorted(grouped) == sorted(state.view(0)["private"]["hand"])
    assert sum(len(p) for p in grouped.values()) == len(moves)
    view = tile_view(9, 0, state.view(0), moves)
    assert view is not None and custom_ids(view) == ["boneyard:dw:9:0:t"]
    assert_valid(view)
    tile = next(iter(grouped))
    view = tile_view(9, 0, state.view(0), moves, tile)
    assert view is not None
    assert_valid(view)
    tiles, places = items(view)
    assert [o.value for o in tiles.options if o.default] == [tile]
    assert [o.value for o in places.options] == grouped[tile] and len(grouped[tile]) == 24
    assert places.options[0].label == "1 on a1 · 3 on a2" and places.options[0].description == "a1 empty · a2 empty"


def test_placement_labels_say_what_each_square_shows() -> None:
    state = dealt(start().play(CHANCE, "first 0"))
    state = state.play(0, "3-1 a1-a2")  # effects 1 and 3 ask nothing: Blue's turn
    assert state.view(None)["turn"] == [1]
    moves = [m for m in state.legal_moves(1) if m.endswith(" a1-b1")]
    assert moves == ["4-3 a1-b1"]
    view = tile_view(9, 1, state.view(1), state.legal_moves(1), "3-4")
    assert view is not None
    options = {o.value: o for o in items(view)[1].options}
    assert options["4-3 a1-b1"].label == "4 on a1 · 3 on b1"
    assert options["4-3 a1-b1"].description == "a1 covers Orange's 3 · b1 empty"


def test_more_than_25_placements_split_by_starting_square() -> None:
    moves = [f"{a}-{b} {f}{r}-{f}{r + 1}" for f in "abcdefgh" for r in (1, 2) for a, b in ((5, 6), (6, 5))]
    chunks = split_placements(moves)
    assert [len(c) for c in chunks] == [24, 8]
    assert [m for c in chunks for m in c] == moves
    starts = [{m.split(" ")[1].split("-")[0] for m in c} for c in chunks]
    assert not starts[0] & starts[1]


def test_an_effect_choice_is_a_select_of_its_legal_moves() -> None:
    state = dealt(start().play(CHANCE, "first 0"))
    state = state.play(0, "2-4 a1-a2")  # effect 2: a pile tile to the top, then effect 4
    assert state.view(None)["phase"] == "effect"
    moves = state.legal_moves(0)
    view = controls_for("domino_wars", 2, 0, state.view(0), moves)
    assert view is not None and custom_ids(view) == ["boneyard:dw:2:0:e"]
    (select,) = items(view)
    assert [o.value for o in select.options] == moves == ["top 0-1", "top 0-2", "top 0-3", "top 4-6", "top 5-6"]
    assert select.placeholder.startswith("Effect 2") and select.options[0].label == "Top 0-1"
    state = state.play(0, "top 0-3")
    view = controls_for("domino_wars", 2, 0, state.view(0), state.legal_moves(0))
    assert view is not None
    assert [o.value for o in items(view)[0].options] == ["discard 1-3", "discard 3-5"]


def test_nothing_to_offer_when_the_game_is_over_or_the_seat_waits() -> None:
    state = start().play(CHANCE, "first 0")
    assert controls_for("domino_wars", 1, 0, state.view(0), []) is None
    assert draft_step(state.view(0), ["keep", "mulligan"]) is None


@pytest.mark.parametrize(
    ("move", "moves", "open_"),
    [
        ("draft 0-1 0-2 0-3 0-4 0-5 0-6 1-2 1-3", ["pick 0-1"], True),
        ("draft 0-1 0-2 0-3 0-4 0-5 0-6 1-2 1-3", ["keep", "mulligan"], False),
        ("2-5 a1-a2", ["2-5 a1-a2", "5-2 a1-a2"], True),
        ("2-5 a1-a2", ["recycle 2-5"], False),
        ("keep", [], False),
    ],
)
def test_a_final_choice_is_open_only_while_legal(move: str, moves: list[str], open_: bool) -> None:
    assert is_still_open(move, moves) is open_


def test_the_status_line_is_replaced_not_stacked() -> None:
    text = with_status("Header\nThis is your private view.", "one")
    assert with_status(text, "two") == "Header\nThis is your private view.\n▸ two"


def test_the_items_are_registered_for_restarts() -> None:
    assert set(ITEMS) <= set(dynamic_items())
