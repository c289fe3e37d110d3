"""The drawing kit every board picture shares: palette, fonts, header and footer.

Why one kit: five games should look like one product.  Every renderer draws only its
board body; `frame` adds the same header strip (both players, whose turn, move number,
clocks) and footer (outcome or a status line) around it.

Text in any script: each character is drawn by the first shipped font that has it (Noto
Sans, a Noto font per script, CJK, emoji, symbols); a line's right-to-left parts are put in
order by `renderers.bidi`, and the script fonts are shaped by raqm when Pillow has it.  A
name inside an English sentence is wrapped in `bidi.isolate` so the two keep their orders.

Colours come from the Okabe–Ito palette, which stays distinguishable with the common
kinds of colour blindness; the two seats also differ in lightness so a greyscale
screenshot still tells them apart.
"""

from __future__ import annotations

import bisect
import io
import json
import math
import re
import unicodedata
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont, features

from bot.i18n import DEFAULT, Duration, Locale, joined, tr
from renderers import bidi
from renderers.language import say

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
    highlight: Color = rgb("#F0E442")  # Okabe–Ito yellow: the last move, and nothing else
    turn: Color = rgb("#009E73")  # Okabe–Ito bluish green: whose turn, what may act now
    accent: Color = rgb("#56B4E9")  # Okabe–Ito sky blue
    good: Color = rgb("#009E73")  # Okabe–Ito bluish green
    bad: Color = rgb("#D55E00")  # Okabe–Ito vermillion
    ivory: Color = rgb("#FAF7EE")  # domino faces
    pip: Color = rgb("#1B1B1B")
    seats: tuple[Color, Color] = (rgb("#E69F00"), rgb("#0072B2"))  # orange (light), blue (dark)
    seat_ink: tuple[Color, Color] = (rgb("#1B1B1B"), rgb("#FFFFFF"))  # text drawn on a seat colour


PALETTE = Palette


FONT_DIR = Path(__file__).with_name("fonts")
REGULAR = "NotoSans-Regular.ttf"
BOLD = "NotoSans-Bold.ttf"
FALLBACKS = ("NotoSansCJKsc-Subset.otf", "NotoEmoji-Regular.ttf", "DejaVuSans-Symbols.ttf")
"""Tried last, in order, for a character no Noto Sans font has: CJK, then emoji, then symbols."""
REPLACEMENT = "\ufffd"
IGNORED = frozenset("\ufe0e\ufe0f") | frozenset(chr(c) for c in range(0x1F3FB, 0x1F400))
"""Variation selectors and skin tones: meaningless in a monochrome emoji font."""
SHAPING = bool(features.check("raqm"))
"""Whether Pillow has raqm (HarfBuzz + FriBidi; its wheels ship it): the script fonts are then
shaped (Arabic letters joined, Indic conjuncts formed, marks placed).  Without it they are
drawn glyph by glyph, right-to-left runs reversed by cluster: readable, if unjoined."""
PHONE_WIDTH = 400
"""The width (px) a phone shows a picture at: text sizes are checked as displayed there."""
MIN_TEXT = 11
MIN_KEY_TEXT = 14
"""Displayed px at `PHONE_WIDTH`: every text, and whose turn / clocks / the last move."""


def phone_size(width: int, displayed: int = MIN_TEXT) -> int:
    """The font size (px) that shows as `displayed` px when a `width`-px picture is shown 400 px wide."""
    return math.ceil(displayed * width / PHONE_WIDTH)


@lru_cache(maxsize=1)
def _coverage() -> dict[str, tuple[tuple[int, ...], tuple[int, ...]]]:
    """Each shipped font's characters as sorted (starts, ends) of ranges, from coverage.json,
    in the order fonts are tried: Noto Sans, the per-script Noto fonts, then `FALLBACKS`."""
    raw: dict[str, list[list[int]]] = json.loads((FONT_DIR / "coverage.json").read_text())
    return {name: (tuple(r[0] for r in ranges), tuple(r[1] for r in ranges)) for name, ranges in raw.items()}


