"""The /stats rating chart: each game's line ends at the right edge, at its latest rating."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from cogs.ratings import trend_text
from renderers.kit import PALETTE
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
