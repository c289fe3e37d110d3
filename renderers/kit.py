"""The drawing kit every board picture shares: palette, fonts, header and footer.

Why one kit: five games should look like one product.  Every renderer draws only its
board body; `frame` adds the same header strip (both players, whose turn, move number,
clocks) and footer (outcome or a status line) around it.

Colours come from the Okabe–Ito palette, which stays distinguishable with the common
kinds of colour blindness; the two seats also differ in lightness so a greyscale
screenshot still tells them apart.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

Color = tuple[int, int, int]
Font = ImageFont.FreeTypeFont


def rgb(hex_code: str) -> Color:
    value = hex_code.lstrip("#")
    return (int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16))


class Palette:
    """Named colours (a namespace: read them as `PALETTE.grid`)."""

    background: Color = rgb("#1E2227")
    panel: Color = rgb("#2A2F36")
    board_light: Color = rgb("#D9CDB4")
    board_dark: Color = rgb("#C4B596")
    cut: Color = rgb("#1E2227")
    grid: Color = rgb("#8C7F66")
    text: Color = rgb("#F2F2F2")
    muted: Color = rgb("#A7AFB8")
    label: Color = rgb("#5B5142")
    highlight: Color = rgb("#F0E442")  # Okabe–Ito yellow: last move
    accent: Color = rgb("#56B4E9")  # Okabe–Ito sky blue
    good: Color = rgb("#009E73")  # Okabe–Ito bluish green
    bad: Color = rgb("#D55E00")  # Okabe–Ito vermillion
    ivory: Color = rgb("#FAF7EE")  # domino faces
    pip: Color = rgb("#1B1B1B")
    seats: tuple[Color, Color] = (rgb("#E69F00"), rgb("#0072B2"))  # orange (light), blue (dark)
    seat_ink: tuple[Color, Color] = (rgb("#1B1B1B"), rgb("#FFFFFF"))  # text drawn on a seat colour


PALETTE = Palette
HEADER_HEIGHT = 72
FOOTER_HEIGHT = 44


@lru_cache(maxsize=32)
def font(size: int) -> Font:
    """Pillow's bundled scalable font at `size` px: nothing to ship, nothing to fetch."""
    loaded = ImageFont.load_default(size)
    assert isinstance(loaded, ImageFont.FreeTypeFont), "Pillow was built without FreeType"
    return loaded


@dataclass(frozen=True)
class Header:
    """What the service knows that a game view does not: names, move number, clocks."""

    players: tuple[str, str] = ("Seat 0", "Seat 1")
    ply: int | None = None
    clocks: tuple[str, str] | None = None
    status: str | None = None


def text_center(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill: Color, **kw: Any
) -> None:
    draw.text(xy, text, font=font(size), fill=fill, anchor="mm", **kw)


def fit_text(text: str, size: int, max_width: float) -> str:
    """`text`, shortened with an ellipsis so it fits `max_width` pixels at `size`."""
    f = font(size)
    if f.getlength(text) <= max_width:
        return text
    while text and f.getlength(text + "…") > max_width:
        text = text[:-1]
    return text + "…"


def seat_token(draw: ImageDraw.ImageDraw, center: tuple[float, float], radius: float, seat: int) -> None:
    """The disc that stands for a seat everywhere (header, legends)."""
    x, y = center
    draw.ellipse(
        (x - radius, y - radius, x + radius, y + radius),
        fill=PALETTE.seats[seat],
        outline=PALETTE.pip if seat == 0 else PALETTE.text,
        width=2,
    )


def _draw_header(img: Image.Image, view: dict[str, Any], header: Header, seat_names: Sequence[str]) -> None:
    draw = ImageDraw.Draw(img)
    width = img.width
    draw.rectangle((0, 0, width, HEADER_HEIGHT), fill=PALETTE.panel)
    turn = set(view.get("turn", []))
    half = width / 2
    for seat in (0, 1):
        left = 12 + seat * half
        active = seat in turn
        if active:
            draw.rounded_rectangle(
                (left - 6, 8, left + half - 18, HEADER_HEIGHT - 8), radius=10, outline=PALETTE.highlight, width=3
            )
        seat_token(draw, (left + 20, HEADER_HEIGHT / 2), 13, seat)
        name = fit_text(header.players[seat], 22, half - 90)
        draw.text((left + 42, 14), name, font=font(22), fill=PALETTE.text)
        detail = seat_names[seat]
        if header.clocks is not None:
            detail += f"  ·  clock {header.clocks[seat]}"  # the bundled font has no ⏱ glyph
        if active:
            detail += "  ·  to move"
        draw.text((left + 42, 42), fit_text(detail, 16, half - 90), font=font(16), fill=PALETTE.muted)


