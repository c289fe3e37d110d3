"""Attacks, Rook detonations, lines of sight, and the end-of-turn reckoning (rules 9–12).

Attack points are fixed when an attack is made (`PendingAttack.points`), so a King's
change to Atk afterwards has no effect, while Def is read when the turn ends, so a Queen
may change it up to then — as the source says.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from bot.games.wonderland.beings import Being
from bot.games.wonderland.board import Board
from bot.games.wonderland.cards import suit_bonus


@dataclass(frozen=True, slots=True)
class PendingAttack:
    """One attack waiting for the end of the turn.  `target_card` None: the Image."""

    attacker_owner: int
    attacker_card: str
    target_owner: int
    target_card: str | None
    points: int

    def to_json(self) -> dict[str, Any]:
        return {
            "attacker": [self.attacker_owner, self.attacker_card],
            "target": [self.target_owner, self.target_card],
            "points": self.points,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PendingAttack:
        owner, card = data["attacker"]
        target_owner, target_card = data["target"]
        return cls(
            int(owner),
            str(card),
            int(target_owner),
            None if target_card is None else str(target_card),
            int(data["points"]),
        )


def attack_points(attacker: Being, target: Being | None) -> int:
    """Atk with modifiers, +1 against a being of the suit the attacker beats."""
    bonus = suit_bonus(attacker.card, target.card) if target is not None else 0
    return attacker.attack + bonus


def adjacent_targets(board: Board, attacker: Being) -> tuple[int, ...]:
    """Squares an attacker reaches: orthogonal, and diagonal too for 9 and 10."""
    if attacker.info.attacks_diagonally:
        return board.around[attacker.square]
    return board.orthogonal[attacker.square]


def detonation_attacks(board: Board, rook: Being, force: int, beings: Collection[Being]) -> list[PendingAttack]:
    """The Rook's blast: its Atk against every being and Image within `force` squares."""
    found = [
        PendingAttack(rook.owner, rook.card, b.owner, b.card, attack_points(rook, b))
        for b in beings
        if b is not rook and board.distance(rook.square, b.square) <= force
    ]
    found.extend(
        PendingAttack(rook.owner, rook.card, seat, None, rook.attack)
        for seat, image in enumerate(board.images)
        if board.distance(rook.square, image) <= force
    )
    return found


def line_of_sight(
    board: Board, walkable: Collection[int], occupants: Mapping[int, Being], source: Being
) -> Iterator[Being]:
    """The source itself and the first being in each orthogonal direction along an
    unbroken line of path squares (rule 12)."""
    yield source
    files = board.files
    for df, dr in ((0, 1), (1, 0), (0, -1), (-1, 0)):
        f, r = board.coords(source.square)
        while True:
            f, r = f + df, r + dr
            if not (0 <= f < files and 0 <= r < board.ranks):
                break
            square = f + files * r
            if square not in walkable:
                break
            found = occupants.get(square)
            if found is not None:
                yield found
                break


def defence_value(defender: Being, attacks: Collection[PendingAttack]) -> int:
    """Def once against all attacks, +1 if any attacker is of the suit it beats (rule 10)."""
    bonus = any(suit_bonus(defender.card, a.attacker_card) for a in attacks)
    return defender.defence + (1 if bonus else 0)


@dataclass(frozen=True, slots=True)
class Reckoning:
    """What the end of a turn did: survivors, Images' life, and who left play."""

    beings: tuple[Being, ...]
    lives: tuple[int, int]
    fallen: tuple[tuple[int, str], ...]
    damage: tuple[tuple[int, str, int], ...]


def reckon(beings: tuple[Being, ...], attacks: Collection[PendingAttack], lives: tuple[int, int]) -> Reckoning:
    """Apply every pending attack: damage, beings at Str 0 leave, Images lose a life."""
    by_target: dict[tuple[int, str], list[PendingAttack]] = {}
    hit_images: set[int] = set()
    for attack in attacks:
        if attack.target_card is None:
            hit_images.add(attack.target_owner)
        else:
            by_target.setdefault((attack.target_owner, attack.target_card), []).append(attack)
    survivors: list[Being] = []
    fallen: list[tuple[int, str]] = []
    dealt: list[tuple[int, str, int]] = []
    for being in beings:
        received = by_target.get((being.owner, being.card))
        damage = being.damage
        if received:
            total = sum(a.points for a in received)
            shield = defence_value(being, received) if being.defended else 0
            taken = max(0, total - shield)
            damage += taken
            dealt.append((being.owner, being.card, taken))
        if damage >= being.info.strength:
            fallen.append((being.owner, being.card))
        else:
            survivors.append(Being(being.owner, being.card, being.square, damage))
    new_lives = (
        max(0, lives[0] - (1 if 0 in hit_images else 0)),
        max(0, lives[1] - (1 if 1 in hit_images else 0)),
    )
    return Reckoning(tuple(survivors), new_lives, tuple(fallen), tuple(dealt))
