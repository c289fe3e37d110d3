"""Cards, their stats and levels, suits, and the dice faces of each level.

A card is its canonical name, a short string such as `AH`, `10S` or `QC` (rank then suit
letter).  Strings keep states JSON-able and the notation identical to the data; every fact
about a card comes from the precomputed `CARDS` table, so lookups cost one dict access.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from bot.games.base import IllegalMove, shown
from bot.i18n import tr

RANKS: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: Final = ("C", "D", "H", "S")
RED_SUITS: Final = frozenset("HD")
SUIT_SYMBOLS: Final = {"H": "♥", "D": "♦", "S": "♠", "C": "♣"}

# Rank -> (Str, Atk, Def), the source's column counts of each card's spots.
_STATS: Final = {
    "A": (1, 1, 1),
    "2": (2, 1, 2),
    "3": (3, 1, 3),
    "4": (2, 2, 0),
    "5": (2, 3, 1),
    "6": (3, 2, 0),
    "7": (3, 3, 1),
    "8": (3, 3, 2),
    "9": (4, 3, 1),
    "10": (4, 3, 2),
    "J": (1, 2, 0),
    "Q": (1, 2, 0),
    "K": (1, 2, 0),
}
# Rank -> level; court cards differ by colour: (black level, red level).
_LEVELS: Final = {"A": 1, "4": 1, "2": 2, "5": 2, "6": 2, "3": 3, "7": 3, "8": 4, "9": 4, "10": 4}
_COURT_LEVELS: Final = {"J": (1, 2), "Q": (2, 3), "K": (3, 4)}

# Suit hierarchy (rule 9): each suit beats the next, only across colours.
BEATS: Final = {"H": "S", "S": "D", "D": "C", "C": "H"}

FACES_BY_LEVEL: Final = {
    1: ("S", "S", "S", "S", "A", "M"),
    2: ("D", "S", "S", "S", "A", "M"),
    3: ("D", "F", "S", "S", "A", "M"),
    4: ("D", "F", "C", "S", "A", "M"),
}
LEVELS: Final = (1, 2, 3, 4)
FACTORS: Final = ("C", "F", "D", "A", "M")
"""Factor kinds: Chance, Force, Defend, Attack, Move (the order of factor tuples)."""
FACTOR_NAMES: Final = {"C": "Chance", "F": "Force", "D": "Defend", "A": "Attack", "M": "Move"}

POOL_SIZE: Final = 15
COURTS: Final = frozenset("JQK")


@dataclass(frozen=True, slots=True)
class Card:
    """Everything the rules need to know about one card."""

    name: str
    rank: str
    suit: str
    strength: int
    attack: int
    defence: int
    level: int

    @property
    def red(self) -> bool:
        return self.suit in RED_SUITS

    @property
    def colour(self) -> str:
        return "red" if self.red else "black"

    @property
    def is_court(self) -> bool:
        return self.rank in COURTS

    @property
    def is_rook(self) -> bool:
        return self.rank == "10"

    @property
    def attacks_diagonally(self) -> bool:
        """9/Bishop and 10/Rook also attack diagonally adjacent targets (rule 9)."""
        return self.rank in ("9", "10")

    @property
    def sort_key(self) -> tuple[int, int, int]:
        return self.level, RANKS.index(self.rank), SUITS.index(self.suit)


def _make(rank: str, suit: str) -> Card:
    strength, attack, defence = _STATS[rank]
    if rank in _COURT_LEVELS:
        black, red = _COURT_LEVELS[rank]
        level = red if suit in RED_SUITS else black
    else:
        level = _LEVELS[rank]
    return Card(f"{rank}{suit}", rank, suit, strength, attack, defence, level)


CARDS: Final = {f"{r}{s}": _make(r, s) for r in RANKS for s in SUITS}
DECK: Final = tuple(sorted(CARDS, key=lambda name: CARDS[name].sort_key))
"""All 52 cards in canonical order: by level, then rank, then suit."""

_CARD = re.compile(r"^(a|[2-9]|10|t|1|j|q|k)\s*([cdhs♣♦♥♠])$")
_SUIT_INPUT: Final = {"♣": "c", "♦": "d", "♥": "h", "♠": "s"}


def parse_card(text: str) -> str:
    """The canonical name of `AH`, `ah`, `10s`, `T♠`; raises IllegalMove."""
    match = _CARD.match(text.strip().lower())
    if match is None:
        raise IllegalMove(tr("{text} is not a card; write rank then suit, like `AH`, `10S` or `QC`.", text=shown(text)))
    rank, suit = match.groups()
    rank = {"t": "10", "1": "A"}.get(rank, rank).upper()
    return rank + _SUIT_INPUT.get(suit, suit).upper()


_SORT_KEYS: Final = {name: card.sort_key for name, card in CARDS.items()}


def card_sort_key(name: str) -> tuple[int, int, int]:
    """`Card.sort_key` of a card's name, made once per card: a pool deck is sorted each
    time its dice choices are listed."""
    return _SORT_KEYS[name]


def kind_of(name: str) -> tuple[str, str]:
    """(rank, colour): a pool deck holds at most one card of each kind (rule 2)."""
    card = CARDS[name]
    return card.rank, card.colour


def suit_bonus(attacker: str, target: str) -> int:
    """+1 when `attacker`'s suit beats `target`'s; cards of one colour never do (rule 9)."""
    a, t = CARDS[attacker], CARDS[target]
    return 1 if a.red != t.red and BEATS[a.suit] == t.suit else 0


def faces_of(level: int) -> tuple[str, ...]:
    return FACES_BY_LEVEL[level]
