"""Movement along path squares: step costs, the Rook's zone, routes (rule 8).

Pure functions over a board, the set of path squares and the beings in play, so the
state only decides *whether* a being may move now and applies the result.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Collection, Mapping
from dataclasses import dataclass

from bot.games.base import IllegalMove
from bot.games.wonderland.beings import Being
from bot.games.wonderland.board import Board
from bot.i18n import tr


@dataclass(frozen=True, slots=True)
class Route:
    """A checked route: where it goes, what it costs, and how it ends."""

    squares: tuple[int, ...]
    points: int
    factors: int
    credit: int
    """Move points the being keeps afterwards."""
    halted: bool
    removed: bool
    """Halted by a Rook on a friendly being's square: the mover leaves play (rule 8)."""


def enemy_rooks(beings: Collection[Being], seat: int) -> tuple[int, ...]:
    return tuple(b.square for b in beings if b.owner != seat and b.info.is_rook)


def step_points(board: Board, mover: Being, target: int, rooks: Collection[int]) -> tuple[int, bool]:
    """(points to enter `target`, whether the mover must stop there)."""
    points = 1 + mover.slow
    halts = False
    for rook in rooks:
        if target in board.around[rook]:
            if rook in mover.rook_start:
                points += 1
            else:
                halts = True
    return points, halts


def factors_needed(mover: Being, points: int) -> int:
    missing = points - mover.credit
    if missing <= 0:
        return 0
    per_factor = 1 + mover.speed
    return -(-missing // per_factor)


def _finish(mover: Being, squares: tuple[int, ...], points: int, halted: bool, removed: bool) -> Route:
    paid = factors_needed(mover, points)
    credit = mover.credit + paid * (1 + mover.speed) - points
    return Route(squares, points, paid, credit, halted, removed)


def reachable(
    board: Board,
    walkable: Collection[int],
    occupants: Mapping[int, Being],
    mover: Being,
    move_factors: int,
) -> dict[int, Route]:
    """The cheapest route to every square the mover can end on with the factors it has."""
    budget = mover.credit + move_factors * (1 + mover.speed)
    rooks = enemy_rooks(occupants.values(), mover.owner)
    best: dict[int, int] = {mover.square: 0}
    heap: list[tuple[int, tuple[int, ...]]] = [(0, (mover.square,))]
    found: dict[int, Route] = {}
    while heap:
        cost, squares = heapq.heappop(heap)
        here = squares[-1]
        if cost > best.get(here, cost):
            continue
        for target in board.orthogonal[here]:
            if target not in walkable:
                continue
            other = occupants.get(target)
            if other is not None and other.owner != mover.owner:
                continue
            points, halts = step_points(board, mover, target, rooks)
            total = cost + points
            if total > budget or total >= best.get(target, total + 1):
                continue
            best[target] = total
            route = (*squares, target)
            if other is None or halts:
                found[target] = _finish(mover, route, total, halts, other is not None)
            else:
                found.pop(target, None)
            if not halts:
                heapq.heappush(heap, (total, route))
    return found


def check_route(
    board: Board,
    walkable: Collection[int],
    occupants: Mapping[int, Being],
    mover: Being,
    move_factors: int,
    squares: tuple[int, ...],
) -> Route:
    """The `Route` of a typed route; raises IllegalMove with the first problem."""
    names = board.names
    if squares[0] != mover.square:
        raise IllegalMove(
            tr("{card} stands on {names}, so its route must start there.", card=mover.card, names=names[mover.square])
        )
    if len(squares) < 2:
        raise IllegalMove(tr("A move names at least two squares, like `move 5D c2-c3`."))
    if mover.halted:
        raise IllegalMove(tr("{card} entered a Rook's zone and may not move again this turn.", card=mover.card))
    rooks = enemy_rooks(occupants.values(), mover.owner)
    points = 0
    halted = False
    for here, target in itertools.pairwise(squares):
        if halted:
            raise IllegalMove(
                tr("{card} must stop on {names}: it entered an enemy Rook's zone.", card=mover.card, names=names[here])
            )
        if target not in board.orthogonal[here]:
            raise IllegalMove(
                tr(
                    "{names} to {names2} is not a step to an orthogonally adjacent square.",
                    names=names[here],
                    names2=names[target],
                )
            )
        if target not in walkable:
            raise IllegalMove(tr("{names} is not a path square; beings move only along paths.", names=names[target]))
        other = occupants.get(target)
        if other is not None and other.owner != mover.owner:
            raise IllegalMove(tr("{names} holds an enemy being; a being may not enter it.", names=names[target]))
        step, halted = step_points(board, mover, target, rooks)
        points += step
    end = squares[-1]
    friend = occupants.get(end)
    if friend is not None and not halted:
        raise IllegalMove(
            tr(
                "{card} may pass {card2} on {names} but not stop there.",
                card=mover.card,
                card2=friend.card,
                names=names[end],
            )
        )
    route = _finish(mover, squares, points, halted, friend is not None)
    if route.factors > move_factors:
        raise IllegalMove(
            tr(
                "That route needs {factors} Move factors; you have {move_factors}.",
                factors=route.factors,
                move_factors=move_factors,
            )
        )
    return route
