"""Every picture, in many random positions with long names in several scripts, big clocks
and move numbers: no text sticks out of the room it was given, and every text reads at
>= 11 px (whose turn, the clocks and the last move at >= 14 px) on a phone that shows the
picture 400 px wide.  The kit's `text` records each drawn text, so the check is on what
was actually drawn."""

from __future__ import annotations

import random

import pytest

import renderers
from bot.games import GAMES
from bot.i18n import LOCALES, Locale
from renderers.kit import MIN_KEY_TEXT, MIN_TEXT, PHONE_WIDTH, TextRecord, recording
from tests.renderers.positions import headers, sample
from tests.slow import slow_cases

GAME_KEYS = sorted(GAMES)


def _problems(records: list[TextRecord]) -> list[str]:
    problems = []
    for r in records:
        if r.overflow() > 0:
            problems.append(f"{r.content!r} sticks out {r.overflow():.0f} px ({r.ink} not in {r.box})")
        shown = r.size * PHONE_WIDTH / r.image_size[0]
        least = MIN_KEY_TEXT if r.key else MIN_TEXT
        if shown < least:
            problems.append(f"{r.content!r} shows at {shown:.1f} px < {least} (size {r.size}, width {r.image_size[0]})")
    return problems


@pytest.mark.parametrize("locale", slow_cases(LOCALES, {"en", "es", "pt_BR"}))
@pytest.mark.parametrize("game", slow_cases(GAME_KEYS, {"wonderland", "domino_wars"}))
def test_no_text_overflows_or_is_too_small_on_a_phone(game: str, locale: Locale) -> None:
    """In every language (German, the longest, alone in the quick loop: the sizes checked do
    not depend on the language, and the longest words are the likeliest to stick out)."""
    rng = random.Random(f"{game}{locale}")
    problems: set[str] = set()
    drawn = 0
    for state in sample(game, 21, 10):
        for header in headers(rng, locale):
            seat = rng.choice((0, 1))
            with recording() as records:  # drawn, not encoded: a PNG adds no text to check
                renderers.picture(game, state.view(None), header)
                if renderers.has_private_picture(game):
                    renderers.private_picture(game, state.view(seat), header)
            drawn += len(records)
            problems.update(_problems(records))
    assert drawn > 0
    assert not problems, "\n".join(sorted(problems)[:25])
