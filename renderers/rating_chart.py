"""The rating trend picture of `/stats`: one line per game, a player's rating after each
of their latest rated matches.

Plain numbers in (game name -> ratings, oldest first), PNG bytes out: the chart knows
nothing of the store or of matches.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from renderers.kit import PALETTE, Color, rgb, text, text_width, to_png

WIDTH, HEIGHT = 720, 340
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 70, 20, 20, 60
LINE_COLOURS: tuple[Color, ...] = (
    PALETTE.seats[0],
    PALETTE.accent,
    PALETTE.good,
    rgb("#CC79A7"),  # Okabe–Ito reddish purple
    PALETTE.highlight,
)


def chart_png(series: Mapping[str, Sequence[float]]) -> bytes:
    """A line chart of each game's ratings (at least one series with one value)."""
    values = [v for line in series.values() for v in line]
    if not values:
        raise ValueError("nothing to chart")
    low, high = min(values), max(values)
    if high - low < 40:  # a flat history still gets a readable scale
        middle = (high + low) / 2
        low, high = middle - 20, middle + 20
    img = Image.new("RGB", (WIDTH, HEIGHT), PALETTE.background)
    draw = ImageDraw.Draw(img)
    left, right, top, bottom = MARGIN_LEFT, WIDTH - MARGIN_RIGHT, MARGIN_TOP, HEIGHT - MARGIN_BOTTOM
    longest = max(len(line) for line in series.values())

    def y_of(value: float) -> float:
        return bottom - (value - low) / (high - low) * (bottom - top)

    for step in range(5):
        value = low + (high - low) * step / 4
        y = y_of(value)
        draw.line((left, y, right, y), fill=PALETTE.panel, width=1)
        text(draw, (left - 8, y), f"{value:.0f}", 18, PALETTE.muted, anchor="rm")
    legend_x = 16.0
    for index, (name, line) in enumerate(series.items()):
        colour = LINE_COLOURS[index % len(LINE_COLOURS)]
        span = max(longest - 1, 1)
        offset = longest - len(line)  # every line ends at the right edge: "now"
        points = [(left + (offset + i) / span * (right - left), y_of(v)) for i, v in enumerate(line)]
        if len(points) > 1:
            draw.line(points, fill=colour, width=3, joint="curve")
        for x, y in points[-1:]:
            draw.ellipse((x - 4, y - 4, x + 4, y + 4), fill=colour)
        draw.rectangle((legend_x, HEIGHT - 31, legend_x + 16, HEIGHT - 15), fill=colour)
        text(draw, (legend_x + 22, HEIGHT - 23), name, 16, PALETTE.text, anchor="lm")
        legend_x += 22 + text_width(name, 16) + 18
    return to_png(img)
