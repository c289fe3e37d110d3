"""Wonderland's DM steps, built from real engine views and legal moves (no Discord needed)."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.games import CHANCE, IllegalMove
from bot.games.wonderland.cards import DECK
from cogs.ui.private import wonderland as wl
from tests.games.wonderland.helpers import BOARD, POOL0, RULES, after_pools, being, factors, position

REDS_AND_BLACKS = ["AH", "2H", "3H", "4H", "JH", "QH", "KH", "5D", "6D", "7D", "8S", "9S", "10S", "JS", "QS"]


def start_step(chosen: list[str] | tuple[str, ...] = ()) -> wl.PoolStep:
    state = RULES.start()
    step = wl.pool_step(state.view(0), state.legal_moves(0), chosen)
    assert step is not None
    return step


def components(view: discord.ui.View) -> list[dict[str, Any]]:
    return [c for row in view.to_components() for c in row["components"]]


# --- masks -------------------------------------------------------------------------------------


@pytest.mark.parametrize("cards", [(), ("AH",), tuple(DECK), tuple(POOL0)])
def test_a_choice_survives_its_custom_id_mask(cards: tuple[str, ...]) -> None:
    mask = wl.encode(cards)
    assert len(mask) <= 13
    assert set(wl.decode(mask)) == set(cards)


def test_a_mask_decodes_in_deck_order_and_ignores_bits_beyond_the_deck() -> None:
    assert wl.decode(wl.encode(["KH", "AH"])) == tuple(c for c in DECK if c in ("KH", "AH"))
    assert wl.decode(f"{1 << 60 | 1:x}") == (DECK[0],)


# --- the pool step -----------------------------------------------------------------------------


def test_a_new_pool_step_offers_the_whole_deck_and_needs_fifteen_cards() -> None:
    step = start_step()
    assert step.offered == DECK and step.picked == () and step.chosen == ()
    assert [len(step.offered_in(s)) for s in wl.SUIT_ORDER] == [13, 13, 13, 13]
    assert step.problems() == ["Choose 15 more cards."]
    assert not step.ready


def test_a_suit_select_replaces_only_that_suits_cards() -> None:
    step = start_step(["AH", "2H", "5D"]).with_suit("H", ["KH", "QH", "5D"])  # 5D is not a heart: ignored
    assert set(step.chosen) == {"KH", "QH", "5D"}
    assert step.with_suit("D", []).chosen == tuple(c for c in step.chosen if c != "5D")


def test_two_cards_of_one_rank_and_colour_are_named_and_the_choice_is_kept() -> None:
    step = start_step(REDS_AND_BLACKS).with_suit("D", ["3D", "5D", "6D", "7D"])
    assert step.clashes() == [("3D", "3H")]
    assert step.problems() == [
        "3♥ and 3♦ are both a red 3: keep only one (no two of one rank and colour).",
        "That is 1 too many: a pool deck has 15 cards.",
    ]
    assert "3D" in step.chosen and not step.ready
    text = wl.pool_text(7, step)
    assert "⚠️ 3♥ and 3♦ are both a red 3" in text and "Chosen 16/15" in text


def test_the_same_rank_in_the_other_colour_is_no_clash() -> None:
    step = start_step(["7H", "7S", "7C"])
    assert step.clashes() == [("7C", "7S")]
    assert start_step(["7H", "7S"]).clashes() == []


def test_a_ready_pool_step_plays_the_engines_shorthand() -> None:
    step = start_step(REDS_AND_BLACKS)
    assert step.ready and step.problems() == []
    assert step.move() == "pool " + " ".join(c for c in DECK if c in REDS_AND_BLACKS)
    after = RULES.start().play(0, step.move())
    assert sorted(after.view(0)["private"]["pool"]) == sorted(REDS_AND_BLACKS)
    assert "Press **Confirm pool deck**" in wl.pool_text(1, step)


def test_cards_picked_by_typing_stay_and_only_the_rest_is_played() -> None:
    state = RULES.start().play(0, "pick 7H")
    step = wl.pool_step(state.view(0), state.legal_moves(0), ["7H", "7D", "8S"])
    assert step is not None
    assert step.picked == ("7H",) and "7D" not in step.offered
    assert step.chosen == ("8S",) and step.dropped == ("7D",)  # 7H is in the deck already
    assert step.count == 2
    rest = [c for c in REDS_AND_BLACKS if c not in ("7D",)][:14]
    ready = step.choose(rest)
    assert ready.ready, ready.problems()
    assert len(state.play(0, ready.move()).view(0)["private"]["pool"]) == 15
    assert "Already picked: 7♥" in wl.pool_text(1, step) and "left out: 7♦\n" in wl.pool_text(1, step)


def test_no_pool_step_once_the_pool_deck_is_complete() -> None:
    state = RULES.start().play(0, "pool " + " ".join(REDS_AND_BLACKS))
    assert wl.pool_step(state.view(0), state.legal_moves(0)) is None


def test_the_engine_still_refuses_a_clashing_pool() -> None:
    step = start_step([*REDS_AND_BLACKS[:14], "3D"])
    assert not step.ready
    with pytest.raises(IllegalMove, match="rank and colour"):
        RULES.start().play(0, step.move())


# --- the dice step -----------------------------------------------------------------------------


def test_dice_are_chosen_among_the_pool_deck_and_map_to_the_listed_move() -> None:
    state = after_pools()
    moves = state.legal_moves(0)
    step = wl.dice_step(moves, ["5D", "AH"])
    assert step is not None
    assert set(step.offered) == set(POOL0) and step.most == 3
    assert step.move() == "dice 1:AH 2:5D" and step.move() in moves
    assert state.play(0, step.move() or "").turn == frozenset({CHANCE})


def test_no_dice_move_for_an_empty_or_too_large_choice() -> None:
    step = wl.dice_step(after_pools().legal_moves(0))
    assert step is not None and step.move() is None
    assert step.choose(["AH", "2H", "3H", "4H"]).move() is None
    assert "not a choice you may make" in wl.dice_text(1, step.choose(["AH", "2H", "3H", "4H"]))


def test_no_dice_step_outside_the_dice_phase() -> None:
    state = after_pools()
    assert wl.dice_step(state.legal_moves(1)) is None
    assert wl.dice_step(state.play(0, "dice AH").play(CHANCE, "roll S").legal_moves(0)) is None


# --- the defence step --------------------------------------------------------------------------


def defence_position(defend: int = 2) -> Any:
    """Seat 0 attacked two of seat 1's beings and ended its turn: seat 1 decides defences
    (its Jack of clubs and a Force factor give it an ability too, so the step is a choice)."""
    beings = [being(0, "5D", "d5"), being(0, "6D", "e5"), being(1, "AC", "d6"), being(1, "3C", "e6")]
    state = position(
        beings=[*beings, being(1, "JC", "k10")],
        f0=factors(a=2),
        f1=factors(d=defend, f=1),
        summoned=(["5D", "6D"], ["AC", "3C", "JC"]),
    )
    state = state.play(0, "attack 5D d6").play(0, "attack 6D e6")  # `end` is then forced
    assert state.turn == frozenset({1}) and state.view(None)["phase"] == "defence"
    return state


def test_defence_offers_each_defend_move_then_done() -> None:
    state = defence_position()
    assert wl.defence_moves(state.legal_moves(1)) == ["defend AC", "defend 3C", "done"]
    view = state.view(1)
    assert wl.defence_label("defend AC", view) == "Defend A♣ on d6"
    assert wl.defence_label("done", view) == "No defence"
    after = state.play(1, "defend AC")
    assert wl.defence_label("done", after.view(1)) == "Done defending"


def test_no_defence_buttons_without_a_defend_factor() -> None:
    assert wl.defence_moves(defence_position(defend=0).legal_moves(1)) == []


# --- the views ---------------------------------------------------------------------------------


async def test_pool_controls_are_four_suit_selects_and_a_disabled_confirm() -> None:
    state = RULES.start()
    view = wl.controls(12, 1, state.view(1), state.legal_moves(1))
    assert view is not None
    found = components(view)
    selects = [c for c in found if c["type"] == 3]
    assert [s["custom_id"] for s in selects] == [f"boneyard:wl:12:1:ps:{suit}:0" for suit in wl.SUIT_ORDER]
    assert all(len(s["options"]) == 13 and s["min_values"] == 0 and s["max_values"] == 13 for s in selects)
    confirm = found[-1]
    assert confirm["custom_id"] == "boneyard:wl:12:1:pc:0" and confirm["disabled"] is True
    assert all(len(c["custom_id"]) <= 100 for c in found)


async def test_a_ready_pool_view_marks_the_choice_and_enables_confirm() -> None:
    step = start_step(REDS_AND_BLACKS)
    found = components(wl.pool_view(3, 0, step))
    hearts = next(c for c in found if c["custom_id"].startswith("boneyard:wl:3:0:ps:H:"))
    assert {o["value"] for o in hearts["options"] if o.get("default")} == {c for c in REDS_AND_BLACKS if c[-1] == "H"}
    assert found[-1]["disabled"] is False and found[-1]["label"] == "Confirm pool deck (15/15)"
    assert wl.decode(found[-1]["custom_id"].rsplit(":", 1)[1]) == step.chosen


async def test_dice_controls_then_none_in_the_action_step() -> None:
    state = after_pools()
    view = wl.controls(5, 0, state.view(0), state.legal_moves(0))
    assert view is not None
    select, roll = components(view)
    assert select["max_values"] == 3 and len(select["options"]) == 15
    assert roll["disabled"] is True
    action = state.play(0, "dice AH 4H").play(CHANCE, "roll S S")
    assert wl.controls(5, 0, action.view(0), action.legal_moves(0)) is None


async def test_an_opponent_who_may_use_abilities_meanwhile_gets_no_private_controls() -> None:
    beings = [being(0, "5H", "c4"), being(1, "KS", "c7")]
    corridor = [BOARD.square(f"c{r}") for r in range(2, 13)]
    state = position(paths=[(0, corridor)], beings=beings, f0=factors(a=1, m=1), f1=factors(f=2))
    moves = state.legal_moves(1)
    assert 1 in state.may_act and 1 not in state.turn and "ability KS 1 c4" in moves
    assert wl.controls(3, 1, state.view(1), moves) is None


async def test_defence_controls_carry_the_engines_moves() -> None:
    state = defence_position()
    view = wl.controls(9, 1, state.view(1), state.legal_moves(1))
    assert view is not None
    ids = [c["custom_id"] for c in components(view)]
    assert ids == ["boneyard:wl:9:1:df:defend AC", "boneyard:wl:9:1:df:defend 3C", "boneyard:wl:9:1:df:done"]
    for custom_id in ids:
        assert wl.DefenceButton.__discord_ui_compiled_template__.fullmatch(custom_id)
