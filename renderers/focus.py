"""Focus board picture: the cross-shaped board, stacks as side-on piles of discs, a score panel.

Why side-on discs: a Focus stack is read bottom to top (who is buried, who owns it), and a
pile of coins seen slightly from above shows exactly that with one glance — each piece is
a coloured rim, the owner's piece is the only full top face, and a number badge in the
owner's colour gives the height without counting.  The cut corners are simply not drawn:
the board is a framed plate of 52 squares, so they read as "not part of the board".

Layout (default 960 px wide): board with coordinate labels on the left, a panel per seat
on the right (stacks controlled, pieces on board, reserve, captured; the seat to move is
outlined).  The last move is marked by an outlined from-square, a highlighted to-square
and an arrow (a drop gets a marker instead of an arrow).

Works only from the public view: `stacks` (square -> owners bottom to top), `cut`,
`reserves`, `captured`, `to_move`, `setup_left`, `last_move`, `repetitions`, `outcome`.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.games import GAMES
from bot.i18n import Locale, tr
from renderers.kit import (
    CHROME_PAIRS,
    CHROME_SOLIDS,
    PALETTE,
    Color,
    coordinate_labels,
    fit_text,
    fixed_palette,
    line_height,
    phone_size,
    seat_token,
    text,
    text_center,
    wrap,
)
from renderers.language import current

SIZE = 8
CELL = 74
LEFT = 44  # room for rank numbers
TOP = 22
BOARD_PX = SIZE * CELL
FRAME = 7  # the wooden rim around the 52 squares
PANEL_X = LEFT + BOARD_PX + 30
PANEL_W = 236
WIDTH = PANEL_X + PANEL_W + 18
SMALL_TEXT = phone_size(WIDTH)
KEY_TEXT = phone_size(WIDTH, 14)
CARD_H = 256
NOTES_Y = TOP + 2 * CARD_H + 14 + line_height(KEY_TEXT) // 2 + 8
"""The centre of the last-move line under the two seat cards."""
HEIGHT = max(TOP + BOARD_PX + 40, NOTES_Y + 2 * line_height(SMALL_TEXT))

DISC_W = 52  # width of one disc
FACE_H = 21  # height of a disc's top face (an ellipse seen from above at an angle)
RIM = 9  # thickness of one disc seen from the side
OUTLINE: Color = (21, 24, 28)
FRAME_COLOUR: Color = (92, 80, 60)


def _shade(colour: Color, factor: float) -> Color:
    r, g, b = colour
    return (int(r * factor), int(g * factor), int(b * factor))


def _blend(a: Color, b: Color, t: float) -> Color:
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


SIDE = (_shade(PALETTE.seats[0], 0.72), _shade(PALETTE.seats[1], 0.72))
TARGET_LIGHT = _blend(PALETTE.board_light, PALETTE.highlight, 0.6)
TARGET_DARK = _blend(PALETTE.board_dark, PALETTE.highlight, 0.6)


def _cell(name: str) -> tuple[int, int]:
    """Top-left pixel of square `name` (rank 1 at the bottom)."""
    f = ord(name[0]) - ord("a")
    r = int(name[1:]) - 1
    return LEFT + f * CELL, TOP + (SIZE - 1 - r) * CELL


def _centre(name: str) -> tuple[float, float]:
    x, y = _cell(name)
    return x + CELL / 2, y + CELL / 2


def _is_dark(name: str) -> bool:
    return (ord(name[0]) - ord("a") + int(name[1:])) % 2 == 1


def _squares(cut: set[str]) -> list[str]:
    """Every real square of the board: all 64 names minus the view's cut corners."""
    names = (f"{file}{rank}" for rank in range(1, SIZE + 1) for file in "abcdefgh")
    return [name for name in names if name not in cut]


def _parse_last(last: str | None) -> tuple[str | None, str | None]:
    """(from, to) of the last move; from is None for a drop or placement."""
    if not last:
        return None, None
    if last.startswith("*"):
        return None, last[1:]
    src, _, dst = last.partition("-")
    return src, dst


def _draw_board(draw: ImageDraw.ImageDraw, squares: list[str]) -> None:
    """The plate: a rim around every real square, then the checkered squares on top."""
    for name in squares:
        x, y = _cell(name)
        draw.rectangle((x - FRAME, y - FRAME, x + CELL + FRAME - 1, y + CELL + FRAME - 1), fill=FRAME_COLOUR)
    for name in squares:
        x, y = _cell(name)
        draw.rectangle(
            (x, y, x + CELL - 1, y + CELL - 1), fill=PALETTE.board_dark if _is_dark(name) else PALETTE.board_light
        )


