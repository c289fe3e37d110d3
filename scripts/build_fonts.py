"""Rebuild the fonts shipped in renderers/fonts/ (a developer's tool, never run at install).

Why a script: the pictures need Latin with accents, Greek, Cyrillic, CJK, emoji and the
scripts of South and South-East Asia, the Middle East and the Caucasus (Arabic, Hebrew,
Devanagari, Bengali, Thai, ...), and the full Noto CJK collection alone is ~19 MB.  This
script cuts the upstream OFL fonts down to what player names and the pictures' own text
use, writes static instances of the variable fonts (Pillow then needs no axis handling),
and records each file's character coverage in `coverage.json` so the kit can pick a font
per character without parsing font tables at run time.  The outputs are committed;
installing the package needs nothing of this.

Sources (pass their paths; the Noto fonts are OFL 1.1, DejaVu is under the Bitstream Vera
licence, a permissive font licence of the same kind):
- Noto Sans and Noto Emoji (variable TTFs), e.g. from the PyPI package `manimgx-fonts`;
- Noto Sans CJK (NotoSansCJK-Regular.ttc), e.g. from Debian's `fonts-noto-cjk`;
- DejaVu Sans (DejaVuSans.ttf), e.g. from Debian's `fonts-dejavu-core`, for symbols;
- the per-script Noto Sans fonts (NotoSansArabic-Regular.ttf, ...), e.g. from Debian's
  `fonts-noto-core` (/usr/share/fonts/truetype/noto).

    pip install fonttools
    python scripts/build_fonts.py NotoSans[wght].ttf NotoEmoji[wght].ttf NotoSansCJK-Regular.ttc \\
        /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf /usr/share/fonts/truetype/noto
    python scripts/build_fonts.py --scripts /usr/share/fonts/truetype/noto   # only the script fonts

The script fonts keep every character they have but lose their hinting (half their size:
Pillow draws them anti-aliased at picture sizes, where hints change nothing visible); only
the Regular weight ships, so a bold name in these scripts is drawn regular.  Their OpenType
layout tables are kept whole: Arabic joining, Indic conjuncts and Thai marks need them, and
`renderers/kit.py` shapes these runs with raqm.

The CJK subset is every hanzi/kanji/hanja of GB 2312, JIS X 0208, KS X 1001 and Big5's
frequent level, the 2,350 Hangul syllables of KS X 1001, kana and CJK punctuation: the
characters of nearly every name.  A character outside every font is drawn as its NFKC
form or, failing that, as U+FFFD, never as an empty box (see renderers/kit.py).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont
from fontTools.varLib import instancer

OUT = Path(__file__).resolve().parent.parent / "renderers" / "fonts"

LATIN_GREEK_CYRILLIC = [
    (0x0020, 0x024F),  # Basic Latin .. Latin Extended-B
    (0x0250, 0x02FF),  # IPA, spacing modifiers
    (0x0300, 0x036F),  # combining marks
    (0x0370, 0x03FF),  # Greek
    (0x0400, 0x052F),  # Cyrillic + supplement
    (0x1C80, 0x1C8F),  # Cyrillic Extended-C
    (0x1E00, 0x1FFF),  # Latin Extended Additional (Vietnamese), Greek Extended
    (0x2000, 0x206F),  # punctuation
    (0x2070, 0x20CF),  # super/subscripts, currency
    (0x2100, 0x218F),  # letterlike, number forms
    (0x2190, 0x21FF),  # arrows
    (0x2200, 0x22FF),  # maths operators
    (0x2460, 0x24FF),  # enclosed alphanumerics
    (0x25A0, 0x25FF),  # geometric shapes
    (0x2C60, 0x2C7F),  # Latin Extended-C
    (0x2DE0, 0x2DFF),  # Cyrillic Extended-A
    (0xA640, 0xA69F),  # Cyrillic Extended-B
    (0xA720, 0xA7FF),  # Latin Extended-D
    (0xFB00, 0xFB06),  # ligatures
]


def _cjk_characters() -> set[int]:
    chars: set[int] = set()
    for codec in ("gb2312", "shift_jis", "euc_kr"):
        for cp in range(0x2E80, 0xFFFF):
            try:
                encoded = chr(cp).encode(codec)
            except UnicodeEncodeError:
                continue
            if len(encoded) <= 2:  # Python's EUC-KR spells the other Hangul as 8-byte sequences
                chars.add(cp)
    for cp in range(0x4E00, 0xA000):  # Big5 level 1: lead bytes A4..C6
        try:
            encoded = chr(cp).encode("big5")
        except UnicodeEncodeError:
            continue
        if 0xA4 <= encoded[0] <= 0xC6:
            chars.add(cp)
    chars.update(range(0x3000, 0x3100))  # CJK punctuation, kana
    chars.update(range(0x31F0, 0x3200))  # kana extensions
    chars.update(range(0xFF00, 0xFFF0))  # full- and half-width forms
    return {c for c in chars if not 0xD800 <= c <= 0xDFFF}


def _subset(font: TTFont, unicodes: set[int], path: Path) -> None:
    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.hinting = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(unicodes))
    subsetter.subset(font)
    font.save(path)


def _static(path: str, weight: int) -> TTFont:
    return instancer.instantiateVariableFont(TTFont(path), {"wght": weight})


def _ranges(path: Path) -> list[list[int]]:
    cmap = sorted(TTFont(path).getBestCmap())
    ranges: list[list[int]] = []
    for cp in cmap:
        if ranges and ranges[-1][1] == cp - 1:
            ranges[-1][1] = cp
        else:
            ranges.append([cp, cp])
    return ranges


SCRIPTS = (
    "Arabic", "Hebrew", "Devanagari", "Bengali", "Thai", "Tamil", "Telugu", "Kannada", "Malayalam",
    "Gujarati", "Gurmukhi", "Oriya", "Sinhala", "Khmer", "Lao", "Myanmar", "Georgian", "Armenian",
    "Ethiopic",
)  # fmt: skip
"""Scripts with their own Noto Sans font, in the order the kit tries them (no two share letters)."""


def script_files() -> list[str]:
    return [f"NotoSans{script}-Regular.ttf" for script in SCRIPTS]


def build_scripts(noto_dir: str) -> None:
    """Subset (dehint) each per-script font of `noto_dir` into renderers/fonts."""
    for name in script_files():
        font = TTFont(Path(noto_dir) / name)
        _subset(font, set(font.getBestCmap()), OUT / name)


def write_coverage() -> None:
    """coverage.json: each shipped font's characters, in the order the kit tries them."""
    files = ["NotoSans-Regular.ttf", *script_files(), *FALLBACKS]
    coverage = {name: _ranges(OUT / name) for name in files}
    (OUT / "coverage.json").write_text(json.dumps(coverage, separators=(",", ":")) + "\n")
    for name in [*files, "NotoSans-Bold.ttf", "coverage.json"]:
        print(f"{name}: {(OUT / name).stat().st_size / 1024:.0f} KiB")


