"""The `/analyse` picture (renderers/analysis.py): both players' lines in their colours, the
turning points ringed, and a game without a judged move still drawn."""

from __future__ import annotations

import io

from PIL import Image, ImageChops

from bot.ai.analysis import Analysis, Judgement
from renderers.analysis import HEIGHT, LINE_COLOURS, WIDTH, analysis_png


def _image(analysis: Analysis) -> Image.Image:
    png = analysis_png(analysis, ("alice", "bob"), ("Orange", "Blue"), "Match #1 · Focus")
    return Image.open(io.BytesIO(png)).convert("RGB")


def _near(image: Image.Image, colour: tuple[int, int, int]) -> int:
    """How many pixels are within 30 of `colour` (the channels' differences summed).

    Pillow sums the differences (clipping at 255, far above 30, so the count is the same)
    rather than Python looping over a million pixels."""
    differences = [band.point(lambda value, c=c: abs(value - c)) for band, c in zip(image.split(), colour, strict=True)]
    total = ImageChops.add(ImageChops.add(differences[0], differences[1]), differences[2])
    return sum(total.histogram()[:30])


def test_both_lines_and_the_rings_are_drawn() -> None:
    judgements = tuple(
        Judgement(ply, ply % 2, f"m{ply}", f"m{ply}" if ply != 7 else "better", 0.6, 0.6 if ply != 7 else 0.1)
        for ply in range(20)
    )
    analysis = Analysis("focus", judgements)
    image = _image(analysis)
    assert image.size == (WIDTH, HEIGHT)
    plain = _image(Analysis("focus", tuple(j for j in judgements if j.ply != 7)))
    for colour in LINE_COLOURS:
        assert _near(image, colour) > 400  # a line and a legend box each
    assert [t.ply for t in analysis.turning_points()] == [7]
    assert image.tobytes() != plain.tobytes()  # the ring and its label at ply 7


def test_a_game_without_a_judged_move_is_still_a_picture() -> None:
    image = _image(Analysis("focus", ()))
    assert image.size == (WIDTH, HEIGHT)
    assert _near(image, LINE_COLOURS[0]) < 400  # the legend box only, no line


def test_every_word_fits_in_every_language() -> None:
    """The labels are drawn in the reader's language; German and Spanish run longer."""
    from bot.i18n import LOCALES, tr
    from renderers.kit import recording

    judgements = tuple(Judgement(ply, ply % 2, f"m{ply}", "better", 0.6, 0.2 if ply == 5 else 0.6) for ply in range(12))
    for locale in LOCALES:
        with recording() as records:
            analysis_png(Analysis("focus", judgements), ("alice", "bob"), (tr("Orange"), tr("Blue")), "#1", locale)
        assert records and all(r.overflow() == 0 for r in records), (
            locale,
            [r.content for r in records if r.overflow()],
        )
        if locale == "de":
            assert any("Gewinnchance" in r.content for r in records)
