"""Rule 13 (the other loss), rule 14 (the turn cap), hidden factors, views, notation, dumps."""

from __future__ import annotations

import json
import random

import pytest

from bot.games import CHANCE, IllegalMove
from bot.games.wonderland.state import TURN_LIMIT
from tests.games.playout import playout
from tests.games.wonderland.helpers import LINE, POOL0, POOL1, RULES, after_pools, being, factors, position, sq

# --- rule 13 ---------------------------------------------------------------------------

ONE_PER_LEVEL = ["AH", "2H", "3H", "8S"]


def test_no_beings_and_no_level_with_two_cards_loses_at_the_end_of_the_turn() -> None:
    state = position(
        pools=(POOL0, POOL1),
        summoned=([c for c in POOL0 if c not in ONE_PER_LEVEL], []),
        beings=[being(1, "5S", "c5")],
        paths=[(0, LINE)],
        f0=factors(m=1),
        active=0,
    )
    after = state.play(0, "end")
    assert after.outcome is not None and after.outcome.winners == frozenset({1})
    assert "cannot summon" in after.outcome.reason


def test_a_being_in_play_keeps_a_player_alive_without_summons() -> None:
    state = position(
        summoned=([c for c in POOL0 if c not in ONE_PER_LEVEL], []),
        beings=[being(0, "AH", "c2"), being(1, "5S", "c9")],
        paths=[(0, LINE)],
        f0=factors(m=1),
    )
    assert state.play(0, "end").outcome is None


def test_no_room_for_a_path_loses() -> None:
    # seat 0's Image is walled in: f1, g2, h1 and everything around them is taken by seat 1
    walls = [sq(s) for s in ("e1", "f1", "h1", "i1", "e2", "f2", "g2", "h2", "i2")]
    state = position(paths=[(1, walls)], beings=[being(1, "5S", "f2")], active=1, f1=factors(m=0, a=0))
    assert not state.can_summon(0) and state.can_summon(1)
    after = state.play(1, "end")
    assert after.outcome is not None and after.outcome.winners == frozenset({1})


def test_both_unable_to_summon_without_beings_is_a_draw() -> None:
    # seat 0's last being detonates; neither pool deck has two cards of one level
    blast = position(
        summoned=([c for c in POOL0 if c not in ONE_PER_LEVEL], [c for c in POOL1 if c not in ("AC", "2C")]),
        beings=[being(0, "10S", "c2")],
        paths=[(0, LINE)],
        f0=factors(f=1),
    ).play(0, "detonate 10S 1")  # then `end` and `done` are forced
    assert blast.outcome is not None and blast.outcome.is_draw


# --- rule 14: the turn cap ------------------------------------------------------------------


def test_turn_cap_more_life_wins() -> None:
    after = position(
        turn_no=TURN_LIMIT - 1, lives=(2, 3), beings=[being(0, "AH", "c2")], paths=[(0, LINE)], f0=factors(m=1)
    ).play(0, "end")
    assert after.outcome is not None and after.outcome.winners == frozenset({1})


def test_turn_cap_then_more_beings_summoned_wins() -> None:
    after = position(
        turn_no=TURN_LIMIT - 1,
        summoned=(["AH", "2H"], ["AC"]),
        beings=[being(0, "AH", "c2"), being(1, "AC", "c9")],
        paths=[(0, LINE)],
        f0=factors(m=1),
    ).play(0, "end")
    assert after.outcome is not None and after.outcome.winners == frozenset({0})
    assert "summoned more" in after.outcome.reason


def test_turn_cap_then_a_draw() -> None:
    after = position(
        turn_no=TURN_LIMIT - 1,
        summoned=(["AH"], ["AC"]),
        beings=[being(0, "AH", "c2"), being(1, "AC", "c9")],
        paths=[(0, LINE)],
        f0=factors(m=1),
    ).play(0, "end")
    assert after.outcome is not None and after.outcome.is_draw


def test_no_cap_one_turn_earlier() -> None:
    after = position(
        turn_no=TURN_LIMIT - 2, beings=[being(0, "AH", "c2"), being(1, "AC", "c9")], paths=[(0, LINE)], f0=factors(m=1)
    ).play(0, "end")
    assert after.outcome is None and after.view(None)["turn_number"] == TURN_LIMIT


# --- an empty pool deck skips the dice --------------------------------------------------------


def test_with_no_cards_left_the_turn_starts_at_the_action_step() -> None:
    state = position(
        summoned=([], list(POOL1)),
        beings=[being(0, "AH", "c2"), being(1, "AC", "c9")],
        paths=[(0, LINE)],
        f0=factors(m=1),
        f1=factors(m=1),
    ).play(0, "end")
    assert state.active == 1 and state.phase == "action"


# --- hidden factors -----------------------------------------------------------------------


def test_hidden_factors_are_only_in_the_owners_view() -> None:
    state = after_pools({"hidden_factors": "on"}).play(0, "dice AH 4H 5D").play(CHANCE, "roll S S A")
    public = state.view(None)
    assert public["factors"] is None and public["rolled"] is None and public["last_move"] == "roll"
    assert state.view(0)["private"]["factors"] == {"C": 0, "F": 0, "D": 0, "A": 1, "M": 0}
    assert state.view(0)["private"]["rolled"] == ["S", "S", "A"]
    theirs = state.view(1)["private"]
    assert theirs["factors"] == {"C": 0, "F": 0, "D": 0, "A": 0, "M": 0} and "rolled" not in theirs


