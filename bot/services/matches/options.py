"""A match's options: from what the challenger typed to what the engine starts with.

The store keeps the options as typed (lower-cased); the engine gets them resolved by
`resolve_options`.  Per-seat options (items such as Domino Wars' `tie`, whose values are seat
numbers) may be typed as `me`, `opponent`, `both` or `none`, because seats are only known
once the challenge is accepted: the words are mapped then.  Replays, takebacks and records
must start the engine exactly as the match did, so they all go through `started_options`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.games import Rules
from bot.store import MatchRow

SEAT_PREFS = ("random", "first", "second")
"""What `/play seat:` accepts: the challenger's seat, or a coin toss at accept time."""

PER_SEAT_WORDS = {"me": "challenger", "opponent": "accepter", "you": "accepter", "both": "both", "none": "none"}
"""Words a per-seat option may be given as, and whose seat each names."""


def typed_options(options: Mapping[str, object]) -> dict[str, str]:
    """Options as stored: names and values stripped and lower-cased."""
    return {k.strip().lower(): str(v).strip().lower() for k, v in options.items()}


def resolve_options(rules: Rules, raw: Mapping[str, str], *, challenger_seat: int) -> dict[str, Any]:
    """Engine options from what the challenger typed (the per-seat words mapped to seat
    numbers, defaults filled in).  Raises `InvalidOptions` for options the game refuses."""
    mapped: dict[str, object] = {}
    for name, value in raw.items():
        word = PER_SEAT_WORDS.get(value)
        if word == "challenger":
            value = str(challenger_seat)
        elif word == "accepter":
            value = str(1 - challenger_seat)
        mapped[name] = value
    return rules.resolve_options(mapped)


def challenger_seat(row: MatchRow) -> int:
    """The seat the challenger took (0 before the match started)."""
    return 0 if row.seats is None or row.seats[0] == row.challenger_id else 1


def started_options(rules: Rules, row: MatchRow) -> dict[str, Any]:
    """The engine options `row`'s match started with, resolved exactly as at accept time."""
    return resolve_options(rules, row.options, challenger_seat=challenger_seat(row))
