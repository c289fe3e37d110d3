"""The computer's analysis of a game (bot/ai/analysis.py): planted blunders are flagged, forced
moves never are, random games never crash and analyse the same every time, and hidden
information never counts.  Small iteration budgets: deterministic and fast."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from bot.ai.analysis import BLUNDER, Analysis, Judgement, Played, analyse, analyse_span, decisions, judge
from bot.games import CHANCE, GAMES, GameState
from tests.ai.planted import loses_at_once, wins_at_once
from tests.games.playout import playout, start
from tests.slow import slow_cases

PLANTED = json.loads((Path(__file__).with_name("planted_positions.json")).read_text())
"""A known position per game: the mover has a winning move (`win`) and plays `blunder`, a
move that loses at once (Dominance: draws at once, at the turn limit; its dice make a loss
in one turn impossible to force).  Found by `tests/ai/planted.py` in seeded play, or a found
position edited (the Focus board; Dominance's turn count; Wonderland's lives and summons)."""


def _wins(state: GameState, seat: int, line: str) -> bool:
    """`line` (a move, or its turn's moves `a; b`) wins for `seat` whatever chance does."""
    *first, last = [m.strip() for m in line.split(";")]
    for move in first:
        state = state.play(seat, move)
    return wins_at_once(state, seat, last, random.Random(5))


@pytest.mark.parametrize("planted", PLANTED, ids=[p["game"] for p in PLANTED])
def test_a_planted_blunder_is_flagged_with_the_win_it_missed(planted: dict[str, Any]) -> None:
    state = GAMES[planted["game"]].load(planted["dump"])
    seat, win, blunder = planted["seat"], planted["win"], planted["blunder"]
    # The position is what the test says, on the engine itself (not on the search).
    assert state.turn == frozenset({seat}) and {win, blunder} <= set(state.legal_moves(seat))
    assert _wins(state, seat, win if planted["game"] != "wonderland" else f"{win}; end")
    if planted["kind"] == "loses":
        assert loses_at_once(state, seat, blunder, random.Random(5))
    else:
        after = state.play(seat, blunder)
        assert after.outcome is not None and after.outcome.is_draw
    for seed in range(3):
        verdict = judge(state, seat, blunder, random.Random(seed))
        assert verdict.label == "blunder" and verdict.loss >= BLUNDER, verdict
        assert verdict.before >= 0.95
        assert verdict.best != blunder
        assert _wins(state, seat, verdict.best if planted["game"] != "wonderland" else f"{verdict.best}; end")
        kept = judge(state, seat, verdict.best, random.Random(seed))
        assert kept.loss == 0.0 and kept.label is None


@pytest.mark.parametrize("key", slow_cases(["domino_wars", "wonderland"], {"wonderland"}))
def test_moves_the_rules_forced_are_never_judged(key: str) -> None:
    """The engine plays a seat's only legal move itself and logs it `{forced}`: the analysis
    judges every decision and nothing else, so no forced move is ever called a mistake."""
    forced_seen = 0
    for seed in (1, 2, 3):
        log, forced = random_log_and_forced(key, seed)
        forced_seen += len(forced)
        log = log[:SHOWN]
        forced = {ply for ply in forced if ply < SHOWN}
        judged = {j.ply for j in analyse(key, {}, log, seed, wide=4, focused=2).judgements}
        assert not judged & forced
        assert len(judged) == sum(1 for _ in decisions(key, {}, log))
    assert forced_seen > 0


def test_a_single_legal_move_is_never_a_mistake_even_when_it_throws_the_game_away(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The planted Dominance position with `done` as the only move allowed: `done` draws where a
    capture would have won, yet with no choice it is valued (a draw) and never judged."""
    planted = next(p for p in PLANTED if p["game"] == "dominance")
    state = GAMES["dominance"].load(planted["dump"])
    real = type(state).legal_moves

    def only_done(self: GameState, seat: int) -> list[str]:
        return ["done"] if self is state else real(self, seat)

    monkeypatch.setattr(type(state), "legal_moves", only_done)
    verdict = judge(state, planted["seat"], "done", random.Random(1))
    assert verdict.forced and verdict.loss == 0.0 and verdict.label is None
    assert verdict.after == pytest.approx(0.5)  # valued all the same: the draw it is
    analysis = Analysis("dominance", (verdict,))
    assert analysis.costliest(planted["seat"]) == [] and analysis.accuracy(planted["seat"]) is None


def random_log(key: str, seed: int, options: dict[str, str] | None = None) -> list[Played]:
    """A random finished game's log, as the store keeps it (forced and chance moves included)."""
    return random_log_and_forced(key, seed, options)[0]


def random_log_and_forced(key: str, seed: int, options: dict[str, str] | None = None) -> tuple[list[Played], set[int]]:
    """`random_log`, and the plies of its moves the rules forced."""
    state = start(key, {"ply_limit": 80} if key == "focus" else options)
    log: list[Played] = []
    forced: set[int] = set()
    for before, seat, move in playout(state, random.Random(seed)):
        after = before.play(seat, move)
        for entry in after.applied:
            if entry.forced:
                forced.add(len(log))
            log.append(Played(len(log), entry.seat, entry.move))
    return log, forced


SHOWN = 160
"""Log lines of a random game the tests analyse (a random Wonderland game runs 600)."""
SHORT = {"focus": {"ply_limit": "80"}, "dominance": {"turn_limit": "30"}}
"""Options that end random games sooner: the tests analyse them whole."""


@pytest.mark.parametrize("seed", slow_cases([1, 2], {2}))
@pytest.mark.parametrize("key", slow_cases(sorted(GAMES), {"wonderland", "dominance", "focus"}))
def test_random_finished_games_are_analysed_the_same_every_time(key: str, seed: int) -> None:
    """Two random games of each game in the full suite, one in the quick loop."""
    options = SHORT.get(key, {})
    log = random_log(key, seed, options)[:SHOWN]
    whole = analyse(key, options, log, seed, wide=6, focused=3)
    assert whole == analyse(key, options, log, seed, wide=6, focused=3)
    # Spans, as the service's workers get them, give the same judgements as the whole.
    cut = len(log) // 3
    spans = [analyse_span(key, options, log, seed, a, b, 6, 3) for a, b in ((0, cut), (cut, len(log)))]
    assert tuple(spans[0] + spans[1]) == whole.judgements
    decided = [index for index, _state in decisions(key, options, log)]
    assert [j.ply for j in whole.judgements] == [log[i].ply for i in decided]
    for j in whole.judgements:
        assert 0.0 <= j.after <= 1.0 and 0.0 <= j.before <= 1.0 and j.seat == log[j.ply].seat
    assert Analysis.from_json(json.loads(json.dumps(whole.to_json()))) == whole
    for seat in (0, 1):
        accuracy = whole.accuracy(seat)
        assert accuracy is None or 0.0 <= accuracy <= 100.0
        assert len(whole.costliest(seat)) <= 3


def test_a_different_seed_may_judge_differently_but_the_same_seed_never() -> None:
    log = random_log("focus", 4, SHORT["focus"])
    first = analyse("focus", {"ply_limit": "80"}, log, 1, wide=6, focused=3)
    again = analyse("focus", {"ply_limit": "80"}, log, 1, wide=6, focused=3)
    other = analyse("focus", {"ply_limit": "80"}, log, 2, wide=6, focused=3)
    assert first == again and first != other


@pytest.mark.parametrize("key", ["domino_wars", "wonderland"])
def test_hidden_information_never_counts(key: str) -> None:
    """States that differ only in what the mover cannot see (the opponent's hand, the piles'
    order) are judged alike: the analysis searches the mover's determinizations only."""
    checked = differing = 0
    for seed in range(3):
        for index, (state, seat, move) in enumerate(playout(start(key), random.Random(seed))):
            if seat == CHANCE or index % 7 or len(state.legal_moves(seat)) < 2 or seat not in state.turn:
                continue
            twins = [state.determinize(seat, random.Random(salt)) for salt in (11, 12)]
            assert all(t.view(seat) == state.view(seat) for t in twins)
            differing += sum(t.dump() != state.dump() for t in twins)
            mine = judge(state, seat, move, random.Random(index), 10, 5)
            for twin in twins:
                assert judge(twin, seat, move, random.Random(index), 10, 5) == mine
            checked += 1
            if checked >= 6 * (seed + 1):
                break
    assert checked >= 10
    assert differing >= checked  # the twins really hid something different


def test_costliest_moves_are_each_players_largest_losses() -> None:
    def j(ply: int, seat: int, before: float, after: float, *, forced: bool = False) -> Judgement:
        return Judgement(ply, seat, f"m{ply}", "best" if before != after else f"m{ply}", before, after, forced)

    analysis = Analysis(
        "focus",
        (
            j(0, 0, 0.6, 0.55),
            j(1, 1, 0.5, 0.1),
            j(2, 0, 0.9, 0.2),
            j(3, 1, 0.7, 0.6),
            j(4, 0, 0.8, 0.1, forced=True),
            j(5, 0, 0.5, 0.4),
            j(6, 0, 0.6, 0.5),
            j(7, 0, 0.7, 0.6),
        ),
    )
    assert [c.ply for c in analysis.costliest(0)] == [2, 5, 6]  # forced 4 never; ties by ply
    assert [c.ply for c in analysis.costliest(1)] == [1, 3]
    assert analysis.accuracy(0) == pytest.approx(100 * (1 - (0.05 + 0.7 + 0.1 + 0.1 + 0.1) / 5))
    assert [t.ply for t in analysis.turning_points()] == [1, 2, 3, 5, 6]
