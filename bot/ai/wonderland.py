"""Wonderland for the search: a game plan, a position score, and a greedy turn.

How games are decided (measured on random games): random players never reach the other
Image, so nearly every game runs to the 200-turn limit, where more Image life wins and
then more beings summoned (ruling 14).  A random player summons 4 to 12 beings, so
summoning as often as the rules allow only ties a lucky one; taking one life point from
its Image wins.  The plan therefore has two halves:

* **Summon as often as possible.**  A level's last card can never be summoned (two S
  faces of one level are needed), so a pool of three levels allows at most 12 summons.
  `POOL_PLAN` takes all 5 kinds of level 1 and all 8 of level 2 (the levels whose dice
  summon most often) and two 7s of level 3.  The dice are the three cards whose levels
  give the best chance of a summon (`summon_chance`, exact over the 6^n faces), the
  strongest cards of a level first, so the card left behind is the weakest.  Every die
  shows Attack and Move on one face each whatever its level, so three dice are always
  rolled.
* **Reach the enemy Image and hit it.**  Summons lay their path toward the enemy Image;
  beings walk toward it along any path squares (either player's); a being next to it
  attacks it every turn it can.

`score` values a position for one seat along these lines (life, then summons, then how
near its beings and paths are to the enemy Image, its material and its Attack and Move
factors); `advantage` is seat 0's score less seat 1's and `evaluate` squashes it to an
expected result for the search.  The action step is played greedily: each candidate move
(every attack and walk, `end`, and the summons whose paths reach farthest toward the
enemy Image) is played and the resulting position scored.  Pool picks, dice and defence
follow the plan directly.  All of this is computed on a determinization of the state
(`determinize(seat, ...)`), so it never uses what the seat's view lacks.

At `normal` and `hard` the plan settles every decision of the computer's own turn, so the
search only runs where the plan has no opinion: the opponent's abilities during the
computer's action step.  `easy` plays its action steps by a short search instead (the
tree, rollout and evaluation hooks below), which makes it the beatable opponent a learner
needs; its pool, dice and defence follow the plan.
"""

from __future__ import annotations

import itertools
import random
from collections import deque
from collections.abc import Callable, Iterable
from functools import cache
from typing import cast

from bot.ai.guide import Guide, never, squash
from bot.games.base import GameState, opponent
from bot.games.wonderland import WonderlandState
from bot.games.wonderland.board import format_path
from bot.games.wonderland.cards import CARDS, FACES_BY_LEVEL, FACTORS
from bot.games.wonderland.notation import format_dice, sort_cards
from bot.games.wonderland.state import ACTION, DEFENCE, DICE, POOL, TURN_LIMIT

POOL_PLAN = ("AH", "AS", "4H", "4S", "JS", "5H", "5S", "6H", "6S", "2H", "2S", "JH", "QS", "7H", "7S")
"""The pool deck, in picking order: levels 1 and 2 whole (13 kinds) and two 7s of level 3."""

SUMMONS_TRIED = 4
"""Summon candidates the greedy turn plays out: the paths that reach farthest forward."""

LIFE = 12.0
"""Worth of one point of Image life: it decides the game first (ruling 14)."""
SUMMON = 2.5
"""Worth of one being summoned: the tie-break after life."""
FRONT = 0.25
"""Worth of each square (Manhattan) a seat's paths reach nearer the enemy Image."""
THREAT = 0.2
"""Worth of each square of walking a being needs less to stand next to the enemy Image."""
THREAT_REACH = 30
"""Walking distances beyond this count as no threat at all."""
OFF_PATH = 6
"""Added to the straight distance of a being that no path connects to the enemy Image."""
STRENGTH = 0.2
ATTACK_FACTOR, ATTACK_KEPT = 0.35, 4
MOVE_FACTOR, MOVE_KEPT = 0.08, 24
DEFEND_FACTOR, DEFEND_KEPT = 0.05, 3
"""Factors in stock are worth a little, up to a useful amount; a Move factor is worth less
than a square walked, so walking forward pays."""
_A, _M, _D = FACTORS.index("A"), FACTORS.index("M"), FACTORS.index("D")


