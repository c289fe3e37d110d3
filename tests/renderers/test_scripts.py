"""Names in Arabic, Hebrew, Devanagari, Bengali and Thai: drawn with real, shaped glyphs, in
the right order, in every picture that shows names, and shortened only between characters."""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Iterator

import pytest
from PIL import Image, ImageChops, ImageDraw

from bot.games import GAMES
from bot.tournaments import Format, Tournament
from renderers import Header, kit, render
from renderers.bidi import graphemes, isolate, levels, visual_order
from renderers.kit import REPLACEMENT, fit_text, pieces, runs, text, text_width
from renderers.tournament import bracket_png, picture_data, standings_png

# Two names per script with as many code points each, so that a renderer that drew every
# letter as one missing-glyph mark would draw both alike.
PAIRS = {
    "arabic": ("محمد", "سلمى"),
    "hebrew": ("דוד", "שרה"),
    "devanagari": ("सीता", "राधा"),
    "bengali": ("রবি", "মনি"),
    "thai": ("สมชาย", "สมศรี"),
}


def _missing(name: str) -> str:
    return REPLACEMENT * len(name)


def _pixels(png: bytes) -> bytes:
    with Image.open(io.BytesIO(png)) as image:
        return image.convert("RGB").tobytes()


def _line(content: str, size: int = 48, width: int = 600, anchor: str = "la") -> Image.Image:
    img = Image.new("RGB", (width, 2 * size), (0, 0, 0))
    x = 10 if anchor[0] == "l" else width - 10
    text(ImageDraw.Draw(img), (x, size / 3), content, size, (255, 255, 255), anchor=anchor)
    return img.convert("L")


def _differ(a: Image.Image, b: Image.Image) -> int:
    """How many pixels differ between two pictures of one size."""
    return ImageChops.difference(a, b).point(lambda v: 255 if v else 0).histogram()[255]


@pytest.mark.parametrize("script", PAIRS)
def test_every_letter_is_drawn_by_a_font_that_has_it(script: str) -> None:
    for name in PAIRS[script]:
        drawn = "".join(chunk for _, chunk in runs(name))
        assert REPLACEMENT not in drawn
        assert unicodedata.normalize("NFC", name) == drawn
        notdef = kit._load(runs(name)[0][0], 40).getmask("\ue000")
        for face, chunk in runs(name):
            for char in chunk:
                assert bytes(kit._load(face, 40).getmask(char)) != bytes(notdef), (script, char, face)


@pytest.mark.parametrize("script", PAIRS)
def test_two_names_of_a_script_draw_differently_and_unlike_the_missing_mark(script: str) -> None:
    a, b = PAIRS[script]
    assert _differ(_line(a), _line(b)) > 50
    assert _differ(_line(a), _line(_missing(a))) > 50


def _board_pngs(name: str) -> Iterator[bytes]:
    for game in GAMES:
        view = GAMES[game].start(players=2, options={}).view(None)
        yield render(game, view, Header(players=(name, "Ann"), ply=3))


@pytest.mark.parametrize("script", PAIRS)
def test_board_pictures_show_the_names(script: str) -> None:
    a, b = PAIRS[script]
    for first, second, missing in zip(_board_pngs(a), _board_pngs(b), _board_pngs(_missing(a)), strict=True):
        assert _pixels(first) != _pixels(second)
        assert _pixels(first) != _pixels(missing)


def _event(names: tuple[str, ...], fmt: Format) -> Tournament:
    return Tournament.new(fmt, [(100 + i, name) for i, name in enumerate(names)], best_of=1)


def _roster(name: str) -> tuple[str, ...]:
    return (name, "Ann", "Bea", "Cy")


@pytest.mark.parametrize("script", PAIRS)
@pytest.mark.parametrize("fmt", [Format.SINGLE_ELIMINATION, Format.ROUND_ROBIN])
def test_brackets_and_standings_show_the_names(script: str, fmt: Format) -> None:
    a, b = PAIRS[script]

    def pictures(name: str) -> tuple[bytes, bytes]:
        data = picture_data(_event(_roster(name), fmt), "Cup", "Focus")
        return _pixels(bracket_png(data)), _pixels(standings_png(data))

    first, second, missing = pictures(a), pictures(b), pictures(_missing(a))
    for i in range(2):
        assert first[i] != second[i]
        assert first[i] != missing[i]


# ----------------------------------------------------------------------------- shaping and order


