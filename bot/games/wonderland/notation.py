"""Parsing and printing Wonderland moves.

Canonical notation (every decision is one string; input is case-insensitive and spacing is
free, also around the `-` of a route or domino: `move 2C c1 - c2` is `move 2C c1-c2`):

    pick AH                          one pool card (listed one at a time)
    pool AH 2S ... (15 cards)        the whole pool deck at once (shorthand for the picks)
    dice 1:AH 1:4C 2:5D              the dice of this turn, level:card, sorted by level;
                                     `dice AH 4C 5D` is accepted (the level is the card's)
    roll S S A                       CHANCE: each die's face letter, in dice order
    summon 5D c2-c3 c4-d4 d5-d6 @c2  card, three dominoes in laying order (near end first),
                                     the being's square
    move 5D c2-c3-c4                 a route, one orthogonal step at a time
    attack 5D c5 | attack 5D image   target square, or the enemy Image
    ability KH 2 c5                  court card, X factors, target square (`+2`, `-2` and a
                                     target card such as `5D` are accepted)
    detonate 10S 2                   Rook, X Force factors (the blast radius)
    end                              end the action step
    defend 5D | done                 the defence step
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.games.base import IllegalMove, normalise, shown
from bot.games.wonderland.board import Board, Path, format_path, parse_path
from bot.games.wonderland.cards import CARDS, card_sort_key, faces_of, parse_card
from bot.i18n import tr


@dataclass(frozen=True, slots=True)
class Pick:
    cards: tuple[str, ...]
    whole: bool


@dataclass(frozen=True, slots=True)
class Dice:
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Roll:
    faces: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Summon:
    card: str
    path: Path
    place: int | None


@dataclass(frozen=True, slots=True)
class Step:
    card: str
    squares: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Attack:
    card: str
    target: int | None
    """The target square, or None for the enemy Image."""


@dataclass(frozen=True, slots=True)
class Ability:
    card: str
    amount: int
    target: str
    """A square name or a card name, resolved against the position."""


@dataclass(frozen=True, slots=True)
class Detonate:
    card: str
    amount: int


@dataclass(frozen=True, slots=True)
class Defend:
    card: str


@dataclass(frozen=True, slots=True)
class End:
    pass


@dataclass(frozen=True, slots=True)
class Done:
    pass


Move = Pick | Dice | Roll | Summon | Step | Attack | Ability | Detonate | Defend | End | Done

HINT = (
    "Wonderland moves look like `dice 1:AH 2:5D`, `summon 5D c2-c3 c4-d4 d5-d6 @c2`, `move 5D c2-c3`, "
    "`attack 5D c5`, `ability KH 2 c5`, `detonate 10S 2`, `end`, `defend 5D` or `done`."
)
_AMOUNT = re.compile(r"^[+-]?(\d{1,3})$")


def _amount(text: str) -> int:
    match = _AMOUNT.match(text)
    if match is None or int(match.group(1)) < 1:
        raise IllegalMove(tr("{text} is not a number of factors; pay at least 1, like `2`.", text=shown(text)))
    return int(match.group(1))


def _dice_card(text: str) -> str:
    level, sep, name = text.partition(":")
    if not sep:
        return parse_card(text)
    card = parse_card(name)
    if level not in ("1", "2", "3", "4"):
        raise IllegalMove(tr("{text}: a die's level is 1 to 4.", text=shown(text)))
    if CARDS[card].level != int(level):
        raise IllegalMove(
            tr("{card} is a level {level} card, not level {level2}.", card=card, level=CARDS[card].level, level2=level)
        )
    return card


def _need(words: list[str], count: int, example: str) -> None:
    if len(words) != count:
        raise IllegalMove(tr("Write it like `{example}`.", example=example))


def parse_move(board: Board, text: str) -> Move:
    """Parse one move; raises IllegalMove naming the expected form."""
    words = normalise(text).split()
    if not words:
        raise IllegalMove(HINT)
    verb, args = words[0], words[1:]
    if verb == "pick":
        _need(args, 1, "pick AH")
        return Pick((parse_card(args[0]),), whole=False)
    if verb == "pool":
        if not args:
            raise IllegalMove(tr("Write the whole pool deck, like `pool AH 2S 3D ...`."))
        return Pick(tuple(parse_card(a) for a in args), whole=True)
    if verb == "dice":
        if not 1 <= len(args) <= 3:
            raise IllegalMove(tr("Choose 1 to 3 dice, like `dice 1:AH 2:5D`."))
        return Dice(tuple(_dice_card(a) for a in args))
    if verb == "roll":
        faces = tuple(a.upper() for a in args)
        if not faces or any(f not in "SADMFC" or len(f) != 1 for f in faces):
            raise IllegalMove(tr("A roll lists face letters (S, A, M, D, F, C), like `roll S S A`."))
        return Roll(faces)
    if verb == "summon":
        return _summon(board, args)
    if verb == "move":
        route = [s for s in re.split(r"[\s-]+", " ".join(args[1:])) if s]
        squares = tuple(board.square(s) for s in route)
        if len(args) < 2 or len(squares) < 2:
            raise IllegalMove(tr("Write a move like `move 5D c2-c3-c4` (the being, then its route)."))
        return Step(parse_card(args[0]), squares)
    if verb == "attack":
        _need(args, 2, "attack 5D c5")
        target = None if args[1] == "image" else board.square(args[1])
        return Attack(parse_card(args[0]), target)
    if verb == "ability":
        _need(args, 3, "ability KH 2 c5")
        return Ability(parse_card(args[0]), _amount(args[1]), args[2])
    if verb == "detonate":
        _need(args, 2, "detonate 10S 2")
        return Detonate(parse_card(args[0]), _amount(args[1]))
    if verb == "defend":
        _need(args, 1, "defend 5D")
        return Defend(parse_card(args[0]))
    if verb in ("end", "done"):
        _need(args, 0, verb)
        return End() if verb == "end" else Done()
    raise IllegalMove(tr("{text} is not a Wonderland move. {hint}", text=shown(text), hint=HINT))


def _summon(board: Board, args: list[str]) -> Summon:
    args = _joined(args)
    if len(args) not in (4, 5):
        raise IllegalMove(tr("Write a summon like `summon 5D c2-c3 c4-d4 d5-d6 @c2`."))
    card = parse_card(args[0])
    path = parse_path(board, args[1:4])
    place = None
    if len(args) == 5:
        place = board.square(args[4].removeprefix("@"))
    return Summon(card, path, place)


def _joined(args: list[str]) -> list[str]:
    """Words with the spacing around `-` and after `@` taken out (`c2 - c3`, `@ c2`), so a
    route or a domino may be spaced as in the other games."""
    if not args:
        return args
    rest = re.sub(r"@\s+", "@", re.sub(r"\s*-\s*", "-", " ".join(args[1:])))
    return [args[0], *rest.split()]


# --- printing ---------------------------------------------------------------------------


def sort_cards(cards: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=card_sort_key))


def format_dice(cards: tuple[str, ...]) -> str:
    return "dice " + " ".join(f"{CARDS[c].level}:{c}" for c in cards)


def format_roll(faces: tuple[str, ...]) -> str:
    return "roll " + " ".join(faces)


def format_summon(board: Board, card: str, path: Path, place: int) -> str:
    return f"summon {card} {format_path(board, path)} @{board.names[place]}"


def format_step(board: Board, card: str, squares: tuple[int, ...]) -> str:
    return f"move {card} " + "-".join(board.names[s] for s in squares)


def format_attack(board: Board, card: str, target: int | None) -> str:
    return f"attack {card} {'image' if target is None else board.names[target]}"


def roll_allowed(levels: tuple[int, ...], faces: tuple[str, ...]) -> str | None:
    """Why `faces` cannot be the roll of dice of these levels, or None."""
    if len(faces) != len(levels):
        return tr("{count} dice were chosen, so a roll lists {count} faces.", count=len(levels))
    for i, (level, face) in enumerate(zip(levels, faces, strict=True)):
        if face not in faces_of(level):
            return tr(
                "Die {value} is level {level}; its faces are {level2}.",
                value=i + 1,
                level=level,
                level2=" ".join(faces_of(level)),
            )
    return None
