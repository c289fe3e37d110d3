"""The kit's text drawing: every script and emoji is drawn with a real glyph, and what a
picture draws is measured so that other tests can check overflow and phone sizes."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from renderers.kit import (
    REPLACEMENT,
    _load,
    fit_text,
    phone_size,
    recording,
    runs,
    text,
    text_width,
    wrap,
)

NAMES = [
    "José Raúl Capablanca",
    "Жора Ковальчук",
    "Ωμέγα Παπαδόπουλος",
    "李小龍",
    "さくら・サクラ",
    "김민준",
    "🐉 Drake",
    "🎲🏆👑❤️✨",
    "Nguyễn Thị Minh Khai",
    "Łukasz Żółć",
]


def _mask(face: str, char: str) -> tuple[tuple[int, int], bytes]:
    mask = _load(face, 40).getmask(char)
    return mask.size, bytes(mask)


@pytest.mark.parametrize("name", NAMES)
def test_every_character_of_a_name_is_drawn_with_a_real_glyph(name: str) -> None:
    for face, chunk in runs(name):
        notdef = _mask(face, "\ue000")  # a private-use code point: every font draws its box for it
        for char in chunk:
            if not char.isspace():
                assert _mask(face, char) != notdef, (name, char, face)
    assert REPLACEMENT not in "".join(chunk for _, chunk in runs(name))


def test_characters_no_font_has_fold_or_become_the_replacement_mark() -> None:
    assert "".join(chunk for _, chunk in runs("𝓜𝓪𝓰𝓷𝓾𝓼")) in ("𝓜𝓪𝓰𝓷𝓾𝓼", "Magnus")
    assert "".join(chunk for _, chunk in runs("a\U000e0100b")) in ("ab", f"a{REPLACEMENT}b")
    unknown = "\U00016a40"  # Mro script: in none of the shipped fonts
    assert "".join(chunk for _, chunk in runs(unknown)) == REPLACEMENT


def test_runs_switch_fonts_only_where_the_script_changes() -> None:
    faces = [face for face, _ in runs("Ada 李小龍 🐉")]
    assert faces[0].startswith("NotoSans-") and any("CJK" in f for f in faces) and any("Emoji" in f for f in faces)


def test_recorded_ink_is_inside_the_box_it_was_given_or_counted_as_overflow() -> None:
    img = Image.new("RGB", (300, 60))
    draw = ImageDraw.Draw(img)
    with recording() as records:
        text(draw, (10, 10), "李小龍 fits", 24, (255, 255, 255), box=(0, 0, 300, 60))
        text(draw, (250, 10), "does not fit here", 24, (255, 255, 255), box=(0, 0, 300, 60))
    assert records[0].overflow() == 0
    assert records[1].overflow() > 100
    assert abs((records[0].ink[2] - records[0].ink[0]) - text_width("李小龍 fits", 24)) < 6


def test_fit_and_wrap_keep_within_the_width() -> None:
    for name in NAMES:
        assert text_width(fit_text(name * 3, 30, 200), 30) <= 200
        assert all(text_width(line, 30) <= 200 for line in wrap(name * 4, 30, 200))
    assert "".join(wrap("李小龍" * 10, 30, 100)) == "李小龍" * 10


def test_phone_size_reads_as_asked_at_400_px() -> None:
    for width in (400, 800, 960, 1234):
        assert phone_size(width) * 400 / width >= 11
        assert (phone_size(width) - 1) * 400 / width < 11