@pytest.mark.skipif(not kit.SHAPING, reason="Pillow without raqm draws Arabic unjoined by design")
def test_arabic_letters_are_joined_not_drawn_one_by_one() -> None:
    word = "محمد"
    joined = _line(word, anchor="ra")
    img = Image.new("RGB", joined.size, (0, 0, 0))
    draw, x = ImageDraw.Draw(img), joined.width - 10.0
    for letter in word:  # each letter on its own (its isolated form), placed right to left
        x -= text(draw, (x, 16), letter, 48, (255, 255, 255), anchor="ra")
    one_by_one = img.convert("L")
    assert _differ(joined, _line(word, anchor="ra")) == 0  # the comparison is stable
    assert _differ(joined, one_by_one) > 200
    assert abs(text_width(word, 48) - sum(text_width(c, 48) for c in word)) > 5


def _right_part(img: Image.Image, width: float) -> Image.Image:
    return img.crop((int(img.width - 10 - width), 0, img.width, img.height))


@pytest.mark.parametrize("shaping", [True, False])
def test_hebrew_is_drawn_right_to_left(shaping: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if shaping and not kit.SHAPING:
        pytest.skip("Pillow without raqm")
    monkeypatch.setattr(kit, "SHAPING", shaping)
    _clear_caches()
    try:
        alef, bet = "א", "ב"
        word = _line(alef + bet, anchor="ra")  # logical order: alef first, so it is drawn rightmost
        room = max(text_width(alef, 48), text_width(bet, 48))
        first = _right_part(word, room)
        assert _differ(first, _right_part(_line(alef, anchor="ra"), room)) < _differ(
            first, _right_part(_line(bet, anchor="ra"), room)
        )
    finally:
        monkeypatch.undo()
        _clear_caches()


def _clear_caches() -> None:
    for cached in (kit._load, kit.pieces, kit._chunk_width, kit._text_width, kit._glyph_mask):
        cached.cache_clear()


def test_an_isolated_name_keeps_the_english_around_it_in_order() -> None:
    line = isolate("محمد") + " wins"
    drawn = pieces(line)
    assert drawn[0] == ("NotoSansArabic-Regular.ttf", "محمد", kit.SHAPING)
    assert drawn[-1][1].endswith("wins")


def test_numbers_and_neutrals_follow_the_bidi_rules() -> None:
    assert levels(list("abc 123")) == [0] * 7
    assert levels(list("אב 12")) == [1, 1, 1, 2, 2]  # paragraph from the first strong letter
    assert levels(list("1,000"), base=1) == [2] * 5  # one separator between digits stays with them
    assert visual_order([0, 1, 1, 2, 2, 0]) == [0, 3, 4, 2, 1, 5]


# ----------------------------------------------------------------------------- truncation


def test_graphemes_keep_conjuncts_marks_and_flags_whole() -> None:
    assert graphemes("क्षत्रिय") == ["क्ष", "त्रि", "य"]
    assert graphemes("রবীন্দ্র") == ["র", "বী", "ন্দ্র"]
    assert graphemes("e\u0301a") == ["e\u0301", "a"]
    assert graphemes("🇫🇷🇩🇪") == ["🇫🇷", "🇩🇪"]
    assert graphemes("สำ") == ["สำ"]
    assert graphemes("👩\u200d💻x") == ["👩\u200d💻", "x"]


@pytest.mark.parametrize(
    "name",
    [
        "क्षत्रिय क्षत्रिय क्षत्रिय क्षत्रिय",
        "রবীন্দ্রনাথ ঠাকুর রবীন্দ্রনাথ",
        "🇫🇷🇩🇪🇯🇵🇫🇷🇩🇪🇯🇵🇫🇷🇩🇪🇯🇵",
        "ne\u0301e\u0301" * 12,
        "สมศรี สำราญ" * 3,
    ],
)
def test_truncation_cuts_only_between_grapheme_clusters(name: str) -> None:
    clusters = graphemes(name)
    for width in range(40, 400, 23):
        short = fit_text(name, 24, width)
        assert text_width(short, 24) <= width
        if short == name:
            continue
        assert short.endswith("…")
        kept = short[:-1]
        count = len(graphemes(kept))
        assert kept == "".join(clusters[:count]).rstrip()


def test_a_shortened_right_to_left_name_shows_its_ellipsis_at_its_logical_end_on_the_left() -> None:
    short = fit_text("محمد عبد الرحمن بن سلمان آل سعود", 32, 200)
    assert short.endswith("…")
    assert "…" in pieces(short)[0][1] and "…" not in pieces(short)[-1][1]
