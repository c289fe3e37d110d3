"""`python -m bench snapshots`: the largest stored snapshot at any ply of random complete games.

The target: a snapshot (`json.dumps(state.dump())`, what `matches.snapshot` holds
and every move rewrites) stays ≤ 4 KB at every ply of every game.  Measured over random
complete games of all five games, each in its variants that change what a snapshot holds:
both Wonderland boards (standard 13×20, ddm 13×19) and its hidden factors, Focus's drop
set-up, Domineering with four pieces, Domino Wars with every item.  Games are played to
their end by their own rules; Focus has no move limit by default and random players can
circle for tens of thousands of plies, so a Focus game is cut at `FOCUS_CUT` plies (said in
the row).  Reported per variant: the largest snapshot, the ply where it was seen, and the
99th percentile over all plies.

Focus's repetition rule counts every position since the last capture, and random players
can go thousands of plies without one.  Its snapshot keeps the position after the last
capture and that position's place in the move log, never the moves since (they were 2
characters a ply and passed 4 KB after about 1,900 capture-free plies): `load` takes them
from the log (`Rules.log_needed`).  So the rows also say how many log moves a snapshot
needed at most to load (0 for the games whose snapshots are complete): what a long Focus
game moves from the snapshot to the log.
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
    from_log: int
    """The most log moves a snapshot needed to load (`Rules.log_needed`)."""


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
    largest, at_ply, cut, from_log = 0, 0, 0, 0
    limit = FOCUS_CUT if game == "focus" else 1_000_000
    for _ in range(games):
        last = None
        logged = 0  # the log moves so far: every entry `play` applied
        for ply, state in enumerate(_positions(rules.start(options=rules.resolve_options(options)), rng, limit)):
            logged += len(state.applied)
            data = state.dump()
            size = len(json.dumps(data))
            sizes.append(size)
            if size > largest:
                largest, at_ply = size, ply
            needed = rules.log_needed(data)
            if needed is not None:
                from_log = max(from_log, logged - needed)
            last = state
        if last is not None and last.outcome is None:
            cut += 1
    sizes.sort()
    p99 = sizes[int(0.99 * (len(sizes) - 1))]
    return Sizes(game, options, games, len(sizes), largest, at_ply, p99, cut, from_log)


def snapshot_rows(games: int = 20, focus_games: int = 5) -> list[tuple[str, str, str]]:
    """Rows for the bench's table (Focus's games are long: fewer of them)."""
    rows = []
    for game, options in VARIANTS:
        found = measure(game, options, focus_games if game == "focus" else games)
        named = ", ".join(f"{k}={v}" for k, v in options.items()) or "defaults"
        cut = f", {found.cut} cut at {FOCUS_CUT:,}" if found.cut else ""
        verdict = "ok" if found.largest <= LIMIT else "MISSED"
        rows.append(
            (
                f"snapshot: {game} ({named}), {found.games} games{cut}",
                f"max {found.largest / 1024:.2f} KB at ply {found.at_ply:,}; p99 {found.p99 / 1024:.2f} KB; "
                f"≤ {found.from_log:,} log moves at load",
                f"≤ 4 KB  {verdict}",
            )
        )
    return rows