def _draw_disc(draw: ImageDraw.ImageDraw, cx: float, face_y: float, owner: int, *, top: bool) -> None:
    """One piece: its side band (rim) below a face ellipse centred at `face_y`."""
    half_w, half_h = DISC_W / 2, FACE_H / 2
    x0, x1 = cx - half_w, cx + half_w
    side = SIDE[owner]
    draw.ellipse((x0, face_y + RIM - half_h, x1, face_y + RIM + half_h), fill=side, outline=OUTLINE, width=2)
    draw.rectangle((x0, face_y, x1, face_y + RIM), fill=side)
    draw.line((x0, face_y, x0, face_y + RIM), fill=OUTLINE, width=2)
    draw.line((x1 - 1, face_y, x1 - 1, face_y + RIM), fill=OUTLINE, width=2)
    face = PALETTE.seats[owner]
    draw.ellipse((x0, face_y - half_h, x1, face_y + half_h), fill=face, outline=OUTLINE, width=2)
    if top:  # the owner's piece: an inner ring makes the top face the brightest, busiest shape
        ink = PALETTE.seat_ink[owner]
        draw.ellipse((cx - 17, face_y - 6, cx + 17, face_y + 6), outline=ink, width=2)


def _draw_stack(draw: ImageDraw.ImageDraw, name: str, pieces: list[int]) -> None:
    x, y = _cell(name)
    cx = x + CELL / 2 - 6  # a little left of centre: the height badge sits top right
    height = len(pieces)
    # Centre the pile vertically in the cell: total height = face + one rim per piece.
    total = FACE_H + RIM * height
    bottom_face = y + (CELL + total) / 2 - RIM - FACE_H / 2
    for i, owner in enumerate(pieces):
        _draw_disc(draw, cx, bottom_face - i * RIM, owner, top=i == height - 1)
    if height > 1:
        owner = pieces[-1]
        bx, by, r = x + CELL - 16, y + 16, 16
        draw.ellipse((bx - r, by - r, bx + r, by + r), fill=PALETTE.seats[owner], outline=OUTLINE, width=2)
        text_center(draw, (bx, by + 1), str(height), SMALL_TEXT, PALETTE.seat_ink[owner], bold=True)


def _draw_arrow(draw: ImageDraw.ImageDraw, src: str, dst: str) -> None:
    """From the centre of `src` to the edge of `dst`, so the landed stack stays visible."""
    (x0, y0), (x1, y1) = _centre(src), _centre(dst)
    length = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    tip = (x1 - ux * (CELL / 2 - 2), y1 - uy * (CELL / 2 - 2))
    base = (tip[0] - ux * 20, tip[1] - uy * 20)
    px, py = -uy, ux
    head = [tip, (base[0] + px * 13, base[1] + py * 13), (base[0] - px * 13, base[1] - py * 13)]
    outline_head = [
        (tip[0] + ux * 3, tip[1] + uy * 3),
        (base[0] + px * 16 - ux * 2, base[1] + py * 16 - uy * 2),
        (base[0] - px * 16 - ux * 2, base[1] - py * 16 - uy * 2),
    ]
    draw.line((x0, y0, base[0], base[1]), fill=OUTLINE, width=11)
    draw.polygon(outline_head, fill=OUTLINE)
    draw.line((x0, y0, base[0], base[1]), fill=PALETTE.highlight, width=6)
    draw.polygon(head, fill=PALETTE.highlight)
    draw.ellipse((x0 - 7, y0 - 7, x0 + 7, y0 + 7), fill=PALETTE.highlight, outline=OUTLINE, width=2)


def _draw_last_move(draw: ImageDraw.ImageDraw, last: str | None) -> None:
    src, dst = _parse_last(last)
    if dst is None:
        return
    if src is None:  # a drop: a downward marker in the corner of the square
        x, y = _cell(dst)
        bx, by, r = x + 16, y + 16, 14
        draw.ellipse((bx - r, by - r, bx + r, by + r), fill=PALETTE.highlight, outline=OUTLINE, width=2)
        draw.polygon([(bx - 8, by - 5), (bx + 8, by - 5), (bx, by + 7)], fill=OUTLINE)
        draw.line((bx - 8, by - 9, bx + 8, by - 9), fill=OUTLINE, width=2)
        return
    x, y = _cell(src)
    draw.rectangle((x + 2, y + 2, x + CELL - 3, y + CELL - 3), outline=PALETTE.highlight, width=5)
    _draw_arrow(draw, src, dst)