@lru_cache(maxsize=1)
def script_faces() -> frozenset[str]:
    """The per-script fonts (Arabic, Devanagari, Thai, ...): the ones that need shaping."""
    return frozenset(_coverage()) - {REGULAR, *FALLBACKS}


def _covers(name: str, char: str) -> bool:
    starts, ends = _coverage()[name]
    i = bisect.bisect_right(starts, ord(char)) - 1
    return i >= 0 and ord(char) <= ends[i]


@lru_cache(maxsize=8192)
def _face_for(char: str) -> str | None:
    """The first shipped font that has `char` (None: no font has it)."""
    scripts = [name for name in _coverage() if name in script_faces()]
    for name in (REGULAR, *scripts, *FALLBACKS):
        if _covers(name, char):
            return name
    return None


def _shaped(name: str) -> bool:
    return SHAPING and name in script_faces()


@lru_cache(maxsize=256)
def _load(name: str, size: int) -> Font:
    engine = ImageFont.Layout.RAQM if _shaped(name) else ImageFont.Layout.BASIC
    return ImageFont.truetype(str(FONT_DIR / name), size, layout_engine=engine)


def font(size: int, bold: bool = False) -> Font:
    """Noto Sans at `size` px (for metrics); draw through `text`, which falls back per character."""
    return _load(BOLD if bold else REGULAR, size)


def _drawable(char: str) -> str:
    """`char` as something a shipped font draws: itself, its NFKC form (𝓐 -> A), or U+FFFD."""
    if char in IGNORED:
        return ""
    if char in bidi.CONTROLS or char in "\u200c\u200d":
        return char
    if char.isspace():
        return " "
    if _face_for(char) is not None:
        return char
    folded = unicodedata.normalize("NFKC", char)
    if folded != char and all(c.isspace() or _face_for(c) is not None for c in folded):
        return folded
    return REPLACEMENT


def _letters(content: str, bold: bool) -> list[tuple[str, str]]:
    """Each drawable character of `content` with the font that draws it.

    A mark, joiner, digit, space or punctuation mark after a script font's letter stays in
    that font when it has it, so that the font shapes the whole word ("محمد علي" is one run)."""
    main = BOLD if bold else REGULAR
    out: list[tuple[str, str]] = []
    for char in unicodedata.normalize("NFC", content):
        for c in _drawable(char):
            if c in bidi.CONTROLS:
                out.append((main, c))
                continue
            previous = out[-1][0] if out else main
            face = _face_for(c)
            if previous in script_faces() and not unicodedata.category(c).startswith("L") and _covers(previous, c):
                face = previous
            elif c in "\u200c\u200d" or c.isspace():
                face = previous if previous in script_faces() else None
            out.append((main if face in (None, REGULAR) else str(face), c))
    return out


@lru_cache(maxsize=8192)
def runs(content: str, bold: bool = False) -> tuple[tuple[str, str], ...]:
    """`content` cut into (font file, substring) runs in reading (logical) order, each drawable
    by its font: the per-character fallback that keeps every script and emoji off the
    missing-glyph box.  Isolate marks (see `bidi.isolate`) are left out."""
    out: list[list[str]] = []
    for name, c in _letters(content, bold):
        if c in bidi.CONTROLS:
            continue
        if out and out[-1][0] == name:
            out[-1][1] += c
        else:
            out.append([name, c])
    return tuple((name, chunk) for name, chunk in out)


Piece = tuple[str, str, bool]
"""(font file, text, right to left): one run drawn by one call, in drawing order."""