def _draw_footer(img: Image.Image, top: int, view: dict[str, Any], header: Header, seat_names: Sequence[str]) -> None:
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, top, img.width, img.height), fill=PALETTE.panel)
    outcome = view.get("outcome")
    if outcome:
        winners = outcome["winners"]
        if winners:
            lead = f"{header.players[winners[0]]} ({seat_names[winners[0]]}) wins"
            colour = PALETTE.highlight
        else:
            lead, colour = "Draw", PALETTE.accent
        line = f"{lead}: {outcome['reason']}"
    else:
        parts = []
        if header.ply is not None:
            parts.append(f"Move {header.ply}")
        if header.status:
            parts.append(header.status)
        line, colour = "  ·  ".join(parts), PALETTE.muted
    draw.text(
        (14, top + FOOTER_HEIGHT / 2), fit_text(line, 18, img.width - 28), font=font(18), fill=colour, anchor="lm"
    )


def frame(body: Image.Image, view: dict[str, Any], header: Header | None, seat_names: Sequence[str]) -> Image.Image:
    """The finished picture: header strip, the game's body, footer."""
    header = header or Header()
    out = Image.new("RGB", (body.width, HEADER_HEIGHT + body.height + FOOTER_HEIGHT), PALETTE.background)
    out.paste(body, (0, HEADER_HEIGHT))
    _draw_header(out, view, header, seat_names)
    _draw_footer(out, HEADER_HEIGHT + body.height, view, header, seat_names)
    return out


def to_png(img: Image.Image) -> bytes:
    """PNG bytes of a board picture.

    Why quantise: boards are flat colours and anti-aliased edges, so 256 palette colours
    look the same as true colour, while the PNG is 2-3x smaller and encodes 2-4x faster
    (zlib over one byte a pixel instead of three).  Level 3 is where zlib stops paying
    for its time on these pictures.
    """
    buffer = io.BytesIO()
    img.quantize(colors=256, method=Image.Quantize.FASTOCTREE).save(buffer, format="PNG", compress_level=3)
    return buffer.getvalue()


def coordinate_labels(
    draw: ImageDraw.ImageDraw,
    origin: tuple[int, int],
    cell: int,
    files: int,
    ranks: int,
    *,
    fill: Color = PALETTE.muted,
    size: int = 16,
) -> None:
    """File letters under and rank numbers left of a board whose top-left is `origin`.

    Rank 1 is at the bottom, as seat 0 sees the board.
    """
    x0, y0 = origin
    for f in range(files):
        text_center(
            draw, (x0 + f * cell + cell / 2, y0 + ranks * cell + 14), "abcdefghijklmnopqrstuvwxyz"[f], size, fill
        )
    for r in range(ranks):
        text_center(draw, (x0 - 14, y0 + (ranks - 1 - r) * cell + cell / 2), str(r + 1), size, fill)


PIP_LAYOUT: dict[int, tuple[tuple[float, float], ...]] = {
    0: (),
    1: ((0.5, 0.5),),
    2: ((0.25, 0.25), (0.75, 0.75)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.25, 0.22), (0.75, 0.22), (0.25, 0.5), (0.75, 0.5), (0.25, 0.78), (0.75, 0.78)),
}


def pips(
    draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], value: int, colour: Color = PALETTE.pip
) -> None:
    """Draw the pips of one half of a domino (or a die face) inside `box`."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    r = max(1.5, min(w, h) * 0.09)
    for fx, fy in PIP_LAYOUT[value]:
        cx, cy = x0 + fx * w, y0 + fy * h
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour)


def domino(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    a: int,
    b: int,
    *,
    face: Color = PALETTE.ivory,
    outline: Color = PALETTE.pip,
    width: int = 2,
) -> None:
    """A domino in `box` with `a` on the left/top half and `b` on the right/bottom half;
    the longer side of the box decides the orientation."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(
        box, radius=max(2, int(min(x1 - x0, y1 - y0) * 0.15)), fill=face, outline=outline, width=width
    )
    if x1 - x0 >= y1 - y0:
        mid = (x0 + x1) / 2
        draw.line((mid, y0 + 3, mid, y1 - 3), fill=outline, width=max(1, width - 1))
        pips(draw, (x0, y0, mid, y1), a)
        pips(draw, (mid, y0, x1, y1), b)
    else:
        mid = (y0 + y1) / 2
        draw.line((x0 + 3, mid, x1 - 3, mid), fill=outline, width=max(1, width - 1))
        pips(draw, (x0, y0, x1, mid), a)
        pips(draw, (x0, mid, x1, y1), b)
