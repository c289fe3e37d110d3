"""The Wonderland computer's plan (`bot.ai.wonderland`): its odds and pool against the rule
text, its dice, its walking distances against a plain reference, its greedy turn, that it
uses only its seat's view, and that it beats a random player."""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections import deque
from collections.abc import Iterator
from typing import cast

import pytest

from bot.ai.search import Budget, choose_move
from bot.ai.wonderland import (
    POOL_PLAN,
    WonderlandGuide,
    dice_move,
    plan_move,
    summon_chance,
    walking_distances,
)
from bot.games import CHANCE, GAMES
from bot.games.base import opponent
from bot.games.wonderland import WonderlandState

# From the source's Level table, written out again here (not taken from the engine).
LEVEL_OF_KIND = {
    ("A", "red"): 1,
    ("A", "black"): 1,
    ("4", "red"): 1,
    ("4", "black"): 1,
    ("J", "black"): 1,
    ("2", "red"): 2,
    ("2", "black"): 2,
    ("5", "red"): 2,
    ("5", "black"): 2,
    ("6", "red"): 2,
    ("6", "black"): 2,
    ("J", "red"): 2,
    ("Q", "black"): 2,
    ("3", "red"): 3,
    ("3", "black"): 3,
    ("7", "red"): 3,
    ("7", "black"): 3,
    ("Q", "red"): 3,
    ("K", "black"): 3,
}
for _rank in ("8", "9", "10"):
    LEVEL_OF_KIND[(_rank, "red")] = LEVEL_OF_KIND[(_rank, "black")] = 4
LEVEL_OF_KIND[("K", "red")] = 4
S_FACES = {1: 4, 2: 3, 3: 2, 4: 1}
"""S faces of a die of each level, out of six (the source's face table)."""


def kind(card: str) -> tuple[str, str]:
    return card[:-1], "red" if card[-1] in "HD" else "black"


def reference_chance(levels: tuple[int, ...]) -> float:
    """P(two or more S of one level), from binomial counts per level (dice are independent)."""
    miss = 1.0
    for level in set(levels):
        n, p = levels.count(level), S_FACES[level] / 6
        miss *= sum(math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in (0, 1))
    return 1 - miss


@pytest.mark.parametrize(
    ("level", "three", "two"),
    [(1, 0.741, 0.444), (2, 0.50, 0.25), (3, 0.259, 0.111), (4, 0.074, 0.027)],
)
def test_summon_chance_matches_the_sources_table(level: int, three: float, two: float) -> None:
    # The table prints one decimal of a percent (2.7 % for 1/36 = 2.78 %): within 0.1 %.
    assert summon_chance((level,) * 3) == pytest.approx(three, abs=0.001)
    assert summon_chance((level,) * 2) == pytest.approx(two, abs=0.001)
    assert summon_chance((level,)) == 0.0


def test_summon_chance_of_mixed_dice_matches_a_binomial_reference() -> None:
    for levels in itertools.product((1, 2, 3, 4), repeat=3):
        assert summon_chance(levels) == pytest.approx(reference_chance(levels))


def test_the_pool_plan_is_a_legal_pool_that_allows_twelve_summons() -> None:
    kinds = [kind(c) for c in POOL_PLAN]
    assert len(POOL_PLAN) == 15 and len(set(kinds)) == 15  # no two of one rank and colour
    per_level = [sum(LEVEL_OF_KIND[k] == level for k in kinds) for level in (1, 2, 3, 4)]
    # A level's last card can never be summoned; 15 cards over 3 levels is the best there is.
    assert sum(n - 1 for n in per_level if n) == 12
    assert per_level[0] == 5 and per_level[1] == 8  # the two levels that summon most often


def test_the_computer_picks_the_plan_in_the_pool_phase() -> None:
    state = cast(WonderlandState, GAMES["wonderland"].start())
    for card in POOL_PLAN:
        assert plan_move(state, 0) == f"pick {card}"
        state = state.play(0, f"pick {card}")
    assert set(state.pools[0]) == set(POOL_PLAN)