def test_open_factors_are_public() -> None:
    state = after_pools().play(0, "dice AH 4H 5D").play(CHANCE, "roll S S A")
    assert state.view(None)["factors"][0] == {"C": 0, "F": 0, "D": 0, "A": 1, "M": 0}
    assert state.view(None)["rolled"] == ["S", "S", "A"]
    assert state.last_move == "roll S S A"


# --- views ------------------------------------------------------------------------------------


def test_public_view_has_everything_a_renderer_needs_and_no_pool_deck() -> None:
    state = position(
        paths=[(0, LINE)],
        beings=[being(0, "5H", "c4"), being(1, "5S", "c5", damage=1)],
        f0=factors(a=1, m=1),
        summoned=(["AH"], ["5S"]),
        dice=["AH", "4H"],
        faces=["S", "A"],
    ).play(0, "attack 5H c5")
    view = state.view(None)
    for key in ("files", "ranks", "images", "paths", "beings", "factors", "dice", "rolled", "pending_attacks",
                "phase", "turn_number", "last_move", "ply", "summoned", "pool_left"):  # fmt: skip
        assert key in view
    assert view["beings"][1] == {
        "card": "5S", "owner": 1, "square": "c5", "damage": 1, "strength": 1, "attack": 3, "defence": 1,
        "level": 2, "attacked": False, "halted": False, "defended": False,
        "modifiers": {"atk": 0, "def": 0, "slow": 0, "speed": 0},
    }  # fmt: skip
    assert view["pool_left"] == [14, 14]
    text = json.dumps(view)
    assert "KS" not in text and "QC" not in text  # cards only in the pool decks
    assert "KS" in state.view(1)["private"]["pool"] and "KS" not in json.dumps(state.view(0))


def test_no_view_leaks_the_other_seats_pool_over_a_random_game() -> None:
    state = after_pools()
    for before, _seat, _move in playout(state, random.Random(2)):
        mine = set(before.pool_deck(1)) - set(before.dice) - set(before.summoned[1])
        words = set(json.dumps(before.view(0)).replace('"', " ").replace(",", " ").replace("]", " ").split())
        shown_cards = {c for c in mine if c in words}
        allowed = {b.card for b in before.beings if b.owner == 0} | set(before.dice) | set(before.summoned[0])
        assert shown_cards <= allowed | set(POOL0)


# --- notation and persistence ---------------------------------------------------------------


def test_notation_variants_are_canonicalised() -> None:
    state = position(paths=[(0, LINE)], beings=[being(0, "5H", "c4"), being(1, "5S", "c5")], f0=factors(a=1, m=2))
    assert state.play(0, "MOVE 5h C4 C3").last_move == "move 5H c4-c3"
    assert state.play(0, "attack 5h C5").last_move == "attack 5H c5"


@pytest.mark.parametrize(
    "typed", ["move 5H c4 - c3", "move 5h c4 -c3", "move 5H  c4-  c3", "MOVE 5H C4 C3", "move 5H c4-c3"]
)
def test_a_route_may_be_spaced_around_its_dash_as_in_the_other_games(typed: str) -> None:
    state = position(paths=[(0, LINE)], beings=[being(0, "5H", "c4"), being(1, "5S", "c5")], f0=factors(m=2))
    assert state.play(0, typed).last_move == "move 5H c4-c3"


def test_a_summon_may_be_spaced_around_its_dashes_and_after_the_at() -> None:
    state = after_pools().play(0, "dice AH 4H 5D").play(CHANCE, "roll S S M")
    spaced = state.play(0, "summon AH g2 - g3 h3 -h4 i4- i5 @ g2")
    assert spaced.last_move == "summon AH g2-g3 h3-h4 i4-i5 @g2"


@pytest.mark.parametrize(
    "junk", ["summon 5D c2-c3", "move 5D", "attack 5D", "ability KH c5", "detonate 10S", "dice", "roll", "pick"]
)
def test_malformed_moves_say_how_to_write_them(junk: str) -> None:
    with pytest.raises(IllegalMove):
        after_pools().play(0, junk)


def test_summon_without_a_square_when_only_one_is_possible() -> None:
    state = after_pools().play(0, "dice AH 4H 5D").play(CHANCE, "roll S S M")
    assert state.play(0, "summon AH g2-g3 h3-h4 i4-i5").last_move == "summon AH g2-g3 h3-h4 i4-i5 @g2"


def test_dump_load_round_trip_keeps_turn_effects() -> None:
    state = position(
        paths=[(0, LINE)],
        beings=[being(0, "KH", "c2"), being(1, "5S", "c5", damage=1, rook_start=[sq("d6")])],
        f0=factors(c=3, a=1, m=1),
    ).play(0, "ability KH 2 c2")
    again = RULES.load(json.loads(json.dumps(state.dump())))
    assert again.dump() == state.dump()
    assert again.being(0, "KH").atk_mod == 2  # type: ignore[union-attr]
    assert again.legal_moves(0) == state.legal_moves(0)


def test_wrong_phase_moves_are_refused_with_a_hint() -> None:
    with pytest.raises(IllegalMove, match="pool deck first"):
        RULES.start().play(0, "dice AH")
    with pytest.raises(IllegalMove, match="dice first"):
        after_pools().play(0, "end")
