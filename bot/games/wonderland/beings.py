"""Beings in play and the effects that last until the end of a turn.

A `Being` is a frozen record; a state holds a tuple of them and replaces a record to change
it.  A being is named by its owner and card (both players may field a 5♦, never one player
twice).  The per-turn fields (`attacked`, `credit`, `halted`, `rook_start`, the ability
modifiers, `defended`) are reset when a turn ends (`Being.next_turn`).

Move points (interpretation of the red and black Jack, rule 12): every Move factor paid for
a being buys it `1 + speed` points, and each square costs it `1 + slow` points, plus 1 for
each enemy Rook it started the turn next to when it enters another square next to that Rook
(rule 8).  Points bought but not used stay with the being as `credit` until the turn ends.
Without Jacks a point is a factor, exactly as in the source.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from bot.games.wonderland.cards import CARDS, Card


@dataclass(frozen=True, slots=True)
class Being:
    owner: int
    card: str
    square: int
    damage: int = 0
    attacked: bool = False
    """It has made its attack this turn."""
    credit: int = 0
    halted: bool = False
    """It entered an enemy Rook's zone and may not move again this turn."""
    rook_start: frozenset[int] = field(default_factory=frozenset)
    """Squares of enemy Rooks it stood next to when its owner's turn began."""
    atk_mod: int = 0
    def_mod: int = 0
    slow: int = 0
    speed: int = 0
    defended: bool = False

    @property
    def info(self) -> Card:
        return CARDS[self.card]

    @property
    def strength(self) -> int:
        """Current Str: the card's Str less the damage taken."""
        return self.info.strength - self.damage

    @property
    def attack(self) -> int:
        return max(0, self.info.attack + self.atk_mod)

    @property
    def defence(self) -> int:
        return max(0, self.info.defence + self.def_mod)

    def next_turn(self) -> Being:
        return Being(self.owner, self.card, self.square, self.damage)

    def moved(self, **changes: Any) -> Being:
        return replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"owner": self.owner, "card": self.card, "square": self.square, "damage": self.damage}
        for name in ("attacked", "credit", "halted", "atk_mod", "def_mod", "slow", "speed", "defended"):
            value = getattr(self, name)
            if value:
                data[name] = value
        if self.rook_start:
            data["rook_start"] = sorted(self.rook_start)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Being:
        return cls(
            owner=int(data["owner"]),
            card=str(data["card"]),
            square=int(data["square"]),
            damage=int(data.get("damage", 0)),
            attacked=bool(data.get("attacked", False)),
            credit=int(data.get("credit", 0)),
            halted=bool(data.get("halted", False)),
            rook_start=frozenset(int(s) for s in data.get("rook_start", ())),
            atk_mod=int(data.get("atk_mod", 0)),
            def_mod=int(data.get("def_mod", 0)),
            slow=int(data.get("slow", 0)),
            speed=int(data.get("speed", 0)),
            defended=bool(data.get("defended", False)),
        )
