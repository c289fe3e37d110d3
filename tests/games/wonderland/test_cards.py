"""Cards, levels, dice faces and the suit hierarchy (rulings tables, 3, 4, 9)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from bot.games import IllegalMove
from bot.games.wonderland.cards import CARDS, DECK, FACES_BY_LEVEL, parse_card, suit_bonus
from tests.games.wonderland.helpers import POOL0, POOL1, position

STATS = {
    "A": (1, 1, 1), "2": (2, 1, 2), "3": (3, 1, 3), "4": (2, 2, 0), "5": (2, 3, 1), "6": (3, 2, 0),
    "7": (3, 3, 1), "8": (3, 3, 2), "9": (4, 3, 1), "10": (4, 3, 2), "J": (1, 2, 0), "Q": (1, 2, 0), "K": (1, 2, 0),
}  # fmt: skip
LEVELS = {
    1: {"AH", "4S", "JS", "JC"},
    2: {"2D", "5C", "6H", "JH", "JD", "QS", "QC"},
    3: {"3S", "7H", "QH", "QD", "KS", "KC"},
    4: {"8C", "9D", "10H", "KH", "KD"},
}


def test_stats_table_matches_the_source() -> None:
    for card in CARDS.values():
        assert (card.strength, card.attack, card.defence) == STATS[card.rank], card.name


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_levels_table_matches_the_ruling(level: int) -> None:
    for name in LEVELS[level]:
        assert CARDS[name].level == level


def test_deck_has_52_cards_sorted_by_level() -> None:
    assert len(DECK) == 52
    assert [CARDS[c].level for c in DECK] == sorted(CARDS[c].level for c in DECK)


def test_dice_faces_per_level() -> None:
    assert FACES_BY_LEVEL[1] == tuple("SSSSAM")
    assert FACES_BY_LEVEL[2] == tuple("DSSSAM")
    assert FACES_BY_LEVEL[3] == tuple("DFSSAM")
    assert FACES_BY_LEVEL[4] == tuple("DFCSAM")


def test_parse_card_variants() -> None:
    assert parse_card("ah") == "AH"
    assert parse_card("10s") == "10S"
    assert parse_card("T♠") == "10S"
    assert parse_card("q♥") == "QH"
    with pytest.raises(IllegalMove):
        parse_card("11H")


def test_suit_hierarchy_bonus_both_ways_and_not_within_a_colour() -> None:
    assert suit_bonus("5H", "5S") == 1  # hearts beat spades
    assert suit_bonus("5S", "5H") == 0  # not the other way
    assert suit_bonus("5S", "5D") == 1
    assert suit_bonus("5D", "5C") == 1
    assert suit_bonus("5C", "5H") == 1  # clubs beat hearts: the cycle closes
    assert suit_bonus("5H", "5D") == 0  # same colour: no modifier
    assert suit_bonus("5S", "5C") == 0


# --- the source's summon probabilities, by exact enumeration of the engine's rolls -----

LEVEL_CARDS = {1: ["AH", "4H", "AC"], 2: ["2H", "5D", "6D"], 3: ["3H", "7D", "QH"], 4: ["8S", "9S", "10S"]}
EXPECTED = {  # (3 dice, 2 dice): 74.1/44.4, 50/25, 25.9/11.1, 7.4/2.7 %
    1: (Fraction(20, 27), Fraction(4, 9)),
    2: (Fraction(1, 2), Fraction(1, 4)),
    3: (Fraction(7, 27), Fraction(1, 9)),
    4: (Fraction(2, 27), Fraction(1, 36)),
}


def _summon_chance(level: int, dice: int) -> Fraction:
    cards = LEVEL_CARDS[level][:dice]
    pools = (POOL0 + [c for c in cards if c not in POOL0], POOL1)
    state = position(phase="roll", dice=cards, pools=pools, summon_done=False)
    hits = total = 0
    for faces in itertools.product(FACES_BY_LEVEL[level], repeat=dice):
        after = state.play(-1, "roll " + " ".join(faces))
        total += 1
        hits += bool(after.summonable())
    return Fraction(hits, total)


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_summon_probabilities_of_the_source(level: int) -> None:
    three, two = EXPECTED[level]
    assert _summon_chance(level, 3) == three
    assert _summon_chance(level, 2) == two
    assert round(float(three) * 100, 1) == {1: 74.1, 2: 50.0, 3: 25.9, 4: 7.4}[level]
    assert round(float(two) * 100, 1) == {1: 44.4, 2: 25.0, 3: 11.1, 4: 2.8}[level]