@lru_cache(maxsize=8192)
def pieces(content: str, bold: bool = False) -> tuple[Piece, ...]:
    """`content` as runs in the order they are drawn, left to right.

    Bidirectional levels come from `bidi.levels` over the whole line; each run of one font
    and one level is then placed by rule L2.  A right-to-left run in a shaped (raqm) font
    keeps its logical text and is laid out right to left by raqm, which also joins and
    mirrors; any other right-to-left run is reversed here by grapheme cluster, its brackets
    mirrored, and drawn left to right."""
    letters = _letters(content, bold)
    if not letters:
        return ()
    char_levels = bidi.levels([c for _, c in letters])
    grouped: list[tuple[str, str, int]] = []
    for (name, c), level in zip(letters, char_levels, strict=True):
        if c in bidi.CONTROLS:
            continue
        if grouped and grouped[-1][0] == name and grouped[-1][2] == level:
            grouped[-1] = (name, grouped[-1][1] + c, level)
        else:
            grouped.append((name, c, level))
    out: list[Piece] = []
    for index in bidi.visual_order([level for _, _, level in grouped]):
        name, chunk, level = grouped[index]
        rtl = level % 2 == 1
        if rtl and not _shaped(name):
            chunk, rtl = bidi.mirrored("".join(reversed(bidi.graphemes(chunk)))), False
        out.append((name, chunk, rtl))
    return tuple(out)


def _direction(rtl: bool, name: str) -> str | None:
    return ("rtl" if rtl else "ltr") if _shaped(name) else None


@lru_cache(maxsize=16384)
def _chunk_width(name: str, size: int, chunk: str, rtl: bool = False) -> float:
    return _load(name, size).getlength(chunk, direction=_direction(rtl, name))


def text_width(content: str, size: int, bold: bool = False) -> float:
    """Advance width of `content` (in the picture's language) at `size` px, fallback fonts
    included."""
    return _text_width(say(content), size, bold)


@lru_cache(maxsize=8192)
def _text_width(content: str, size: int, bold: bool = False) -> float:
    """(cached: wrapping and fitting measure the same words again and again)"""
    return sum(_chunk_width(name, size, chunk, rtl) for name, chunk, rtl in pieces(content, bold))


Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class TextRecord:
    """One drawn text, kept while `recording()` is on: what a test checks for overflow and size."""

    content: str
    size: int
    ink: Box
    box: Box
    """The room the text was given (the whole image when the caller named none)."""
    image_size: tuple[int, int]
    key: bool
    """Whose turn, a clock or the last move: held to the larger phone size."""

    def overflow(self) -> float:
        """How many px the ink sticks out of its box (0 when it fits; 1 px of anti-aliasing is allowed)."""
        (x0, y0, x1, y1), (bx0, by0, bx1, by1) = self.ink, self.box
        return max(0.0, bx0 - x0 - 1, by0 - y0 - 1, x1 - bx1 - 1, y1 - by1 - 1)


_RECORDS: ContextVar[list[TextRecord] | None] = ContextVar("_RECORDS", default=None)


@contextmanager
def recording() -> Iterator[list[TextRecord]]:
    """Collect a `TextRecord` for every text drawn inside the block (tests use it)."""
    records: list[TextRecord] = []
    token = _RECORDS.set(records)
    try:
        yield records
    finally:
        _RECORDS.reset(token)


@lru_cache(maxsize=4096)
def _glyph_mask(name: str, size: int, chunk: str, rtl: bool = False) -> tuple[Image.Image, tuple[int, int]]:
    """`chunk` rasterised once as an alpha mask, with its offset from the baseline origin.

    Why cache: a picture draws the same labels (coordinates, seat names, headings) every
    time, and FreeType rasterising them again costs more than the rest of the drawing."""
    f = _load(name, size)
    direction = _direction(rtl, name)
    left, top, right, bottom = (math.floor(v) for v in f.getbbox(chunk, anchor="ls", direction=direction))
    mask = Image.new("L", (max(1, right - left + 1), max(1, bottom - top + 1)), 0)
    ImageDraw.Draw(mask).text((-left, -top), chunk, font=f, fill=255, anchor="ls", direction=direction)
    return mask, (left, top)


