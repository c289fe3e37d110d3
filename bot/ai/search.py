"""Monte Carlo tree search over the game contract, for every game alike.

One algorithm covers the five games: single-observer information-set MCTS (Cowling,
Powley and Whitehouse 2012) with explicit chance nodes.

* Every iteration starts from a fresh `determinize(seat, rng)` of the root: a full state
  consistent with what the computer's seat may see.  For perfect-information games that
  is the state itself and the search is plain MCTS; for Domino Wars and Wonderland the
  tree collects statistics over many guesses of the opponent's secrets, so nothing the
  seat cannot see ever steers the choice.
* A node's children are keyed by move text.  Because a move legal in one determinization
  may be missing in another, selection counts how often each child was *available*
  (UCB with availability counts, the ISMCTS rule) and only considers moves legal now.
* Where the CHANCE seat acts, the node is a chance node: the outcome is drawn with
  `sample_chance` (so outcomes come with their real probabilities) and each distinct
  outcome gets its own child; no selection happens there.
* Simultaneous turns (`turn` = {0, 1}, e.g. a secret draft) are searched as if the
  computer's seat moved first; since the opponent's secret is redrawn every iteration,
  the opponent's choice below carries no knowledge of ours that matters.
* A guide may plan the turn itself (`Guide.root_moves`): a single move it returns is
  played without searching.  Domineering does that at `normal` and `hard`, where an exact
  look through the opponent's draw and reply beat every search on top of it (see
  `bot.ai.domineering`).  Budgets with `guided=False` (the easy level) ask for moves without
  the guide's plan.
* Leaves are valued by a rollout cut at the guide's depth and then by the guide's
  evaluation (`bot.ai.guides`), so games whose random playouts hardly end still give a
  signal.  Values are seat 0's expected score in [0, 1]; a draw is 0.5.

Pure: standard library only, no I/O; the budget is iterations and/or seconds of CPU
time (`Budget`), with an optional wall-clock cap for a match clock's share.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.ai.guide import Guide
from bot.ai.guides import guide_for
from bot.games.base import CHANCE, GameState

EXPLORATION = 0.7
"""UCB exploration constant for values in [0, 1] (tuned lightly on the bench)."""


@dataclass(frozen=True, slots=True)
class Budget:
    """How long to think: stop at whichever limit comes first (None: no such limit).

    `seconds` is CPU time of the thinking thread (`time.thread_time`), not wall time: on a
    loaded machine a wall-clock cap ended searches early (217 of 400 iterations in Focus
    at load 4), so the computer played weaker exactly when the bot was busiest.  CPU time
    gives the same strength however busy the machine is.  `wall` is the one wall-clock
    cap, for a match clock's share: a player's clock runs in wall time."""

    iterations: int | None
    seconds: float | None
    guided: bool = True
    """Whether a guide may plan the turn with its costlier judgement (`Guide.root_moves`)."""
    wall: float | None = None

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None and self.wall is None:
            raise ValueError("a budget needs an iteration or a time limit")

    def stopwatch(self) -> Stopwatch:
        """A stopwatch started now for this budget's time limits."""
        return Stopwatch(self.seconds, self.wall)


class Stopwatch:
    """Whether a budget's time is up: CPU seconds of this thread, and wall seconds."""

    def __init__(self, cpu: float | None, wall: float | None) -> None:
        self._cpu_end = None if cpu is None else time.thread_time() + cpu
        self._wall_end = None if wall is None else time.perf_counter() + wall

    def expired(self, needed: float = 0.0) -> bool:
        """The time is up, or would be after `needed` more seconds (a plan about to start a
        step that took that long asks so, and stops within the budget)."""
        if self._cpu_end is not None and time.thread_time() + needed >= self._cpu_end:
            return True
        return self._wall_end is not None and time.perf_counter() + needed >= self._wall_end


@dataclass(slots=True)
class Node:
    """A tree node: statistics of the move that led here, from its mover's side."""

    mover: int
    visits: int = 0
    value: float = 0.0
    available: int = 0
    children: dict[str, Node] = field(default_factory=dict)


def outcome_value(state: GameState) -> float:
    """Seat 0's score of a finished game: 1 win, 0 loss, 0.5 draw."""
    outcome = state.outcome
    assert outcome is not None
    if not outcome.winners or len(outcome.winners) > 1:
        return 0.5
    return 1.0 if 0 in outcome.winners else 0.0


def acting_seat(state: GameState, seat: int) -> int:
    """Who moves next in the tree: CHANCE, else `seat` when it is among those due."""
    turn = state.turn
    if CHANCE in turn:
        return CHANCE
    return seat if seat in turn else min(turn)


