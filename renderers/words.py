"""Pictures in words: alt text for every picture sent, and `/board`'s text form.

Why here and not in the cogs: both are read off the same view the picture is drawn from,
so they can say no more than the picture (a public view never holds a hand) and change
with it.  `describe` is one paragraph for a screen reader (whose turn, the score or the
material, the last move), short enough for Discord's 1,024-character attachment
description; `text_board` lays the position out in characters, monospaced, for a code
block that a screen reader reads row by row and anyone can copy.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.games import CHANCE, GAMES
from bot.i18n import DEFAULT, Locale, tr, tr_n
from renderers.kit import Header, counter, phase_words
from renderers.language import say, speaking

DESCRIPTION_LIMIT = 1000
"""Discord allows 1,024 characters in an attachment's description."""
FILES = "abcdefghijklmnopqrstuvwxyz"


def _names(game: str, header: Header | None) -> list[str]:
    """'Ada (Orange)' per seat, or just the seat names without a header."""
    seats = [say(name) for name in GAMES[game].info.seat_names]
    if header is None:
        return seats
    return [f"{header.players[s]} ({seats[s]})" for s in (0, 1)]


def _turn(game: str, view: dict[str, Any], header: Header | None) -> str:
    names = _names(game, header)
    outcome = view.get("outcome")
    if outcome:
        winners = outcome.get("winners") or []
        reason = say(outcome.get("reason", ""))
        if winners:
            return say(tr("Game over: {name} wins, {reason}", name=names[winners[0]], reason=reason))
        return say(tr("Game over: draw, {reason}", reason=reason))
    turn = [s for s in view.get("turn", []) if s in (0, 1)]
    if CHANCE in view.get("turn", []):
        return say(tr("Waiting for a roll or a draw"))
    if not turn:
        return say(tr("Nobody to move"))
    if len(turn) == 2:
        return say(tr("{first} and {second} to move", first=names[turn[0]], second=names[turn[1]]))
    return say(tr("{name} to move", name=names[turn[0]]))


def _clip(sentences: Sequence[str]) -> str:
    out = ". ".join(s.rstrip(".") for s in sentences if s) + "."
    return out if len(out) <= DESCRIPTION_LIMIT else out[: DESCRIPTION_LIMIT - 1] + "…"


def _grid(files: int, ranks: int, cell: Callable[[str], str], width: int, first_file: int = 0) -> list[str]:
    """Rows from the top rank down, rank numbers on the left, file letters under."""
    label = len(str(ranks))
    rows = []
    for r in range(ranks, 0, -1):
        cells = [cell(f"{FILES[first_file + f]}{r}").ljust(width) for f in range(files)]
        rows.append(f"{r:>{label}} " + " ".join(cells).rstrip())
    rows.append(" " * (label + 1) + " ".join(FILES[first_file + f].ljust(width) for f in range(files)).rstrip())
    return rows


# ----------------------------------------------------------------------------- per game


def _focus(view: dict[str, Any], seats: Sequence[str]) -> tuple[list[str], list[str]]:
    stacks: dict[str, list[int]] = view.get("stacks", {})
    cut = set(view.get("cut", []))
    facts = []
    for seat in (0, 1):
        controlled = sum(1 for pieces in stacks.values() if pieces[-1] == seat)
        facts.append(
            say(
                tr(
                    "{seat} controls {stacks} stacks, reserve {reserve}, captured {captured}",
                    seat=seats[seat],
                    stacks=controlled,
                    reserve=view["reserves"][seat],
                    captured=view["captured"][seat],
                )
            )
        )

    def cell(name: str) -> str:
        if name in cut:
            return ""
        pieces = stacks.get(name)
        return f"{seats[pieces[-1]][0]}{len(pieces)}" if pieces else "."

    legend = say(
        tr(
            "Each square: owner of the top piece ({first} or {second}) and the stack's height.",
            first=seats[0][0],
            second=seats[1][0],
        )
    )
    return facts, [*_grid(8, 8, cell, 2), legend]


def _domineering(view: dict[str, Any], seats: Sequence[str]) -> tuple[list[str], list[str]]:
    pieces = view["pieces"]
    laid = {t["square"]: t["tile"] for t in view["laid"]}
    facts = [
        say(tr("{seat} pieces on {squares}", seat=seats[s], squares=", ".join(pieces[s]) or say(tr("none"))))
        for s in (0, 1)
    ]
    facts.append(say(tr("tile drawn {tile}", tile=view["drawn"]) if view.get("drawn") else tr("no tile drawn")))
    facts.append(say(tr_n("{n} tile left in the pool", "{n} tiles left in the pool", len(view["pool"]))))
    owner = {sq: seats[s][0] for s in (0, 1) for sq in pieces[s]}

    def cell(name: str) -> str:
        return owner.get(name) or laid.get(name) or "."

    legend = say(
        tr(
            "{first} and {second}: pieces; 3-5: a tile laid there. The board wraps around.",
            first=seats[0][0],
            second=seats[1][0],
        )
    )
    pool = say(tr("Pool: {tiles}", tiles=" ".join(view["pool"])) if view["pool"] else tr("Pool: empty"))
    return facts, [*_grid(8, 8, cell, 3), legend, pool]


