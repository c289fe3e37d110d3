"""The rating trend picture of `/stats`: one line per game, a player's rating after each
of their latest rated matches.

Plain numbers in (game name -> ratings, oldest first; optionally the date of each rating),
PNG bytes out: the chart knows nothing of the store or of matches.

Why it looks like this: it is read in an embed on a phone, ~400 px wide, so every text is
sized by `phone_size` (>= 11 px there), and a chart without a title and axes is a squiggle:
it says what it shows, the rating axis has its numbers, and the time axis says when (the
dates when the caller gives them, else how many matches ago).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from bot.i18n import DEFAULT, Day, Locale, Number, tr, tr_n
from renderers.kit import PALETTE, Color, line_height, phone_size, rgb, text, text_width, to_png
from renderers.language import speaking

WIDTH = 720
TEXT = phone_size(WIDTH)
TITLE = phone_size(WIDTH, 14)
MARGIN_LEFT, MARGIN_RIGHT = 86, 24
MARGIN_TOP = 24 + line_height(TITLE) + line_height(TEXT) + 8
"""Title, then the rating axis' name, then the plot."""
PLOT_HEIGHT = 260
LEGEND_TOP = MARGIN_TOP + PLOT_HEIGHT + 2 * line_height(TEXT) + 12
LEGEND_ROWS = 2
HEIGHT = LEGEND_TOP + LEGEND_ROWS * line_height(TEXT) + 12
MARGIN_BOTTOM = HEIGHT - MARGIN_TOP - PLOT_HEIGHT
AXIS: Color = PALETTE.muted
LINE_COLOURS: tuple[Color, ...] = (
    PALETTE.seats[0],
    PALETTE.accent,
    PALETTE.good,
    rgb("#CC79A7"),  # Okabe–Ito reddish purple
    PALETTE.highlight,
)


def chart_png(
    series: Mapping[str, Sequence[float]],
    *,
    title: str = tr("Rating after each rated match"),
    dates: Mapping[str, Sequence[dt.date]] | None = None,
    locale: Locale = DEFAULT,
) -> bytes:
    """A line chart of each game's ratings (at least one series with one value).

    With `dates` (one per rating of a series) the time axis is the calendar; without, each
    line ends at the right edge ("now") and the axis counts matches back from there.
    Raises ValueError when there is nothing to chart.  Its words are in `locale`."""
    with speaking(locale):
        return _chart_png(series, title, dates)


def _chart_png(
    series: Mapping[str, Sequence[float]], title: str, dates: Mapping[str, Sequence[dt.date]] | None
) -> bytes:
    values = [v for line in series.values() for v in line]
    if not values:
        raise ValueError("nothing to chart")
    low, high = min(values), max(values)
    if high - low < 40:  # a flat history still gets a readable scale
        middle = (high + low) / 2
        low, high = middle - 20, middle + 20
    img = Image.new("RGB", (WIDTH, HEIGHT), PALETTE.background)
    draw = ImageDraw.Draw(img)
    left, right, top, bottom = MARGIN_LEFT, WIDTH - MARGIN_RIGHT, MARGIN_TOP, MARGIN_TOP + PLOT_HEIGHT
    text(draw, (16, 16), title, TITLE, PALETTE.text, bold=True, box=(0, 0, WIDTH, HEIGHT))
    text(draw, (16, 16 + line_height(TITLE)), tr("Rating (Elo)"), TEXT, AXIS)

    def y_of(value: float) -> float:
        return bottom - (value - low) / (high - low) * (bottom - top)

    for step in range(5):
        value = low + (high - low) * step / 4
        y = y_of(value)
        draw.line((left, y, right, y), fill=PALETTE.panel, width=1)
        text(draw, (left - 10, y), Number(value, grouped=False), TEXT, AXIS, anchor="rm")
    draw.line((left, top, left, bottom, right, bottom), fill=AXIS, width=2)

    longest = max(len(line) for line in series.values())
    all_days = sorted(d for line in (dates or {}).values() for d in line)
    x_of_point: dict[str, list[float]] = {}
    for name, line in series.items():
        days = (dates or {}).get(name)
        if days is not None and len(days) == len(line) and all_days and all_days[-1] > all_days[0]:
            span_days = (all_days[-1] - all_days[0]).days
            x_of_point[name] = [left + (d - all_days[0]).days / span_days * (right - left) for d in days]
        else:
            span = max(longest - 1, 1)
            offset = longest - len(line)  # every line ends at the right edge: "now"
            x_of_point[name] = [left + (offset + i) / span * (right - left) for i in range(len(line))]
    label_y = bottom + 8
    if all_days and all_days[-1] > all_days[0]:
        ticks = [all_days[0] + (all_days[-1] - all_days[0]) * k / 3 for k in range(4)]
        for k, day in enumerate(ticks):
            x = left + k / 3 * (right - left)
            draw.line((x, bottom, x, bottom + 5), fill=AXIS, width=2)
            text(draw, (x, label_y), Day(day), TEXT, AXIS, anchor="ra" if k == 3 else "la" if k == 0 else "ma")
        axis_name = tr("Date of the match")
    else:
        span = max(longest - 1, 1)
        for back in sorted({0, span // 2, span}):
            x = right - back / span * (right - left)
            draw.line((x, bottom, x, bottom + 5), fill=AXIS, width=2)
            label = tr("now") if back == 0 else tr_n("{n} ago", "{n} ago", back)
            text(draw, (x, label_y), label, TEXT, AXIS, anchor="ra" if back == 0 else "la" if back == span else "ma")
        axis_name = tr("Rated matches, oldest to latest")
    text(draw, ((left + right) / 2, label_y + line_height(TEXT)), axis_name, TEXT, AXIS, anchor="ma")

    legend_x, legend_y = 16.0, float(LEGEND_TOP)
    for index, (name, line) in enumerate(series.items()):
        colour = LINE_COLOURS[index % len(LINE_COLOURS)]
        points = list(zip(x_of_point[name], (y_of(v) for v in line), strict=True))
        if len(points) > 1:
            draw.line(points, fill=colour, width=3, joint="curve")
        for x, y in points[-1:]:
            draw.ellipse((x - 5, y - 5, x + 5, y + 5), fill=colour)
        entry = 26 + text_width(name, TEXT) + 22
        if legend_x + entry > WIDTH - 8 and legend_x > 16:
            legend_x, legend_y = 16.0, legend_y + line_height(TEXT)
        middle = legend_y + line_height(TEXT) / 2
        draw.rectangle((legend_x, middle - 8, legend_x + 16, middle + 8), fill=colour)
        text(draw, (legend_x + 24, middle), name, TEXT, PALETTE.text, anchor="lm")
        legend_x += entry
    return to_png(img)
