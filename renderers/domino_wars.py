"""Domino Wars pictures: the public board, and a seat's own hand and draw pile.

Why digits rather than pips on the board: a square shows one mino whose number decides
what may cover it, so the number must be readable at a glance on a phone; the owner is
the tile's colour (Okabe–Ito orange / blue), and a small badge "+n" says how many minos
lie under the visible one.  Tiles are drawn as dominoes: a domino whose two halves both
still show is one bordered tile over its two squares with a seam between the halves (the
view's `dominoes`); a half whose partner was covered is a bordered tile of its own.  The
two squares of the last placement get a yellow frame (yellow: the last move, as in every
game).

The right-hand panel lists, per seat, the score (squares showing that seat's minos), the
direction, hand and pile sizes, pending skips and the public discard pile.

`private(view)` draws only from `view["private"]`: the hand as large dominoes, the draw
pile's contents as small ones, the tiles whose position the seat knows (put on top by
effect 2, at the bottom by effect 0) set apart at either end and labelled.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.games import GAMES
from bot.i18n import joined, tr
from renderers.kit import (
    CHROME_PAIRS,
    CHROME_SOLIDS,
    PALETTE,
    Color,
    domino,
    fit_text,
    fixed_palette,
    line_height,
    phone_size,
    seat_token,
    text,
    text_center,
    wrap,
)
from renderers.language import say

SIZE = 4
FILES = "abcd"
CELL = 116
LABEL = 30
MARGIN = 24
BOARD_X = MARGIN + LABEL
BOARD_Y = 104
BOARD = SIZE * CELL
PANEL_X = BOARD_X + BOARD + 32
WIDTH = 860
HEIGHT = BOARD_Y + BOARD + LABEL + 20
PANEL_GAP = 16
PANEL_HEIGHT = (BOARD + 12 - PANEL_GAP) // 2
SEAT_NAMES = GAMES["domino_wars"].info.seat_names
TILE_INSET = 8
"""Room between a tile's border and its squares' edges: the board shows between tiles."""
SEAM = 4
SMALL = (60, 30)
DISCARDS_SHOWN = 3
LARGE = (140, 70)
PILE = (76, 38)
HAND_GAP = 46
SMALL_TEXT = phone_size(WIDTH)
KEY_TEXT = phone_size(WIDTH, 14)
EFFECT_TEXT = {
    0: tr("choose a discarded tile for the bottom of the pile"),
    2: tr("choose a pile tile to put on top"),
    4: tr("choose a tile of the hand to discard"),
}


def _numbers(tile: str) -> tuple[int, int]:
    low, high = tile.split("-")
    return int(low), int(high)


@lru_cache(maxsize=256)
def _tile_image(tile: str, size: tuple[int, int], outline: Color) -> Image.Image:
    """One horizontal domino, cached: there are only 21 tiles and three sizes."""
    w, h = size
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    a, b = _numbers(tile)
    domino(ImageDraw.Draw(img), (1, 1, w - 2, h - 2), a, b, outline=outline, width=2 if w < 100 else 3)
    return img


def _paste_tile(img: Image.Image, tile: str, xy: tuple[int, int], size: tuple[int, int], outline: Color) -> None:
    piece = _tile_image(tile, size, outline)
    img.paste(piece, xy, piece)


def _cell_box(name: str) -> tuple[int, int, int, int]:
    col, row = FILES.index(name[0]), SIZE - int(name[1:])
    x, y = BOARD_X + col * CELL, BOARD_Y + row * CELL
    return x, y, x + CELL, y + CELL


def _status(view: dict[str, Any]) -> str:
    """One line saying what is happening now, from public data only."""
    phase = view.get("phase")
    turn = view.get("turn", [])
    if phase == "first":
        return tr("Choosing the first player")
    if phase == "draft":
        done = view.get("drafted", [False, False])
        parts = [
            tr("{seat} has drafted", seat=SEAT_NAMES[s]) if done[s] else tr("{seat} is drafting", seat=SEAT_NAMES[s])
            for s in (0, 1)
        ]
        return say(tr("Secret draft: {first}, {second}", first=parts[0], second=parts[1]))
    if phase in ("deal", "mulligan"):
        deciding = [SEAT_NAMES[s] for s in turn if s in (0, 1)]
        if len(deciding) == 2:
            return tr("Mulligan: {first} and {second} deciding", first=deciding[0], second=deciding[1])
        if deciding:
            return tr("Mulligan: {seat} deciding", seat=deciding[0])
        return tr("Shuffling the draw piles")
    if phase == "effect" and turn:
        return tr(
            "{seat}, effect {effect}: {what}",
            seat=SEAT_NAMES[turn[0]],
            effect=view.get("effect"),
            what=EFFECT_TEXT.get(view.get("effect") or 0, ""),
        )
    if phase == "play" and turn:
        seat = SEAT_NAMES[turn[0]]
        skipped = view.get("skipped") or []
        if skipped:
            return tr(
                "{seat} to place  ·  skipped: {skipped}",
                seat=seat,
                skipped=joined(", ", [SEAT_NAMES[s] for s in skipped]),
            )
        return tr("{seat} to place", seat=seat)
    return tr("Game over")


@lru_cache(maxsize=1)
def _backdrop() -> Image.Image:
    """The empty board with its coordinates, the same in every picture (a picture starts
    from a copy of it)."""
    img = Image.new("RGB", (WIDTH, HEIGHT), PALETTE.background)
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle(
        (BOARD_X - 6, BOARD_Y - 6, BOARD_X + BOARD + 6, BOARD_Y + BOARD + 6), radius=10, fill=PALETTE.grid
    )
    for col in range(SIZE):
        for row in range(SIZE):
            x0, y0, x1, y1 = _cell_box(f"{FILES[col]}{SIZE - row}")
            base = PALETTE.board_light if (col + row) % 2 == 0 else PALETTE.board_dark
            draw.rectangle((x0 + 2, y0 + 2, x1 - 2, y1 - 2), fill=base)
    for col in range(SIZE):
        text_center(
            draw, (BOARD_X + col * CELL + CELL / 2, BOARD_Y + BOARD + 22), FILES[col], SMALL_TEXT, PALETTE.muted
        )
    for row in range(SIZE):
        text_center(draw, (BOARD_X - 22, BOARD_Y + row * CELL + CELL / 2), str(SIZE - row), SMALL_TEXT, PALETTE.muted)
    return img


def _draw_board(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    """The minos (over the backdrop's empty board) and the last placement's frame.

    A domino both of whose halves still show is drawn as one tile over its two squares:
    one border around it and a seam between its halves, so a player sees where each tile
    ends.  A half whose partner was covered is a tile of its own."""
    board = view.get("board", {})
    paired: set[str] = set()
    for a, b in view.get("dominoes", []):
        if a in board and b in board:
            boxes = [_cell_box(a), _cell_box(b)]
            x0, y0 = min(c[0] for c in boxes) + TILE_INSET, min(c[1] for c in boxes) + TILE_INSET
            x1, y1 = max(c[2] for c in boxes) - TILE_INSET, max(c[3] for c in boxes) - TILE_INSET
            owner = int(board[a]["owner"])
            draw.rounded_rectangle((x0, y0, x1, y1), radius=14, fill=PALETTE.seats[owner], outline=PALETTE.pip, width=3)
            if boxes[0][1] == boxes[1][1]:  # side by side: a vertical seam
                mid = (boxes[0][2] + boxes[1][0]) / 2 if boxes[0][0] < boxes[1][0] else (boxes[1][2] + boxes[0][0]) / 2
                draw.line((mid, y0 + 10, mid, y1 - 10), fill=PALETTE.seat_ink[owner], width=SEAM)
            else:
                top, bottom = sorted(boxes, key=lambda c: c[1])
                mid = (top[3] + bottom[1]) / 2
                draw.line((x0 + 10, mid, x1 - 10, mid), fill=PALETTE.seat_ink[owner], width=SEAM)
            paired.update((a, b))
    for name, cell in board.items():
        x0, y0, x1, y1 = _cell_box(name)
        owner = int(cell["owner"])
        if name not in paired:
            draw.rounded_rectangle(
                (x0 + TILE_INSET, y0 + TILE_INSET, x1 - TILE_INSET, y1 - TILE_INSET),
                radius=14,
                fill=PALETTE.seats[owner],
                outline=PALETTE.pip,
                width=3,
            )
        text_center(draw, ((x0 + x1) / 2 - 4, (y0 + y1) / 2 + 8), str(cell["number"]), 64, PALETTE.seat_ink[owner])
        if cell.get("under"):
            badge = (x1 - 50, y0 + 12, x1 - 12, y0 + 40)
            draw.rounded_rectangle(badge, radius=8, fill=PALETTE.panel)
            text_center(
                draw,
                ((badge[0] + badge[2]) / 2, (badge[1] + badge[3]) / 2),
                f"+{cell['under']}",
                SMALL_TEXT,
                PALETTE.text,
            )
    placement = view.get("last_placement")
    if placement:
        boxes = [_cell_box(name) for name in placement["squares"]]
        x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
        x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
        draw.rounded_rectangle((x0 + 2, y0 + 2, x1 - 2, y1 - 2), radius=12, outline=PALETTE.highlight, width=6)


def _draw_seat_panel(img: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], seat: int, top: int) -> None:
    """Name and score, then wrapped facts, items and the newest discards, each line in the panel's box."""
    x = PANEL_X
    right = WIDTH - MARGIN
    turn = view.get("turn", [])
    room = (x, top, right, top + PANEL_HEIGHT)
    draw.rounded_rectangle(
        room, radius=12, fill=PALETTE.panel, outline=PALETTE.turn if seat in turn else PALETTE.panel, width=3
    )
    seat_token(draw, (x + 24, top + 28), 12, seat)
    scores = view.get("scores", [0, 0])
    score_w = text(draw, (right - 14, top + 4), str(scores[seat]), 44, PALETTE.seats[seat], anchor="ra", box=room)
    name = fit_text(SEAT_NAMES[seat], SMALL_TEXT, right - x - 60 - score_w)
    text(draw, (x + 44, top + 28), name, SMALL_TEXT, PALETTE.text, anchor="lm", bold=True, box=room)
    directions = view.get("directions")
    facts = [directions[seat]] if directions else []
    facts += [tr("hand {count}", count=view["hand_sizes"][seat]), tr("pile {count}", count=view["pile_sizes"][seat])]
    if view.get("skips", [0, 0])[seat]:
        facts.append(tr("skips next turn ×{count}", count=view["skips"][seat]))
    if view.get("phase") == "draft":
        facts = [tr("drafted ✓") if view.get("drafted", [False, False])[seat] else tr("drafting…")]
    y = top + 56
    inner = right - x - 28
    items = [name for name, holder in view.get("items", {}).items() if holder in (str(seat), "both")]
    lines = [(line, PALETTE.muted) for line in wrap(" · ".join(say(f) for f in facts), SMALL_TEXT, inner)]
    if items:
        lines += [
            (line, PALETTE.accent) for line in wrap(tr("items: {items}", items=", ".join(items)), SMALL_TEXT, inner)
        ]
    for line, colour in lines:
        text(draw, (x + 14, y), line, SMALL_TEXT, colour, box=room)
        y += line_height(SMALL_TEXT)
    discards = view.get("discards", [[], []])[seat]
    older = len(discards) - DISCARDS_SHOWN
    if not discards:
        label = tr("Discards: none")
    else:
        label = tr("Discards (+{n} older)", n=older) if older > 0 else tr("Discards")
    text(draw, (x + 14, y), fit_text(label, SMALL_TEXT, inner), SMALL_TEXT, PALETTE.text, box=room)
    y += line_height(SMALL_TEXT) + 2
    for k, tile in enumerate(discards[-DISCARDS_SHOWN:]):
        _paste_tile(img, tile, (x + 14 + k * (SMALL[0] + 10), y), SMALL, PALETTE.pip)


@lru_cache(maxsize=1)
def palette() -> Image.Image:
    """Every colour the public Domino Wars picture draws, and the anti-aliased edges of its
    text: mapping to it is ~4x faster than finding a palette per picture."""
    solids = [
        PALETTE.background, PALETTE.panel, PALETTE.grid, PALETTE.board_light, PALETTE.board_dark, *PALETTE.seats,
        PALETTE.pip, PALETTE.ivory, PALETTE.highlight, *PALETTE.seat_ink, *CHROME_SOLIDS,
    ]  # fmt: skip
    pairs = [
        *CHROME_PAIRS,
        *((ink, PALETTE.background) for ink in (PALETTE.text, PALETTE.muted)),  # status line, coordinates
        *zip(PALETTE.seat_ink, PALETTE.seats, strict=True),  # the numbers on the squares
        *((seat, PALETTE.panel) for seat in PALETTE.seats),  # the scores
    ]
    return fixed_palette(solids, pairs=pairs, steps=None)


def board(view: dict[str, Any]) -> Image.Image:
    """The public picture: status line, the 4×4 board, and a panel per seat."""
    img = _backdrop().copy()
    draw = ImageDraw.Draw(img)
    room = (0, 0, WIDTH, BOARD_Y - 8)
    lines = wrap(_status(view), KEY_TEXT, WIDTH - 2 * MARGIN)[:2]
    for i, line in enumerate(lines):
        text(draw, (MARGIN, 10 + i * line_height(KEY_TEXT)), line, KEY_TEXT, PALETTE.text, box=room, key=True)
    placement = view.get("last_placement")
    if placement and len(lines) < 2:  # says what the yellow frame is, in the last move's yellow
        last = tr(
            "Last: {seat} on {squares} (framed)",
            seat=SEAT_NAMES[int(placement["seat"])],
            squares="-".join(placement["squares"]),
        )
        text(draw, (MARGIN, 10 + line_height(KEY_TEXT)), last, KEY_TEXT, PALETTE.highlight, box=room, key=True)
    _draw_board(draw, view)
    for seat in (0, 1):
        _draw_seat_panel(img, draw, view, seat, BOARD_Y - 6 + seat * (PANEL_HEIGHT + PANEL_GAP))
    return img


@lru_cache(maxsize=1)
def private_palette() -> Image.Image:
    """Every colour a seat's own picture draws (hand, pile, choices) and its text edges."""
    solids = [
        PALETTE.background, PALETTE.ivory, PALETTE.pip, *PALETTE.seats, PALETTE.highlight, PALETTE.text,
        PALETTE.muted, *CHROME_SOLIDS,
    ]  # fmt: skip
    pairs = [*CHROME_PAIRS, *((ink, PALETTE.background) for ink in (PALETTE.text, PALETTE.muted, PALETTE.highlight))]
    return fixed_palette(solids, pairs=pairs, steps=None)


def _pile_rows(private: dict[str, Any]) -> list[tuple[str, str]]:
    """The pile as (tile, mark) in display order: known top, the unordered rest, known bottom."""
    top, bottom = list(private.get("known_top", [])), list(private.get("known_bottom", []))
    rest = Counter(private.get("pile", [])) - Counter(top) - Counter(bottom)
    middle = sorted(rest.elements())
    return [(t, "top") for t in top] + [(t, "") for t in middle] + [(t, "bottom") for t in bottom]


ALL_TILES = tuple(f"{a}-{b}" for a in range(7) for b in range(a + 1, 7))
"""The 21 tiles a seat drafts from (no doubles in Domino Wars), in reading order."""
DRAFT_TILE = (96, 48)
DRAFT_SIZE = 8


def _draft_picture(view: dict[str, Any], seat: int) -> Image.Image:
    """The secret draft as the choice it is: all 21 tiles, the ones picked framed in the
    seat's colour and marked, the rest free to pick, and how to pick."""
    picked = set(view["private"].get("draft", []))
    per_row, gap_x, gap_y = 7, 16, 44
    rows = -(-len(ALL_TILES) // per_row)
    left = DRAFT_SIZE - len(picked)
    how = (
        tr("Pick {left} more: type “pick 2-5”, or all at once “draft 0-1 0-2 …”.", left=left)
        if left
        else tr("Draft complete.")
    )
    lines = wrap(how, SMALL_TEXT, WIDTH - 2 * MARGIN)
    top = 66 + len(lines) * line_height(SMALL_TEXT) + 8
    img = Image.new("RGB", (WIDTH, top + rows * (DRAFT_TILE[1] + gap_y) + 10), PALETTE.background)
    draw = ImageDraw.Draw(img)
    seat_token(draw, (MARGIN + 14, 34), 13, seat)
    title = tr("Your secret draft ({count}/{size})", count=len(picked), size=DRAFT_SIZE)
    text(draw, (MARGIN + 36, 34), title, SMALL_TEXT, PALETTE.text, anchor="lm", bold=True)
    for i, line in enumerate(lines):
        text(draw, (MARGIN, 58 + i * line_height(SMALL_TEXT)), line, SMALL_TEXT, PALETTE.muted)
    for k, tile in enumerate(ALL_TILES):
        tx = MARGIN + (k % per_row) * (DRAFT_TILE[0] + gap_x)
        ty = top + (k // per_row) * (DRAFT_TILE[1] + gap_y)
        mine = tile in picked
        if mine:
            draw.rounded_rectangle(
                (tx - 5, ty - 5, tx + DRAFT_TILE[0] + 5, ty + DRAFT_TILE[1] + 5), radius=10, fill=PALETTE.seats[seat]
            )
        _paste_tile(img, tile, (tx, ty), DRAFT_TILE, PALETTE.pip)
        label = f"✓ {tile}" if mine else tile
        colour = PALETTE.text if mine else PALETTE.muted
        text_center(draw, (tx + DRAFT_TILE[0] / 2, ty + DRAFT_TILE[1] + 20), label, SMALL_TEXT, colour, bold=mine)
    return img


def private(view: dict[str, Any]) -> Image.Image | None:
    """The seat's own picture: during the draft the 21 tiles to choose from; later the
    hand (large) and draw pile contents (small); None when public."""
    mine = view.get("private")
    if mine is None or view.get("you") not in (0, 1):
        return None
    seat = int(view["you"])
    if view.get("phase") == "draft":
        return _draft_picture(view, seat)
    hand = list(mine.get("hand", []))
    drafting = view.get("phase") == "draft"
    shown_tiles = sorted(mine.get("draft", [])) if drafting else hand
    pile = _pile_rows(mine)
    choices = list(mine.get("choices", []))
    hand_rows = max(1, (len(shown_tiles) + 4) // 5)
    pile_rows = 0 if drafting else max(1, (len(pile) + 7) // 8)
    pile_height = 54 + pile_rows * (PILE[1] + 40) if pile_rows else 0
    choice_lines = (
        wrap(tr("Choose: {choices}", choices="  /  ".join(choices)), SMALL_TEXT, WIDTH - 2 * MARGIN) if choices else []
    )
    height = 70 + hand_rows * (LARGE[1] + HAND_GAP) + pile_height + len(choice_lines) * line_height(SMALL_TEXT) + 26
    img = Image.new("RGB", (WIDTH, height), PALETTE.background)
    draw = ImageDraw.Draw(img)
    seat_token(draw, (MARGIN + 14, 34), 13, seat)
    title = (
        tr("Your draft ({count}/8)", count=len(shown_tiles)) if drafting else tr("Your hand ({count})", count=len(hand))
    )
    text(draw, (MARGIN + 36, 34), title, SMALL_TEXT, PALETTE.text, anchor="lm", bold=True)
    y = 66
    for k, tile in enumerate(shown_tiles):
        tx = MARGIN + (k % 5) * (LARGE[0] + 24)
        ty = y + (k // 5) * (LARGE[1] + HAND_GAP)
        _paste_tile(img, tile, (tx, ty), LARGE, PALETTE.seats[seat])
        text_center(draw, (tx + LARGE[0] / 2, ty + LARGE[1] + 20), tile, SMALL_TEXT, PALETTE.muted)
    if not shown_tiles:
        text(draw, (MARGIN, y + 20), "no tiles", SMALL_TEXT, PALETTE.muted)
    y += hand_rows * (LARGE[1] + HAND_GAP) + 4
    if drafting:
        return img
    text(
        draw,
        (MARGIN, y),
        tr("Draw pile ({count}), order unknown except where marked", count=len(pile)),
        SMALL_TEXT,
        PALETTE.text,
    )
    y += 40
    for k, (tile, mark) in enumerate(pile):
        tx = MARGIN + (k % 8) * (PILE[0] + 24)
        ty = y + (k // 8) * (PILE[1] + 40)
        _paste_tile(img, tile, (tx, ty), PILE, PALETTE.highlight if mark else PALETTE.pip)
        if mark:
            text_center(draw, (tx + PILE[0] / 2, ty + PILE[1] + 18), mark, SMALL_TEXT, PALETTE.highlight)
    if not pile:
        text(draw, (MARGIN, y + 6), "empty", SMALL_TEXT, PALETTE.muted)
    y += pile_rows * (PILE[1] + 40)
    if choices:
        for i, line in enumerate(choice_lines):
            text(draw, (MARGIN, y + 10 + i * line_height(SMALL_TEXT)), line, SMALL_TEXT, PALETTE.text)
    return img