def _mini_disc(draw: ImageDraw.ImageDraw, cx: float, cy: float, owner: int) -> None:
    draw.ellipse((cx - 13, cy - 1, cx + 13, cy + 9), fill=SIDE[owner], outline=OUTLINE, width=2)
    draw.rectangle((cx - 13, cy - 4, cx + 13, cy + 4), fill=SIDE[owner])
    draw.ellipse((cx - 13, cy - 9, cx + 13, cy + 1), fill=PALETTE.seats[owner], outline=OUTLINE, width=2)


PANEL_ROWS = (tr("Stacks"), tr("On board"), tr("Reserve"), tr("Captured"))
"""Each seat card's rows; the third reads "To place" during a drop set-up."""


def _card_top(seat: int) -> int:
    return TOP + seat * (CARD_H + 14)


def _row_y(seat: int, row: int) -> int:
    return _card_top(seat) + 76 + row * 46


def _row_disc(seat: int, row: int) -> int | None:
    """The seat whose mini disc a row shows: its own reserve, the opponent's captured pieces."""
    return seat if row == 2 else 1 - seat if row == 3 else None


def _draw_cards(draw: ImageDraw.ImageDraw, framed: tuple[bool, bool], in_setup: bool) -> None:
    """What the seat cards show whatever the position: frame, name, row labels and discs.
    `framed[seat]`: the seat is to move or has won (a green outline, as in the header)."""
    seat_names = GAMES["focus"].info.seat_names
    for seat in (0, 1):
        top = _card_top(seat)
        box = (PANEL_X, top, PANEL_X + PANEL_W, top + CARD_H)
        border = PALETTE.turn if framed[seat] else PALETTE.panel
        draw.rounded_rectangle(box, radius=14, fill=PALETTE.panel, outline=border, width=4 if framed[seat] else 1)
        seat_token(draw, (PANEL_X + 30, top + 32), 15, seat)
        name = fit_text(seat_names[seat], SMALL_TEXT, PANEL_W - 70, bold=True)  # the outline marks who moves
        text(draw, (PANEL_X + 56, top + 32), name, SMALL_TEXT, PALETTE.text, anchor="lm", bold=True, box=box)
        for row, label in enumerate(PANEL_ROWS):
            y = _row_y(seat, row)
            draw.line((PANEL_X + 16, y - 22, PANEL_X + PANEL_W - 16, y - 22), fill=PALETTE.background, width=1)
            disc = _row_disc(seat, row)
            if disc is not None:
                _mini_disc(draw, PANEL_X + 32, y, disc)
            shown = tr("To place") if in_setup and row == 2 else label
            text_x = PANEL_X + 54 if disc is not None else PANEL_X + 18
            text(draw, (text_x, y), shown, SMALL_TEXT, PALETTE.muted, anchor="lm", box=box)


def _framed(view: dict[str, Any]) -> tuple[bool, bool]:
    """Which seat cards wear the green outline: the seat to move, or the winner."""
    outcome = view.get("outcome")
    winners = set(outcome["winners"]) if outcome else set()
    turn = set(view.get("turn", []))
    return ((0 in turn and outcome is None) or 0 in winners, (1 in turn and outcome is None) or 1 in winners)


def _draw_values(draw: ImageDraw.ImageDraw, view: dict[str, Any], stacks: dict[str, list[int]]) -> None:
    """The numbers on the seat cards (drawn over `_draw_cards`), then the notes below them."""
    setup_left = view.get("setup_left", [0, 0])
    in_setup = any(setup_left)
    for seat in (0, 1):
        box = (PANEL_X, _card_top(seat), PANEL_X + PANEL_W, _card_top(seat) + CARD_H)
        values = (
            sum(1 for pieces in stacks.values() if pieces[-1] == seat),
            sum(pieces.count(seat) for pieces in stacks.values()),
            setup_left[seat] if in_setup else view["reserves"][seat],
            view["captured"][seat],
        )
        for row, value in enumerate(values):
            y = _row_y(seat, row)
            text(draw, (PANEL_X + PANEL_W - 18, y), str(value), 32, PALETTE.text, anchor="rm", box=box)
    _draw_notes(draw, view, NOTES_Y)


