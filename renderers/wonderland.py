"""Wonderland board picture: the domino paths, Images, beings as chess pieces, and a panel.

Why this look: the board is large (13×20) but play happens in a part of it, so the picture
crops to the files in use (both Images always stay in view, they are the targets) and
gives each square as many pixels as the height allows.  Seat 0 lays its dominoes face up
(ivory faces, orange rims), seat 1 face down (dark blue backs with hatching): the two are
told apart by shape and lightness, not only colour.  A being is a chess piece in its
owner's colour (pawn A–8, bishop 9, rook 10, knight J, queen Q, king K) over a white plate
with rank and suit (red suits in red); a red badge shows its damage.  Pending attacks are
red arrows with their points; the last move is outlined in yellow.

The panel on the right holds, per seat, the Image's life, the factor pool (C F D A M, or
"hidden"), cards left and summoned; then the dice of this turn with their faces; then the
pending attacks.  `private(view)` draws the seat's pool deck as cards with their stats.

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

from renderers.kit import PALETTE, Color, font, seat_token, text_center

FILES = "abcdefghijklmnopqrstuvwxyz"
MAX_CELL = 42
BOARD_MAX_H = 840
LEFT = 40
TOP = 16
PANEL_W = 300
MIN_WIDTH = 860
RED_INK: Color = (200, 30, 30)
BLACK_INK: Color = (20, 20, 20)
ATTACK: Color = PALETTE.bad
FACE_UP_RIM: Color = PALETTE.seats[0]
BACK: Color = (18, 62, 104)
BACK_HATCH: Color = (60, 120, 175)
GUIDE: Color = (150, 138, 112)
TOKEN: tuple[Color, Color] = ((255, 236, 200), (214, 232, 248))
"""Light tints of the seat colours: the ground a being's piece stands on."""
STATS = {
    "A": (1, 1, 1), "2": (2, 1, 2), "3": (3, 1, 3), "4": (2, 2, 0), "5": (2, 3, 1), "6": (3, 2, 0),
    "7": (3, 3, 1), "8": (3, 3, 2), "9": (4, 3, 1), "10": (4, 3, 2), "J": (1, 2, 0), "Q": (1, 2, 0), "K": (1, 2, 0),
}  # fmt: skip
_SQUARE = re.compile(r"^([a-z])(\d+)$")


def _coords(name: str) -> tuple[int, int]:
    match = _SQUARE.match(name)
    assert match is not None, name
    return FILES.index(match.group(1)), int(match.group(2)) - 1


class Layout:
    """Where the cropped board sits: file range, cell size, pixel helpers."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.ranks = int(view["ranks"])
        used = [image["square"] for image in view["images"]]
        used += [sq for path in view["paths"] for domino in path["dominoes"] for sq in domino]
        used += [b["square"] for b in view["beings"]]
        files = [_coords(s)[0] for s in used]
        total = int(view["files"])
        lo, hi = max(0, min(files) - 2), min(total - 1, max(files) + 2)
        while hi - lo + 1 < 7:  # never narrower than 7 files
            lo, hi = max(0, lo - 1), min(total - 1, hi + 1)
        self.lo, self.hi = lo, hi
        self.cols = hi - lo + 1
        self.cell = min(MAX_CELL, BOARD_MAX_H // self.ranks)
        self.board_w = self.cols * self.cell
        self.board_h = self.ranks * self.cell
        self.panel_x = LEFT + self.board_w + 24
        self.width = max(MIN_WIDTH, self.panel_x + PANEL_W + 12)
        self.height = max(TOP + self.board_h + 36, 620)

    def box(self, name: str) -> tuple[float, float, float, float]:
        f, r = _coords(name)
        x = LEFT + (f - self.lo) * self.cell
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
        r = s * 0.52
        draw.ellipse((cx - 2 * r, cy - s * 0.75, cx, cy - s * 0.75 + 2 * r), fill=ink)
        draw.ellipse((cx, cy - s * 0.75, cx + 2 * r, cy - s * 0.75 + 2 * r), fill=ink)
        draw.polygon([(cx - 2 * r + 0.5, cy - s * 0.2), (cx + 2 * r - 0.5, cy - s * 0.2), (cx, cy + s)], fill=ink)
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
    """Rank then suit symbol, centred on (cx, cy)."""
    rank, suit = card[:-1], card[-1]
    f = font(size)
    width = f.getlength(rank) + size * 0.85
    x = cx - width / 2
    draw.text((x, cy), rank, font=f, fill=RED_INK if suit in "HD" else BLACK_INK, anchor="lm")
    suit_shape(draw, suit, x + f.getlength(rank) + size * 0.45, cy, size * 0.8)


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


def piece(draw: ImageDraw.ImageDraw, kind: str, box: tuple[float, float, float, float], owner: int) -> None:
    """A chess piece silhouette in the owner's colour inside `box`."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    fill = PALETTE.seats[owner]
    outline = PALETTE.pip if owner == 0 else PALETTE.text
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