def choose_move(state: GameState, seat: int, budget: Budget, rng: random.Random) -> str:
    """The move `seat` should play in `state` (which must be its turn).

    Only `state.determinize(seat, rng)` is searched, never `state` itself, so the
    choice depends on `view(seat)` and `rng` alone.  A guide's plan of the turn runs
    within the same budget (`Guide.root_moves` is given the stopwatch).
    """
    moves = state.legal_moves(seat)
    if not moves:
        raise ValueError(f"seat {seat} has no move to choose")
    if len(moves) == 1:
        return moves[0]
    watch = budget.stopwatch()
    guide = guide_for(state.rules.info.key)
    candidates = guide.root_moves(state, seat, guided=budget.guided, stop=watch.expired)
    if len(candidates) == 1:
        return candidates[0]  # the guide's plan decides here: nothing to search
    root = _search(state, seat, budget.iterations, watch.expired, rng, guide, candidates)
    legal = set(moves) & set(candidates)
    ranked = [(child.visits, child.value, move) for move, child in root.children.items() if move in legal]
    if not ranked:
        return rng.choice(moves)
    return max(ranked)[2]


def move_values(
    state: GameState, seat: int, candidates: list[str], iterations: int, rng: random.Random
) -> dict[str, tuple[int, float]]:
    """(visits, `seat`'s mean score) of each of `candidates` after `iterations` iterations
    of the search from `seat`'s information: what the analysis of a game reads.  Only
    `determinize(seat, rng)` is searched, as in `choose_move`."""
    guide = guide_for(state.rules.info.key)
    root = _search(state, seat, iterations, lambda: False, rng, guide, candidates)
    return {
        move: (child.visits, child.value / child.visits)
        for move, child in root.children.items()
        if move in candidates and child.visits
    }


def _search(
    state: GameState,
    seat: int,
    iterations: int | None,
    expired: Callable[[], bool],
    rng: random.Random,
    guide: Guide,
    candidates: list[str],
) -> Node:
    """The root after iterating until `iterations` are done or `expired()` (at least one)."""
    root = Node(mover=CHANCE)
    done = 0
    while iterations is None or done < iterations:
        if done and expired():
            break
        _iterate(root, state.determinize(seat, rng), seat, guide, rng, candidates)
        done += 1
    return root


def _iterate(root: Node, state: GameState, seat: int, guide: Guide, rng: random.Random, candidates: list[str]) -> None:
    """One iteration: select and expand through the tree, roll out, back up.  At the root
    the computer chooses among `candidates` (its legal moves there, maybe pruned)."""
    path = [root]
    node = root
    expanded = False
    while state.outcome is None and not expanded:
        actor = acting_seat(state, seat)
        if actor == CHANCE:
            move = state.sample_chance(rng)
            child = node.children.get(move)
            if child is None:
                child = node.children[move] = Node(mover=CHANCE)
                expanded = True
        else:
            moves = candidates if node is root and actor == seat else guide.tree_moves(state, actor)
            untried = [m for m in moves if m not in node.children]
            for m in moves:
                known = node.children.get(m)
                if known is not None:
                    known.available += 1
            if untried:
                move = rng.choice(untried)
                child = node.children[move] = Node(mover=actor, available=1)
                expanded = True
            else:
                move, child = _select(node, moves)
        state = state.play(actor, move)
        node = child
        path.append(node)
    value = _rollout(state, seat, guide, rng)
    for visited in path:
        visited.visits += 1
        if visited.mover == 0:
            visited.value += value
        elif visited.mover == 1:
            visited.value += 1.0 - value


def _select(node: Node, moves: list[str]) -> tuple[str, Node]:
    """The available child with the best upper confidence bound."""
    best_move = moves[0]
    best_child = node.children[best_move]
    best_score = -math.inf
    for move in moves:
        child = node.children[move]
        score = child.value / child.visits + EXPLORATION * math.sqrt(math.log(child.available) / child.visits)
        if score > best_score:
            best_move, best_child, best_score = move, child, score
    return best_move, best_child


def _rollout(state: GameState, seat: int, guide: Guide, rng: random.Random) -> float:
    """Play on with the guide's policy for at most its depth, then value the position."""
    for _ in range(guide.rollout_depth):
        if state.outcome is not None:
            return outcome_value(state)
        actor = acting_seat(state, seat)
        if actor == CHANCE:
            state = state.play(CHANCE, state.sample_chance(rng))
        else:
            state = state.play(actor, guide.rollout_move(state, actor, rng))
    if state.outcome is not None:
        return outcome_value(state)
    return guide.evaluate(state)
