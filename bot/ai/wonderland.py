"""Wonderland for the search: random games run to the 200-turn limit, so rollouts stop
after a few plies and a position is valued the way the rules decide a game (ruling 14):
the Images' life first, then how many beings each side has summoned, and only then what
is in play now (beings' remaining strength and level, and how close they stand to the
enemy Image, since that is where life is lost).

As the turn limit nears, what is still to come matters less: the same lead in life or
in summons is worth more at turn 190 than at turn 20, so the evaluation sharpens (its
scale shrinks) with the turns left.  A side that has no being in play and cannot summon
loses (ruling 13), and the evaluation says so.

A turn may list thousands of summons (every path layout); the tree branches on every
other move but on a few summons spread over the list, which keeps the search from
spending its whole budget trying summons that differ by one domino.  Rollouts attack
when they can, since a random player mostly would not.
"""

from __future__ import annotations

import random
from typing import cast

from bot.ai.guide import Guide, squash
from bot.games.base import GameState
from bot.games.wonderland import WonderlandState
from bot.games.wonderland.state import POOL, TURN_LIMIT

SUMMONS_IN_TREE = 8

LIFE = 6.0
"""Worth of one point of Image life: it decides the game first (ruling 14)."""
SUMMON = 2.0
"""Worth of one being summoned: the tie-break after life, so it outweighs anything in play."""
STRENGTH = 0.25
LEVEL = 0.3
THREAT = 0.6
"""Worth of a being standing next to the enemy Image (less the farther away it is)."""
REACH = 6
"""Beyond this many squares from the enemy Image a being adds no threat."""


class WonderlandGuide(Guide):
    rollout_depth = 6

    def tree_moves(self, state: GameState, seat: int) -> list[str]:
        moves = state.legal_moves(seat)
        summons = [m for m in moves if m.startswith("summon ")]
        if len(summons) <= SUMMONS_IN_TREE:
            return moves
        step = len(summons) / SUMMONS_IN_TREE
        spread = [summons[int(i * step)] for i in range(SUMMONS_IN_TREE)]
        return [m for m in moves if not m.startswith("summon ")] + spread

    def rollout_move(self, state: GameState, seat: int, rng: random.Random) -> str:
        moves = state.legal_moves(seat)
        attacks = [m for m in moves if m.startswith("attack ")]
        if attacks and rng.random() < 0.8:
            return rng.choice(attacks)
        return rng.choice(moves)

    def evaluate(self, state: GameState) -> float:
        return squash(advantage(cast(WonderlandState, state)), scale(cast(WonderlandState, state)))


def advantage(state: WonderlandState) -> float:
    """Seat 0's lead, in the order ruling 14 decides a game: life, summons, then material."""
    lead = LIFE * (state.lives[0] - state.lives[1])
    lead += SUMMON * (len(state.summoned[0]) - len(state.summoned[1]))
    board = state.board
    in_play = [False, False]
    for being in state.beings:
        in_play[being.owner] = True
        enemy_image = board.images[1 - being.owner]
        closeness = max(0, REACH - board.distance(being.square, enemy_image)) / (REACH - 1)
        worth = STRENGTH * max(0, being.strength) + LEVEL * (being.info.level + 1) + THREAT * closeness
        lead += worth if being.owner == 0 else -worth
    if state.phase != POOL:
        for seat in (0, 1):
            if not in_play[seat] and not state.can_summon(seat):
                lead += -4 * LIFE if seat == 0 else 4 * LIFE  # ruling 13: it loses this turn
    return lead


def scale(state: WonderlandState) -> float:
    """How much lead makes a sure thing: large early (much can change), small near the limit."""
    left = max(0, TURN_LIMIT - state.turn_no) / TURN_LIMIT
    return 1.5 + 4.5 * left
