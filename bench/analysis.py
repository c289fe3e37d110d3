"""How long the computer's analysis takes (`python -m bench analysis`, or `python -m bench.analysis`).

Per game: the CPU time of analysing 100 plies of a random game (log lines, chance moves
included, as `/analyse` counts them) at the production budget (`bot.ai.analysis.WIDE` and
`FOCUSED` iterations), measured with `time.process_time` in this process, so other load on
the machine does not inflate it.  And the limit the issue set: a 2,000-ply Focus game (random
moves, drawn at its `ply_limit`) analysed whole; the bot runs it in one worker process, so on
an idle machine its wall time is this CPU time, and on a loaded one it waits its turns.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Iterator, Sequence

from bot.ai.analysis import FOCUSED, WIDE, Played, analyse
from bot.games import CHANCE, GAMES

PER = 100


def random_log(game: str, seed: int, options: dict[str, str], plies: int) -> list[Played]:
    """The first `plies` log lines of a random game of `game` (fewer if it ends sooner)."""
    rng = random.Random(seed)
    state = GAMES[game].start(options=options)
    log: list[Played] = []
    while state.outcome is None and len(log) < plies:
        if CHANCE in state.turn:
            seat, move = CHANCE, state.sample_chance(rng)
        else:
            seat = min(state.turn)
            move = rng.choice(state.legal_moves(seat))
        state = state.play(seat, move)
        log.extend(Played(len(log), e.seat, e.move) for e in state.applied)
    return log


def per_hundred_rows(seed: int = 1) -> Iterator[tuple[str, str, str]]:
    """Random games of each game (seeded from `seed` on) until at least PER plies are analysed."""
    for game in sorted(GAMES):
        plies = judged = games = 0
        took = 0.0
        while plies < PER:
            log = random_log(game, seed + games, {}, PER - plies)
            started = time.process_time()
            analysis = analyse(game, {}, log, seed)
            took += time.process_time() - started
            plies, judged, games = plies + len(log), judged + len(analysis.judgements), games + 1
        yield (
            f"analysis, {game}: CPU per {PER} plies",
            f"{took * PER / plies:.1f} s ({plies} plies of {games} game{'s' if games > 1 else ''}, {judged} judged)",
            f"budget {WIDE} + {FOCUSED} iterations a move",
        )


def long_focus_row(plies: int = 2000, seed: int = 1) -> tuple[str, str, str]:
    log = random_log("focus", seed, {"ply_limit": str(plies)}, plies + 10)
    started, wall = time.process_time(), time.perf_counter()
    analysis = analyse("focus", {"ply_limit": str(plies)}, log, seed)
    took, waited = time.process_time() - started, time.perf_counter() - wall
    return (
        f"analysis, a {len(log)}-ply Focus game",
        f"{took / 60:.1f} min CPU ({waited / 60:.1f} min wall here), {len(analysis.judgements)} judged moves",
        "finishes",
    )


def analysis_rows(plies: int = 2000) -> list[tuple[str, str, str]]:
    return [*per_hundred_rows(), long_focus_row(plies)]


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.analysis", description=__doc__.split("\n\n")[0])
    parser.add_argument("--plies", type=int, default=2000, help="length of the long Focus game")
    parser.add_argument("--skip-long", action="store_true", help="only the per-100-plies rows")
    args = parser.parse_args(argv)
    rows = list(per_hundred_rows())
    for what, value, target in rows:
        print(f"{what:<44}  {value:<60}  {target}", flush=True)
    if not args.skip_long:
        what, value, target = long_focus_row(args.plies)
        print(f"{what:<44}  {value:<60}  {target}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