def test_dice_give_the_best_summon_chance_and_keep_the_weakest_card_back() -> None:
    assert dice_move(POOL_PLAN) in ("dice 1:AH 1:4H 1:4S", "dice 1:AS 1:4H 1:4S")  # 74 %, black J kept
    # Two level-1 cards and three level-2: three level-2 dice (50 %) beat 2 + 1 (44 %).
    assert dice_move(("AH", "4S", "2H", "5S", "6H")) == "dice 2:2H 2:5S 2:6H"
    # Nothing left to summon: three dice anyway (every die gives Attack and Move).
    assert len(dice_move(("JS", "QS", "7H")).split()) == 4
    rng = random.Random(5)
    for _ in range(200):
        deck = rng.sample(POOL_PLAN, rng.randint(1, 15))
        chosen = [word.split(":")[1] for word in dice_move(deck).split()[1:]]
        assert len(chosen) == min(3, len(deck)) and set(chosen) <= set(deck)
        best = max(
            reference_chance(tuple(LEVEL_OF_KIND[kind(c)] for c in combo))
            for combo in itertools.combinations(deck, min(3, len(deck)))
        )
        assert reference_chance(tuple(LEVEL_OF_KIND[kind(c)] for c in chosen)) == pytest.approx(best)


def _plan_against_random(
    seed: int, plan_seat: int, options: dict[str, object] | None = None
) -> tuple[tuple[WonderlandState, str | None], ...]:
    """Positions of a game the plan plays against a random player, with the planned moves
    (the final position comes last, with None)."""
    return _planned_game(seed, plan_seat, tuple(sorted((options or {}).items())))


@functools.cache
def _planned_game(
    seed: int, plan_seat: int, options: tuple[tuple[str, object], ...]
) -> tuple[tuple[WonderlandState, str | None], ...]:
    """`_plan_against_random`, played once for given arguments: five tests read the same
    games, and none can change them (states are immutable)."""
    return tuple(_play_plan(seed, plan_seat, dict(options)))


def _play_plan(seed: int, plan_seat: int, options: dict[str, object]) -> Iterator[tuple[WonderlandState, str | None]]:
    rng = random.Random(seed)
    state = cast(WonderlandState, GAMES["wonderland"].start(options=options))
    while state.outcome is None:
        if CHANCE in state.turn:
            state = state.play(CHANCE, state.sample_chance(rng))
            continue
        seat = min(state.turn)
        if seat == plan_seat:
            move = choose_move(state, seat, Budget(iterations=1, seconds=None), rng)
            yield state, move
        else:
            move = rng.choice(state.legal_moves(seat))
        state = state.play(seat, move)
    yield state, None


@pytest.mark.parametrize("seed", range(6))
def test_the_plan_beats_a_random_player_with_legal_moves(seed: int) -> None:
    plan_seat = seed % 2
    last = None
    for state, move in _plan_against_random(seed, plan_seat):
        if move is not None:
            # Legal: listed, or a summon beyond the listing cap that typing it offers.
            assert move in state.legal_moves(plan_seat) or move in state.suggest_moves(plan_seat, move, 5)
        last = state
    assert last is not None and last.outcome is not None
    assert last.outcome.winners == frozenset((plan_seat,))


def test_it_attacks_the_enemy_image_whenever_it_can_and_has_not_yet_this_turn() -> None:
    seen = 0
    for seed in range(4):
        for state, move in _plan_against_random(seed, seed % 2):
            if move is None:
                continue
            hits = [m for m in state.legal_moves(seed % 2) if m.endswith(" image")]
            # One attack a turn takes the life point (rule 11): a second one would be waste;
            # and when ending the turn already wins, nothing more is needed.
            already = any(a["target"]["card"] is None for a in state.view(None)["pending_attacks"])
            if hits and state.phase == "action" and not already and state.play(seed % 2, "end").outcome is None:
                assert move.endswith(" image"), (seed, move)
                seen += 1
    assert seen >= 4