def _draw_notes(draw: ImageDraw.ImageDraw, view: dict[str, Any], y: int) -> None:
    """Last move and repetition count under the cards, in small print."""
    last = view.get("last_move")
    x = PANEL_X + 8
    room = (PANEL_X, y - 30, WIDTH, HEIGHT)
    width = room[2] - x - 8
    if last:
        said = fit_text(tr("Last: {move}", move=last), KEY_TEXT, width)
        text(draw, (x, y), said, KEY_TEXT, PALETTE.text, anchor="lm", box=room, key=True)
    else:
        text(
            draw,
            (x, y),
            fit_text(tr("No move yet"), SMALL_TEXT, width),
            SMALL_TEXT,
            PALETTE.muted,
            anchor="lm",
            box=room,
        )
    repetitions = int(view.get("repetitions") or 0)
    if repetitions >= 2:
        for i, line in enumerate(
            wrap(tr("Position seen {repetitions} times", repetitions=repetitions), SMALL_TEXT, PANEL_W - 8)
        ):
            text(
                draw, (x, y + 42 + i * line_height(SMALL_TEXT)), line, SMALL_TEXT, PALETTE.accent, anchor="lm", box=room
            )


@lru_cache(maxsize=1)
def palette() -> Image.Image:
    """Every colour a Focus picture draws, and the anti-aliased edges of its text (the only
    anti-aliased shapes): mapping to it is ~4x faster than finding a palette per picture."""
    solids = [
        PALETTE.background, PALETTE.panel, PALETTE.board_light, PALETTE.board_dark, FRAME_COLOUR, OUTLINE,
        *PALETTE.seats, *SIDE, TARGET_LIGHT, TARGET_DARK, *PALETTE.seat_ink, *CHROME_SOLIDS,
    ]  # fmt: skip
    pairs = [
        *CHROME_PAIRS,
        (PALETTE.muted, PALETTE.background),  # coordinates, "No move yet"
        (PALETTE.text, PALETTE.background),  # the last move
        (PALETTE.accent, PALETTE.background),  # repetitions
        *zip(PALETTE.seat_ink, PALETTE.seats, strict=True),  # stack heights on their badges
    ]
    return fixed_palette(solids, pairs=pairs, steps=None)


@lru_cache(maxsize=8)
def _backdrop(cut: frozenset[str], framed: tuple[bool, bool], in_setup: bool, locale: Locale) -> Image.Image:
    """Everything that does not change from move to move: the plate with its coordinates
    and the seat cards without their numbers, labelled in `locale` (cached per language; a
    picture starts from a copy).  The
    standard set-up has one plate and two or three framings: a few 3 MB layers a worker."""
    img = Image.new("RGB", (WIDTH, HEIGHT), PALETTE.background)
    draw = ImageDraw.Draw(img)
    _draw_board(draw, _squares(set(cut)))
    coordinate_labels(draw, (LEFT, TOP), CELL, SIZE, SIZE, size=SMALL_TEXT)
    _draw_cards(draw, framed, in_setup)
    return img


def _draw_target(draw: ImageDraw.ImageDraw, name: str) -> None:
    """The last move's landing square, tinted (over the backdrop's plain square)."""
    x, y = _cell(name)
    draw.rectangle((x, y, x + CELL - 1, y + CELL - 1), fill=TARGET_DARK if _is_dark(name) else TARGET_LIGHT)


def board(view: dict[str, Any]) -> Image.Image:
    """The body picture of a Focus view (public or a seat's: only public keys are used)."""
    stacks: dict[str, list[int]] = view.get("stacks", {})
    last = view.get("last_move")
    _src, dst = _parse_last(last)
    cut = frozenset(view.get("cut", []))
    img = _backdrop(cut, _framed(view), any(view.get("setup_left", [0, 0])), current()).copy()
    draw = ImageDraw.Draw(img)
    if dst in _squares(set(cut)):
        _draw_target(draw, dst)
    for name in sorted(stacks, key=lambda n: (-int(n[1:]), n[0])):  # top rank first: lower piles overlap upward
        _draw_stack(draw, name, stacks[name])
    _draw_last_move(draw, last)
    _draw_values(draw, view, stacks)
    return img
