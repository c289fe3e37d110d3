"""Right-to-left order and user-perceived characters for the pictures' one-line texts.

Why our own: a picture draws a line in pieces, one per font (Noto has a font per script),
so the order of the pieces must be settled before any font shapes its piece, and a
shortened name must not be cut inside a character a reader sees as one (a Devanagari
conjunct, an accented letter, a flag).  The standard library has the character data
(`unicodedata.bidirectional`, `combining`) but not the algorithms, and the texts here are
single lines of names and short English, so a compact form of each is enough:

- `levels` follows the Unicode Bidirectional Algorithm (UAX #9) for one line without
  explicit embeddings: paragraph direction from the first strong letter (P2/P3, what
  Discord's `dir="auto"` does), isolates (FSI/LRI/RLI ... PDI, see `isolate`), the weak
  rules W1-W7 for numbers and separators, neutrals N1/N2 and levels I1/I2;
- `visual_order` is rule L2 (reverse every run at or above each level);
- `graphemes` follows the extended grapheme cluster rules of UAX #29 that names meet:
  marks, joiners, variation selectors and skin tones, emoji ZWJ sequences, flags, the
  Thai/Lao SARA AM, and the virama conjuncts of Devanagari, Bengali, Gujarati, Oriya,
  Telugu and Malayalam (GB9c).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

LRI, RLI, FSI, PDI = "\u2066", "\u2067", "\u2068", "\u2069"
_OPENERS = {LRI: 0, RLI: 1, FSI: None}
CONTROLS = frozenset((LRI, RLI, FSI, PDI))
"""Isolate marks: they set levels and are never drawn."""

_NEUTRAL = frozenset(("B", "S", "WS", "ON", "BN", "LRI", "RLI", "FSI", "PDI"))
_MIRRORED = dict(zip("()[]{}<>«»‹›", ")(][}{><»«›‹", strict=True))


def isolate(content: str) -> str:
    """`content` (a player's name) set apart so that its direction neither takes nor gives
    order to the English around it: "⁨محمد⁩ wins" keeps "wins" after the name."""
    return f"{FSI}{content}{PDI}"


def mirrored(content: str) -> str:
    """Brackets swapped, for text drawn right to left by a font that does not mirror them."""
    return "".join(_MIRRORED.get(c, c) for c in content)


def _strong(char: str) -> int | None:
    kind = unicodedata.bidirectional(char)
    return 0 if kind == "L" else 1 if kind in ("R", "AL") else None


def _matching_pdi(chars: Sequence[str], opener: int, end: int) -> int:
    depth = 0
    for i in range(opener + 1, end):
        if chars[i] in _OPENERS:
            depth += 1
        elif chars[i] == PDI:
            if depth == 0:
                return i
            depth -= 1
    return end


def first_strong(chars: Sequence[str], start: int = 0, end: int | None = None) -> int | None:
    """0 (left to right) or 1 (right to left) from the first strong letter outside isolates."""
    depth = 0
    for char in chars[start : len(chars) if end is None else end]:
        if char in _OPENERS:
            depth += 1
        elif char == PDI:
            depth = max(0, depth - 1)
        elif depth == 0 and (direction := _strong(char)) is not None:
            return direction
    return None


def levels(chars: Sequence[str], base: int | None = None) -> list[int]:
    """The embedding level of each character (even: left to right, odd: right to left);
    `base` is the paragraph's direction, None to take it from the first strong letter."""
    out = [0] * len(chars)
    paragraph = base if base is not None else first_strong(chars) or 0
    _resolve(chars, 0, len(chars), paragraph, out)
    return out


def _resolve(chars: Sequence[str], start: int, end: int, level: int, out: list[int]) -> None:
    """Resolve one isolating run sequence at `level`; isolates inside are resolved recursively."""
    units: list[int] = []
    kinds: list[str] = []
    i = start
    while i < end:
        char = chars[i]
        if char in _OPENERS:
            close = _matching_pdi(chars, i, end)
            wanted = _OPENERS[char]
            if wanted is None:
                wanted = first_strong(chars, i + 1, close) or 0
            inner = level + 1 if (level + 1) % 2 == wanted else level + 2
            _resolve(chars, i + 1, close, inner, out)
            out[i] = level
            units.append(i)
            kinds.append("ON")
            if close < end:
                out[close] = level
                units.append(close)
                kinds.append("ON")
            i = close + 1
            continue
        units.append(i)
        kinds.append(unicodedata.bidirectional(char) or "L")
        i += 1
    edge = "R" if level % 2 else "L"
    _weak(kinds, edge)
    _neutral(kinds, edge)
    for index, kind in zip(units, kinds, strict=True):
        if level % 2 == 0:
            out[index] = level + (1 if kind == "R" else 2 if kind in ("EN", "AN") else 0)
        else:
            out[index] = level + (1 if kind in ("L", "EN", "AN") else 0)


def _weak(kinds: list[str], edge: str) -> None:
    """Rules W1-W7 in place: marks take their base's type, numbers their context's."""
    previous = edge
    for i, kind in enumerate(kinds):  # W1: a mark is what it follows
        if kind == "NSM":
            kinds[i] = previous
        previous = kinds[i]
    strong = edge
    for i, kind in enumerate(kinds):  # W2, W3: European digits after Arabic letters are Arabic
        if kind in ("L", "R", "AL"):
            strong = kind
        if kind == "EN" and strong == "AL":
            kinds[i] = "AN"
        if kind == "AL":
            kinds[i] = "R"
    for i in range(1, len(kinds) - 1):  # W4: one separator between two numbers of a kind
        before, after = kinds[i - 1], kinds[i + 1]
        if (before == after == "EN" and kinds[i] in ("ES", "CS")) or (before == after == "AN" and kinds[i] == "CS"):
            kinds[i] = before
    for i, kind in enumerate(kinds):  # W5: currency and percent signs touching digits
        if kind == "EN":
            j = i - 1
            while j >= 0 and kinds[j] == "ET":
                kinds[j] = "EN"
                j -= 1
            j = i + 1
            while j < len(kinds) and kinds[j] == "ET":
                kinds[j] = "EN"
                j += 1
    for i, kind in enumerate(kinds):  # W6: what is left of them is neutral
        if kind in ("ES", "ET", "CS"):
            kinds[i] = "ON"
    strong = edge
    for i, kind in enumerate(kinds):  # W7: digits in left-to-right context are left to right
        if kind in ("L", "R"):
            strong = kind
        elif kind == "EN" and strong == "L":
            kinds[i] = "L"


def _neutral(kinds: list[str], edge: str) -> None:
    """Rules N1/N2 in place: neutrals between two of a direction take it, else the level's."""
    i = 0
    while i < len(kinds):
        if kinds[i] not in _NEUTRAL:
            i += 1
            continue
        j = i
        while j < len(kinds) and kinds[j] in _NEUTRAL:
            j += 1
        before = edge if i == 0 else ("R" if kinds[i - 1] in ("R", "EN", "AN") else "L")
        after = edge if j == len(kinds) else ("R" if kinds[j] in ("R", "EN", "AN") else "L")
        resolved = before if before == after else edge
        for k in range(i, j):
            kinds[k] = resolved
        i = j


def visual_order(item_levels: Sequence[int]) -> list[int]:
    """Indices of items (characters or runs) in the order they are drawn, left to right (rule L2)."""
    order = list(range(len(item_levels)))
    if not order:
        return order
    for level in range(max(item_levels), (min(item_levels) | 1) - 1, -1):
        i = 0
        while i < len(order):
            if item_levels[order[i]] < level:
                i += 1
                continue
            j = i
            while j < len(order) and item_levels[order[j]] >= level:
                j += 1
            order[i:j] = order[i:j][::-1]
            i = j
    return order


_CONJUNCT_BLOCKS = frozenset((0x0900, 0x0980, 0x0A80, 0x0B00, 0x0C00, 0x0D00))
"""Devanagari, Bengali, Gujarati, Oriya, Telugu, Malayalam: a virama joins the next consonant."""


def _is_regional(char: str) -> bool:
    return 0x1F1E6 <= ord(char) <= 0x1F1FF


def _extends(cluster: str, char: str) -> bool:
    code = ord(char)
    if unicodedata.category(char) in ("Mn", "Mc", "Me") or char in "\u200c\u200d\u0e33\u0eb3":
        return True
    if 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF or 0xE0020 <= code <= 0xE007F:
        return True
    if 0x1F3FB <= code <= 0x1F3FF:  # skin tones
        return True
    last = cluster[-1]
    if last == "\u200d" and (code >= 0x1F000 or unicodedata.category(char) == "So"):
        return True  # an emoji ZWJ sequence (GB11)
    if _is_regional(last) and _is_regional(char):
        return sum(map(_is_regional, cluster)) % 2 == 1  # flags are pairs (GB12/13)
    block = ord(last) & ~0x7F
    # GB9c: virama + consonant, though only where the virama makes conjuncts
    return (
        unicodedata.combining(last) == 9
        and block in _CONJUNCT_BLOCKS
        and (code & ~0x7F) == block
        and unicodedata.category(char) == "Lo"
    )


def graphemes(content: str) -> list[str]:
    """`content` cut into the characters a reader sees (extended grapheme clusters)."""
    clusters: list[str] = []
    for char in content:
        if clusters and _extends(clusters[-1], char):
            clusters[-1] += char
        else:
            clusters.append(char)
    return clusters