def reference_walk(state: WonderlandState, target_seat: int) -> dict[int, int]:
    """Rule 8 read plainly: orthogonal steps over path squares, never onto a square held by
    a being of the Image's owner; distance to any path square beside that Image."""
    board = state.board
    names = board.names
    walk = {names.index(sq) for path in state.view(None)["paths"] for dom in path["dominoes"] for sq in dom}
    enemy = {names.index(b["square"]) for b in state.view(None)["beings"] if b["owner"] == target_seat}
    files = board.files
    image = names.index(state.view(None)["images"][target_seat]["square"])

    def beside(a: int, b: int) -> bool:
        return abs(a % files - b % files) + abs(a // files - b // files) == 1

    found: dict[int, int] = {}
    queue: deque[int] = deque()
    for s in sorted(walk - enemy):
        if beside(s, image):
            found[s] = 0
            queue.append(s)
    while queue:
        s = queue.popleft()
        for n in sorted(walk - enemy):
            if n not in found and beside(s, n):
                found[n] = found[s] + 1
                queue.append(n)
    return found


def test_walking_distances_agree_with_a_plain_reference() -> None:
    checked = 0
    for seed in range(4):
        for ply, (state, _move) in enumerate(_plan_against_random(seed, seed % 2)):
            if ply % 4 or not state.paths:
                continue
            for seat in (0, 1):
                assert walking_distances(state, seat) == reference_walk(state, seat)
            checked += 1
    assert checked >= 10


@pytest.mark.parametrize("options", [{}, {"hidden_factors": "on"}])
def test_the_plan_never_uses_what_the_seats_view_lacks(options: dict[str, object]) -> None:
    """The plan of a state and of twins that differ only in the opponent's pool (and, with
    hidden factors, its factors and secret roll) is the same move."""
    guide = WonderlandGuide()
    checked = differing = 0
    for seed in range(3):
        plan_seat = seed % 2
        for ply, (state, move) in enumerate(_plan_against_random(seed, plan_seat, options)):
            if move is None or ply % 3:
                continue
            for salt in (1, 2):
                twin = state.determinize(plan_seat, random.Random(salt))
                assert twin.view(plan_seat) == state.view(plan_seat)
                differing += twin.dump() != state.dump()
                assert guide.root_moves(twin, plan_seat) == [move]
            checked += 1
    assert checked >= 30
    assert differing >= checked


def test_the_computer_keeps_to_its_own_turn_when_the_opponent_may_act() -> None:
    """The opponent may use abilities during the action step; the plan has no opinion
    there and leaves it to the search (every legal move stays a candidate)."""
    checked = 0
    for seed in range(4):
        for state, _move in _plan_against_random(seed, seed % 2):
            if state.phase == "action" and state.may_act:
                other = opponent(state.active)
                assert plan_move(state, other) is None
                assert WonderlandGuide().root_moves(state, other) == state.legal_moves(other)
                checked += 1
    assert checked >= 1


def test_easy_searches_its_action_steps_but_keeps_the_plans_pool_dice_and_defence() -> None:
    """The easy level (unguided) is meant to be beatable: its own action steps are searched
    among the tree's moves rather than played by the greedy turn; every other decision of
    the plan stays, so its pool deck and dice are still sensible."""
    guide = WonderlandGuide()
    searched = planned = 0
    for seed in range(3):
        for state, move in _plan_against_random(seed, seed % 2):
            seat = seed % 2
            if move is None or seat not in state.turn:
                continue
            easy = guide.root_moves(state, seat, guided=False)
            if state.phase == "action":
                assert easy == guide.tree_moves(state, seat) and set(easy) <= set(state.legal_moves(seat))
                searched += len(easy) > 1
            else:
                assert easy == guide.root_moves(state, seat) == [move]
                planned += 1
    assert searched and planned