def arrow(draw: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], colour: Color, width: int) -> None:
    (x0, y0), (x1, y1) = a, b
    angle = math.atan2(y1 - y0, x1 - x0)
    shorten = 12
    x1, y1 = x1 - shorten * math.cos(angle), y1 - shorten * math.sin(angle)
    draw.line((x0, y0, x1, y1), fill=colour, width=width)
    head = 11
    left = (x1 - head * math.cos(angle - 0.5), y1 - head * math.sin(angle - 0.5))
    right = (x1 - head * math.cos(angle + 0.5), y1 - head * math.sin(angle + 0.5))
    draw.polygon([(x1, y1), left, right], fill=colour)


# --- the board --------------------------------------------------------------------------------


@lru_cache(maxsize=16)
def _background(lo: int, cols: int, ranks: int, cell: int, size: tuple[int, int], guide_file: int) -> Image.Image:
    """The empty board for one crop: squares, coordinates and the guide line (cached:
    it only changes when the crop does)."""
    img = Image.new("RGB", size, PALETTE.background)
    draw = ImageDraw.Draw(img)
    board_w, board_h = cols * cell, ranks * cell
    draw.rectangle((LEFT, TOP, LEFT + board_w - 1, TOP + board_h - 1), fill=PALETTE.board_light)
    for col in range(cols):
        for r in range(ranks):
            if (col + lo + r) % 2 == 0:
                x, y = LEFT + col * cell, TOP + (ranks - 1 - r) * cell
                draw.rectangle((x, y, x + cell - 1, y + cell - 1), fill=PALETTE.board_dark)
    if lo <= guide_file < lo + cols:  # the guide line between the Images: drawn only, never an obstacle
        gx = LEFT + (guide_file - lo) * cell + cell / 2
        for r in range(1, ranks - 1):
            top = TOP + (ranks - 1 - r) * cell
            draw.line((gx, top + cell * 0.2, gx, top + cell * 0.8), fill=GUIDE, width=2)
    label = max(12, min(16, cell // 3))
    for col in range(cols):
        text_center(draw, (LEFT + col * cell + cell / 2, TOP + board_h + 14), FILES[lo + col], label, PALETTE.muted)
    for r in range(ranks):
        text_center(draw, (LEFT - 16, TOP + (ranks - 1 - r) * cell + cell / 2), str(r + 1), label, PALETTE.muted)
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
        draw.rounded_rectangle(box, radius=radius, fill=PALETTE.ivory, outline=FACE_UP_RIM, width=3)
        if horizontal:  # a divider between the halves
            draw.line((w / 2, box[1] + 5, w / 2, box[3] - 5), fill=(190, 180, 160), width=2)
        else:
            draw.line((box[0] + 5, h / 2, box[2] - 5, h / 2), fill=(190, 180, 160), width=2)
        return img
    # face down: a card-back look, a dark face with a light inner rim and a diamond per half
    draw.rounded_rectangle(box, radius=radius, fill=BACK, outline=(10, 30, 50), width=3)
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
    if not lay.visible(image["square"]):
        return
    cx, cy = lay.centre(image["square"])
    r = lay.cell * 0.46
    seat, lives = int(image["seat"]), int(image["lives"])
    fill = PALETTE.seats[seat] if lives else PALETTE.muted
    draw.regular_polygon((cx, cy, r), 6, fill=fill, outline=PALETTE.pip, width=3)
    ink = PALETTE.seat_ink[seat] if lives else PALETTE.pip
    text_center(draw, (cx, cy), str(lives), int(lay.cell * 0.56), ink)


def _draw_being(img: Image.Image, draw: ImageDraw.ImageDraw, lay: Layout, being: dict[str, Any]) -> None:
    if not lay.visible(being["square"]):
        return
    x0, y0, x1, _y1 = lay.box(being["square"])
    cell = lay.cell
    sprite = _being_sprite(str(being["card"]), int(being["owner"]), cell)
    img.paste(sprite, (int(x0), int(y0)), sprite)
    if being["damage"]:
        r = cell * 0.2
        bx, by = x1 - r + 2, y0 + r - 2
        draw.ellipse((bx - r, by - r, bx + r, by + r), fill=ATTACK, outline=(255, 255, 255), width=2)
        text_center(draw, (bx, by), f"-{being['damage']}", max(11, int(cell * 0.24)), (255, 255, 255))


@lru_cache(maxsize=128)
def _being_sprite(card: str, owner: int, cell: int) -> Image.Image:
    """A being's token: a light tile in its owner's tint (it stands out on either kind of
    domino), its chess piece and its rank and suit."""
    img = Image.new("RGBA", (cell, cell), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    inset = cell * 0.06
    draw.rounded_rectangle(
        (inset, inset, cell - inset, cell - inset), radius=cell // 6, fill=TOKEN[owner],
        outline=PALETTE.seats[owner], width=3,
    )  # fmt: skip
    piece(draw, piece_kind(card[:-1]), (cell * 0.14, cell * 0.07, cell * 0.86, cell * 0.6), owner)
    card_label(draw, card, cell / 2, cell * 0.78, max(12, int(cell * 0.32)))
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


def _draw_highlight(draw: ImageDraw.ImageDraw, lay: Layout, view: dict[str, Any]) -> None:
    last = view.get("last_move")
    squares = [s for s in _last_squares(last) if lay.visible(s)]
    if last and last.startswith("move") and len(squares) > 1:
        points = [lay.centre(s) for s in squares]
        draw.line(points, fill=PALETTE.highlight, width=5, joint="curve")
    for s in squares:
        draw.rectangle(lay.box(s), outline=PALETTE.highlight, width=3)


def _draw_attacks(draw: ImageDraw.ImageDraw, lay: Layout, view: dict[str, Any]) -> None:
    where = {(b["owner"], b["card"]): b["square"] for b in view["beings"]}
    totals: dict[str, int] = {}
    for attack in view["pending_attacks"]:
        target = attack["target"]["square"]
        if target is None or not lay.visible(target):
            continue
        totals[target] = totals.get(target, 0) + int(attack["points"])
        source = where.get((attack["attacker"]["owner"], attack["attacker"]["card"]))
        if source is not None and lay.visible(source):
            arrow(draw, lay.centre(source), lay.centre(target), ATTACK, 4)
    for target, points in totals.items():
        x0, y0, x1, y1 = lay.box(target)
        draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=ATTACK, width=3)
        r = lay.cell * 0.2
        bx, by = x0 + r - 2, y0 + r - 2  # top left: the damage badge sits top right
        draw.ellipse((bx - r, by - r, bx + r, by + r), fill=ATTACK, outline=(255, 255, 255), width=2)
        text_center(draw, (bx, by), str(points), max(11, int(lay.cell * 0.26)), (255, 255, 255))


# --- the panel --------------------------------------------------------------------------------


def _draw_seat_panel(draw: ImageDraw.ImageDraw, x: int, y: int, view: dict[str, Any], seat: int) -> int:
    active = seat in view["turn"]
    draw.rounded_rectangle(
        (x, y, x + PANEL_W - 12, y + 128), radius=10, fill=PALETTE.panel,
        outline=PALETTE.highlight if active else PALETTE.panel, width=3,
    )  # fmt: skip
    seat_token(draw, (x + 22, y + 24), 12, seat)
    draw.text((x + 42, y + 24), ("Orange", "Blue")[seat], font=font(22), fill=PALETTE.text, anchor="lm")
    lives = int(view["images"][seat]["lives"])
    for i in range(3):
        heart(draw, x + 180 + i * 28, y + 24, 20, RED_INK if i < lives else (90, 90, 90))
    factors = view["factors"][seat] if view["factors"] is not None else None
    if factors is None and view.get("private") is not None and view.get("you") == seat:
        factors = view["private"].get("factors")
    for i, kind in enumerate("CFDAM"):
        bx = x + 12 + i * 55
        draw.rounded_rectangle((bx, y + 46, bx + 48, y + 92), radius=6, fill=PALETTE.background)
        text_center(draw, (bx + 24, y + 58), kind, 14, PALETTE.muted)
        value = "?" if factors is None else str(factors[kind])
        text_center(draw, (bx + 24, y + 78), value, 22, PALETTE.text)
    if view["pool_left"] is None:
        detail = "picking the pool deck" if seat in view["turn"] else "pool deck picked"
    else:
        detail = f"cards left {view['pool_left'][seat]}  ·  summoned {len(view['summoned'][seat])}"
    if view["factors"] is None and factors is None:
        detail += "  ·  factors hidden"
    draw.text((x + 12, y + 110), detail, font=font(15), fill=PALETTE.muted, anchor="lm")
    return y + 140


def _draw_dice(draw: ImageDraw.ImageDraw, x: int, y: int, view: dict[str, Any]) -> int:
    dice = view["dice"]
    rolled = view.get("rolled")
    if rolled is None and view.get("private") is not None:
        rolled = view["private"].get("rolled")
    draw.text((x, y), "Dice this turn", font=font(18), fill=PALETTE.text)
    if not dice:
        draw.text((x, y + 30), "none chosen yet", font=font(15), fill=PALETTE.muted)
        return y + 60
    for i, die in enumerate(dice):
        bx, by = x + i * 100, y + 28
        draw.rounded_rectangle((bx, by, bx + 56, by + 56), radius=9, fill=PALETTE.ivory, outline=PALETTE.pip, width=2)
        face = rolled[i] if rolled is not None else "?"
        text_center(draw, (bx + 28, by + 29), face, 30, ATTACK if face == "S" else PALETTE.pip)
        draw.rounded_rectangle((bx, by + 62, bx + 56, by + 86), radius=4, fill=(255, 255, 255))
        card_label(draw, die["card"], bx + 28, by + 74, 15)
        text_center(draw, (bx + 76, by + 28), f"L{die['level']}", 14, PALETTE.muted)
    return y + 124


def _draw_pending(draw: ImageDraw.ImageDraw, x: int, y: int, view: dict[str, Any], bottom: int) -> int:
    attacks = view["pending_attacks"]
    draw.text((x, y), "Pending attacks", font=font(18), fill=PALETTE.text)
    y += 30
    if not attacks:
        draw.text((x, y), "none", font=font(15), fill=PALETTE.muted)
        return y + 26
    for attack in attacks:
        if y > bottom - 24:
            draw.text((x, y), "…", font=font(15), fill=PALETTE.muted)
            break
        target = attack["target"]
        what = "Image" if target["card"] is None else f"{target['card']} {target['square'] or ''}"
        line = f"{attack['attacker']['card']} -> {what}: {attack['points']} pts"
        draw.text((x, y), line, font=font(16), fill=PALETTE.text)
        y += 24
    return y


def board(view: dict[str, Any]) -> Image.Image:
    """The board body for `view` (public or a seat's view)."""
    lay = Layout(view)
    guide_file = _coords(view["images"][0]["square"])[0]
    img = _background(lay.lo, lay.cols, lay.ranks, lay.cell, (lay.width, lay.height), guide_file).copy()
    draw = ImageDraw.Draw(img)
    for path in view["paths"]:
        for a, b in path["dominoes"]:
            if lay.visible(a) and lay.visible(b):
                _draw_domino(img, lay, a, b, bool(path["face_up"]))
    for image in view["images"]:
        _draw_image(draw, lay, image)
    _draw_highlight(draw, lay, view)
    for being in view["beings"]:
        _draw_being(img, draw, lay, being)
    _draw_attacks(draw, lay, view)

    x = lay.panel_x
    status = f"Turn {view['turn_number']}/{view['turn_limit']}  ·  {view['phase']}"
    draw.text((x, TOP), status, font=font(20), fill=PALETTE.text)
    y = TOP + 34
    for seat in (1, 0):  # seat 1 sits at the top of the board, so its panel comes first
        y = _draw_seat_panel(draw, x, y, view, seat)
    y = _draw_dice(draw, x, y + 4, view)
    y = _draw_pending(draw, x, y, view, lay.height - 40)
    if view.get("last_move"):
        draw.text((x, lay.height - 34), f"Last: {view['last_move']}"[:40], font=font(15), fill=PALETTE.highlight)
    return img


# --- the private picture: the pool deck ----------------------------------------------------------


def private(view: dict[str, Any]) -> Image.Image | None:
    """The seat's pool deck as cards with level and Str/Atk/Def; None for a public view."""
    mine = view.get("private")
    if mine is None:
        return None
    cards = list(mine.get("pool", []))
    per_row = 6
    card_w, card_h, gap = 122, 150, 14
    rows = max(1, math.ceil(len(cards) / per_row))
    width = max(MIN_WIDTH, per_row * (card_w + gap) + gap)
    height = 60 + rows * (card_h + gap) + 10
    img = Image.new("RGB", (width, height), PALETTE.background)
    draw = ImageDraw.Draw(img)
    title = f"Your pool deck: {len(cards)} card{'s' if len(cards) != 1 else ''}"
    draw.text((gap, 18), title, font=font(24), fill=PALETTE.text)
    if not cards:
        draw.text((gap, 70), "(empty)", font=font(18), fill=PALETTE.muted)
    for i, card in enumerate(cards):
        x = gap + (i % per_row) * (card_w + gap)
        y = 60 + (i // per_row) * (card_h + gap)
        draw.rounded_rectangle(
            (x, y, x + card_w, y + card_h), radius=10, fill=(255, 255, 255), outline=PALETTE.pip, width=2
        )
        card_label(draw, card, x + card_w / 2, y + 30, 30)
        rank = card[:-1]
        piece(draw, piece_kind(rank), (x + 40, y + 52, x + card_w - 40, y + 98), int(view.get("you", 0)))
        strength, attack, defence = STATS[rank]
        text_center(draw, (x + card_w / 2, y + 112), f"{strength} / {attack} / {defence}", 18, BLACK_INK)
        text_center(draw, (x + card_w / 2, y + 134), f"Str Atk Def · L{_level(card)}", 12, (90, 90, 90))
    return img


def _level(card: str) -> int:
    rank, suit = card[:-1], card[-1]
    red = suit in "HD"
    courts = {"J": (1, 2), "Q": (2, 3), "K": (3, 4)}
    if rank in courts:
        return courts[rank][1 if red else 0]
    return {"A": 1, "4": 1, "2": 2, "5": 2, "6": 2, "3": 3, "7": 3}.get(rank, 4)
