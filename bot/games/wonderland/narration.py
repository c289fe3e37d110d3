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
from bot.i18n import Text, joined, tr, tr_n

if TYPE_CHECKING:
    from bot.games.wonderland.state import WonderlandState

SEAT_NAMES = (tr("Orange"), tr("Blue"))


def card_name(card: str) -> str:
    """`7S` -> `7♠`: how players read a card."""
    return card[:-1] + SUIT_SYMBOLS[card[-1]]


def lives_phrase(seat: int, lives: int) -> Text:
    return tr_n("{seat} has {n} life", "{seat} has {n} lives", lives, seat=SEAT_NAMES[seat])


def _effect(rank: str, red: bool, amount: int) -> Text:
    """A court card's ability as the source words it, in the reader's language."""
    effects = {
        ("J", True): tr("{x} less Move cost", x=amount),
        ("J", False): tr("{x} more Move cost", x=amount),
        ("Q", True): tr("+{x} Def", x=amount),
        ("Q", False): tr("−{x} Def", x=amount),
        ("K", True): tr("+{x} Atk", x=amount),
        ("K", False): tr("−{x} Atk", x=amount),
    }
    return effects.get((rank, red), tr("an effect"))


def describe(before: WonderlandState, after: WonderlandState, entry: LogEntry) -> str | None:
    """The sentence for `entry`, which led from `before` to `after` (None: nothing to say)."""
    seat = entry.seat
    if seat == CHANCE:
        return _roll(before, after)
    parsed = parse_move(before.board, entry.move) if entry.public else None
    name = SEAT_NAMES[seat]
    if not entry.public:
        if len(before.pools[seat]) < POOL_SIZE <= len(after.pools[seat]):
            return tr("{name} has chosen a pool deck.", name=name)
        return None
    squares = before.board.names
    if isinstance(parsed, Summon):
        path = entry.move.split()[2:5]
        place = squares[after.beings[-1].square]
        return tr(
            "{name} summons {card} at {place} (path {path})",
            name=name,
            card=card_name(parsed.card),
            place=place,
            path=" ".join(path),
        )
    if isinstance(parsed, Step):
        route = "→".join(squares[s] for s in parsed.squares)
        card = card_name(parsed.card)
        if after.being(seat, parsed.card) is None:
            return tr("{name} moves {card} {route} and is destroyed on the way", name=name, card=card, route=route)
        return tr("{name} moves {card} {route}", name=name, card=card, route=route)
    if isinstance(parsed, Attack):
        return _attack(before, after, seat, parsed)
    if isinstance(parsed, Ability):
        return _ability(before, after, seat, parsed)
    if isinstance(parsed, Detonate):
        return _detonation(before, after, seat, parsed)
    if isinstance(parsed, Defend):
        return tr("{name}'s {card} checks its defence", name=name, card=card_name(parsed.card))
    if isinstance(parsed, End):
        return tr("{name} ends the actions", name=name)
    if isinstance(parsed, Done):
        return _done(before, after, seat)
    if isinstance(parsed, Dice):
        dice = joined(
            ", ", [tr("{card} (level {level})", card=card_name(c), level=CARDS[c].level) for c in parsed.cards]
        )
        return tr("{name} puts {dice} on the dice", name=name, dice=dice)
    if isinstance(parsed, Pick):  # a public pick does not exist; say nothing rather than guess
        return None
    return None


def _roll(before: WonderlandState, after: WonderlandState) -> str:
    name = SEAT_NAMES[before.active]
    if after.hidden_factors or after.faces is None:
        return tr("{name} rolls (the results are hidden)", name=name)
    faces = ", ".join(
        f"{card_name(card)} {FACTOR_NAMES.get(face, 'Summon') if face != 'S' else 'Summon'}"
        for card, face in zip(after.dice, after.faces, strict=True)
    )
    summonable = after.summonable()
    if summonable:
        cards = " / ".join(card_name(c) for c in summonable)
        return tr("{name} rolls: {faces}; may summon {cards}", name=name, faces=faces, cards=cards)
    return tr("{name} rolls: {faces}", name=name, faces=faces)


