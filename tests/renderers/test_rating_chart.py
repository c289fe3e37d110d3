"""The /stats rating chart: each game's line ends at the right edge, at its latest rating."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from PIL import Image

from cogs.ratings import trend_text
from renderers.kit import MIN_TEXT, PALETTE, PHONE_WIDTH, recording
from renderers.rating_chart import HEIGHT, MARGIN_BOTTOM, MARGIN_RIGHT, MARGIN_TOP, WIDTH, chart_png


def test_a_rising_line_ends_top_right_and_a_falling_one_bottom_right() -> None:
    img = Image.open(io.BytesIO(chart_png({"Focus": [1500, 1520, 1540], "Domineering": [1540, 1500]}))).convert("RGB")
    assert img.size == (WIDTH, HEIGHT)
    x = WIDTH - MARGIN_RIGHT
    assert img.getpixel((x, MARGIN_TOP)) == PALETTE.seats[0], "Focus ends at the highest rating"
    assert img.getpixel((x, HEIGHT - MARGIN_BOTTOM)) == PALETTE.accent, "Domineering ends at the lowest"


def test_nothing_to_chart_is_refused() -> None:
    with pytest.raises(ValueError):
        chart_png({"Focus": []})


def test_trend_text_runs_from_the_first_to_the_last_rating() -> None:
    assert trend_text([1500.0]) == ""
    assert trend_text([1500.0, 1520.4, 1480.0]) == "\nTrend: 1500 → 1480 ▄█▁"


def test_the_chart_has_a_title_axes_and_dates_and_reads_on_a_phone() -> None:
    series = {"Focus": [1500.0, 1520.0, 1540.0], "Domino Wars": [1490.0, 1470.0]}
    days = {"Focus": [dt.date(2026, 9, 1), dt.date(2026, 9, 9), dt.date(2026, 10, 7)]}
    days["Domino Wars"] = [dt.date(2026, 9, 20), dt.date(2026, 10, 1)]
    with recording() as records:
        chart_png(series, title="Ada's ratings", dates=days)
    drawn = [r.content for r in records]
    assert "Ada's ratings" in drawn and "Rating (Elo)" in drawn and "Date of the match" in drawn
    assert "Sep 1" in drawn and "Oct 7" in drawn
    assert all(r.size * PHONE_WIDTH / r.image_size[0] >= MIN_TEXT for r in records)
    assert all(r.overflow() == 0 for r in records)
    with recording() as undated:
        chart_png(series)
    assert {"now", "Rated matches, oldest to latest"} <= {r.content for r in undated}


def test_the_german_chart_writes_its_dates_numbers_and_time_axis_in_german() -> None:
    series = {"Focus": [1500.0, 1520.0, 1540.0, 1530.0, 1560.0], "Domino Wars": [1490.0, 1470.0]}
    days = {"Focus": [dt.date(2026, 9, 1), dt.date(2026, 9, 9), dt.date(2026, 10, 7), dt.date(2026, 11, 2)]}
    days["Focus"].append(dt.date(2026, 12, 1))
    days["Domino Wars"] = [dt.date(2026, 9, 20), dt.date(2026, 10, 1)]
    with recording() as records:
        chart_png(series, dates=days, locale="de")
    drawn = {r.content for r in records}
    assert {"1. Sept.", "1. Dez.", "Datum der Partie"} <= drawn
    assert not any("Sep " in label or "Dec" in label for label in drawn)
    assert all(r.overflow() == 0 for r in records)
    with recording() as undated:
        chart_png(series, locale="de")
    assert {"jetzt", "vor 2", "vor 4"} <= {r.content for r in undated}
