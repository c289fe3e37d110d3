"""Swiss pairing: score groups, no rematch while one can be avoided, at most one bye each.

Representation: the caller ranks the active players (score, then seed) and gives their
scores, their past opponents and who already had a bye; `pair_round` returns the pairs
(higher-ranked player first) and the bye, if any.

Algorithm: a depth-first search that always pairs the highest-ranked unpaired player,
trying opponents in the Dutch system's order of preference — inside the player's score
group the top half meets the bottom half (S1 against S2), then the rest of the group,
then the next-lower players (floaters) in rank order.  A cheap forward check prunes a
branch as soon as some unpaired player has no possible opponent left.  The search finds
a rematch-free pairing whenever one exists, within a node budget (`SEARCH_BUDGET`);
only when none exists (or the budget runs out, which takes a contrived event) does it
pair again allowing rematches, preferring fresh opponents so rematches stay few.

Bye (odd number of players): FIDE's rule — the lowest-ranked player who has not had a
bye and whose bye still lets everyone else be paired without a rematch; once everybody
has had a bye, the lowest-ranked player gets a second one.  At 512 players in round 5
the search hardly backtracks; see `bench_swiss_pairing`.  Pure, standard library only.
"""

from __future__ import annotations

import sys
from collections.abc import Collection, Mapping, Sequence

SEARCH_BUDGET = 20_000
Pairs = list[tuple[int, int]]


class _BudgetSpent(Exception):
    """The search visited more nodes than allowed; the caller falls back."""


def pair_round(
    ranked: Sequence[int],
    scores: Mapping[int, float],
    opponents: Mapping[int, Collection[int]],
    had_bye: Collection[int],
) -> tuple[Pairs, int | None]:
    """Pair `ranked` (best first); returns (pairs, bye player or None)."""
    players = list(ranked)
    budget = [SEARCH_BUDGET]  # shared by every bye candidate, so an odd field costs no more
    if len(players) % 2 == 0:
        return _pair_all(players, scores, opponents, budget), None
    fresh = [p for p in reversed(players) if p not in had_bye] or list(reversed(players))
    for candidate in fresh:
        rest = [p for p in players if p != candidate]
        pairs = _search(rest, scores, opponents, allow_rematch=False, budget=budget)
        if pairs is not None:
            return pairs, candidate
    rest = [p for p in players if p != fresh[0]]
    return _pair_all(rest, scores, opponents, budget), fresh[0]


def _pair_all(
    players: list[int], scores: Mapping[int, float], opponents: Mapping[int, Collection[int]], budget: list[int]
) -> Pairs:
    pairs = _search(players, scores, opponents, allow_rematch=False, budget=budget)
    if pairs is None:  # allowing rematches, the first path of the search succeeds: no budget needed
        pairs = _search(players, scores, opponents, allow_rematch=True, budget=[len(players) + 1])
    assert pairs is not None, "with rematches allowed every even field can be paired"
    return pairs


def _search(
    players: list[int],
    scores: Mapping[int, float],
    opponents: Mapping[int, Collection[int]],
    *,
    allow_rematch: bool,
    budget: list[int],
) -> Pairs | None:
    """Depth-first pairing; None when no pairing exists (or the budget ran out)."""
    if budget[0] <= 0:
        return None
    played = {p: set(opponents.get(p, ())) & set(players) for p in players}
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, len(players) + 200))
    try:
        pairs = _extend(players, scores, played, allow_rematch, budget)
        return None if pairs is None else pairs[::-1]
    except _BudgetSpent:
        return None
    finally:
        sys.setrecursionlimit(limit)


def _extend(
    remaining: list[int],
    scores: Mapping[int, float],
    played: Mapping[int, set[int]],
    allow_rematch: bool,
    budget: list[int],
) -> Pairs | None:
    if not remaining:
        return []
    budget[0] -= 1
    if budget[0] < 0:
        raise _BudgetSpent
    top = remaining[0]
    for opponent in _preferences(remaining, scores, played[top], allow_rematch):
        rest = [p for p in remaining if p != top and p != opponent]
        if not allow_rematch and _someone_stuck(rest, played):
            continue
        found = _extend(rest, scores, played, allow_rematch, budget)
        if found is not None:
            found.append((top, opponent))
            return found
    return None


def _preferences(remaining: list[int], scores: Mapping[int, float], met: set[int], allow_rematch: bool) -> list[int]:
    """Opponents for remaining[0] in the order the Dutch system prefers them."""
    top_score = scores[remaining[0]]
    group_end = 1
    while group_end < len(remaining) and scores[remaining[group_end]] == top_score:
        group_end += 1
    half = group_end // 2
    order = remaining[max(half, 1) : group_end] + remaining[1:half][::-1] + remaining[group_end:]
    fresh = [p for p in order if p not in met]
    return fresh + [p for p in order if p in met] if allow_rematch else fresh


def _someone_stuck(rest: list[int], played: Mapping[int, set[int]]) -> bool:
    """True if some player in `rest` has met everyone else in `rest` (cheap: only the busy ones)."""
    room = len(rest) - 1
    if room < 0:
        return False
    members: set[int] | None = None
    for p in rest:
        if len(played[p]) >= room:
            members = members if members is not None else set(rest)
            if len(played[p] & members) >= room:
                return True
    return False