def _baseline(y: float, vertical: str, size: int, bold: bool) -> float:
    ascent, descent = font(size, bold).getmetrics()
    if vertical in "at":
        return y + ascent
    if vertical == "m":
        return y + (ascent - descent) / 2
    if vertical == "d":
        return y - descent
    return y


def text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    content: str,
    size: int,
    fill: Color,
    *,
    anchor: str = "la",
    bold: bool = False,
    box: Box | None = None,
    key: bool = False,
    stroke_width: int = 0,
    stroke_fill: Color | None = None,
) -> float:
    """Draw `content` with per-character font fallback; returns its advance width.

    `anchor` is Pillow's two letters (l/m/r, then a/t/m/s/d), measured on Noto Sans so that
    runs in other fonts share one baseline.  `box` is the room the caller gave the text;
    with `recording()` on, the text's ink and that box are recorded so a test can prove
    that nothing sticks out and that every text is big enough on a phone.
    """
    content = say(content)
    drawn = pieces(content, bold)
    widths = [_chunk_width(name, size, chunk, rtl) for name, chunk, rtl in drawn]
    x, y = xy
    x -= {"l": 0.0, "m": sum(widths) / 2, "r": sum(widths)}[anchor[0]]
    baseline = _baseline(y, anchor[1], size, bold)
    records = _RECORDS.get()
    ink: list[Box] = []
    for (name, chunk, rtl), width in zip(drawn, widths, strict=True):
        if chunk.strip():
            f, direction = _load(name, size), _direction(rtl, name)
            if stroke_width:
                draw.text(
                    (x, baseline), chunk, font=f, fill=fill, anchor="ls", stroke_width=stroke_width,
                    stroke_fill=stroke_fill, direction=direction,
                )  # fmt: skip
            else:
                mask, (dx, dy) = _glyph_mask(name, size, chunk, rtl)
                draw.bitmap((round(x + dx), round(baseline + dy)), mask, fill=fill)
            if records is not None:
                x0, y0, x1, y1 = f.getbbox(chunk, anchor="ls", stroke_width=stroke_width, direction=direction)
                ink.append((x + x0, baseline + y0, x + x1, baseline + y1))
        x += width
    if records is not None and ink:
        size_px = draw.im.size
        bounds = (min(i[0] for i in ink), min(i[1] for i in ink), max(i[2] for i in ink), max(i[3] for i in ink))
        records.append(TextRecord(content, size, bounds, box or (0, 0, *size_px), size_px, key))
    return sum(widths)


def text_center(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], content: str, size: int, fill: Color, **kw: Any
) -> None:
    text(draw, xy, content, size, fill, anchor="mm", **kw)


def fit_text(content: str, size: int, max_width: float, bold: bool = False) -> str:
    """`content`, shortened with an ellipsis so it fits `max_width` pixels at `size`.

    Cut between grapheme clusters (never inside a conjunct, an accented letter or a flag);
    the ellipsis goes at the logical end, so a right-to-left name shows it on its left."""
    content = say(content)
    if _text_width(content, size, bold) <= max_width:  # said once above: measured as drawn
        return content
    clusters = bidi.graphemes(content)
    low, high = 0, len(clusters)  # the most clusters that fit with the ellipsis: binary search
    while low < high:
        middle = (low + high + 1) // 2
        if _text_width("".join(clusters[:middle]).rstrip() + "…", size, bold) <= max_width:
            low = middle
        else:
            high = middle - 1
    return "".join(clusters[:low]).rstrip() + "…" if low else "…"


_BREAKS = re.compile(r"[^\S\u00a0]+")
"""Where a line may break: any white space but the no-break space."""


