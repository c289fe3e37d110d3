"""Domineering picture: the drawn tile on top, the torus board, the pool underneath.

Why the board has a faded rim: the board wraps around, so a strip of the opposite edge is
drawn (dimmed) beyond each edge, as if the board were tiled.  A piece on h4 then visibly
sits next to a4, and the last move's path can run off one edge and come back in on the
other without any special explanation.  The rim comes for free: the 8×8 squares are drawn
once and pasted nine times around the visible window.

The pool strip shows all 28 tiles in set order, those already out dimmed, so a player can
count at a glance which draws would hurt.
"""

from __future__ import annotations

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
    blend,
    domino,
    fit_text,
    fixed_palette,
    phone_size,
    pips,
    text,
    text_center,
)
from renderers.language import current, say

SIZE = 8
FILES = "abcdefgh"
CELL = 68
RIM = 26  # the faded wrap-around strip on each side of the board
LABEL = 24
WIDTH = 800
BOARD = SIZE * CELL
TOP_HEIGHT = 134
BOARD_X = 6 + LABEL + RIM  # left edge of the a-file
BOARD_Y = TOP_HEIGHT + LABEL + RIM  # top edge of rank 8
TILE = (30, 54)  # a small domino: on its square and in the pool
POOL_COLUMNS = 4
POOL_GAP = (6, 7)
POOL_X = WIDTH - 8 - (POOL_COLUMNS * TILE[0] + (POOL_COLUMNS - 1) * POOL_GAP[0])
POOL_Y = BOARD_Y - RIM - LABEL
HEIGHT = BOARD_Y + BOARD + RIM + LABEL + 10
ALL_TILES = [f"{a}-{b}" for a in range(7) for b in range(a, 7)]
SEAT_NAMES = GAMES["domineering"].info.seat_names
SEAT_COLOURS: tuple[Color, Color] = ((28, 28, 30), (246, 246, 242))
"""Black and White, as the rules name the seats: the pieces, header tokens and kept-tile frames."""
SEAT_EDGES: tuple[Color, Color] = ((246, 246, 242), (28, 28, 30))
PATH_INK = (20, 20, 20)
SMALL_TEXT = phone_size(WIDTH)
KEY_TEXT = phone_size(WIDTH, 14)


def _square_xy(name: str) -> tuple[int, int]:
    """(column, row) of a square in picture order: rank 8 at the top."""
    return FILES.index(name[0]), SIZE - int(name[1:])


def _centre(col: float, row: float) -> tuple[float, float]:
    return BOARD_X + col * CELL + CELL / 2, BOARD_Y + row * CELL + CELL / 2


def _tile_numbers(text: str) -> tuple[int, int]:
    low, high = text.split("-")
    return int(low), int(high)


@lru_cache(maxsize=64)
def _small_domino(tile: str, faded: bool) -> Image.Image:
    """A vertical pool/board domino; cached, since the set has only 28 tiles."""
    w, h = TILE
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    a, b = _tile_numbers(tile)
    draw = ImageDraw.Draw(img)
    if faded:
        draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=6, outline=PALETTE.grid, width=2)
        draw.line((3, h / 2, w - 4, h / 2), fill=PALETTE.grid, width=1)
        pips(draw, (0, 0, w - 1, h / 2), a, PALETTE.grid)
        pips(draw, (0, h / 2, w - 1, h - 1), b, PALETTE.grid)
    else:
        domino(draw, (0, 0, w - 1, h - 1), a, b)
    return img


@lru_cache(maxsize=1)
def _checkerboard() -> Image.Image:
    img = Image.new("RGB", (BOARD, BOARD), PALETTE.board_light)
    draw = ImageDraw.Draw(img)
    for col in range(SIZE):
        for row in range(SIZE):
            if (col + row) % 2:
                draw.rectangle(
                    (col * CELL, row * CELL, (col + 1) * CELL - 1, (row + 1) * CELL - 1), fill=PALETTE.board_dark
                )
    return img


