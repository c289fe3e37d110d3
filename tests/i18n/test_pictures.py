"""Pictures in each language: the words drawn are the reader's, and a layer cached for one
language is never reused for another."""

from __future__ import annotations

import random

import pytest

import renderers
from bot.games import GAMES
from bot.i18n import tr, translate
from renderers.kit import Header, recording
from tests.renderers.positions import sample

GAME_KEYS = sorted(GAMES)


def _drawn(game: str, locale: str, seed: int) -> tuple[bytes, set[str]]:
    state = sample(game, seed, 3)[-1]
    header = Header(players=("Ana", "Bo"), ply=12, locale=locale)  # type: ignore[arg-type]
    with recording() as records:
        png = renderers.render(game, state.view(None), header)
    return png, {r.content for r in records}


@pytest.mark.parametrize("game", GAME_KEYS)
def test_a_picture_in_one_language_does_not_change_the_next_in_another(game: str) -> None:
    """The cached layers (plate, seat cards, legends) are kept per language."""
    seed = random.Random(game).randrange(1000)
    english, _ = _drawn(game, "en", seed)
    german, _ = _drawn(game, "de", seed)
    assert german != english
    assert _drawn(game, "en", seed)[0] == english
    assert _drawn(game, "de", seed)[0] == german


@pytest.mark.parametrize("locale", ["de", "es", "pt_BR"])
def test_the_header_says_whose_turn_in_the_pictures_language(locale: str) -> None:
    to_move = translate(locale, tr("to move"))  # type: ignore[arg-type]
    seen = set()
    for game in GAME_KEYS:
        _, words = _drawn(game, locale, 7)
        seen |= words
    assert any(to_move in word for word in seen), sorted(seen)[:30]
    assert not any("to move" in word for word in seen)
