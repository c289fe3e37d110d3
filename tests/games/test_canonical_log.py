"""Every accepted move is logged in canonical notation, whatever spelling was typed.

Why: the log is the record (replays, verify, the history a player reads); a secret draft pick
typed as `PICK 4-0` used to be kept so, while its listed move is `pick 0-4`.  The reference
below is written from the rule texts, not taken from the engines: a Domino Wars pick is
`pick a-b` with a ≤ b, a Wonderland pick is `pick` and the card as listed (rank and suit in
capitals).
"""

from __future__ import annotations

import random

import pytest

from bot.games import CHANCE, GAMES, GameState


def misspelt(move: str, rng: random.Random) -> str:
    """`move` as a player might type it: other case, extra spaces, a domino's numbers swapped."""
    words = move.split()
    if len(words) == 2 and "-" in words[1] and words[1].replace("-", "").isdigit():
        a, b = words[1].split("-")
        words[1] = f"{b}-{a}"
    text = "  ".join(words)
    return rng.choice([text.upper(), text.lower(), text.swapcase(), f" {text} "])


def reference_dw(move: str) -> str:
    verb, tile = move.lower().split()
    a, b = sorted(int(n) for n in tile.split("-"))
    return f"{verb} {a}-{b}"


def reference_wonderland(move: str) -> str:
    verb, card = move.split()
    return f"{verb.lower()} {card.upper()}"


REFERENCE = {"domino_wars": reference_dw, "wonderland": reference_wonderland}


def draft_picks(state: GameState, rng: random.Random, plies: int) -> list[tuple[str, str, str]]:
    """(listed move, typed spelling, logged text) of the picks of a random draft."""
    seen = []
    for _ in range(plies):
        if state.outcome is not None or not state.turn:
            break
        if CHANCE in state.turn:
            state = state.play(CHANCE, state.sample_chance(rng))
            continue
        seat = rng.choice(sorted(state.turn))
        listed = rng.choice(state.legal_moves(seat))
        if not listed.startswith("pick "):
            break  # the draft is over
        typed = misspelt(listed, rng)
        state = state.play(seat, typed)
        seen.append((listed, typed, state.applied[0].move))
    return seen


@pytest.mark.parametrize("game", ["domino_wars", "wonderland"])
@pytest.mark.parametrize("seed", range(6))
def test_a_draft_pick_is_logged_as_listed_whatever_was_typed(game: str, seed: int) -> None:
    rng = random.Random(seed)
    picks = draft_picks(GAMES[game].start(players=2, options={}), rng, 40)
    assert len(picks) >= 8
    for listed, typed, logged in picks:
        assert logged == listed == REFERENCE[game](typed), (typed, logged)


@pytest.mark.parametrize("game", ["domino_wars", "wonderland"])
def test_a_game_played_from_the_misspelt_log_replays_to_the_same_state(game: str) -> None:
    rng = random.Random(7)
    rules = GAMES[game]
    state = rules.start(players=2, options={})
    log = []
    for _ in range(30):
        if state.outcome is not None or not state.turn:
            break
        seat = sorted(state.turn)[0]
        move = state.sample_chance(rng) if seat == CHANCE else misspelt(rng.choice(state.legal_moves(seat)), rng)
        state = state.play(seat, move)
        log.extend(state.applied)
    again = rules.start(players=2, options={})
    for entry in log:
        again = again.play(entry.seat, entry.move) if not entry.forced else again
    assert again.dump() == state.dump()