@lru_cache(maxsize=1)
def _backdrop(locale: Locale) -> Image.Image:
    """What every picture shares: background, coordinates, the pool's title in `locale` (cached
    per language; copied per render)."""
    img = Image.new("RGB", (WIDTH, HEIGHT), PALETTE.background)
    draw = ImageDraw.Draw(img)
    _labels(draw)
    centre = POOL_X + (POOL_COLUMNS * TILE[0] + (POOL_COLUMNS - 1) * POOL_GAP[0]) / 2
    text_center(draw, (centre, POOL_Y + 12), tr("Pool"), SMALL_TEXT, PALETTE.text)
    return img


DIMMING = 150
"""The alpha (of 255) of the background laid over the wrap-around rim."""


@lru_cache(maxsize=4)
def _dimmer(size: tuple[int, int]) -> tuple[Image.Image, Image.Image]:
    """A background-coloured strip and its constant alpha: pasted over the rim to fade it."""
    return Image.new("RGB", size, PALETTE.background), Image.new("L", size, DIMMING)


def _squares_layer(view: dict[str, Any]) -> Image.Image:
    """The 8×8 squares with tiles and pieces, no labels: the unit that tiles the torus."""
    img = _checkerboard().copy()
    draw = ImageDraw.Draw(img)
    for laid in view["laid"]:
        col, row = _square_xy(laid["square"])
        tile = _small_domino(laid["tile"], False)
        x = col * CELL + (CELL - tile.width) // 2
        y = row * CELL + (CELL - tile.height) // 2
        draw.rectangle((col * CELL, row * CELL, (col + 1) * CELL - 1, (row + 1) * CELL - 1), fill=PALETTE.grid)
        img.paste(tile, (x, y), tile)
    radius = CELL * 0.34
    for seat, squares in enumerate(view["pieces"]):
        for name in squares:
            col, row = _square_xy(name)
            cx, cy = col * CELL + CELL / 2, row * CELL + CELL / 2
            draw.ellipse(
                (cx - radius, cy - radius, cx + radius, cy + radius),
                fill=SEAT_COLOURS[seat],
                outline=PALETTE.pip,
                width=3,
            )
            draw.ellipse(
                (cx - radius + 7, cy - radius + 7, cx + radius - 7, cy + radius - 7),
                outline=SEAT_EDGES[seat],
                width=2,
            )
    return img


def _torus(body: Image.Image, squares: Image.Image) -> None:
    """Paste the squares nine times around the board window and dim everything outside it."""
    window = (BOARD_X - RIM, BOARD_Y - RIM, BOARD_X + BOARD + RIM, BOARD_Y + BOARD + RIM)
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            x, y = BOARD_X + dx * BOARD, BOARD_Y + dy * BOARD
            left, top = max(x, window[0]), max(y, window[1])
            right, bottom = min(x + BOARD, window[2]), min(y + BOARD, window[3])
            if left < right and top < bottom:
                body.paste(squares.crop((left - x, top - y, right - x, bottom - y)), (left, top))
    full = window[2] - window[0]
    for size, corner in (
        ((full, RIM), (window[0], window[1])),
        ((full, RIM), (window[0], window[3] - RIM)),
        ((RIM, BOARD), (window[0], BOARD_Y)),
        ((RIM, BOARD), (window[2] - RIM, BOARD_Y)),
    ):
        strip, alpha = _dimmer(size)
        body.paste(strip, corner, alpha)
    draw = ImageDraw.Draw(body)
    draw.rectangle((BOARD_X - 2, BOARD_Y - 2, BOARD_X + BOARD + 1, BOARD_Y + BOARD + 1), outline=PALETTE.text, width=2)


def _labels(draw: ImageDraw.ImageDraw) -> None:
    """Coordinates on all four sides, plus the wrapped neighbour's name faded in each rim."""
    for i in range(SIZE):
        x, _ = _centre(i, 0)
        for y in (BOARD_Y - RIM - LABEL / 2, BOARD_Y + BOARD + RIM + LABEL / 2):
            text_center(draw, (x, y), FILES[i], SMALL_TEXT, PALETTE.muted)
        _, y = _centre(0, i)
        for x in (BOARD_X - RIM - LABEL / 2, BOARD_X + BOARD + RIM + LABEL / 2):
            text_center(draw, (x, y), str(SIZE - i), SMALL_TEXT, PALETTE.muted)