def _attack(before: WonderlandState, after: WonderlandState, seat: int, move: Attack) -> str:
    name, enemy = SEAT_NAMES[seat], SEAT_NAMES[1 - seat]
    points = after.attacks[-1].points if after.attacks else 0
    card = card_name(move.card)
    if move.target is None:
        return tr_n(
            "{name}'s {card} attacks {enemy}'s Image ({n} point)",
            "{name}'s {card} attacks {enemy}'s Image ({n} points)",
            points,
            name=name,
            card=card,
            enemy=enemy,
        )
    target = before.occupants().get(move.target)
    square = before.board.names[move.target]
    if target is None:
        return tr_n(
            "{name}'s {card} attacks a being on {square} ({n} point)",
            "{name}'s {card} attacks a being on {square} ({n} points)",
            points,
            name=name,
            card=card,
            square=square,
        )
    return tr_n(
        "{name}'s {card} attacks {target} on {square} ({n} point)",
        "{name}'s {card} attacks {target} on {square} ({n} points)",
        points,
        name=name,
        card=card,
        target=card_name(target.card),
        square=square,
    )


def _ability(before: WonderlandState, after: WonderlandState, seat: int, move: Ability) -> str:
    source = before.being(seat, move.card)
    info = CARDS[move.card]
    effect = _effect(info.rank, info.red, move.amount)
    target_square = move.target
    target = next(
        (b for b in before.beings if before.board.names[b.square] == target_square or b.card == move.target.upper()),
        None,
    )
    whom = f"{card_name(target.card)} ({before.board.names[target.square]})" if target is not None else move.target
    card, name = card_name(move.card), SEAT_NAMES[seat]
    if source is not None and target == source:  # "Q♠ (f4) gives Q♠ (f4) −2 Def" reads as two cards
        return tr(
            "{name}'s {card} (on {square}) gives itself {effect}",
            name=name,
            card=card,
            square=before.board.names[source.square],
            effect=effect,
        )
    if source is not None:
        return tr(
            "{name}'s {card} (from {square}) gives {whom} {effect}",
            name=name,
            card=card,
            square=before.board.names[source.square],
            whom=whom,
            effect=effect,
        )
    return tr("{name}'s {card} gives {whom} {effect}", name=name, card=card, whom=whom, effect=effect)


def _detonation(before: WonderlandState, after: WonderlandState, seat: int, move: Detonate) -> str:
    blast = after.attacks[len(before.attacks) :]
    hit = joined(
        ", ",
        [
            tr("{seat}'s Image", seat=SEAT_NAMES[a.target_owner]) if a.target_card is None else card_name(a.target_card)
            for a in blast
        ],
    )
    name, card = SEAT_NAMES[seat], card_name(move.card)
    if hit:
        return tr(
            "{name}'s {card} detonates with {force} Force, hitting {hit}",
            name=name,
            card=card,
            force=move.amount,
            hit=hit,
        )
    return tr("{name}'s {card} detonates with {force} Force, hitting nothing", name=name, card=card, force=move.amount)


def _done(before: WonderlandState, after: WonderlandState, seat: int) -> str:
    """`done`: the defence passes on, or the turn is reckoned (what the attacks did)."""
    name = SEAT_NAMES[seat]
    if after.active == before.active and after.outcome is None:
        return tr("{name} is done defending", name=name)
    results: list[str] = []
    kept = {(b.owner, b.card): b for b in after.beings}
    for being in before.beings:
        now = kept.get((being.owner, being.card))
        owner, card = SEAT_NAMES[being.owner], card_name(being.card)
        if now is None:
            results.append(tr("{owner}'s {card} is destroyed", owner=owner, card=card))
        elif now.damage > being.damage:
            results.append(
                tr("{owner}'s {card} takes {damage} damage", owner=owner, card=card, damage=now.damage - being.damage)
            )
    for image in (0, 1):
        lost = before.lives[image] - after.lives[image]
        if lost > 0:
            results.append(
                tr_n(
                    "{seat}'s Image loses {n} life — {left}",
                    "{seat}'s Image loses {n} lives — {left}",
                    lost,
                    seat=SEAT_NAMES[image],
                    left=lives_phrase(image, after.lives[image]),
                )
            )
    if not before.attacks:
        return tr("{seat}'s turn ends", seat=SEAT_NAMES[before.active])
    if not results:
        return tr("{name} is done: the attacks do no harm", name=name)
    return tr("{name} is done: {results}", name=name, results=joined("; ", results))
