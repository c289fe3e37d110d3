"""Wonderland board picture: the domino paths, Images, beings as cards, and a panel.

Why this look: the picture is read on phones, where Discord fits it to ~420 px of width,
so every size here is chosen for how it reads at ~45 % scale.  A square is `CELL` = 64 px
whatever the crop (~30 px on a phone).  A being's token is laid out like a playing
card's corner: the rank is the biggest thing on it (33 px font, 24 px tall, drawn bold,
~11 px on a phone) over a large suit symbol, in black or red ink on a near-white face;
its chess piece (pawn A–8, bishop 9, rook 10, knight J, queen Q, king K) is only a pale
silhouette behind them, since the rank already says which piece it is.  Image lives are a
38 px number on the Image's hexagon and 28 px hearts in the panel; damage (top right)
and pending-attack points (top left) are 35 px red discs hanging off the token's corners,
drawn last so that nothing covers them.  Coordinates are 22 px.

Frame: the whole board is drawn, every file and rank, in every position of a match: the
picture keeps one size and one crop from the first post to the last (a crop that followed
the pieces made the squares and the picture change size, and the thread jump).  The
squares take what is left of `WIDTH` beside the panel (40 px on the 13-file boards).

Seats differ by shape and lightness, not only colour: seat 0 lays its dominoes face up
(ivory faces, orange rims), seat 1 face down (dark blue backs); a being's token has a
dark edge and a frame in its owner's colour (light orange vs dark blue) and is a square
for seat 0, an octagon for seat 1.  Pending attacks are short haloed red arrows across
the edge between attacker and target, which is outlined in red; the last move's squares
are outlined in yellow with a dark edge (yellow alone fades on ivory), a move's path
drawn as a yellow line.

The panel holds, per seat, the Image's life, the factor pool (C F D A M, or "?" when
hidden), cards left and summoned; the dice of this turn with their faces; the pending
attacks; the last move.  `private(view)` draws the seat's pool deck as cards with stats.

Works only from the view: `files`, `ranks`, `images`, `paths`, `beings`, `factors`,
`dice`, `rolled`, `pending_attacks`, `phase`, `turn_number`, `turn_limit`, `last_move`,
`summoned`, `pool_left`, and `private["pool"]`, `private["factors"]`, `private["rolled"]`.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.games.wonderland.cards import POOL_SIZE, RANKS, RED_SUITS, SUITS
from bot.i18n import tr, tr_n
from renderers.kit import (
    CHROME_PAIRS,
    CHROME_SOLIDS,
    PALETTE,
    Color,
    fit_text,
    fixed_palette,
    line_height,
    phase_words,
    phone_size,
    seat_token,
    text,
    text_center,
    text_width,
    wrap,
)
from renderers.language import say

FILES = "abcdefghijklmnopqrstuvwxyz"
WIDTH = 900
"""Every board picture is this wide, whatever the crop: the panel always sits right of the
board, and the phone scale (and so every text size) never changes between pictures."""
SMALL_TEXT = phone_size(WIDTH)
KEY_TEXT = phone_size(WIDTH, 14)
MAX_CELL = 62
MAX_BOARD_H = 1000
"""The squares shrink so that 20 ranks stay within this: the picture stays <= ~1,250 px tall."""
LEFT = 46
"""Room for the rank numbers."""
TOP = 12
MARGIN = 12
LABEL_BAND = 40
"""Room for the file letters under the board."""
GAP = 16
PANEL_W = 300
BOARD_ROOM = WIDTH - LEFT - GAP - PANEL_W - MARGIN
MIN_WIDTH = 860
"""The private pool-deck picture's width."""
COORD_SIZE = SMALL_TEXT
RED_INK: Color = (200, 30, 30)
BLACK_INK: Color = (20, 20, 20)
ATTACK: Color = (190, 20, 20)
"""Deeper than the palette's vermillion, which is too close to seat 0's orange."""
WHITE: Color = (255, 255, 255)
CARD_GREY: Color = (90, 90, 90)
"""A pool card's level and stat names."""
FACE_UP_RIM: Color = PALETTE.seats[0]
BACK: Color = (18, 62, 104)
BACK_HATCH: Color = (60, 120, 175)
GUIDE: Color = (150, 138, 112)
TOKEN: tuple[Color, Color] = ((255, 248, 232), (236, 244, 252))
"""Near-white faces, barely tinted toward the seat colours: the rank reads at full contrast."""
GHOST: tuple[Color, Color] = ((246, 218, 168), (200, 222, 242))
"""The piece silhouette behind a token's rank: pale enough that black and red ink keep their contrast."""
STATS = {
    "A": (1, 1, 1), "2": (2, 1, 2), "3": (3, 1, 3), "4": (2, 2, 0), "5": (2, 3, 1), "6": (3, 2, 0),
    "7": (3, 3, 1), "8": (3, 3, 2), "9": (4, 3, 1), "10": (4, 3, 2), "J": (1, 2, 0), "Q": (1, 2, 0), "K": (1, 2, 0),
}  # fmt: skip
_SQUARE = re.compile(r"^([a-z])(\d+)$")


def _coords(name: str) -> tuple[int, int]:
    match = _SQUARE.match(name)
    assert match is not None, name
    return FILES.index(match.group(1)), int(match.group(2)) - 1


def _file_range(view: dict[str, Any]) -> tuple[int, int]:
    """Every file of the board: a crop that followed the pieces changed from post to post,
    so the squares (and the whole picture) changed size and the thread jumped."""
    return 0, int(view["files"]) - 1


