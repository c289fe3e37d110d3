"""Random positions of every game for picture tests: random playouts from random set-ups,
with long names in several scripts, big clocks and move numbers."""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator
from typing import Any

from bot.clocks import format_clock
from bot.games import CHANCE, GAMES, GameState
from bot.i18n import Locale, tr, translate
from renderers import Header

LONG_NAMES = [
    ("Sir Reginald Maximilian Featherstonehaugh", "Wolfeschlegelsteinhausenbergerdorff"),
    ("李小龍李小龍李小龍李小龍李小龍李小龍", "Жора Александрович Ковальчук-Петренко"),
    ("🐉🐉 Drake the Dragon 🐉🐉🐉🐉", "Ωμέγα Παπαδοπούλου-Χατζηγεωργίου"),
    ("محمد عبد الرحمن بن سلمان آل سعود", "דוד בן גוריון (David Ben-Gurion)"),
    ("देवनागरी क्षत्रिय রবীন্দ্রনাথ ঠাকুর", "สมชาย ใจดี สมศรี สำราญ"),
    ("José", "Ann"),
]


def headers(rng: random.Random, locale: Locale = "en") -> Iterator[Header]:
    """Headers with long names in several scripts, big clocks (a long control's too) and move
    numbers, for pictures drawn in `locale`."""
    for players in LONG_NAMES:
        long_clocks = (format_clock(86399, 4 * 86400 - 1, long=True), format_clock(59, 0, long=True))  # said in locale
        clocks = rng.choice([None, ("0:03", "1:59:59"), ("123:59:59", "99:00:00"), long_clocks])
        status = rng.choice([None, "ranked · best of 7, game 5 of 7", translate(locale, tr("clock paused"))])
        yield Header(players=players, ply=rng.choice([None, 1, 9999]), clocks=clocks, status=status, locale=locale)


def playout(game: str, rng: random.Random, options: dict[str, Any] | None = None) -> list[GameState]:
    """Every state of one random game from its start to its end."""
    state = GAMES[game].start(players=2, options=options or {})
    states = [state]
    while True:
        if state.outcome is not None or len(states) > 2000:
            return states
        if CHANCE in state.turn:
            state = state.play(CHANCE, state.sample_chance(rng))
        else:
            seat = rng.choice(sorted(state.turn))
            state = state.play(seat, rng.choice(state.legal_moves(seat)))
        states.append(state)


def random_options(game: str, rng: random.Random) -> dict[str, Any]:
    """A random choice for each of the game's options that lists its choices (board sizes,
    hidden factors, kept tiles...); the others keep their defaults."""
    return {option.name: rng.choice(option.choices) for option in GAMES[game].info.options if option.choices}


def sample(game: str, seed: int, count: int, *, vary_options: bool = False) -> list[GameState]:
    """`count` states spread over random games (start, every phase met, the end), each game
    with random options when `vary_options`.  The same arguments give the same states, so they
    are played once per test process (states are immutable; the list is the caller's)."""
    return list(_sample(game, seed, count, vary_options))


@functools.cache
def _sample(game: str, seed: int, count: int, vary_options: bool) -> tuple[GameState, ...]:
    rng = random.Random(seed)
    chosen: list[GameState] = []
    while len(chosen) < count:
        states = playout(game, rng, random_options(game, rng) if vary_options else None)
        picks = {0, len(states) - 1, *rng.sample(range(len(states)), min(len(states), 4))}
        chosen += [states[i] for i in sorted(picks)]
    return tuple(chosen)