FALLBACKS = ("NotoSansCJKsc-Subset.otf", "NotoEmoji-Regular.ttf", "DejaVuSans-Symbols.ttf")

SYMBOLS = [(0x2000, 0x2BFF), (0xFFFD, 0xFFFD), (0x1D400, 0x1D7FF)]
"""What DejaVu Sans adds last: arrows, dingbats, box drawing, the replacement character and
the mathematical letters some names are written in (𝐀𝐝𝐚)."""


def main(sans: str, emoji: str, cjk: str, dejavu: str, noto_dir: str) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    wanted = {cp for lo, hi in LATIN_GREEK_CYRILLIC for cp in range(lo, hi + 1)}
    _subset(_static(sans, 400), wanted, OUT / "NotoSans-Regular.ttf")
    _subset(_static(sans, 700), wanted, OUT / "NotoSans-Bold.ttf")
    emoji_font = _static(emoji, 400)
    _subset(emoji_font, set(emoji_font.getBestCmap()), OUT / "NotoEmoji-Regular.ttf")
    collection = TTCollection(cjk)
    sc = next(f for f in collection.fonts if f["name"].getDebugName(4) == "Noto Sans CJK SC")
    _subset(sc, _cjk_characters(), OUT / "NotoSansCJKsc-Subset.otf")
    symbols = {cp for lo, hi in SYMBOLS for cp in range(lo, hi + 1)}
    _subset(TTFont(dejavu), symbols, OUT / "DejaVuSans-Symbols.ttf")
    build_scripts(noto_dir)
    write_coverage()


if __name__ == "__main__":
    if sys.argv[1:2] == ["--scripts"]:
        build_scripts(sys.argv[2])
        write_coverage()
    else:
        main(*sys.argv[1:6])
