"""Dominance board picture: the 21 Battlefield tiles, the four dice, the Underworld line.

Why this layout: everything a player decides depends on which spaces the dice lit, so
active halves are tinted yellow right on the tiles (yellow means only that: the dice
are yellow too, and a legend under the Underworld names each colour), and each stone shows the number of
the space under it (the source's complaint: "you have to peek under your stones").  The
tiles are drawn as separate dominoes with a gap between them so their borders — which
decide setup and re-entry — are obvious.

Layout (930 px wide): the Battlefield with coordinates on the left; on the right the
phase, the dice and what the player to move may do now ("move: b3, e5 can move"); the
Underworld line u1 … u6 u0 across the bottom with one count per colour and space.
Stones that may act now wear a green ring (green: may act now, as the header's outline
of the seat to move), stones that already moved or captured a small tick; the last
move's path is a white line on a dark casing ending in a dot.

Works only from the public view (`layout`, `tiles`, `stones`, `underworld`, `roll`,
`active`, `phase`, `can_act`, `moved`, `captured`, `last_path`, ...).
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
    coordinate_labels,
    fit_text,
    fixed_palette,
    line_height,
    phase_words,
    phone_size,
    pips,
    seat_token,
    text,
    text_center,
    wrap,
)
from renderers.language import current

FILES, RANKS = 6, 7
CELL = 72
LEFT, TOP = 40, 20
BOARD_W, BOARD_H = FILES * CELL, RANKS * CELL
PANEL_X = LEFT + BOARD_W + 26
WIDTH = 820
PANEL_W = WIDTH - PANEL_X - 14
UW_TOP = TOP + BOARD_H + 64
UW_H = 100
LEGEND_Y = UW_TOP + UW_H + 16
HEIGHT = LEGEND_Y + 44
UW_NAMES = ("u1", "u2", "u3", "u4", "u5", "u6", "u0")

GAP = 4  # between neighbouring tiles
OUTLINE: Color = (21, 24, 28)
ACTIVE_FACE: Color = (247, 226, 92)
"""Yellow here means one thing: lit by this roll (the dice, and the halves and Underworld
spaces they light).  The last move is white on a dark casing, what may act now green."""
LAST: Color = PALETTE.text
TABLE: Color = (52, 60, 56)


def _seat_names() -> tuple[str, str]:
    return GAMES["dominance"].info.seat_names


def _square_box(name: str) -> tuple[float, float, float, float]:
    f, r = ord(name[0]) - ord("a"), int(name[1:]) - 1
    x0, y0 = LEFT + f * CELL, TOP + (RANKS - 1 - r) * CELL
    return x0, y0, x0 + CELL, y0 + CELL


def _uw_box(name: str) -> tuple[float, float, float, float]:
    slot = UW_NAMES.index(name)
    width = (WIDTH - LEFT - 18) / len(UW_NAMES)
    x0 = LEFT + slot * width
    return x0 + 4, UW_TOP, x0 + width - 4, UW_TOP + UW_H


def _centre(name: str) -> tuple[float, float]:
    if name.startswith("u"):
        x0, y0, x1, _ = _uw_box(name)
        return (x0 + x1) / 2, y0 + 50
    x0, y0, x1, y1 = _square_box(name)
    return (x0 + x1) / 2, (y0 + y1) / 2


@lru_cache(maxsize=8)
def _battlefield(
    layout: tuple[tuple[int, ...], ...], tiles: tuple[tuple[str, str], ...], locale: Locale
) -> Image.Image:
    """The table, coordinates and tiles, no half lit and no stones, with the legend in `locale`
    (the picture's language, renderers/language.py; a cache key: the words are drawn in it).

    Cached per layout, which never changes within a match: a picture starts from a copy
    and lights the halves of the current roll (`_light`).  Eight layouts (~23 MB a worker):
    a worker busy with more Dominance matches than that draws the tiles again (~1 ms)."""
    img = Image.new("RGB", (WIDTH, HEIGHT), PALETTE.background)
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle((LEFT - 8, TOP - 8, LEFT + BOARD_W + 8, TOP + BOARD_H + 8), radius=12, fill=TABLE)
    coordinate_labels(draw, (LEFT, TOP), CELL, FILES, RANKS, size=SMALL_TEXT)
    if layout:
        for left, right in tiles:
            _draw_tile(draw, layout, left, right)
    else:
        waiting = fit_text(tr("Tiles not laid yet"), 30, BOARD_W - 16)  # Portuguese runs longest here
        text_center(draw, (LEFT + BOARD_W / 2, TOP + BOARD_H / 2), waiting, 30, PALETTE.muted)
    _draw_legend(draw)
    return img


def _draw_legend(draw: ImageDraw.ImageDraw) -> None:
    """One line under the Underworld saying what each colour means (the same in every picture)."""
    y = LEGEND_Y + 14
    x = float(LEFT)
    room = (0, LEGEND_Y - 4, WIDTH, HEIGHT)
    draw.rounded_rectangle((x, y - 11, x + 22, y + 11), radius=4, fill=ACTIVE_FACE, outline=OUTLINE, width=2)
    x += 30 + text(draw, (x + 30, y), tr("lit by the roll"), SMALL_TEXT, PALETTE.muted, anchor="lm", box=room) + 28
    draw.ellipse((x, y - 11, x + 22, y + 11), fill=PALETTE.turn, outline=OUTLINE, width=2)
    x += 30 + text(draw, (x + 30, y), tr("may act now"), SMALL_TEXT, PALETTE.muted, anchor="lm", box=room) + 28
    draw.line((x, y, x + 30, y), fill=OUTLINE, width=11)
    draw.line((x, y, x + 30, y), fill=LAST, width=6)
    text(draw, (x + 38, y), tr("last move"), SMALL_TEXT, PALETTE.muted, anchor="lm", box=room)


def _tile_box(left: str, right: str) -> tuple[float, float, float, float]:
    x0, y0, _, _ = _square_box(left)
    _, _, x1, y1 = _square_box(right)
    return (x0 + GAP, y0 + GAP, x1 - GAP, y1 - GAP)


def _middle(left: str, right: str) -> float:
    """The x of the line between a tile's halves."""
    return (_square_box(left)[0] + _square_box(right)[2]) / 2


def _halves(left: str, right: str) -> tuple[tuple[str, tuple[float, float, float, float]], ...]:
    box, mid = _tile_box(left, right), _middle(left, right)
    return ((left, (box[0], box[1], mid, box[3])), (right, (mid, box[1], box[2], box[3])))


def _pip_box(half: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    return (half[0] + 7, half[1] + 7, half[2] - 7, half[3] - 7)


def _value(layout: tuple[tuple[int, ...], ...] | list[list[int]], name: str) -> int:
    return layout[int(name[1:]) - 1][ord(name[0]) - ord("a")]


def _draw_tile(draw: ImageDraw.ImageDraw, layout: tuple[tuple[int, ...], ...], left: str, right: str) -> None:
    """One Battlefield tile, unlit: ivory face, pips, the line between its halves."""
    box = _tile_box(left, right)
    draw.rounded_rectangle(box, radius=10, fill=PALETTE.ivory, outline=OUTLINE, width=3)
    for name, half in _halves(left, right):
        pips(draw, _pip_box(half), _value(layout, name))
    mid = _middle(left, right)
    draw.line((mid, box[1] + 8, mid, box[3] - 8), fill=OUTLINE, width=2)


def _light(
    draw: ImageDraw.ImageDraw,
    layout: tuple[tuple[int, ...], ...],
    tiles: tuple[tuple[str, str], ...],
    active: frozenset[str],
) -> None:
    """Tint the halves the dice lit: a yellow face over the half, its pips again on top."""
    for left, right in tiles:
        for name, half in _halves(left, right):
            if name in active:
                draw.rounded_rectangle((half[0] + 4, half[1] + 4, half[2] - 4, half[3] - 4), radius=7, fill=ACTIVE_FACE)
                pips(draw, _pip_box(half), _value(layout, name))


def _tick(draw: ImageDraw.ImageDraw, cx: float, cy: float, colour: Color) -> None:
    draw.ellipse((cx - 11, cy - 11, cx + 11, cy + 11), fill=PALETTE.panel, outline=PALETTE.text, width=2)
    draw.line((cx - 6, cy, cx - 2, cy + 5, cx + 6, cy - 5), fill=colour, width=3)


def _draw_stones(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    layout: list[list[int]] = view["layout"]
    ready = set(view["can_act"]) if view["phase"] in ("move", "capture") else set()
    acted = set(view["moved"]) | set(view["captured"])
    radius = CELL * 0.38
    for name, owner in view["stones"].items():
        cx, cy = _centre(name)
        if name in ready:
            ring = radius + 7
            draw.ellipse((cx - ring, cy - ring, cx + ring, cy + ring), fill=OUTLINE)
            draw.ellipse((cx - ring + 2, cy - ring + 2, cx + ring - 2, cy + ring - 2), fill=PALETTE.turn)
        outline = PALETTE.pip if owner == 0 else PALETTE.text
        draw.ellipse(
            (cx - radius, cy - radius, cx + radius, cy + radius), fill=PALETTE.seats[owner], outline=outline, width=3
        )
        text_center(draw, (cx, cy), str(_value(layout, name)), 32, PALETTE.seat_ink[owner])
        if name in acted:
            _tick(draw, cx + radius * 0.75, cy + radius * 0.75, PALETTE.text)


def _draw_path(draw: ImageDraw.ImageDraw, path: list[str]) -> None:
    if not path:
        return
    points = [_centre(p) for p in path if p != "u0" or path[-1] == "u0"]
    if len(points) > 1:
        draw.line(points, fill=OUTLINE, width=11, joint="curve")
        draw.line(points, fill=LAST, width=6, joint="curve")
        sx, sy = points[0]
        draw.ellipse((sx - 9, sy - 9, sx + 9, sy + 9), fill=LAST, outline=OUTLINE, width=2)
    ex, ey = points[-1]
    draw.ellipse((ex - 12, ey - 12, ex + 12, ey + 12), fill=LAST, outline=OUTLINE, width=3)
    if not path[-1].startswith("u"):
        x0, y0, x1, y1 = _square_box(path[-1])
        draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=OUTLINE, width=7)
        draw.rectangle((x0 + 3, y0 + 3, x1 - 3, y1 - 3), outline=LAST, width=3)


def _draw_underworld(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    text(draw, (LEFT, UW_TOP - 34), tr("Underworld: stones per space (u6 leads to u0)"), SMALL_TEXT, PALETTE.muted)
    active = set(view["active"])
    ready = set(view["can_act"]) if view["phase"] == "move" else set()
    for name in UW_NAMES:
        x0, y0, x1, y1 = _uw_box(name)
        lit = name in active
        draw.rounded_rectangle(
            (x0, y0, x1, y1),
            radius=10,
            fill=ACTIVE_FACE if lit else PALETTE.panel,
            outline=PALETTE.turn if name in ready else PALETTE.grid,
            width=7 if name in ready else 2,
        )
        ink = PALETTE.pip if lit else PALETTE.text
        cx = (x0 + x1) / 2
        text_center(draw, (cx, y0 + 20), name, 26, ink)
        counts: list[int] = view["underworld"][name]
        for seat, count in enumerate(counts):
            sx = cx - 26 + 52 * seat
            sy = y1 - 30
            if count:
                seat_token(draw, (sx, sy), 19, seat)
                text_center(draw, (sx, sy), str(count), 24, PALETTE.seat_ink[seat])
            else:
                text_center(draw, (sx, sy), "·", 26, PALETTE.muted if not lit else PALETTE.label)
        if name != UW_NAMES[-1]:
            arrow_y = y0 + UW_H / 2
            draw.line((x1 + 1, arrow_y, x1 + 7, arrow_y), fill=PALETTE.muted, width=2)


def _die(draw: ImageDraw.ImageDraw, x: float, y: float, size: float, value: int) -> None:
    draw.rounded_rectangle((x, y, x + size, y + size), radius=9, fill=ACTIVE_FACE, outline=OUTLINE, width=3)
    pips(draw, (x + 4, y + 4, x + size - 4, y + size - 4), value)


def _instruction(view: dict[str, Any]) -> str:
    """What the player to move may do now, in one short paragraph."""
    names = _seat_names()
    who = names[view["to_move"]]
    phase = view["phase"]
    acting = ", ".join(view["can_act"])
    if view["outcome"]:
        return ""
    if phase == "layout":
        return tr("The tiles are being laid out at random.")
    if phase == "setup":
        left = view["unplaced"]
        return tr(
            "{who} rolls two dice to place two stones. Still to place: {first} {left}, {second} {left2}.",
            who=who,
            first=names[0],
            left=left[0],
            second=names[1],
            left2=left[1],
        )
    if phase == "roll":
        return tr("{who} rolls four dice.", who=who)
    if phase == "move":
        example = "u3-u5" if acting.startswith("u") else "c3-c5"
        return tr(
            "{who} moves: {acting} can move. Write from-to like “{example}”, or “done”.",
            who=who,
            acting=acting,
            example=example,
        )
    if phase == "capture":
        return tr("{who} captures: {acting} can capture. Write “c5xc6”, or “done”.", who=who, acting=acting)
    if phase == "return":
        return tr("{who} rolls two dice to bring a stone back from u0.", who=who)
    return tr(
        "{who} returns a stone: “enter {square}” or “enter {square2}”.",
        who=who,
        square=view["can_act"][0],
        square2=view["can_act"][1],
    )


SMALL_TEXT = phone_size(WIDTH)
KEY_TEXT = phone_size(WIDTH, 14)
PANEL_BOX = (PANEL_X - 4, 0, WIDTH - 2, UW_TOP - 38)
"""The room the panel's text may use: right of the board, above the Underworld."""


class _Column:
    """The panel as a column of lines: each call draws at the running y and moves it down."""

    def __init__(self, draw: ImageDraw.ImageDraw, x: int, y: float) -> None:
        self.draw, self.x, self.y = draw, x, y

    def lines(self, content: str, size: int, colour: Color, *, indent: int = 0, key: bool = False) -> None:
        for line in wrap(content, size, PANEL_W - indent):
            text(self.draw, (self.x + indent, self.y), line, size, colour, box=PANEL_BOX, key=key)
            self.y += line_height(size)


def _draw_panel(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    names = _seat_names()
    col = _Column(draw, PANEL_X, TOP - 8)
    col.lines(phase_words(view["phase"]), SMALL_TEXT, PALETTE.text)
    dice: list[int] = view["roll"]
    if dice:
        roller = view["roll_seat"]
        col.lines(
            tr("Roll") if roller == view["to_move"] else tr("{seat}'s last roll", seat=names[roller]),
            SMALL_TEXT,
            PALETTE.muted,
        )
        size = 56
        for i, value in enumerate(dice):
            _die(draw, col.x + i * (size + 10), col.y + 2, size, value)
        col.y += size + 10
    extra = view["return_roll"] or view["setup_roll"]
    if extra:
        col.lines(tr("Return roll"), SMALL_TEXT, PALETTE.muted)
        for i, value in enumerate(extra):
            _die(draw, col.x + i * 58, col.y + 2, 48, value)
        col.y += 58
    who = view["to_move"]
    if not view["outcome"]:
        seat_token(draw, (col.x + 12, col.y + line_height(KEY_TEXT) / 2), 11, who)
        col.lines(tr("{seat} to play", seat=names[who]), KEY_TEXT, PALETTE.text, indent=30, key=True)
    col.lines(_instruction(view), SMALL_TEXT, PALETTE.text)
    col.y += 6
    last = view["last_move"]
    if last:
        seat_token(draw, (col.x + 12, col.y + line_height(KEY_TEXT) / 2), 11, view["last_seat"])
        col.lines(tr("Last: {move}", move=last), KEY_TEXT, PALETTE.text, indent=30, key=True)
    on_board = [0, 0]
    for owner in view["stones"].values():
        on_board[owner] += 1
    below = [sum(c[s] for c in view["underworld"].values()) for s in (0, 1)]
    counts = [
        tr("{seat}: {on_board} on board, {below} below", seat=names[seat], on_board=on_board[seat], below=below[seat])
        for seat in (0, 1)
    ]
    needed = sum(len(wrap(c, SMALL_TEXT, PANEL_W - 30)) for c in counts) * line_height(SMALL_TEXT)
    col.y = max(col.y + 6, PANEL_BOX[3] - needed)  # at the foot of the panel, level with the board's bottom
    for seat in (0, 1):
        seat_token(draw, (col.x + 12, col.y + line_height(SMALL_TEXT) / 2), 11, seat)
        col.lines(counts[seat], SMALL_TEXT, PALETTE.text, indent=30)


@lru_cache(maxsize=1)
def palette() -> Image.Image:
    """Every colour a Dominance picture draws, and the anti-aliased edges of its text:
    mapping to it is ~4x faster than finding a palette per picture."""
    solids = [
        PALETTE.background, TABLE, PALETTE.ivory, OUTLINE, ACTIVE_FACE, PALETTE.panel, *PALETTE.seats, PALETTE.turn,
        PALETTE.grid, PALETTE.text, PALETTE.muted, PALETTE.highlight, *PALETTE.seat_ink, PALETTE.label,
        *CHROME_SOLIDS,
    ]  # fmt: skip
    pairs = [
        *CHROME_PAIRS,
        *((ink, PALETTE.background) for ink in (PALETTE.text, PALETTE.muted, PALETTE.highlight)),  # the panel
        (PALETTE.muted, TABLE),  # coordinates overlap the table's edge
        *zip(PALETTE.seat_ink, PALETTE.seats, strict=True),  # numbers on stones and Underworld counts
        (PALETTE.pip, ACTIVE_FACE),  # a lit Underworld space's name
        (PALETTE.label, ACTIVE_FACE),
    ]
    return fixed_palette(solids, pairs=pairs, steps=None)


def board(view: dict[str, Any]) -> Image.Image:
    layout = tuple(tuple(row) for row in view["layout"] or ())
    tiles = tuple((t["left"], t["right"]) for t in view["tiles"])
    img = _battlefield(layout, tiles, current()).copy()
    draw = ImageDraw.Draw(img)
    if layout:
        _light(draw, layout, tiles, frozenset(view["active"]))
    _draw_underworld(draw, view)
    _draw_path(draw, view["last_path"])
    if view["layout"]:
        _draw_stones(draw, view)
    _draw_panel(draw, view)
    return img