class Layout:
    """Where the cropped board and the panel sit, and pixel helpers for squares.

    The panel is always right of the board and the picture always `WIDTH` wide; the
    squares take what is left (at most `MAX_CELL`, and small enough that every rank fits
    in `MAX_BOARD_H`), and the board is centred in its room."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.ranks = int(view["ranks"])
        self.lo, self.hi = _file_range(view)
        self.cols = self.hi - self.lo + 1
        self.cell = min(MAX_CELL, BOARD_ROOM // self.cols, MAX_BOARD_H // self.ranks)
        self.board_w = self.cols * self.cell
        self.board_h = self.ranks * self.cell
        board_bottom = TOP + self.board_h + LABEL_BAND
        self.width = WIDTH
        self.left = LEFT + (BOARD_ROOM - self.board_w) // 2
        self.panel = (LEFT + BOARD_ROOM + GAP, TOP, WIDTH - MARGIN, max(board_bottom, PANEL_MIN_H) - 8)
        self.height = self.panel[3] + 8

    def box(self, name: str) -> tuple[float, float, float, float]:
        f, r = _coords(name)
        x = self.left + (f - self.lo) * self.cell
        y = TOP + (self.ranks - 1 - r) * self.cell
        return (x, y, x + self.cell, y + self.cell)

    def centre(self, name: str) -> tuple[float, float]:
        x0, y0, x1, y1 = self.box(name)
        return ((x0 + x1) / 2, (y0 + y1) / 2)

    def visible(self, name: str) -> bool:
        return self.lo <= _coords(name)[0] <= self.hi


# --- small shapes ---------------------------------------------------------------------------


def suit_shape(draw: ImageDraw.ImageDraw, suit: str, cx: float, cy: float, size: float) -> None:
    """A suit symbol drawn with shapes (the bundled font has no suit glyphs)."""
    s = size / 2
    ink = RED_INK if suit in "HD" else BLACK_INK
    if suit == "D":
        draw.polygon([(cx, cy - s), (cx + s * 0.72, cy), (cx, cy + s), (cx - s * 0.72, cy)], fill=ink)
    elif suit == "H":
        heart(draw, cx, cy, size, ink)
    elif suit == "S":
        r = s * 0.5
        draw.ellipse((cx - 2 * r, cy - s * 0.3, cx, cy - s * 0.3 + 2 * r), fill=ink)
        draw.ellipse((cx, cy - s * 0.3, cx + 2 * r, cy - s * 0.3 + 2 * r), fill=ink)
        draw.polygon([(cx - 2 * r + 0.5, cy + s * 0.15), (cx + 2 * r - 0.5, cy + s * 0.15), (cx, cy - s)], fill=ink)
        draw.polygon([(cx, cy + s * 0.3), (cx + s * 0.35, cy + s), (cx - s * 0.35, cy + s)], fill=ink)
    else:
        r = s * 0.42
        for dx, dy in ((0, -0.5), (-0.5, 0.12), (0.5, 0.12)):
            x, y = cx + dx * s, cy + dy * s
            draw.ellipse((x - r, y - r, x + r, y + r), fill=ink)
        draw.polygon([(cx, cy), (cx + s * 0.35, cy + s), (cx - s * 0.35, cy + s)], fill=ink)


def card_label(draw: ImageDraw.ImageDraw, card: str, cx: float, cy: float, size: int) -> None:
    """Rank then suit symbol on one line, centred on (cx, cy)."""
    rank, suit = card[:-1], card[-1]
    rank_w = text_width(rank, size)
    x = cx - (rank_w + size * 0.85) / 2
    text(draw, (x, cy), rank, size, RED_INK if suit in "HD" else BLACK_INK, anchor="lm")
    suit_shape(draw, suit, x + rank_w + size * 0.45, cy, size * 0.8)


_PIECES: dict[str, list[list[tuple[float, float]]]] = {
    "pawn": [[(0.36, 0.86), (0.64, 0.86), (0.57, 0.5), (0.43, 0.5)]],
    "rook": [
        [(0.3, 0.86), (0.7, 0.86), (0.66, 0.38), (0.34, 0.38)],
        [
            (0.27, 0.4),
            (0.73, 0.4),
            (0.73, 0.14),
            (0.64, 0.14),
            (0.64, 0.24),
            (0.55, 0.24),
            (0.55, 0.14),
            (0.45, 0.14),
            (0.45, 0.24),
            (0.36, 0.24),
            (0.36, 0.14),
            (0.27, 0.14),
        ],
    ],
    "bishop": [[(0.36, 0.86), (0.64, 0.86), (0.57, 0.55), (0.43, 0.55)]],
    "knight": [
        [
            (0.28, 0.86),
            (0.72, 0.86),
            (0.68, 0.45),
            (0.6, 0.14),
            (0.46, 0.2),
            (0.24, 0.42),
            (0.3, 0.52),
            (0.46, 0.44),
            (0.36, 0.66),
        ],
    ],
    "queen": [
        [(0.27, 0.86), (0.73, 0.86), (0.8, 0.22), (0.64, 0.5), (0.5, 0.12), (0.36, 0.5), (0.2, 0.22)],
    ],
    "king": [
        [(0.3, 0.86), (0.7, 0.86), (0.76, 0.36), (0.24, 0.36)],
        [
            (0.46, 0.36),
            (0.54, 0.36),
            (0.54, 0.24),
            (0.64, 0.24),
            (0.64, 0.17),
            (0.54, 0.17),
            (0.54, 0.06),
            (0.46, 0.06),
            (0.46, 0.17),
            (0.36, 0.17),
            (0.36, 0.24),
            (0.46, 0.24),
        ],
    ],
}


def piece_kind(rank: str) -> str:
    return {"9": "bishop", "10": "rook", "J": "knight", "Q": "queen", "K": "king"}.get(rank, "pawn")


def piece(
    draw: ImageDraw.ImageDraw, kind: str, box: tuple[float, float, float, float], owner: int, *, ghost: bool = False
) -> None:
    """A chess piece silhouette in the owner's colour inside `box`; a `ghost` is a pale
    tint with no outline, to stand behind text."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    fill = GHOST[owner] if ghost else PALETTE.seats[owner]
    outline = fill if ghost else PALETTE.pip if owner == 0 else PALETTE.text
    for poly in _PIECES[kind]:
        draw.polygon([(x0 + px * w, y0 + py * h) for px, py in poly], fill=fill, outline=outline, width=2)
    if kind == "pawn":
        r = w * 0.15
        cx, cy = x0 + 0.5 * w, y0 + 0.36 * h
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=outline, width=2)
    elif kind == "bishop":
        draw.ellipse((x0 + 0.33 * w, y0 + 0.12 * h, x0 + 0.67 * w, y0 + 0.6 * h), fill=fill, outline=outline, width=2)
        draw.line((x0 + 0.44 * w, y0 + 0.28 * h, x0 + 0.58 * w, y0 + 0.4 * h), fill=outline, width=2)
    draw.rectangle((x0 + 0.22 * w, y0 + 0.84 * h, x0 + 0.78 * w, y0 + 0.94 * h), fill=fill, outline=outline, width=2)