class WonderlandGuide(Guide):
    rollout_depth = 6

    def root_moves(
        self, state: GameState, seat: int, *, guided: bool = True, stop: Callable[[float], bool] = never
    ) -> list[str]:
        """The plan's move where the plan decides (pool, dice, defence, and with `guided`
        the greedy action step); elsewhere the moves the tree branches on, for the search.
        Computed on a determinization: no peeking.

        Why easy (`guided` False) searches its action steps instead: the greedy turn is
        most of the plan's strength, and without it easy is a beatable opponent for
        someone learning the game, while its pool and dice are still sensible."""
        assert isinstance(state, WonderlandState)
        chosen = plan_move(state.determinize(seat, random.Random(state.ply)), seat, greedy=guided)
        return [chosen] if chosen is not None else self.tree_moves(state, seat)

    def tree_moves(self, state: GameState, seat: int) -> list[str]:
        moves = state.legal_moves(seat)
        summons = [m for m in moves if m.startswith("summon ")]
        if len(summons) <= SUMMONS_TRIED:
            return moves
        step = len(summons) / SUMMONS_TRIED
        spread = [summons[int(i * step)] for i in range(SUMMONS_TRIED)]
        return [m for m in moves if not m.startswith("summon ")] + spread

    def rollout_move(self, state: GameState, seat: int, rng: random.Random) -> str:
        moves = state.legal_moves(seat)
        attacks = [m for m in moves if m.startswith("attack ")]
        if attacks and rng.random() < 0.8:
            return rng.choice(attacks)
        return rng.choice(moves)

    def evaluate(self, state: GameState) -> float:
        wonderland = cast(WonderlandState, state)
        return squash(advantage(wonderland), scale(wonderland))


# --- the plan ----------------------------------------------------------------------------


def plan_move(state: WonderlandState, seat: int, *, greedy: bool = True) -> str | None:
    """The move the plan makes for `seat` now, or None where it has no opinion (without
    `greedy`, none in its own action step)."""
    if state.phase == POOL:
        taken = set(state.pools[seat])
        return next((f"pick {card}" for card in POOL_PLAN if card not in taken), None)
    if state.phase == DICE and seat == state.active:
        return dice_move(state.pool_deck(seat))
    if state.phase == DEFENCE and seat == state.defender:
        defences = [m for m in state.legal_moves(seat) if m.startswith("defend ")]
        return defences[0] if defences else "done"
    if state.phase == ACTION and seat == state.active and greedy:
        return greedy_action(state, seat)
    return None


def card_worth(card: str) -> int:
    """How good a being a card makes: its Str, Atk and Def together."""
    info = CARDS[card]
    return info.strength + info.attack + info.defence


@cache
def summon_chance(levels: tuple[int, ...]) -> float:
    """Probability that dice of these levels show two or more S faces of one level (rule 4),
    counted exactly over all equally likely faces."""
    hits = 0
    outcomes = list(itertools.product(*(FACES_BY_LEVEL[level] for level in levels)))
    for faces in outcomes:
        per_level = [0] * 5
        for level, face in zip(levels, faces, strict=True):
            per_level[level] += face == "S"
        hits += max(per_level) >= 2
    return hits / len(outcomes)


def dice_move(deck: Iterable[str]) -> str:
    """Three dice (fewer if the deck is smaller) with the best chance of a summon; within a
    level the strongest cards, so that the one a level leaves behind is its weakest."""
    by_level: dict[int, list[str]] = {}
    for card in sorted(deck, key=lambda c: (-card_worth(c), c)):
        by_level.setdefault(CARDS[card].level, []).append(card)
    cards = [c for group in by_level.values() for c in group]
    best: tuple[float, int, tuple[str, ...]] | None = None
    for combo in itertools.combinations(cards, min(3, len(cards))):
        levels = tuple(CARDS[c].level for c in combo)
        # Ties: the strongest cards (those a summon would bring) and higher dice (more factors).
        key = (summon_chance(levels), sum(card_worth(c) for c in combo) + sum(levels))
        if best is None or key > best[:2]:
            best = (*key, combo)
    assert best is not None, "dice are only chosen from a non-empty pool deck"
    return format_dice(sort_cards(best[2]))


def greedy_action(state: WonderlandState, seat: int) -> str:
    """The action-step move whose result scores best for `seat` (`end` on ties)."""
    best_move, best_score = "end", score_for(state.play(seat, "end"), seat)
    for move in action_candidates(state, seat):
        value = score_for(state.play(seat, move), seat)
        if value > best_score + 1e-9:
            best_move, best_score = move, value
    return best_move


def action_candidates(state: WonderlandState, seat: int) -> list[str]:
    """Every attack and walk of the seat, and its most forward-reaching summons."""
    moves = [m for m in state.legal_moves(seat) if m.startswith(("attack ", "move "))]
    return moves + forward_summons(state, seat)


