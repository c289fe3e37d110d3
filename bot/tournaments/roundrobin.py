"""Round-robin schedule by the circle method: every pair meets exactly once.

With an odd number of players a phantom (None) joins, and meeting it is a rest round
(one per player).  The first player stays put while the others rotate one place per round,
which gives n-1 rounds for even n and n rounds for odd n.  Pure, standard library only.
"""

from __future__ import annotations

from collections.abc import Sequence


def circle_schedule(players: Sequence[int]) -> list[list[tuple[int | None, int | None]]]:
    """Rounds of pairs; a pair holding None is that player's rest round."""
    ring: list[int | None] = list(players)
    if len(ring) % 2:
        ring.append(None)
    half = len(ring) // 2
    rounds: list[list[tuple[int | None, int | None]]] = []
    for _ in range(len(ring) - 1):
        rounds.append([(ring[i], ring[-1 - i]) for i in range(half)])
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds
