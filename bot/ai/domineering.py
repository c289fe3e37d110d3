"""Domineering for the computer: a player loses when the tile drawn for it cannot move
both its pieces, so a position is valued by how many of the tiles still in the pool each
side could play.

At `normal` and `hard` the guide plans the whole turn (`DomineeringGuide.root_moves`):
after a move of ours the opponent draws.  Each tile it cannot play wins at once; for each
tile it can, every placement it has is tried and valued by the share of the remaining
tiles *we* could then still play, half by its worst placement for us (a careful opponent)
and half by the average (a careless one) (`reply_value`).  That weighs a trap for the
opponent against our own safety, over the dozen moves that leave the best one-ply shares.

Why no tree search on top: the game is mostly the luck of the draw, and the look is exact
where a search samples.  On the bench (`python -m bench.ai`) the look alone beat easy in
71 % of 600 games, while a 2,000-iteration search that started from it won 64 % of 400;
against a random player both won 91 %, and five times the search budget changed nothing.
The easy level searches a random handful of its moves briefly.  Random rollouts are a poor
guide here (a random player walls itself in), so its search looks two plies ahead and then
asks `evaluate`: the two sides' shares.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import cast

from bot.ai.guide import Guide, never, squash
from bot.games.base import GameState
from bot.games.domineering import MAX_STEP, RAYS, STEPS, DomineeringState
from bot.games.dominoes import Tile

ROOT_CANDIDATES = 12
"""How many moves `normal` weighs: those that leave the best one-ply shares."""
EASY_SEES = 8
"""How many of its moves, at random, the easy level sees (`DomineeringGuide.root_moves`)."""
SURVIVAL_WORTH = 0.8
"""What surviving our next draw is worth in `reply_value`, against 1 for the opponent
failing its draw now (the game goes on after we survive, so less than a win)."""
CAREFUL = 0.5
"""Weight of the opponent's worst placement for us against the average of all of them."""


def _distances(number: int) -> range:
    return range(1, MAX_STEP + 1) if number == 0 else range(number, number + 1)


def _moves_to(square: int, distances: range, occupied: int) -> list[int]:
    """Where a piece on `square` can go with one of `distances`."""
    found = []
    for steps in STEPS[square]:
        for distance in distances:
            dest, mask = steps[distance - 1]
            if occupied & mask:
                break
            found.append(dest)
    return found


def can_play(pieces: tuple[int, ...], occupied: int, low: int, high: int) -> bool:
    """Whether two different pieces can move `low` and `high` (either way round), the
    first one's square staying walled (rule 7): the rules' test, stopped at the first way."""
    assignments = {(low, high), (high, low)}
    for first in pieces:
        for second in pieces:
            if first == second:
                continue
            for a, b in assignments:
                for to1 in _moves_to(first, _distances(a), occupied):
                    if _moves_to(second, _distances(b), occupied | (1 << to1)):
                        return True
    return False


def placements(pieces: tuple[int, ...], occupied: int, low: int, high: int) -> set[tuple[int, int, int, int]]:
    """Every (first from, first to, second from, second to) a player with `pieces` has
    with tile `low-high`: two different pieces, either number first, the first one's
    square walled before the second moves (rules 5-7)."""
    found = set()
    for first in pieces:
        for second in pieces:
            if first == second:
                continue
            for a, b in {(low, high), (high, low)}:
                for to1 in _moves_to(first, _distances(a), occupied):
                    for to2 in _moves_to(second, _distances(b), occupied | (1 << to1)):
                        found.add((first, to1, second, to2))
    return found


def _reach(pieces: tuple[int, ...]) -> int:
    """Every square a move of `pieces` could pass or land on: only these matter to them."""
    mask = 0
    for square in pieces:
        mask |= 1 << square
        for ray in RAYS[square]:
            for on in ray:
                mask |= 1 << on
    return mask


def share_of(pieces: tuple[int, ...], occupied: int, tiles: list[Tile]) -> float:
    """The share of `tiles` with which `pieces` could move two pieces (1 when none left)."""
    if not tiles:
        return 1.0
    return sum(can_play(pieces, occupied, t.low, t.high) for t in tiles) / len(tiles)