def _path_points(path: list[str]) -> list[list[tuple[float, float]]]:
    """The polylines of a path, split where it wraps: each wrap leaves through one rim
    and re-enters through the opposite one."""
    pieces: list[list[tuple[float, float]]] = []
    current: list[tuple[float, float]] = []
    prev: tuple[int, int] | None = None
    for name in path:
        col, row = _square_xy(name)
        if prev is not None:
            dc, dr = col - prev[0], row - prev[1]
            if abs(dc) > 1 or abs(dr) > 1:  # a wrap: step is really -sign(d) one square
                sc = -1 if dc > 1 else 1 if dc < -1 else dc
                sr = -1 if dr > 1 else 1 if dr < -1 else dr
                current.append(_centre(prev[0] + sc * 0.75, prev[1] + sr * 0.75))
                pieces.append(current)
                current = [_centre(col - sc * 0.75, row - sr * 0.75)]
        current.append(_centre(col, row))
        prev = (col, row)
    pieces.append(current)
    return pieces


def _arrow(draw: ImageDraw.ImageDraw, path: list[str], colour: Color) -> None:
    """One step of the last move: a line along its squares with a head on the landing square."""
    lines = _path_points(path)
    for line in lines:
        if len(line) > 1:
            draw.line(line, fill=PATH_INK, width=11, joint="curve")
            draw.line(line, fill=colour, width=6, joint="curve")
    sx, sy = lines[0][0]
    draw.ellipse((sx - 9, sy - 9, sx + 9, sy + 9), fill=colour, outline=PATH_INK, width=3)
    (x0, y0), (x1, y1) = lines[-1][-2], lines[-1][-1]
    length = max(1.0, ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    tip = (x1 - ux * CELL * 0.36, y1 - uy * CELL * 0.36)
    back = (tip[0] - ux * 22, tip[1] - uy * 22)
    head = [tip, (back[0] - uy * 13, back[1] + ux * 13), (back[0] + uy * 13, back[1] - ux * 13)]
    draw.polygon(head, fill=colour, outline=PATH_INK, width=2)


def _top(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    """The tile just drawn, large, and what it means for whom."""
    seat = int(view["to_move"])
    drawn = view.get("drawn")
    outcome = view.get("outcome")
    box = (20, 16, 20 + 180, 16 + 90)
    last = view.get("last_move")
    lead: str
    sub: str
    if drawn:
        a, b = _tile_numbers(drawn)
        domino(draw, box, a, b, width=3)
        lead = tr("{seat} drew {drawn}", seat=SEAT_NAMES[seat], drawn=drawn)
        if outcome:
            sub = tr("and cannot move both pieces")
        elif "0" in drawn:
            sub = tr("move both pieces, one by each number (blank: 1 to 6)")
        else:
            sub = tr("move both pieces, one by each number")
    else:
        draw.rounded_rectangle(box, radius=14, outline=PALETTE.grid, width=3)
        text_center(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), "?", 48, PALETTE.muted)
        lead = tr("Game over") if outcome else tr("{seat} draws next", seat=SEAT_NAMES[seat])
        sub = "" if outcome else tr("the tiles lie face down")
        if outcome:
            seat = outcome["winners"][0] if outcome["winners"] else -1
    x = box[2] + 26
    if seat >= 0:
        draw.ellipse((x, 24, x + 28, 52), fill=SEAT_COLOURS[seat], outline=SEAT_EDGES[seat], width=2)
    room = (x, 4, WIDTH - 8, TOP_HEIGHT - 2)
    text(
        draw,
        (x + 38, 38),
        fit_text(lead, KEY_TEXT, room[2] - x - 38),
        KEY_TEXT,
        PALETTE.text,
        anchor="lm",
        box=room,
        key=True,
    )
    text(draw, (x, 72), fit_text(sub, SMALL_TEXT, room[2] - x), SMALL_TEXT, PALETTE.muted, anchor="lm", box=room)
    if last:
        mover = SEAT_NAMES[1 - int(view["to_move"])]  # the turn has passed since that move
        said = tr("{mover} kept the tile", mover=mover) if last == "keep" else f"{say(mover)} {last}"
        line = fit_text(tr("last: {said}", said=said), KEY_TEXT, room[2] - x)
        text(draw, (x, 106), line, KEY_TEXT, PALETTE.highlight, anchor="lm", box=room, key=True)


def _pool(draw: ImageDraw.ImageDraw, body: Image.Image, view: dict[str, Any]) -> None:
    """All 28 tiles in set order beside the board: those still in the pool bright, drawn
    ones as dim outlines, kept ones (unplayable=keep) framed in the keeper's colour."""
    left = set(view["pool"])
    kept = [set(k) for k in view.get("kept", [[], []])]
    width = POOL_COLUMNS * TILE[0] + (POOL_COLUMNS - 1) * POOL_GAP[0]
    centre = POOL_X + width / 2
    text_center(draw, (centre, POOL_Y + 38), tr("{n} left", n=len(left)), SMALL_TEXT, PALETTE.text)
    top = POOL_Y + 56
    for i, tile in enumerate(ALL_TILES):
        x = POOL_X + (i % POOL_COLUMNS) * (TILE[0] + POOL_GAP[0])
        y = top + (i // POOL_COLUMNS) * (TILE[1] + POOL_GAP[1])
        img = _small_domino(tile, tile not in left and not any(tile in k for k in kept))
        body.paste(img, (x, y), img)
        for seat in (0, 1):
            if tile in kept[seat]:
                draw.rounded_rectangle(
                    (x - 3, y - 3, x + TILE[0] + 2, y + TILE[1] + 2), radius=6, outline=SEAT_EDGES[seat], width=2
                )
                draw.rounded_rectangle(
                    (x - 1, y - 1, x + TILE[0], y + TILE[1]), radius=6, outline=SEAT_COLOURS[seat], width=2
                )
    if view.get("options", {}).get("unplayable") == "keep":
        y = top + 7 * (TILE[1] + POOL_GAP[1]) + 8
        text_center(draw, (centre, y), "kept", SMALL_TEXT, PALETTE.text)
        for seat in (0, 1):
            cy = y + 30 + seat * 30
            draw.ellipse((POOL_X + 6, cy - 10, POOL_X + 26, cy + 10), fill=SEAT_COLOURS[seat], outline=SEAT_EDGES[seat])
            text(draw, (POOL_X + 36, cy), str(len(kept[seat])), SMALL_TEXT, PALETTE.text, anchor="lm")


@lru_cache(maxsize=1)
def palette() -> Image.Image:
    """Every colour a Domineering picture draws (the rim's colours dimmed too), and the
    anti-aliased edges of its text: mapping to it is ~4x faster than finding a palette per picture."""
    board_colours = [
        PALETTE.board_light, PALETTE.board_dark, PALETTE.grid, PALETTE.ivory, PALETTE.pip, *SEAT_COLOURS, *SEAT_EDGES,
    ]  # fmt: skip
    dimmed = [blend(colour, PALETTE.background, DIMMING / 255) for colour in board_colours]
    solids = [PALETTE.background, PALETTE.panel, *board_colours, *dimmed, PATH_INK, *CHROME_SOLIDS]
    pairs = [*CHROME_PAIRS, *((ink, PALETTE.background) for ink in (PALETTE.muted, PALETTE.text, PALETTE.highlight))]
    return fixed_palette(solids, pairs=pairs, steps=None)


def board(view: dict[str, Any]) -> Image.Image:
    """The body of a Domineering picture (800 px wide) for any view."""
    body = _backdrop(current()).copy()
    _torus(body, _squares_layer(view))
    draw = ImageDraw.Draw(body)
    for path in view.get("last_paths", []):
        if len(path) > 1:
            _arrow(draw, path, PALETTE.highlight)
    _top(draw, view)
    _pool(draw, body, view)
    return body