def _domino_wars(view: dict[str, Any], seats: Sequence[str]) -> tuple[list[str], list[str]]:
    board: dict[str, dict[str, Any]] = view.get("board", {})
    scores = view.get("scores", [0, 0])
    facts = [phase_words(view.get("phase"))]
    facts += [
        say(
            tr(
                "{seat} scores {score}, hand {hand}, pile {pile}",
                seat=seats[s],
                score=scores[s],
                hand=view["hand_sizes"][s],
                pile=view["pile_sizes"][s],
            )
        )
        for s in (0, 1)
    ]

    def cell(name: str) -> str:
        mino = board.get(name)
        if mino is None:
            return "."
        under = f"+{mino['under']}" if mino.get("under") else ""
        return f"{seats[int(mino['owner'])][0]}{mino['number']}{under}"

    legend = say(tr("Each square: owner and number of the top mino, +n minos under it."))
    discards = [
        say(tr("{seat} discards: {tiles}", seat=seats[s], tiles=" ".join(view["discards"][s]) or say(tr("none"))))
        for s in (0, 1)
    ]
    return facts, [*_grid(4, 4, cell, 4), legend, *discards]


def _dominance(view: dict[str, Any], seats: Sequence[str]) -> tuple[list[str], list[str]]:
    stones: dict[str, int] = view.get("stones", {})
    underworld: dict[str, list[int]] = view.get("underworld", {})
    below = [sum(c[s] for c in underworld.values()) for s in (0, 1)]
    on_board = [sum(1 for o in stones.values() if o == s) for s in (0, 1)]
    facts = [f"{phase_words(view['phase'])}, {counter(view, None)}"]
    facts += [
        say(
            tr(
                "{seat}: {on_board} stones on the Battlefield, {below} in the Underworld",
                seat=seats[s],
                on_board=on_board[s],
                below=below[s],
            )
        )
        for s in (0, 1)
    ]
    if view.get("roll"):
        facts.append(say(tr("dice {dice}", dice=" ".join(str(d) for d in view["roll"]))))
    layout = view.get("layout") or []
    active = set(view.get("active", []))

    def cell(name: str) -> str:
        if not layout:
            return "."
        value = layout[int(name[1:]) - 1][FILES.index(name[0])]
        stone = stones.get(name)
        mark = seats[stone][0] if stone is not None else ""
        return f"{value}{mark}{'*' if name in active else ''}"

    legend = say(
        tr(
            "Each space: its number, then the stone on it ({first}/{second}); * marks a lit space.",
            first=seats[0][0],
            second=seats[1][0],
        )
    )
    uw = "Underworld: " + ", ".join(
        f"{name} {seats[0][0]}{counts[0]} {seats[1][0]}{counts[1]}" for name, counts in underworld.items()
    )
    return facts, [*_grid(6, 7, cell, 3), legend, uw]


def _wonderland(view: dict[str, Any], seats: Sequence[str]) -> tuple[list[str], list[str]]:
    images = view["images"]
    facts = [f"{phase_words(view['phase'])}, {counter(view, None)}"]
    facts += [
        say(
            tr_n(
                "{seat} Image on {square} with {n} life",
                "{seat} Image on {square} with {n} lives",
                i["lives"],
                seat=seats[i["seat"]],
                square=i["square"],
            )
        )
        for i in images
    ]
    for seat in (0, 1):
        beings = [
            say(tr("{card} on {square}", card=b["card"], square=b["square"]))
            for b in view["beings"]
            if b["owner"] == seat
        ]
        facts.append(say(tr("{seat} beings: {beings}", seat=seats[seat], beings=", ".join(beings) or say(tr("none")))))
    if view.get("pending_attacks"):
        facts.append(say(tr_n("{n} attack pending", "{n} attacks pending", len(view["pending_attacks"]))))
    squares: dict[str, str] = {}
    for path in view["paths"]:
        for domino in path["dominoes"]:
            for sq in domino:
                squares[sq] = seats[path["owner"]][0].lower()
    for image in images:
        squares[image["square"]] = f"I{seats[image['seat']][0]}{image['lives']}"
    for being in view["beings"]:
        squares[being["square"]] = f"{seats[being['owner']][0]}{being['card']}"
    used = [FILES.index(sq[0]) for sq in squares]
    lo, hi = max(0, min(used) - 1), min(int(view["files"]) - 1, max(used) + 1)

    def cell(name: str) -> str:
        return squares.get(name, ".")

    legend = say(
        tr(
            "{a}/{b}: a path square; I{first}3: an Image and its lives; {first}10H: a being (owner, card).",
            a=seats[0][0].lower(),
            b=seats[1][0].lower(),
            first=seats[0][0],
        )
    )
    return facts, [*_grid(hi - lo + 1, int(view["ranks"]), cell, 4, lo), legend]


