"""Fixed palettes: every board picture's PNG is mapped to a palette its game declares
(`palette()`, and `private_palette()` for a seat's own picture), which is ~4x cheaper than
finding 256 colours per picture.  These tests
prove that the PNG a player sees is still the picture that was drawn: over random
positions of every game (random options, so both Wonderland boards and Domineering's kept
tiles), long names and clocks, the decoded PNG differs from the true-colour picture by a
few levels at most, and on average by less than the per-picture palette it replaced; and
every area's colour comes out as drawn (a colour missing from `palette()` fails here)."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops

import renderers
from bot.games import GAMES
from renderers.kit import blend, fixed_palette, to_png
from tests.renderers.positions import headers, sample
from tests.slow import slow_cases

GAME_KEYS = sorted(GAMES)
WORST_PIXEL = 24
"""The largest error (levels of 255, in any channel) a pixel may have: an edge shade of
text between two ramp steps."""
FLAT_ERROR = 6
"""How far an area's colour may move: Pillow maps colours in steps of 4 levels, so two solids
closer than that (Focus's outline and pip black) cannot both be exact."""


def _errors(truth: Image.Image, png: bytes) -> tuple[float, int]:
    """(mean, largest) per-pixel error of `png` against `truth`, each pixel's worst channel."""
    decoded = Image.open(io.BytesIO(png)).convert("RGB")
    assert decoded.size == truth.size
    red, green, blue = ImageChops.difference(truth, decoded).split()
    worst = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    histogram = worst.histogram()
    mean = sum(level * count for level, count in enumerate(histogram)) / sum(histogram)
    return mean, max(level for level, count in enumerate(histogram) if count)


def _area_colours(picture: Image.Image) -> list[tuple[int, int, int]]:
    """The colours that fill at least one 3x3 block (squares, panels, pieces, thick lines):
    what was drawn as a solid, as opposed to the edge shades of text."""
    spread = _neighbour_spread(picture)
    red, green, blue = spread.split()
    uniform = ImageChops.lighter(ImageChops.lighter(red, green), blue).point(lambda level: 255 if level == 0 else 0)
    sentinel = (1, 2, 3)  # drawn by no game
    kept = Image.composite(picture, Image.new("RGB", picture.size, sentinel), uniform)
    return [colour for _, colour in kept.getcolors(1 << 16) or [] if colour != sentinel]


def _neighbour_spread(picture: Image.Image) -> Image.Image:
    """Zero where a pixel's 3x3 block is one colour, as the difference of the block's
    `MaxFilter(3)` and `MinFilter(3)` is (the border repeated outwards, as Pillow's rank
    filters do), but from the eight neighbours' differences: Pillow's generic rank filter
    took most of this file's time."""
    width, height = picture.size
    padded = Image.new("RGB", (width + 2, height + 2))
    padded.paste(picture, (1, 1))
    padded.paste(picture.crop((0, 0, width, 1)), (1, 0))
    padded.paste(picture.crop((0, height - 1, width, height)), (1, height + 1))
    padded.paste(padded.crop((1, 0, 2, height + 2)), (0, 0))
    padded.paste(padded.crop((width, 0, width + 1, height + 2)), (width + 1, 0))
    spread = Image.new("RGB", picture.size)
    for dx in range(3):
        for dy in range(3):
            if (dx, dy) != (1, 1):
                neighbour = padded.crop((dx, dy, dx + width, dy + height))
                spread = ImageChops.lighter(spread, ImageChops.difference(picture, neighbour))
    return spread


def _check(truth: Image.Image, png: bytes, palette: Image.Image | None, what: str) -> None:
    mean, largest = _errors(truth, png)
    adaptive_mean, _ = _errors(truth, to_png(truth))  # the per-picture octree palette
    assert largest <= WORST_PIXEL, f"a pixel is off by {largest} levels"
    assert mean <= adaptive_mean, f"mean error {mean:.3f} > {adaptive_mean:.3f} of a per-picture palette"
    flat = _area_colours(truth)
    assert len(flat) >= 4  # background, panel, seat colours at least
    probe = Image.new("RGB", (len(flat), 1))
    probe.putdata(flat)
    shown = Image.open(io.BytesIO(to_png(probe, palette))).convert("RGB")
    for x, colour in enumerate(flat):
        mapped = shown.getpixel((x, 0))
        assert isinstance(mapped, tuple)
        assert max(abs(a - b) for a, b in zip(mapped, colour, strict=True)) <= FLAT_ERROR, (
            f"an area of {colour} is posted as {mapped}: is it in {what}?"
        )


@pytest.mark.parametrize("game", slow_cases(GAME_KEYS, {"wonderland"}))
def test_the_posted_png_is_the_drawn_picture(game: str) -> None:
    rng = random.Random(f"palette {game}")
    header_choices = list(headers(rng))
    assert renderers.board_palette(game) is not None
    for state in sample(game, 31, 12, vary_options=True):
        view, header = state.view(None), rng.choice(header_choices)
        truth = renderers.picture(game, view, header)
        _check(truth, renderers.render(game, view, header), renderers.board_palette(game), f"{game}'s palette()")


@pytest.mark.parametrize(
    "game", slow_cases([key for key in GAME_KEYS if renderers.has_private_picture(key)], {"wonderland"})
)
def test_the_posted_private_png_is_the_drawn_picture(game: str) -> None:
    rng = random.Random(f"private palette {game}")
    header_choices = list(headers(rng))
    assert renderers.private_palette(game) is not None
    drawn = 0
    for state in sample(game, 32, 16, vary_options=True):
        view, header = state.view(rng.choice((0, 1))), rng.choice(header_choices)
        truth = renderers.private_picture(game, view, header)
        png = renderers.render_private(game, view, header)
        if truth is None or png is None:
            continue
        _check(truth, png, renderers.private_palette(game), f"{game}'s private_palette()")
        drawn += 1
    assert drawn >= 8


def test_every_solid_maps_to_itself_even_beside_a_near_shade() -> None:
    background, near, ink = (30, 34, 39), (29, 32, 35), (240, 240, 240)
    palette = fixed_palette([background, ink, near], pairs=[(ink, background)], steps=None)
    colours = [background, ink, near, blend(background, ink, 0.5)]
    probe = Image.new("RGB", (len(colours), 1))
    probe.putdata(colours)
    mapped = probe.quantize(palette=palette, dither=Image.Dither.NONE).convert("RGB")
    assert mapped.getpixel((0, 0)) == background  # Pillow's cache would give the near shade
    assert mapped.getpixel((1, 0)) == ink
    assert mapped.getpixel((2, 0)) == near or mapped.getpixel((2, 0)) == background
    shade = mapped.getpixel((3, 0))
    assert isinstance(shade, tuple)
    assert max(abs(a - b) for a, b in zip(shade, colours[3], strict=True)) <= 8


def test_ramps_fill_the_palette_but_never_overflow_it() -> None:
    solids = [(i, i, i) for i in range(0, 250, 10)]
    pairs = [((255, 0, 0), (0, 0, 255)), ((0, 255, 0), (255, 255, 255)), ((0, 0, 0), (255, 255, 0))]
    palette = fixed_palette(solids, pairs=pairs, steps=None)
    entries = palette.getpalette()
    assert entries is not None
    distinct = {tuple(entries[i : i + 3]) for i in range(0, 768, 3)}
    assert len(distinct) > len(solids) + 3 * 3  # more than the three steps of a fixed ramp
    with pytest.raises(ValueError):
        fixed_palette(solids, pairs=[((255, 0, 0), (0, 2 * i, 200)) for i in range(100)], steps=3)