def wrap(content: str, size: int, width: float, bold: bool = False) -> list[str]:
    """`content` broken at spaces into lines that each fit `width` px; a word wider than a
    line is broken between grapheme clusters (CJK names have no spaces).  A no-break space
    holds its neighbours together (`3\u00a0Std.`: a number and its unit)."""
    content = say(content)
    lines: list[str] = []
    for paragraph in content.split("\n"):
        line = ""
        for word in _BREAKS.split(paragraph.strip()) if paragraph.strip() else ():
            trial = f"{line} {word}" if line else word
            if _text_width(trial, size, bold) <= width:  # `content` is said already: measured as drawn
                line = trial
                continue
            if line:
                lines.append(line)
            line = ""
            for cluster in bidi.graphemes(word):
                if line and _text_width(line + cluster, size, bold) > width:
                    lines.append(line)
                    line = ""
                line += cluster
        lines.append(line)
    return lines


def line_height(size: int) -> int:
    """Baseline-to-baseline distance for `size` px text."""
    return math.ceil(size * 1.36)


@dataclass(frozen=True)
class Header:
    """What the service knows that a game view does not: names, move number, clocks."""

    players: tuple[str, str] = (tr("Seat 0"), tr("Seat 1"))
    ply: int | None = None
    clocks: tuple[str, str] | None = None
    status: str | None = None
    locale: Locale = DEFAULT
    """The language of the picture's words (renderers/language.py)."""


PHASES: dict[str, str] = {
    # Domino Wars
    "first": tr("Choosing who starts"), "draft": tr("Secret draft"), "mulligan": tr("Mulligan"),
    "play": tr("Playing"), "effect": tr("Resolving an effect"),
    # Dominance
    "layout": tr("Laying the Battlefield"), "setup": tr("Setup"), "roll": tr("Rolling"), "move": tr("Move phase"),
    "capture": tr("Capture phase"), "return": tr("Return phase"), "enter": tr("Return phase"),
    "over": tr("Game over"),
    # Wonderland
    "pool": tr("Picking pool decks"), "dice": tr("Choosing dice"), "action": tr("Action phase"),
    "defence": tr("Defence"),
}  # fmt: skip
"""A game phase in players' words, for pictures and alt text alike (the engines' names are
notation, not English)."""


def phase_words(phase: object) -> str:
    return say(PHASES.get(str(phase), str(phase).replace("_", " ").capitalize()))


def counter(view: dict[str, Any], ply: int | None) -> str | None:
    """The one counter a picture shows, in its footer: the game's own turn number when its
    view has one ("Turn 57 of 500", the limit only where a limit exists, never past it),
    else the record's ply ("Move 194").  Boards never repeat it, so two counters cannot disagree."""
    number = view.get("turn_number")
    if isinstance(number, int):
        limit = int(view.get("turn_limit") or 0)
        if limit:
            return say(tr("Turn {number} of {limit}", number=min(number, limit), limit=limit))
        return say(tr("Turn {number}", number=number))
    return None if ply is None else say(tr("Move {ply}", ply=ply))


def seat_token(
    draw: ImageDraw.ImageDraw,
    center: tuple[float, float],
    radius: float,
    seat: int,
    colours: tuple[Color, Color] | None = None,
) -> None:
    """The disc that stands for a seat everywhere (header, legends), in the game's seat colours."""
    x, y = center
    fill = (colours or PALETTE.seats)[seat]
    draw.ellipse(
        (x - radius, y - radius, x + radius, y + radius),
        fill=fill,
        outline=PALETTE.text if sum(fill) < 300 else PALETTE.pip,
        width=2,
    )