def reply_value(after: DomineeringState, me: int) -> float:
    """`me`'s prospects after its move, looking through the opponent's draw and reply.

    Exact over the pool: a tile the opponent cannot play is worth 1; for one it can, each
    of its placements leaves a board on which we then draw from the rest, worth
    SURVIVAL_WORTH times the share of that rest we could play; those are combined by
    CAREFUL (worst placement for us) and the average.  An empty pool after our move is a
    draw (rule 9).  With `unplayable=keep` a failed draw is a kept tile rather than a
    loss, which this still counts in the right direction.
    """
    outcome = after.outcome
    if outcome is not None:
        return 0.5 if len(outcome.winners) != 1 else float(me in outcome.winners)
    occupied = after.occupied()
    pool = sorted(after.pool)
    mine, theirs = after.pieces[me], after.pieces[1 - me]
    matters = _reach(mine)
    known: dict[tuple[int, Tile], float] = {}
    total = 0.0
    for tile in pool:
        replies = placements(theirs, occupied, tile.low, tile.high)
        if not replies:
            total += 1.0
            continue
        rest = [t for t in pool if t != tile]
        values = []
        for _first, to1, second, to2 in replies:
            board = (occupied | (1 << to1) | (1 << to2)) & ~(1 << second)
            key = (board & matters, tile)
            value = known.get(key)
            if value is None:
                value = known[key] = SURVIVAL_WORTH * share_of(mine, board, rest) if rest else 0.5
            values.append(value)
        total += CAREFUL * min(values) + (1 - CAREFUL) * sum(values) / len(values)
    return total / len(pool)


def playable_share(state: DomineeringState, seat: int) -> float:
    """The share of pool tiles with which `seat` could move two pieces now."""
    pool = state.pool
    if not pool:
        return 1.0
    occupied = state.occupied()
    pieces = state.pieces[seat]
    return sum(can_play(pieces, occupied, t.low, t.high) for t in pool) / len(pool)


class DomineeringGuide(Guide):
    rollout_depth = 2

    def root_moves(
        self, state: GameState, seat: int, *, guided: bool = True, stop: Callable[[float], bool] = never
    ) -> list[str]:
        """With `guided` (normal and hard alike): the move of the `shortlist` with the best
        `reply_value`, looked at best one-ply share first while `stop` says the next look fits
        in the budget (with four pieces the whole look took 2.1 s median, 3.5 s at most, beyond both
        the level's time cap and a clock's share; the first candidate is always weighed).
        Hard plays as normal here: weighing every legal move instead (6 to
        9 s a move with four pieces) won no more games, nor did five times the search.

        Unguided (easy): a random handful of the moves (EASY_SEES), for its short search
        to choose from, like a newcomer who overlooks most of the hundreds a turn offers.
        Why: searching the shortlist made easy nearly as strong as normal (84 % against a
        random player, and the exact look beat it in only 70 % of 1,000 games), no
        opponent for someone learning the game; a handful keeps it sensible (80 % against
        a random player) and beatable.  Drawn from the position's ply, so a position
        always gets the same handful."""
        domineering = cast(DomineeringState, state)  # all public: nothing to determinize
        moves = domineering.legal_moves(seat)
        if len(moves) <= 1:
            return moves
        if not guided:
            return moves if len(moves) <= EASY_SEES else random.Random(domineering.ply).sample(moves, EASY_SEES)
        best, best_value, longest = "", -1.0, 0.0
        for move in self.shortlist(domineering, seat):
            if best and stop(longest):  # the next look, as long as the longest so far, would overrun
                break
            started = time.thread_time()
            value = reply_value(domineering.play(seat, move), seat)
            longest = max(longest, time.thread_time() - started)
            if value > best_value:
                best, best_value = move, value
        return [best]

    def analysis_moves(self, state: GameState, seat: int) -> list[str]:
        """The shortlist (the rest of the hundreds of moves leave worse one-ply shares) and
        every move after which the opponent can play no tile of the pool: a win at once
        that the one-ply shares may rank low, since the share counts our tiles too."""
        domineering = cast(DomineeringState, state)
        moves = self.shortlist(domineering, seat)
        for move in domineering.legal_moves(seat):
            after = domineering.play(seat, move)
            if move not in moves and after.outcome is None and after.pool and playable_share(after, 1 - seat) == 0.0:
                moves.append(move)
        return moves

    def shortlist(self, state: DomineeringState, seat: int) -> list[str]:
        """The ROOT_CANDIDATES moves that leave the best one-ply shares: a cheap narrowing
        that loses nothing on the bench (the look over every move won no more games)."""
        moves = state.legal_moves(seat)
        if len(moves) <= ROOT_CANDIDATES:
            return moves
        sign = 1.0 if seat == 0 else -1.0

        def score(move: str) -> float:
            return sign * self.evaluate(state.play(seat, move))

        return sorted(moves, key=score, reverse=True)[:ROOT_CANDIDATES]

    def evaluate(self, state: GameState) -> float:
        domineering = cast(DomineeringState, state)
        return squash(playable_share(domineering, 0) - playable_share(domineering, 1), 0.08)
