"""`python -m bot.bench snapshots`: the largest stored snapshot at any ply of random complete games.

The target (issue 15): a snapshot (`json.dumps(state.dump())`, what `matches.snapshot` holds
and every move rewrites) stays ≤ 4 KB at every ply of every game.  Measured over random
complete games of all five games, each in its variants that change what a snapshot holds:
both Wonderland boards (standard 13×20, ddm 13×19) and its hidden factors, Focus's drop
set-up, Domineering with four pieces, Domino Wars with every item.  Games are played to
their end by their own rules; Focus has no move limit by default and random players can
circle for tens of thousands of plies, so a Focus game is cut at `FOCUS_CUT` plies (said in
the row).  Reported per variant: the largest snapshot, the ply where it was seen, and the
99th percentile over all plies.

Focus keeps the position after the last capture and the moves since (2 characters a ply),
because its repetition rule counts every position since the last capture; random players
can go thousands of plies without one, and past about 1,900 such plies the snapshot passes
4 KB.  A bounded design would have to forget positions that may still recur, which the
ruling does not allow, so it is reported as it is.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass

from bot.games import CHANCE, GAMES, GameState

FOCUS_CUT = 20_000
LIMIT = 4 * 1024
VARIANTS: tuple[tuple[str, dict[str, object]], ...] = (
    ("focus", {}),
    ("focus", {"setup": "drop"}),
    ("domineering", {}),
    ("domineering", {"pieces": "4"}),
    ("dominance", {}),
    ("domino_wars", {}),
    ("domino_wars", {"repeat": "both", "mulligan": "both", "tie": "0"}),
    ("wonderland", {}),
    ("wonderland", {"board": "ddm"}),
    ("wonderland", {"board": "ddm", "hidden_factors": "on"}),
)


@dataclass(frozen=True)
class Sizes:
    game: str
    options: dict[str, object]
    games: int
    plies: int
    largest: int
    at_ply: int
    p99: int
    cut: int
    """Games stopped at FOCUS_CUT before their end."""


def _positions(state: GameState, rng: random.Random, cut: int) -> Iterator[GameState]:
    for _ in range(cut + 1):
        yield state
        if state.outcome is not None:
            return
        if CHANCE in state.turn:
            state = state.play(CHANCE, state.sample_chance(rng))
        else:
            seat = rng.choice(sorted(state.turn))
            state = state.play(seat, rng.choice(state.legal_moves(seat)))


def measure(game: str, options: dict[str, object], games: int, seed: int = 21) -> Sizes:
    rules = GAMES[game]
    rng = random.Random(seed)
    sizes: list[int] = []
    largest, at_ply, cut = 0, 0, 0
    limit = FOCUS_CUT if game == "focus" else 1_000_000
    for _ in range(games):
        last = None
        for ply, state in enumerate(_positions(rules.start(options=rules.resolve_options(options)), rng, limit)):
            size = len(json.dumps(state.dump()))
            sizes.append(size)
            if size > largest:
                largest, at_ply = size, ply
            last = state
        if last is not None and last.outcome is None:
            cut += 1
    sizes.sort()
    return Sizes(game, options, games, len(sizes), largest, at_ply, sizes[int(0.99 * (len(sizes) - 1))], cut)


def snapshot_rows(games: int = 20, focus_games: int = 5) -> list[tuple[str, str, str]]:
    """Rows for bot.bench's table (Focus's games are long: fewer of them)."""
    rows = []
    for game, options in VARIANTS:
        found = measure(game, options, focus_games if game == "focus" else games)
        named = ", ".join(f"{k}={v}" for k, v in options.items()) or "defaults"
        cut = f", {found.cut} cut at {FOCUS_CUT:,}" if found.cut else ""
        verdict = "ok" if found.largest <= LIMIT else "MISSED"
        rows.append(
            (
                f"snapshot: {game} ({named}), {found.games} games{cut}",
                f"max {found.largest / 1024:.2f} KB at ply {found.at_ply:,}; p99 {found.p99 / 1024:.2f} KB",
                f"≤ 4 KB  {verdict}",
            )
        )
    return rows