def _seat_lines(
    view: dict[str, Any], header: Header, seat_names: Sequence[str], seat: int, width: float, sizes: tuple[int, int]
) -> list[tuple[str, int, bool]]:
    """One seat's header lines as (text, size, key): the name, then its colour, clock and
    whether it is to move (key lines: they must read at 14 px on a phone)."""
    small, big = sizes
    lines = [(fit_text(header.players[seat], small, width, bold=True), small, False)]
    detail = [say(seat_names[seat])]
    if header.clocks is not None:
        detail.append(say(joined(" ", ["⏱", header.clocks[seat]])))  # a long clock's units in the picture's language
    if seat in set(view.get("turn", [])):
        detail.append(say(tr("to move")))
    key = header.clocks is not None or len(detail) > 1
    size = big if key else small
    line = ""
    for part in detail:  # break between the parts ("Orange", "⏱ 4:59", "to move"), not inside one
        trial = f"{line}  ·  {part}" if line else part
        if line and _text_width(trial, size) > width:  # the parts are said already
            lines += [(piece, size, key) for piece in wrap(line, size, width)]
            trial = part
        line = trial
    lines += [(piece, size, key) for piece in wrap(line, size, width)]
    return lines


_WIDEST_CLOCK = "888:88:88"
_WIDEST_LONG_CLOCK = joined(" + ", [Duration(23 * 3600 + 59 * 60), Duration(3 * 86400 + 23 * 3600)])
"""The widest clocks a header makes room for: a short control's digits, a long one's units
(written in the picture's language when measured)."""

FOOTER_LINES = 2
"""Key-size lines the footer always has room for: an outcome longer than that is shortened."""


def _at_most(lines: list[str], count: int, size: int, width: float) -> list[str]:
    """`lines` cut to `count`, the last one ending in an ellipsis when some were left out."""
    if len(lines) <= count:
        return lines
    return [*lines[: count - 1], fit_text(f"{lines[count - 1]} {' '.join(lines[count:])}", size, width)]