_GAMES: dict[str, Callable[[dict[str, Any], Sequence[str]], tuple[list[str], list[str]]]] = {
    "focus": _focus,
    "domineering": _domineering,
    "domino_wars": _domino_wars,
    "dominance": _dominance,
    "wonderland": _wonderland,
}


FACES = {"C": "Chance", "F": "Force", "D": "Defend", "A": "Attack", "M": "Move", "S": "Summon"}
"""Wonderland's die faces in words (the notation writes their letters)."""


def move_words(game: str, move: str) -> str:
    """A move as a player would say it: chance notation ("shuffle 1", "roll A S M") becomes
    a sentence (a `tr` sentence, said in the picture's language by whoever shows it); a
    player's own move stays in its notation, which players type and read.  Wonderland's die
    faces are the source's proper terms and keep their names."""
    seats = GAMES[game].info.seat_names
    word, _, rest = move.partition(" ")
    numbers = rest.split()
    if word == "shuffle" and numbers and numbers[0] in ("0", "1"):
        return tr("{seat}'s draw pile was shuffled", seat=seats[int(numbers[0])])
    if word == "first" and numbers and numbers[0] in ("0", "1"):
        return tr("{seat} was drawn to start", seat=seats[int(numbers[0])])
    if word == "roll" and numbers:
        faces = [FACES.get(n, n) for n in numbers] if game == "wonderland" else numbers
        return tr("dice rolled: {faces}", faces=", ".join(faces))
    if word == "draw" and numbers:
        return tr("tile {tile} drawn", tile=numbers[0])
    if word == "layout":
        return tr("the Battlefield was laid out")
    return move


def _last(view: dict[str, Any], game: str) -> str:
    last = view.get("last_move")
    return say(tr("Last move: {move}", move=move_words(game, str(last))) if last else tr("No move yet"))


# ----------------------------------------------------------------------------- public API


def describe(game: str, view: dict[str, Any], header: Header | None = None) -> str:
    """Alt text of the board picture of `view`: the game, whose turn, material, last move
    (in `header`'s language; the facts about the position are English for now)."""
    with speaking(header.locale if header is not None else DEFAULT):
        facts, _ = _GAMES[game](view, GAMES[game].info.seat_names)
        title = say(tr("{game} board", game=GAMES[game].info.name))
        return _clip([title, _turn(game, view, header), *facts, _last(view, game)])


def text_board(game: str, view: dict[str, Any], header: Header | None = None) -> str:
    """The position in characters (monospaced lines), with whose turn and the last move on top."""
    with speaking(header.locale if header is not None else DEFAULT):
        facts, rows = _GAMES[game](view, GAMES[game].info.seat_names)
        sentences = [f"{GAMES[game].info.name}: {_turn(game, view, header)}", _last(view, game), *facts]
    top = [s.rstrip(".") + "." for s in sentences]
    return "\n".join([*top, "", *rows])


def describe_private(game: str, view: dict[str, Any], locale: Locale = DEFAULT) -> str:
    """Alt text of a seat's private picture in `locale`: only what that seat's own view holds."""
    with speaking(locale):
        return _describe_private(game, view)


def _describe_private(game: str, view: dict[str, Any]) -> str:
    mine = view.get("private") or {}
    name = GAMES[game].info.name
    none = say(tr("none yet"))
    if game == "domino_wars" and view.get("phase") == "draft":
        drafted = list(mine.get("draft", []))
        return _clip([
            say(tr("{game}: your secret draft, {n} of 8 picked: {tiles}", game=name, n=len(drafted),
                   tiles=" ".join(drafted) or none)),
            say(tr("{n} of the 21 tiles left to pick from", n=21 - len(drafted))),
        ])  # fmt: skip
    if game == "domino_wars":
        empty = say(tr("empty"))
        pile = " ".join(sorted(mine.get("pile", [])))
        if view.get("phase") == "draft":
            yours = tr("{game}: your draft: {tiles}", game=name, tiles=" ".join(mine.get("draft") or []) or empty)
        else:
            yours = tr("{game}: your hand: {tiles}", game=name, tiles=" ".join(mine.get("hand") or []) or empty)
        return _clip([say(yours), say(tr("draw pile: {tiles}", tiles=pile or empty))])
    if game == "wonderland":
        pool = mine.get("pool", [])
        facts = [
            say(
                tr(
                    "{game}: your pool deck, {n} of 15 cards: {cards}",
                    game=name,
                    n=len(pool),
                    cards=" ".join(pool) or none,
                )
            )
        ]
        if view.get("phase") == "pool" and len(pool) < 15:
            taken = {(card[:-1], card[-1] in "HD") for card in pool}
            free = 52 - len(pool) - sum(1 for rank, _ in taken)  # each picked rank-and-colour blocks its twin
            facts.append(say(tr("{n} cards may still be picked (no two of one rank and colour)", n=free)))
        return _clip(facts)
    return _clip([say(tr("{game}: your private view", game=name))])
