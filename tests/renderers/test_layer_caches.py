"""Cached layers draw the same picture as a fresh draw.

Each worker keeps what does not change from move to move (a game's empty board with its
coordinates, a Dominance layout's tiles, Focus's seat cards, Wonderland's crop, sprites) and
starts each picture from a copy.  A cache key that misses something the layer depends on,
or a layer drawn on in place instead of on its copy, would show one match's board in
another's picture.  So: pictures of random positions of every game (random options: both
Wonderland boards), drawn in a shuffled order with every cache warm from other matches, are
pixel for pixel the pictures drawn with every cache emptied first."""

from __future__ import annotations

import random
from types import ModuleType

import pytest
from PIL import Image, ImageChops

import renderers
from bot.games import GAMES
from renderers import dominance, domineering, domino_wars, focus, kit, wonderland
from tests.renderers.positions import headers, sample
from tests.slow import slow_cases

GAME_KEYS = sorted(GAMES)
MODULES: tuple[ModuleType, ...] = (kit, focus, domineering, dominance, domino_wars, wonderland)


def _empty_every_cache() -> int:
    """Clear every memoised function of the renderers (layers, sprites, fonts); how many."""
    cleared = 0
    for module in MODULES:
        for value in vars(module).values():
            if callable(value) and hasattr(value, "cache_clear"):
                value.cache_clear()
                cleared += 1
    return cleared


def _same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a, b).getbbox() is None


@pytest.mark.parametrize("game", slow_cases(GAME_KEYS, {"wonderland", "focus", "dominance"}))
def test_a_warm_cache_draws_what_a_fresh_draw_draws(game: str) -> None:
    rng = random.Random(f"layers {game}")
    header_choices = list(headers(rng))
    states = sample(game, 41, 16, vary_options=True)
    rng.shuffle(states)
    jobs = [(state.view(None), rng.choice(header_choices)) for state in states]
    warm = [renderers.picture(game, view, header) for view, header in jobs]
    again = [renderers.picture(game, view, header) for view, header in reversed(jobs)][::-1]
    fresh = []
    for view, header in jobs:
        assert _empty_every_cache() >= 5
        fresh.append(renderers.picture(game, view, header))
    for index, (a, b, c) in enumerate(zip(warm, again, fresh, strict=True)):
        assert _same(a, c), f"picture {index} drawn from warm caches differs from a fresh draw"
        assert _same(b, c), f"picture {index} drawn a second time differs (a cached layer was drawn on)"
