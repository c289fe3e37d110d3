"""`python -m bench render`: our pictures against the usual Discord chess-bot pipeline.

Why a peer: an absolute "25 ms" says little on a shared 2-core box whose speed changes by
the minute; the ratio to a well-known pipeline measured in the same run does not.  The
peer is python-chess's SVG board turned into an 800 px PNG by cairosvg, which many chess
bots post after every move.  Both are timed interleaved (one peer render, one of ours) on
realistic mid- and late-game positions, after a warm-up that fills font and sprite caches,
and the medians are compared.  The peer's packages are for the bench only:

    pip install -e '.[bench]'
"""

from __future__ import annotations

import importlib
import random
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import renderers
from bot.games import CHANCE, GAMES, GameState
from bot.tournaments import Tournament
from renderers import tournament as tournament_pictures

INSTALL_HINT = "pip install -e '.[bench]'  (python-chess and cairosvg, for the peer pipeline)"
TARGETS = {"board": 0.25, "private": 0.25, "bracket": 0.40, "standings": 0.40}


@dataclass(frozen=True)
class Ratio:
    what: str
    ours_ms: float
    peer_ms: float
    target: float

    @property
    def ratio(self) -> float:
        return self.ours_ms / self.peer_ms


def _peer() -> Callable[[], bytes] | None:
    """One render of the peer pipeline on a realistic middlegame (None: packages missing)."""
    try:
        chess = importlib.import_module("chess")
        chess_svg = importlib.import_module("chess.svg")
        cairosvg = importlib.import_module("cairosvg")
    except ImportError:
        return None
    board = chess.Board()
    rng = random.Random(7)
    for _ in range(40):  # a middlegame: 20 moves each, pieces spread over the board
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    last = board.peek() if board.move_stack else None

    def render() -> bytes:
        svg = chess_svg.board(board, size=800, lastmove=last, coordinates=True)
        png: bytes = cairosvg.svg2png(bytestring=svg.encode(), output_width=800)
        return png

    return render


def _positions(key: str, count: int, seed: int) -> list[GameState]:
    """Mid- and late-game states (40-95 % through random games)."""
    rng = random.Random(seed)
    out: list[GameState] = []
    while len(out) < count:
        state = GAMES[key].start(players=2, options={})
        states = [state]
        while state.outcome is None and len(states) < 3000:
            if CHANCE in state.turn:
                state = state.play(CHANCE, state.sample_chance(rng))
            else:
                seat = rng.choice(sorted(state.turn))
                state = state.play(seat, rng.choice(state.legal_moves(seat)))
            states.append(state)
        n = len(states)
        out += [states[int(n * f)] for f in (0.4, 0.6, 0.8, 0.95)]
    return out[:count]


def _interleaved(ours: list[Callable[[], Any]], peer: Callable[[], bytes], rounds: int) -> tuple[float, float]:
    """Median ms of ours (cycling through the given jobs) and of the peer, timed alternately."""
    for job in ours[:3]:  # warm-up: fonts, sprites and the peer's parser
        job()
        peer()
    mine, theirs = [], []
    for i in range(rounds):
        t = time.perf_counter()
        ours[i % len(ours)]()
        mine.append(time.perf_counter() - t)
        t = time.perf_counter()
        peer()
        theirs.append(time.perf_counter() - t)
    return statistics.median(mine) * 1000, statistics.median(theirs) * 1000


def _jobs() -> Iterator[tuple[str, str, list[Callable[[], Any]]]]:
    header = renderers.Header(players=("José Raúl", "李小龍"), ply=57, clocks=("4:12", "11:40"))
    for key in GAMES:
        views = [s.view(None) for s in _positions(key, 12, 5)]
        yield key, "board", [lambda v=v, k=key: renderers.render(k, v, header) for v in views]  # type: ignore[misc]
        if renderers.has_private_picture(key):
            seat_views = [s.view(0) for s in _positions(key, 12, 6)]
            yield (
                f"{key} DM",
                "private",
                [lambda v=v, k=key: renderers.render_private(k, v, header) for v in seat_views],  # type: ignore[misc]
            )
    event = Tournament.new("double_elimination", [(i, f"Player {i}") for i in range(1, 65)])
    rng = random.Random(8)
    for _ in range(60):  # mid-event: winners R1 done, losers under way
        if not event.pairings_to_start() and event.needs_next_round:
            event.next_round()
        start = event.pairings_to_start()
        if not start:
            break
        game = rng.choice(start)
        while not event.pairing(game.pairing_id).finished:
            event.record_result(game.pairing_id, rng.choice((0, 1)))
    data = tournament_pictures.picture_data(event, "Bench Cup", "Focus · double elimination · best of 1")
    yield "64-player bracket", "bracket", [lambda: tournament_pictures.bracket_png(data)]
    yield "64-player standings", "standings", [lambda: tournament_pictures.standings_png(data)]


def measure(rounds: int = 30) -> list[Ratio] | None:
    """Every picture against the peer; None when the peer's packages are not installed."""
    peer = _peer()
    if peer is None:
        return None
    ratios = []
    for what, kind, jobs in _jobs():
        ours_ms, peer_ms = _interleaved(jobs, peer, rounds)
        ratios.append(Ratio(what, ours_ms, peer_ms, TARGETS[kind]))
    return ratios
