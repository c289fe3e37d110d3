"""Stable frames and one counter: every position of a match is drawn at one size (the thread
does not jump from post to post), and a picture says its move or turn count once, the same
way everywhere, with a limit only where the game has one and never past it."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from bot.games import GAMES
from renderers import Header, picture
from renderers.kit import counter, recording
from tests.games.playout import playout, start
from tests.slow import slow_cases

COUNTER = re.compile(r"\b(?:Move|Turn|turn) \d+")


def _variants(game: str) -> list[dict[str, Any]]:
    """Default options, then each listed choice of each option (board sizes, variants) once."""
    variants: list[dict[str, Any]] = [{}]
    for option in GAMES[game].info.options:
        variants += [{option.name: choice} for choice in option.choices or ()]
    return variants


def _positions(game: str, options: dict[str, Any], seed: int) -> list[dict[str, Any]]:
    """Public views of one random playout: ~25 spread over it, the last one included."""
    steps = list(playout(start(game, options), random.Random(seed)))
    last, seat, move = steps[-1]
    views = [state.view(None) for state, _, _ in steps[:: max(1, len(steps) // 25)]]
    return [*views, last.play(seat, move).view(None)]


@pytest.mark.parametrize("game", slow_cases(sorted(GAMES), {"wonderland", "domino_wars", "domineering"}))
def test_every_position_of_a_match_has_the_same_size(game: str) -> None:
    rng = random.Random(game)
    for options in _variants(game):
        for clocks in (None, ("0:03", "123:59:59")):
            header = Header(players=("محمد عبد الرحمن", "Wolfeschlegelsteinhausenbergerdorff"), clocks=clocks)
            sizes = set()
            for view in _positions(game, options, rng.randrange(10**6)):
                sizes.add(picture(game, view, Header(header.players, rng.choice([1, 99, 9999]), clocks)).size)
            assert len(sizes) == 1, (game, options, clocks, sorted(sizes))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_picture_counts_once_and_never_past_its_limit(game: str) -> None:
    views = _positions(game, {}, 5)
    assert views[-1].get("outcome")
    for view in [views[0], views[len(views) // 2], views[-1]]:
        with recording() as records:
            picture(game, view, Header(players=("Ada", "Bob"), ply=194))
        counts = [m for r in records for m in COUNTER.findall(r.content)]
        if not view.get("outcome"):
            assert len(counts) == 1, counts
        assert not any(re.search(r"\d+/\d+", r.content) for r in records)
    for view in views:
        said = counter(view, 194) or ""
        numbers = [int(n) for n in re.findall(r"\d+", said)]
        if "of" in said:
            assert numbers[0] <= numbers[1], said
