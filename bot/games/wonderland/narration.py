"""Wonderland's moves in words a spectator understands.

`describe(before, after, entry)` turns one applied move into a sentence for the match channel:
"Orange summons 5♦ at c2 (path c2-c3 c4-d4 d5-d6)", "Orange's 7♠ attacks Blue's Image (3
points)", and after the defence step what the attacks did ("5♦ is destroyed; Blue's Image
loses 1 life — Blue has 2 lives").

Only public facts are used: the move text of a public move, the board, the beings, the Images'
lives and the rolled faces when factors are public.  A secret move (a pool pick) is described
only once the seat's pool deck is complete, and then without a card; with `hidden_factors=on`
a roll says only who rolled.  Pure: it reads two states and formats, nothing else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.games.base import CHANCE, LogEntry
from bot.games.wonderland.cards import CARDS, FACTOR_NAMES, POOL_SIZE, SUIT_SYMBOLS
from bot.games.wonderland.notation import (
    Ability,
    Attack,
    Defend,
    Detonate,
    Dice,
    Done,
    End,
    Pick,
    Step,
    Summon,
    parse_move,
)

if TYPE_CHECKING:
    from bot.games.wonderland.state import WonderlandState

SEAT_NAMES = ("Orange", "Blue")

ABILITY_EFFECTS = {
    ("J", True): "{x} less Move cost",
    ("J", False): "{x} more Move cost",
    ("Q", True): "+{x} Def",
    ("Q", False): "−{x} Def",
    ("K", True): "+{x} Atk",
    ("K", False): "−{x} Atk",
}
"""A court card's ability by (rank, red), as the source words it (rule 12)."""


def card_name(card: str) -> str:
    """`7S` -> `7♠`: how players read a card."""
    return card[:-1] + SUIT_SYMBOLS[card[-1]]


def lives_phrase(seat: int, lives: int) -> str:
    return f"{SEAT_NAMES[seat]} has {lives} li{'fe' if lives == 1 else 'ves'}"


def describe(before: WonderlandState, after: WonderlandState, entry: LogEntry) -> str | None:
    """The sentence for `entry`, which led from `before` to `after` (None: nothing to say)."""
    seat = entry.seat
    if seat == CHANCE:
        return _roll(before, after)
    parsed = parse_move(before.board, entry.move) if entry.public else None
    name = SEAT_NAMES[seat]
    if not entry.public:
        if len(before.pools[seat]) < POOL_SIZE <= len(after.pools[seat]):
            return f"{name} has chosen a pool deck."
        return None
    squares = before.board.names
    if isinstance(parsed, Summon):
        path = entry.move.split()[2:5]
        place = squares[after.beings[-1].square]
        return f"{name} summons {card_name(parsed.card)} at {place} (path {' '.join(path)})"
    if isinstance(parsed, Step):
        route = "→".join(squares[s] for s in parsed.squares)
        mover = after.being(seat, parsed.card)
        tail = "" if mover is not None else " and is destroyed on the way"
        return f"{name} moves {card_name(parsed.card)} {route}{tail}"
    if isinstance(parsed, Attack):
        return _attack(before, after, seat, parsed)
    if isinstance(parsed, Ability):
        return _ability(before, after, seat, parsed)
    if isinstance(parsed, Detonate):
        return _detonation(before, after, seat, parsed)
    if isinstance(parsed, Defend):
        return f"{name}'s {card_name(parsed.card)} checks its defence"
    if isinstance(parsed, End):
        return f"{name} ends the actions"
    if isinstance(parsed, Done):
        return _done(before, after, seat)
    if isinstance(parsed, Dice):
        dice = ", ".join(f"{card_name(c)} (level {CARDS[c].level})" for c in parsed.cards)
        return f"{name} puts {dice} on the dice"
    if isinstance(parsed, Pick):  # a public pick does not exist; say nothing rather than guess
        return None
    return None


def _roll(before: WonderlandState, after: WonderlandState) -> str:
    name = SEAT_NAMES[before.active]
    if after.hidden_factors or after.faces is None:
        return f"{name} rolls (the results are hidden)"
    faces = ", ".join(
        f"{card_name(card)} {FACTOR_NAMES.get(face, 'Summon') if face != 'S' else 'Summon'}"
        for card, face in zip(after.dice, after.faces, strict=True)
    )
    summonable = after.summonable()
    tail = f"; may summon {' or '.join(card_name(c) for c in summonable)}" if summonable else ""
    return f"{name} rolls: {faces}{tail}"


def _attack(before: WonderlandState, after: WonderlandState, seat: int, move: Attack) -> str:
    name, enemy = SEAT_NAMES[seat], SEAT_NAMES[1 - seat]
    points = after.attacks[-1].points if after.attacks else 0
    if move.target is None:
        return f"{name}'s {card_name(move.card)} attacks {enemy}'s Image ({points} points)"
    target = before.occupants().get(move.target)
    what = card_name(target.card) if target is not None else "a being"
    return f"{name}'s {card_name(move.card)} attacks {what} on {before.board.names[move.target]} ({points} points)"


def _ability(before: WonderlandState, after: WonderlandState, seat: int, move: Ability) -> str:
    source = before.being(seat, move.card)
    info = CARDS[move.card]
    effect = ABILITY_EFFECTS.get((info.rank, info.red), "an effect").format(x=move.amount)
    target_square = move.target
    target = next(
        (b for b in before.beings if before.board.names[b.square] == target_square or b.card == move.target.upper()),
        None,
    )
    whom = f"{card_name(target.card)} on {before.board.names[target.square]}" if target is not None else move.target
    where = f" (from {before.board.names[source.square]})" if source is not None else ""
    return f"{SEAT_NAMES[seat]}'s {card_name(move.card)}{where} gives {whom} {effect}"


def _detonation(before: WonderlandState, after: WonderlandState, seat: int, move: Detonate) -> str:
    blast = after.attacks[len(before.attacks) :]
    hit = ", ".join(
        f"{SEAT_NAMES[a.target_owner]}'s Image" if a.target_card is None else card_name(a.target_card) for a in blast
    )
    return f"{SEAT_NAMES[seat]}'s {card_name(move.card)} detonates with {move.amount} Force" + (
        f", hitting {hit}" if hit else ", hitting nothing"
    )


def _done(before: WonderlandState, after: WonderlandState, seat: int) -> str:
    """`done`: the defence passes on, or the turn is reckoned (what the attacks did)."""
    name = SEAT_NAMES[seat]
    if after.active == before.active and after.outcome is None:
        return f"{name} is done defending"
    results: list[str] = []
    kept = {(b.owner, b.card): b for b in after.beings}
    for being in before.beings:
        now = kept.get((being.owner, being.card))
        label = f"{SEAT_NAMES[being.owner]}'s {card_name(being.card)}"
        if now is None:
            results.append(f"{label} is destroyed")
        elif now.damage > being.damage:
            results.append(f"{label} takes {now.damage - being.damage} damage")
    for image in (0, 1):
        lost = before.lives[image] - after.lives[image]
        if lost > 0:
            results.append(
                f"{SEAT_NAMES[image]}'s Image loses {lost} li{'fe' if lost == 1 else 'ves'} — "
                + lives_phrase(image, after.lives[image])
            )
    if not before.attacks:
        return f"{SEAT_NAMES[before.active]}'s turn ends"
    return f"{name} is done: " + ("; ".join(results) if results else "the attacks do no harm")