class Chrome:
    """The header and footer of one picture, laid out for its width before anything is drawn."""

    def __init__(
        self,
        width: int,
        view: dict[str, Any],
        header: Header,
        seat_names: Sequence[str],
        colours: tuple[Color, Color] | None = None,
    ) -> None:
        self.width, self.view, self.header, self.seat_names = width, view, header, seat_names
        self.colours = colours
        self.small, self.big = phone_size(width), phone_size(width, MIN_KEY_TEXT)
        self.pad = max(8, self.small // 2)
        self.token = self.small * 0.45
        self.column = width / 2 - 2 * self.pad - 2 * self.token - self.pad
        self.seats = [
            _seat_lines(view, header, seat_names, seat, self.column, (self.small, self.big)) for seat in (0, 1)
        ]
        self.header_height = 2 * self.pad + max(self._height(lines) for lines in (*self.seats, *self._widest()))
        self.footer_lines, self.footer_colour, footer_key = self._footer()
        self.footer_key = footer_key
        self.footer_height = 2 * self.pad + FOOTER_LINES * line_height(self.big)

    @staticmethod
    def _height(lines: Sequence[tuple[str, int, bool]]) -> int:
        return sum(line_height(size) for _, size, _ in lines)

    def _widest(self) -> list[list[tuple[str, int, bool]]]:
        """Each seat's header lines as they would be at their longest in this match (that
        seat to move, its clock at nine hours): the header is this tall in every position, so
        consecutive pictures of a match keep one size and the thread does not jump."""
        clocks = None if self.header.clocks is None else (_WIDEST_CLOCK, _WIDEST_CLOCK)
        if self.header.clocks is not None and any(c.isalpha() for c in str(self.header.clocks[0])):
            clocks = (_WIDEST_LONG_CLOCK, _WIDEST_LONG_CLOCK)  # a long control's units: `23 Std. 59 Min. + ...`
        widest = Header(self.header.players, self.header.ply, clocks, self.header.status)
        view = {**self.view, "turn": [0, 1]}
        return [
            _seat_lines(view, widest, self.seat_names, seat, self.column, (self.small, self.big)) for seat in (0, 1)
        ]

    def _footer(self) -> tuple[list[str], Color, bool]:
        """The outcome (key size) or the counter and status (small), in at most
        `FOOTER_LINES` key-size lines: the footer's room is the same in every position."""
        outcome = self.view.get("outcome")
        header, seat_names = self.header, self.seat_names
        room = self.width - 2 * self.pad
        if outcome:
            winners = outcome["winners"]
            reason = say(outcome["reason"])
            if winners:
                said = tr(
                    "{name} ({seat}) wins: {reason}",
                    name=bidi.isolate(header.players[winners[0]]),
                    seat=seat_names[winners[0]],
                    reason=reason,
                )
            else:
                said = tr("Draw: {reason}", reason=reason)
            colour = PALETTE.text
            return (
                _at_most(wrap(said, self.big, room), FOOTER_LINES, self.big, room),
                colour,
                True,
            )
        parts = []
        if (count := counter(self.view, header.ply)) is not None:
            parts.append(count)
        if header.status:
            parts.append(header.status)
        if not parts:
            return [], PALETTE.muted, False
        return (
            _at_most(wrap("  ·  ".join(parts), self.small, room), FOOTER_LINES, self.small, room),
            PALETTE.muted,
            False,
        )

    def draw_header(self, img: Image.Image) -> None:
        draw = ImageDraw.Draw(img)
        draw.rectangle((0, 0, self.width, self.header_height), fill=PALETTE.panel)
        turn = set(self.view.get("turn", []))
        half = self.width / 2
        for seat, lines in enumerate(self.seats):
            left = seat * half
            room = (left + 2, 2, left + half - 2, self.header_height - 2)
            if seat in turn:
                draw.rounded_rectangle(room, radius=10, outline=PALETTE.turn, width=max(3, self.small // 8))
            seat_token(
                draw,
                (left + self.pad + self.token, self.pad + line_height(self.small) / 2),
                self.token,
                seat,
                self.colours,
            )
            x = left + 2 * self.pad + 2 * self.token
            y = float(self.pad)
            for i, (content, size, key) in enumerate(lines):
                colour = PALETTE.text if i == 0 or seat in turn else PALETTE.muted
                text(draw, (x, y), content, size, colour, bold=i == 0, box=room, key=key)
                y += line_height(size)

    def draw_footer(self, img: Image.Image, top: int) -> None:
        draw = ImageDraw.Draw(img)
        room = (0, top, self.width, top + self.footer_height)
        draw.rectangle(room, fill=PALETTE.panel)
        size = self.big if self.footer_key else self.small
        y = top + self.pad
        for line in self.footer_lines:
            text(draw, (self.pad, y), line, size, self.footer_colour, box=room, key=self.footer_key)
            y += line_height(size)


def frame(
    body: Image.Image,
    view: dict[str, Any],
    header: Header | None,
    seat_names: Sequence[str],
    colours: tuple[Color, Color] | None = None,
) -> Image.Image:
    """The finished picture: header strip, the game's body, footer; header and footer text
    sized for the body's width so that they read on a phone."""
    chrome = Chrome(body.width, view, header or Header(), seat_names, colours)
    # Not filled first: the header strip, the body and the footer strip cover every pixel,
    # and filling a whole picture once more costs as much as drawing a board's squares.
    out = Image.new("RGB", (body.width, chrome.header_height + body.height + chrome.footer_height), None)
    out.paste(body, (0, chrome.header_height))
    chrome.draw_header(out)
    chrome.draw_footer(out, chrome.header_height + body.height)
    return out


CHROME_SOLIDS: tuple[Color, ...] = (
    PALETTE.background, PALETTE.panel, PALETTE.text, PALETTE.muted, PALETTE.turn, PALETTE.highlight, PALETTE.accent,
    PALETTE.pip, *PALETTE.seats,
)  # fmt: skip
CHROME_PAIRS: tuple[tuple[Color, Color], ...] = tuple(
    (ink, PALETTE.panel) for ink in (PALETTE.text, PALETTE.muted, PALETTE.highlight, PALETTE.accent)
)
"""The colours `frame` draws (every game's `palette()` holds them): header and footer text
is anti-aliased on the panel in these inks; a game's own seat colours come on top."""


def to_png(img: Image.Image, palette: Image.Image | None = None) -> bytes:
    """PNG bytes of a board picture.

    Why quantise: boards are flat colours and anti-aliased edges, so 256 palette colours
    look the same as true colour, while the PNG is 2-3x smaller and encodes 2-4x faster
    (zlib over one byte a pixel instead of three).  Level 3 is where zlib stops paying
    for its time on these pictures.  A picture drawn from a known set of colours may pass
    `palette` (see `fixed_palette`): mapping to it is ~3x faster than finding one.
    """
    buffer = io.BytesIO()
    if palette is not None:
        quantized = img.quantize(palette=palette, dither=Image.Dither.NONE)
    else:
        quantized = img.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    quantized.save(buffer, format="PNG", compress_level=3)
    return buffer.getvalue()


def blend(ground: Color, ink: Color, share: float) -> Color:
    """`ink` laid over `ground` at `share` coverage: the colour of an anti-aliased edge pixel."""
    return (
        round(ground[0] + (ink[0] - ground[0]) * share),
        round(ground[1] + (ink[1] - ground[1]) * share),
        round(ground[2] + (ink[2] - ground[2]) * share),
    )


MAX_RAMP_STEPS = 15
"""Edge shades per (ink, ground) pair at most: 1/16 apart, finer than an octree palette finds."""


def fixed_palette(
    solids: Sequence[Color],
    inks: Sequence[Color] = (),
    grounds: Sequence[Color] = (),
    *,
    pairs: Sequence[tuple[Color, Color]] = (),
    steps: int | None = 3,
) -> Image.Image:
    """A palette image for `to_png`: the `solids`, plus anti-aliasing steps from ground to
    ink for each of `inks` on each of `grounds` and for each (ink, ground) of `pairs` (the
    edge pixels of text drawn in that ink on that ground).

    `steps=None` spreads the room left in 256 colours evenly over the pairs (at most
    `MAX_RAMP_STEPS` each): text edges then keep nearly every shade they were drawn with.

    Why shades are dropped: Pillow maps a colour through a cache of 4-level steps per
    channel, so a colour within a few levels of a solid can win the solid's pixels (the
    whole background, say).  Solids come in order of importance: a later colour that an
    earlier solid would be mapped to is left out, and that solid maps to itself."""
    colours = list(dict.fromkeys(solids))
    ramps = list(dict.fromkeys([*((ink, ground) for ink in inks for ground in grounds), *pairs]))
    count = steps
    if count is None:
        count = min(MAX_RAMP_STEPS, (256 - len(colours)) // max(1, len(ramps)))
    for ink, ground in ramps:
        for k in range(1, count + 1):
            shade = blend(ground, ink, k / (count + 1))
            if shade not in colours:
                colours.append(shade)
    if len(colours) > 256:
        raise ValueError(f"a palette holds 256 colours, not {len(colours)}")
    solid_count = len(dict.fromkeys(solids))
    while True:  # drop each colour that an earlier solid would be mapped to instead of itself
        palette = _palette_image(colours)
        probe = Image.new("RGB", (solid_count, 1))
        probe.putdata(colours[:solid_count])
        mapped = probe.quantize(palette=palette, dither=Image.Dither.NONE).tobytes()  # one index a pixel
        thieves = {index for solid, index in enumerate(mapped) if index > solid}
        if not thieves:
            return palette
        solid_count -= len(thieves & set(range(solid_count)))
        colours = [colour for index, colour in enumerate(colours) if index not in thieves]


def _palette_image(colours: Sequence[Color]) -> Image.Image:
    flat = [v for colour in colours for v in colour]
    palette = Image.new("P", (1, 1))
    palette.putpalette(flat + [0] * (768 - len(flat)))
    return palette


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