def forward_summons(state: WonderlandState, seat: int) -> list[str]:
    """Summons of the strongest summonable card along the paths that come nearest the
    enemy Image, the being on the new square nearest to it."""
    cards = state.summonable()
    if not cards:
        return []
    card = max(cards, key=lambda c: (card_worth(c), c))
    board = state.board
    target = board.images[opponent(seat)]

    def near(square: int) -> int:
        (f, r), (tf, tr) = board.coords(square), board.coords(target)
        return abs(f - tf) + abs(r - tr)

    # Every layout, not only those `legal_moves` lists: its capped listing runs from the
    # lowest squares up, so it would cut off the forward paths of seat 0 (a1's side).
    ranked = sorted(state.layouts(seat), key=lambda path: (min(map(near, path)), sum(map(near, path)), path))
    found = []
    for path in ranked[:SUMMONS_TRIED]:
        place = min(state.placements(seat, path), key=lambda s: (near(s), s))
        found.append(f"summon {card} {format_path(board, path)} @{board.names[place]}")
    return found


# --- the score ---------------------------------------------------------------------------


def walking_distances(state: WonderlandState, target_seat: int) -> dict[int, int]:
    """Steps along path squares from each square to one orthogonally next to
    `target_seat`'s Image (0 on such a square); the target's beings block the way."""
    walk = state.path_squares()
    board = state.board
    blocked = {b.square for b in state.beings if b.owner == target_seat}
    start = [s for s in board.orthogonal[board.images[target_seat]] if s in walk and s not in blocked]
    found = dict.fromkeys(start, 0)
    queue = deque(start)
    while queue:
        square = queue.popleft()
        for n in board.orthogonal[square]:
            if n in walk and n not in found and n not in blocked:
                found[n] = found[square] + 1
                queue.append(n)
    return found


def effective_lives(state: WonderlandState) -> tuple[int, int]:
    """Image life once this turn's pending attacks are reckoned (rule 11: -1 if hit)."""
    lives = list(state.lives)
    for seat in (0, 1):
        if any(a.target_card is None and a.target_owner == seat for a in state.attacks):
            lives[seat] = max(0, lives[seat] - 1)
    return lives[0], lives[1]


def score_for(state: WonderlandState, seat: int) -> float:
    """`seat`'s side of the position less its opponent's."""
    lead = advantage(state)
    return lead if seat == 0 else -lead


def advantage(state: WonderlandState) -> float:
    """Seat 0's score less seat 1's; a seat that can neither act nor summon is lost."""
    if state.outcome is not None:
        winners = state.outcome.winners
        return 0.0 if len(winners) != 1 else (100.0 if 0 in winners else -100.0)
    lives = effective_lives(state)
    lead = score(state, 0, lives) - score(state, 1, lives)
    if state.phase != POOL:
        for seat in (0, 1):
            if not any(b.owner == seat for b in state.beings) and not state.can_summon(seat):
                lead += -4 * LIFE if seat == 0 else 4 * LIFE  # ruling 13: it loses this turn
    return lead


def score(state: WonderlandState, seat: int, lives: tuple[int, int]) -> float:
    """What `seat` has: life, summons, reach toward the enemy Image, material, factors."""
    board = state.board
    enemy = opponent(seat)
    target = board.images[enemy]
    tf, tr = board.coords(target)
    value = LIFE * lives[seat] + SUMMON * len(state.summoned[seat])
    own = state.own_squares(seat)
    span = board.files + board.ranks
    if own:
        front = min(abs(f - tf) + abs(r - tr) for f, r in map(board.coords, own))
        value += FRONT * (span - front)
    distances = walking_distances(state, enemy)
    pending = {a.target_card: 0 for a in state.attacks if a.target_owner == seat}
    for a in state.attacks:
        if a.target_owner == seat and a.target_card is not None:
            pending[a.target_card] += a.points
    nearest = THREAT_REACH
    for being in state.beings:
        if being.owner != seat:
            continue
        value += STRENGTH * max(0, being.strength - pending.get(being.card, 0))
        walk = distances.get(being.square)
        if walk is None:
            f, r = board.coords(being.square)
            walk = abs(f - tf) + abs(r - tr) + OFF_PATH
        if not being.info.is_rook:
            nearest = min(nearest, walk)
    value += THREAT * (THREAT_REACH - nearest)
    factors = state.factors[seat]
    value += ATTACK_FACTOR * min(factors[_A], ATTACK_KEPT)
    value += MOVE_FACTOR * min(factors[_M], MOVE_KEPT)
    value += DEFEND_FACTOR * min(factors[_D], DEFEND_KEPT)
    return value


def scale(state: WonderlandState) -> float:
    """How much lead makes a sure thing: large early (much can change), small near the limit."""
    left = max(0, TURN_LIMIT - state.turn_no) / TURN_LIMIT
    return 3.0 + 9.0 * left