def heart(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float, fill: Color) -> None:
    s = size / 2
    r = s * 0.52
    draw.ellipse((cx - 2 * r, cy - s * 0.75, cx, cy - s * 0.75 + 2 * r), fill=fill)
    draw.ellipse((cx, cy - s * 0.75, cx + 2 * r, cy - s * 0.75 + 2 * r), fill=fill)
    draw.polygon([(cx - 2 * r + 0.5, cy - s * 0.2), (cx + 2 * r - 0.5, cy - s * 0.2), (cx, cy + s)], fill=fill)


def badge(draw: ImageDraw.ImageDraw, centre: tuple[float, float], label: str, cell: int) -> None:
    """A red disc with bold white text (damage, attack points), big enough to read on a phone."""
    cx, cy = centre
    size = max(SMALL_TEXT, int(cell * 0.36))
    r = max(cell * 0.27, text_width(label, size, bold=True) / 2 + 5, size * 0.62)
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=ATTACK, outline=WHITE, width=2)
    text_center(draw, (cx, cy), label, size, WHITE, bold=True)


def arrow(draw: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], colour: Color, cell: int) -> None:
    """A haloed arrow from square centre `a` toward `b`, trimmed so it starts and ends on the
    tokens' edges rather than across their ranks."""
    (x0, y0), (x1, y1) = a, b
    angle = math.atan2(y1 - y0, x1 - x0)
    dx, dy = math.cos(angle), math.sin(angle)
    trim = cell * 0.24
    x0, y0, x1, y1 = x0 + trim * dx, y0 + trim * dy, x1 - trim * dx, y1 - trim * dy
    head = cell * 0.3
    shaft = (x0, y0, x1 - head * 0.6 * dx, y1 - head * 0.6 * dy)
    width = max(5, cell // 10)
    tip = [
        (x1, y1),
        (x1 - head * math.cos(angle - 0.5), y1 - head * math.sin(angle - 0.5)),
        (x1 - head * math.cos(angle + 0.5), y1 - head * math.sin(angle + 0.5)),
    ]
    draw.line(shaft, fill=WHITE, width=width + 4)
    draw.polygon(tip, fill=colour, outline=WHITE, width=2)
    draw.line(shaft, fill=colour, width=width)


@lru_cache(maxsize=1)
def palette() -> Image.Image:
    """Every colour the board picture draws with, and the anti-aliased edges of its text.

    Why fixed: mapping to a known palette is ~4x faster than finding one per picture, and
    quantising was half of a Wonderland picture's time."""
    solids = [
        PALETTE.background, PALETTE.board_light, PALETTE.board_dark, PALETTE.panel, PALETTE.ivory, FACE_UP_RIM, BACK,
        BACK_HATCH, (10, 30, 50), *TOKEN, *GHOST, PALETTE.pip, *PALETTE.seats, GUIDE, PALETTE.text, PALETTE.muted,
        PALETTE.highlight, RED_INK, BLACK_INK, ATTACK, WHITE, (90, 90, 90), (190, 180, 160), *PALETTE.seat_ink,
        PALETTE.accent, *CHROME_SOLIDS,
    ]  # fmt: skip
    pairs = [
        *CHROME_PAIRS,
        *((ink, PALETTE.background) for ink in (PALETTE.text, PALETTE.muted, PALETTE.highlight)),  # coordinates, panel
        (PALETTE.muted, PALETTE.panel),  # a seat card's details
        *zip(PALETTE.seat_ink, PALETTE.seats, strict=True),  # an Image's lives
        (PALETTE.pip, PALETTE.muted),  # a dead Image's
        *((ink, face) for ink in (RED_INK, BLACK_INK) for face in (*TOKEN, *GHOST, WHITE)),  # ranks on tokens, dice
        *((ink, rim) for ink in (RED_INK, BLACK_INK) for rim in (PALETTE.pip, *PALETTE.seats)),  # crowded ranks
        (WHITE, ATTACK),  # badges
        *((ink, PALETTE.ivory) for ink in (PALETTE.pip, ATTACK)),  # die faces
    ]
    return fixed_palette(solids, pairs=pairs, steps=None)


# --- the board --------------------------------------------------------------------------------


@lru_cache(maxsize=16)
def _background(
    left: int, lo: int, cols: int, ranks: int, size: tuple[int, int], guide_file: int, cell: int
) -> Image.Image:
    """The empty board for one crop: squares, coordinates and the guide line (cached:
    it only changes when the crop does)."""
    img = Image.new("RGB", size, PALETTE.background)
    draw = ImageDraw.Draw(img)
    board_w, board_h = cols * cell, ranks * cell
    draw.rectangle((left, TOP, left + board_w - 1, TOP + board_h - 1), fill=PALETTE.board_light)
    for col in range(cols):
        for r in range(ranks):
            if (col + lo + r) % 2 == 0:
                x, y = left + col * cell, TOP + (ranks - 1 - r) * cell
                draw.rectangle((x, y, x + cell - 1, y + cell - 1), fill=PALETTE.board_dark)
    if lo <= guide_file < lo + cols:  # the guide line between the Images: drawn only, never an obstacle
        gx = left + (guide_file - lo) * cell + cell / 2
        for r in range(1, ranks - 1):
            top = TOP + (ranks - 1 - r) * cell
            draw.line((gx, top + cell * 0.2, gx, top + cell * 0.8), fill=GUIDE, width=3)
    for col in range(cols):
        text_center(
            draw,
            (left + col * cell + cell / 2, TOP + board_h + LABEL_BAND / 2),
            FILES[lo + col],
            COORD_SIZE,
            PALETTE.text,
        )
    for r in range(ranks):
        centre = (left - LEFT / 2 - 2, TOP + (ranks - 1 - r) * cell + cell / 2)
        text_center(draw, centre, str(r + 1), COORD_SIZE, PALETTE.text)
    return img


def _draw_domino(img: Image.Image, lay: Layout, a: str, b: str, face_up: bool) -> None:
    ax0, ay0, _, _ = lay.box(a)
    bx0, by0, _, _ = lay.box(b)
    sprite = _domino_sprite(lay.cell, ay0 == by0, face_up)
    img.paste(sprite, (int(min(ax0, bx0)), int(min(ay0, by0))), sprite)


@lru_cache(maxsize=16)
def _domino_sprite(cell: int, horizontal: bool, face_up: bool) -> Image.Image:
    """One domino covering two squares, drawn once per size and kind."""
    w, h = (2 * cell, cell) if horizontal else (cell, 2 * cell)
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    inset = max(2, cell // 14)
    box = (inset, inset, w - inset - 1, h - inset - 1)
    radius = cell // 6
    if face_up:
        draw.rounded_rectangle(box, radius=radius, fill=PALETTE.ivory, outline=FACE_UP_RIM, width=4)
        if horizontal:  # a divider between the halves
            draw.line((w / 2, box[1] + 6, w / 2, box[3] - 6), fill=(190, 180, 160), width=2)
        else:
            draw.line((box[0] + 6, h / 2, box[2] - 6, h / 2), fill=(190, 180, 160), width=2)
        return img
    # face down: a card-back look, a dark face with a light inner rim and a diamond per half
    draw.rounded_rectangle(box, radius=radius, fill=BACK, outline=(10, 30, 50), width=4)
    pad = max(4, cell // 9)
    inner = (box[0] + pad, box[1] + pad, box[2] - pad, box[3] - pad)
    draw.rounded_rectangle(inner, radius=max(2, radius - pad // 2), outline=BACK_HATCH, width=2)
    halves = (
        ((cell / 2, cell / 2), (1.5 * cell, cell / 2)) if horizontal else ((cell / 2, cell / 2), (cell / 2, 1.5 * cell))
    )
    d = cell * 0.13
    for cx, cy in halves:
        draw.polygon([(cx, cy - d), (cx + d, cy), (cx, cy + d), (cx - d, cy)], fill=BACK_HATCH)
    return img


def _draw_image(draw: ImageDraw.ImageDraw, lay: Layout, image: dict[str, Any]) -> None:
    """An Image: a hexagon in its seat's colour (grey once dead) with its lives as a big number."""
    if not lay.visible(image["square"]):
        return
    cx, cy = lay.centre(image["square"])
    seat, lives = int(image["seat"]), int(image["lives"])
    fill = PALETTE.seats[seat] if lives else PALETTE.muted
    draw.regular_polygon((cx, cy, lay.cell * 0.5), 6, fill=fill, outline=PALETTE.pip, width=3)
    ink = PALETTE.seat_ink[seat] if lives else PALETTE.pip
    text_center(draw, (cx, cy), str(lives), max(SMALL_TEXT, int(lay.cell * 0.6)), ink, bold=True)


def _draw_being(img: Image.Image, lay: Layout, being: dict[str, Any]) -> None:
    if lay.visible(being["square"]):
        x0, y0, _, _ = lay.box(being["square"])
        sprite = _being_sprite(str(being["card"]), int(being["owner"]), lay.cell)
        img.paste(sprite, (int(x0), int(y0)), sprite)


def _token_outline(owner: int, cell: int, inset: float) -> list[tuple[float, float]]:
    """The token's edge, `inset` px inside the square: a square with its corners cut by a
    hair (seat 0) or an octagon (seat 1), which tells the seats apart without colour."""
    cut = cell * (0.05 if owner == 0 else 0.2)
    lo, hi = inset, cell - 1 - inset
    return [
        (lo + cut, lo), (hi - cut, lo), (hi, lo + cut), (hi, hi - cut),
        (hi - cut, hi), (lo + cut, hi), (lo, hi - cut), (lo, lo + cut),
    ]  # fmt: skip


@lru_cache(maxsize=128)
def _being_sprite(card: str, owner: int, cell: int) -> Image.Image:
    """A being's token, laid out like a card's corner index: the rank big and bold over the
    suit symbol, both in full-contrast ink on a near-white face framed in the owner's
    colour; its chess piece is a pale silhouette behind them."""
    img = Image.new("RGBA", (cell, cell), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    inset = cell * 0.04
    draw.polygon(_token_outline(owner, cell, inset), fill=PALETTE.pip)  # a dark edge: it lifts the token
    face = _token_outline(owner, cell, inset + 2)  # off a domino rimmed in the same colour
    draw.polygon(face, fill=TOKEN[owner], outline=PALETTE.seats[owner], width=max(4, cell // 16))
    rank, suit = card[:-1], card[-1]
    piece(draw, piece_kind(rank), (cell * 0.14, cell * 0.12, cell * 0.86, cell * 0.86), owner, ghost=True)
    ink = RED_INK if suit in "HD" else BLACK_INK
    size = max(SMALL_TEXT, int(cell * 0.53))  # at least phone size: on small squares it fills more
    crowded = size > cell * 0.55
    text(draw, (cell * 0.5, cell * (0.5 if crowded else 0.54)), rank, size, ink, anchor="ms", bold=True)
    suit_shape(draw, suit, cell * 0.5, cell * (0.76 if crowded else 0.71), cell * (0.26 if crowded else 0.31))
    return img


def _last_squares(last: str | None) -> list[str]:
    if not last:
        return []
    words = last.split()
    if words[0] == "summon":
        return [s for w in words[2:5] for s in w.split("-")]
    if words[0] == "move":
        return words[2].split("-")
    if words[0] in ("attack", "ability") and _SQUARE.match(words[-1]):
        return [words[-1]]
    return []


def _draw_move_trail(draw: ImageDraw.ImageDraw, lay: Layout, view: dict[str, Any]) -> None:
    """Each last move's path as a yellow line (under the tokens, which cover its ends)."""
    for last in _last_actions(view):
        squares = [s for s in _last_squares(last) if lay.visible(s)]
        if last.startswith("move") and len(squares) > 1:
            points = [lay.centre(s) for s in squares]
            draw.line(points, fill=PALETTE.pip, width=11, joint="curve")  # a dark edge: yellow alone fades on ivory
            draw.line(points, fill=PALETTE.highlight, width=6, joint="curve")


def _draw_highlight(draw: ImageDraw.ImageDraw, lay: Layout, view: dict[str, Any]) -> None:
    """Yellow outlines on the last actions' squares (over the tokens, so they stay visible)."""
    for s in sorted({sq for last in _last_actions(view) for sq in _last_squares(last)}):
        if lay.visible(s):
            x0, y0, x1, y1 = lay.box(s)
            draw.rectangle((x0, y0, x1, y1), outline=PALETTE.pip, width=6)  # a dark edge: yellow alone fades on ivory
            draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=PALETTE.highlight, width=4)


def _draw_attacks(draw: ImageDraw.ImageDraw, lay: Layout, view: dict[str, Any]) -> dict[str, int]:
    """Arrows from attacker to target and a red outline on each target; returns the points
    pending on each target square."""
    where = {(b["owner"], b["card"]): b["square"] for b in view["beings"]}
    totals: dict[str, int] = {}
    for attack in view["pending_attacks"]:
        target = attack["target"]["square"]
        if target is None or not lay.visible(target):
            continue
        totals[target] = totals.get(target, 0) + int(attack["points"])
        source = where.get((attack["attacker"]["owner"], attack["attacker"]["card"]))
        if source is not None and lay.visible(source):
            arrow(draw, lay.centre(source), lay.centre(target), ATTACK, lay.cell)
    for target in totals:
        x0, y0, x1, y1 = lay.box(target)
        draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=ATTACK, width=4)
    return totals


def _draw_badges(draw: ImageDraw.ImageDraw, lay: Layout, view: dict[str, Any], pending: dict[str, int]) -> None:
    """Last of all, so nothing covers them: damage on a token's top right corner, pending
    attack points on its top left."""
    inset = lay.cell * 0.08
    for being in view["beings"]:
        if being["damage"] and lay.visible(being["square"]):
            _, y0, x1, _ = lay.box(being["square"])
            badge(draw, (x1 - inset, y0 + inset), f"-{being['damage']}", lay.cell)
    for target, points in pending.items():
        x0, y0, _, _ = lay.box(target)
        badge(draw, (x0 + inset, y0 + inset), str(points), lay.cell)


# --- the panel --------------------------------------------------------------------------------

PANEL_MIN_H = 900
"""The panel's least height (a board of few ranks would otherwise leave it too short)."""


class _Column:
    """The panel as a column: each call draws at the running y, inside the panel's box."""

    def __init__(self, draw: ImageDraw.ImageDraw, lay: Layout) -> None:
        self.draw = draw
        self.x0, self.y, self.x1, self.bottom = lay.panel
        self.box = (self.x0 - 4, 0, WIDTH, lay.height)

    def lines(self, content: str, size: int, colour: Color, *, key: bool = False, indent: int = 0) -> None:
        for line in wrap(content, size, self.x1 - self.x0 - indent):
            text(self.draw, (self.x0 + indent, self.y), line, size, colour, box=self.box, key=key)
            self.y += line_height(size)


def _factors(view: dict[str, Any], seat: int) -> dict[str, int] | None:
    factors = view["factors"][seat] if view["factors"] is not None else None
    if factors is None and view.get("private") is not None and view.get("you") == seat:
        factors = view["private"].get("factors")
    return factors


def _draw_seat_card(col: _Column, view: dict[str, Any], seat: int) -> None:
    """One seat's box: colour name and Image lives as hearts, the factor pool, cards left."""
    draw, x0, x1 = col.draw, col.x0, col.x1
    active = seat in view["turn"]
    factors = _factors(view, seat)
    detail: str
    if view["pool_left"] is None:
        detail = tr("picking the pool deck") if active else tr("pool deck picked")
    else:
        detail = tr(
            "{left} cards left · {count} summoned", left=view["pool_left"][seat], count=len(view["summoned"][seat])
        )
    if view["factors"] is None and factors is None:
        hidden = tr("factors hidden")
        detail = f"{say(detail)} · {say(hidden)}"
    details = wrap(detail, SMALL_TEXT, x1 - x0 - 24)
    top = col.y
    name_h = line_height(SMALL_TEXT) + 8
    boxes_h = line_height(SMALL_TEXT) + 40
    height = 8 + name_h + boxes_h + 8 + len(details) * line_height(SMALL_TEXT) + 8
    room = (x0, top, x1, top + height)
    draw.rounded_rectangle(
        room, radius=10, fill=PALETTE.panel, outline=PALETTE.turn if active else PALETTE.panel, width=4
    )
    seat_token(draw, (x0 + 22, top + 8 + name_h / 2), 12, seat)
    text(draw, (x0 + 42, top + 8 + name_h / 2), ("Orange", "Blue")[seat], SMALL_TEXT, PALETTE.text, anchor="lm",
         bold=True, box=room)  # fmt: skip
    lives = int(view["images"][seat]["lives"])
    for i in range(3):  # hearts from the right: lost lives are the grey ones on the left
        heart(draw, x1 - 24 - i * 34, top + 8 + name_h / 2, 26, RED_INK if i < lives else (90, 90, 90))
    y = top + 8 + name_h
    gap = 6
    box_w = (x1 - x0 - 24 - 4 * gap) / 5
    for i, kind in enumerate("CFDAM"):
        bx = x0 + 12 + i * (box_w + gap)
        draw.rounded_rectangle((bx, y, bx + box_w, y + boxes_h), radius=6, fill=PALETTE.background)
        text_center(
            draw, (bx + box_w / 2, y + line_height(SMALL_TEXT) / 2 + 2), kind, SMALL_TEXT, PALETTE.muted, box=room
        )
        value = "?" if factors is None else str(factors[kind])
        text_center(draw, (bx + box_w / 2, y + boxes_h - 20), value, SMALL_TEXT, PALETTE.text, bold=True, box=room)
    y += boxes_h + 8
    for line in details:
        text(draw, (x0 + 12, y), line, SMALL_TEXT, PALETTE.muted, box=room)
        y += line_height(SMALL_TEXT)
    col.y = top + height + 12


def _draw_dice(col: _Column, view: dict[str, Any]) -> None:
    """This turn's dice: the rolled face (or ?) over the card named on the die, and its level."""
    dice = view["dice"]
    rolled = view.get("rolled")
    if rolled is None and view.get("private") is not None:
        rolled = view["private"].get("rolled")
    if not dice:
        col.lines(tr("Dice: none chosen yet"), SMALL_TEXT, PALETTE.muted)
        return
    col.lines(tr("Dice this turn"), SMALL_TEXT, PALETTE.text)
    draw, size = col.draw, 58
    step = (col.x1 - col.x0) // max(3, len(dice))
    for i, die in enumerate(dice):
        bx, by = col.x0 + i * step, col.y
        draw.rounded_rectangle(
            (bx, by, bx + size, by + size), radius=9, fill=PALETTE.ivory, outline=PALETTE.pip, width=2
        )
        face = rolled[i] if rolled is not None else "?"
        ink = ATTACK if face == "S" else PALETTE.pip
        text_center(draw, (bx + size / 2, by + size / 2), face, 36, ink, bold=True, box=col.box)
        label_top = by + size + 6
        draw.rounded_rectangle((bx, label_top, bx + size + 20, label_top + 38), radius=5, fill=WHITE)
        card_label(draw, die["card"], bx + (size + 20) / 2, label_top + 19, SMALL_TEXT)
        text(draw, (bx + size + 6, by + 2), f"L{die['level']}", SMALL_TEXT, PALETTE.muted, box=col.box)
    col.y += size + 6 + 38 + 10


def _draw_pending(col: _Column, view: dict[str, Any]) -> None:
    """The attacks waiting for the defence step, wrapped; the rest counted when room runs out."""
    attacks = view["pending_attacks"]
    if not attacks:
        col.lines(tr("Pending attacks: none"), SMALL_TEXT, PALETTE.muted)
        return
    col.lines(tr("Pending attacks"), SMALL_TEXT, PALETTE.text)
    for n, attack in enumerate(attacks):
        target = attack["target"]
        what = "Image" if target["card"] is None else f"{target['card']} {target['square'] or ''}".strip()
        line = tr(
            "{attacker} → {target}: {points} pts",
            attacker=attack["attacker"]["card"],
            target=what,
            points=attack["points"],
        )
        needed = len(wrap(line, SMALL_TEXT, col.x1 - col.x0)) * line_height(SMALL_TEXT)
        if col.y + needed + line_height(SMALL_TEXT) > col.bottom and n < len(attacks) - 1:
            col.lines(tr_n("and {n} more", "and {n} more", len(attacks) - n), SMALL_TEXT, PALETTE.muted)
            return
        col.lines(line, SMALL_TEXT, PALETTE.text)


def _last_actions(view: dict[str, Any]) -> list[str]:
    """The last actions to highlight: `last_actions` when the view lists them, else the last move."""
    actions = view.get("last_actions")
    if actions:
        return [str(a) for a in actions]
    return [view["last_move"]] if view.get("last_move") else []


def _draw_panel(draw: ImageDraw.ImageDraw, lay: Layout, view: dict[str, Any]) -> None:
    """One column right of the board, always in the same place: status, the last actions,
    seat 1's card (it sits at the top of the board), seat 0's, the dice, pending attacks."""
    col = _Column(draw, lay)
    col.lines(phase_words(view["phase"]), SMALL_TEXT, PALETTE.text)  # the turn counter is the footer's
    actions = _last_actions(view)
    for action in actions[-3:]:
        col.lines(tr("Last: {move}", move=action), KEY_TEXT, PALETTE.highlight, key=True)
    col.y += 6
    for seat in (1, 0):
        _draw_seat_card(col, view, seat)
    _draw_dice(col, view)
    _draw_pending(col, view)


def board(view: dict[str, Any]) -> Image.Image:
    """The board body for `view` (public or a seat's view)."""
    lay = Layout(view)
    guide_file = _coords(view["images"][0]["square"])[0]
    img = _background(lay.left, lay.lo, lay.cols, lay.ranks, (lay.width, lay.height), guide_file, lay.cell).copy()
    draw = ImageDraw.Draw(img)
    for path in view["paths"]:
        for a, b in path["dominoes"]:
            if lay.visible(a) and lay.visible(b):
                _draw_domino(img, lay, a, b, bool(path["face_up"]))
    for image in view["images"]:
        _draw_image(draw, lay, image)
    _draw_move_trail(draw, lay, view)
    for being in view["beings"]:
        _draw_being(img, lay, being)
    _draw_highlight(draw, lay, view)
    pending = _draw_attacks(draw, lay, view)
    _draw_badges(draw, lay, view, pending)
    _draw_panel(draw, lay, view)
    return img


# --- the private picture: the pool deck ----------------------------------------------------------


def private(view: dict[str, Any]) -> Image.Image | None:
    """The seat's pool deck as cards with level and Str/Atk/Def; None for a public view."""
    mine = view.get("private")
    if mine is None:
        return None
    cards = list(mine.get("pool", []))
    per_row = 4
    card_w, card_h, gap = 192, 170, 14
    small = phone_size(MIN_WIDTH)
    rows = max(1, math.ceil(len(cards) / per_row))
    width = max(MIN_WIDTH, per_row * (card_w + gap) + gap)
    secret_lines = _hidden_factor_lines(view)
    picking = view.get("phase") == "pool" and len(cards) < POOL_SIZE
    choices_top = 60 + 36 * len(secret_lines)
    top = choices_top + (_choices_height(small) if picking else 0)
    height = top + rows * (card_h + gap) + 10
    img = Image.new("RGB", (width, height), PALETTE.background)
    draw = ImageDraw.Draw(img)
    if picking:
        title = tr("Your pool deck: {n} of {total} cards", n=len(cards), total=POOL_SIZE)
    else:
        title = tr_n("Your pool deck: {n} card", "Your pool deck: {n} cards", len(cards))
    text(draw, (gap, 14), title, small, PALETTE.text, bold=True)
    for i, line in enumerate(secret_lines):
        text(draw, (gap, 56 + 36 * i), fit_text(line, 26, width - 2 * gap), 26, PALETTE.text)
    if picking:
        _draw_choices(draw, cards, int(view.get("you", 0)), choices_top, width, small)
    if not cards:
        text(draw, (gap, top + 10), "(empty)", small, PALETTE.muted)  # under the secret lines, if any
    for i, card in enumerate(cards):
        x = gap + (i % per_row) * (card_w + gap)
        y = top + (i // per_row) * (card_h + gap)
        draw.rounded_rectangle(
            (x, y, x + card_w, y + card_h), radius=10, fill=(255, 255, 255), outline=PALETTE.pip, width=2
        )
        card_label(draw, card, x + card_w / 2 - 30, y + 28, 30)
        text(draw, (x + card_w - 12, y + 28), f"L{_level(card)}", small, CARD_GREY, anchor="rm")
        rank = card[:-1]
        piece(draw, piece_kind(rank), (x + 70, y + 48, x + card_w - 70, y + 98), int(view.get("you", 0)))
        strength, attack, defence = STATS[rank]
        text_center(draw, (x + card_w / 2, y + 118), f"{strength} / {attack} / {defence}", small, BLACK_INK, bold=True)
        text_center(draw, (x + card_w / 2, y + 148), tr("Str / Atk / Def"), small, CARD_GREY)
    return img


CHOICE_W, CHOICE_H, CHOICE_GAP = 58, 46, 6


def _choices_height(size: int) -> int:
    return 2 * line_height(size) + len(SUITS) * (CHOICE_H + CHOICE_GAP) + 12


def pool_choices(pool: list[str]) -> dict[str, str]:
    """Each of the 52 cards as "picked", "blocked" (its rank is in the pool in its colour:
    the rule forbids it) or "free", read off the seat's own pool."""
    taken = {(card[:-1], card[-1] in RED_SUITS) for card in pool}
    out = {}
    for suit in SUITS:
        for rank in RANKS:
            card = f"{rank}{suit}"
            out[card] = "picked" if card in pool else "blocked" if (rank, suit in RED_SUITS) in taken else "free"
    return out


def _draw_choices(draw: ImageDraw.ImageDraw, pool: list[str], seat: int, top: int, width: int, size: int) -> None:
    """The pool pick as the choice it is: all 52 cards by suit and rank; picked ones framed in
    the seat's colour, the ones the rule now forbids (a rank already picked in that colour)
    greyed, the rest free to pick."""
    choices = pool_choices(pool)
    left = POOL_SIZE - len(pool)
    how = tr("Pick {left} more (no two of one rank and colour): type “pick AH”", left=left)
    text(draw, (CHOICE_GAP * 2, top), fit_text(how, size, width - 4 * CHOICE_GAP), size, PALETTE.muted)
    y0 = top + line_height(size) + 6
    x0 = (width - len(RANKS) * (CHOICE_W + CHOICE_GAP) + CHOICE_GAP) / 2
    for row, suit in enumerate(SUITS):
        for col, rank in enumerate(RANKS):
            card = f"{rank}{suit}"
            x, y = x0 + col * (CHOICE_W + CHOICE_GAP), y0 + row * (CHOICE_H + CHOICE_GAP)
            box = (x, y, x + CHOICE_W, y + CHOICE_H)
            if choices[card] == "picked":
                draw.rounded_rectangle((x - 5, y - 5, x + CHOICE_W + 5, y + CHOICE_H + 5), radius=9,
                                       fill=PALETTE.seats[seat])  # fmt: skip
            if choices[card] == "blocked":
                draw.rounded_rectangle(box, radius=6, fill=PALETTE.panel)
                text_center(draw, (x + CHOICE_W / 2, y + CHOICE_H / 2), card, size, PALETTE.muted)
            else:
                draw.rounded_rectangle(box, radius=6, fill=WHITE)
                card_label(draw, card, x + CHOICE_W / 2, y + CHOICE_H / 2, size)
    legend_y = y0 + len(SUITS) * (CHOICE_H + CHOICE_GAP) + 4
    legend = tr("framed: in your pool  ·  grey: that rank is taken in that colour")
    text(draw, (CHOICE_GAP * 2, legend_y), fit_text(legend, size, width - 4 * CHOICE_GAP), size, PALETTE.muted)


@lru_cache(maxsize=1)
def private_palette() -> Image.Image:
    """Every colour the pool-deck picture draws (white cards, pieces, ranks) and its text edges."""
    solids = [
        PALETTE.background, WHITE, PALETTE.pip, *PALETTE.seats, PALETTE.text, RED_INK, BLACK_INK, CARD_GREY,
        PALETTE.highlight, PALETTE.muted, *CHROME_SOLIDS,
    ]  # fmt: skip
    pairs = [
        *CHROME_PAIRS,
        *((ink, PALETTE.background) for ink in (PALETTE.text, PALETTE.muted, PALETTE.highlight)),
        *((ink, WHITE) for ink in (RED_INK, BLACK_INK, CARD_GREY)),
    ]
    return fixed_palette(solids, pairs=pairs, steps=None)


def _hidden_factor_lines(view: dict[str, Any]) -> list[str]:
    """With `hidden_factors=on`: the seat's own factors and roll, which nobody else sees."""
    mine = view.get("private") or {}
    factors = mine.get("factors")
    if not isinstance(factors, dict):
        return []
    names = {"C": "Chance", "F": "Force", "D": "Defend", "A": "Attack", "M": "Move"}
    lines: list[str] = [
        tr("Your factors: {factors}", factors="  ".join(f"{names.get(k, k)} {v}" for k, v in factors.items()))
    ]
    rolled = mine.get("rolled")
    if rolled:
        cards = [str(d.get("card")) for d in view.get("dice", [])]
        faces = (f"{c} {names.get(f, 'Summon')}" for c, f in zip(cards, rolled, strict=False))
        lines.append(tr("Your roll: {faces}", faces=",  ".join(faces)))
    return lines


def _level(card: str) -> int:
    rank, suit = card[:-1], card[-1]
    red = suit in "HD"
    courts = {"J": (1, 2), "Q": (2, 3), "K": (3, 4)}
    if rank in courts:
        return courts[rank][1 if red else 0]
    return {"A": 1, "4": 1, "2": 2, "5": 2, "6": 2, "3": 3, "7": 3}.get(rank, 4)
