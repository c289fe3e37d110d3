"""The live states of recently played matches, so a move need not load its snapshot again.

Bounded (least recently used first out), so memory stays flat however many matches are
stored.  An entry is keyed by the match's version: a state cached at an older version is never
returned, so a change committed by another process simply misses the cache.  Only
`MatchService.state_of` (after loading) and the one commit (after writing) put entries.
"""

from __future__ import annotations

from collections import OrderedDict

from bot.games import GameState


class StateCache:
    """match id -> (version, state, how many lines the log holds at that version, if known)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[int, tuple[int, GameState, int | None]] = OrderedDict()

    def get(self, match_id: int, version: int) -> GameState | None:
        item = self._items.get(match_id)
        if item is None or item[0] != version:
            return None
        self._items.move_to_end(match_id)
        return item[1]

    def plies(self, match_id: int, version: int) -> int | None:
        """How many moves the log holds at `version`, when known (saves a query per move)."""
        item = self._items.get(match_id)
        return item[2] if item is not None and item[0] == version else None

    def put(self, match_id: int, version: int, state: GameState, plies: int | None = None) -> None:
        self._items[match_id] = (version, state, plies)
        self._items.move_to_end(match_id)
        while len(self._items) > self.size:
            self._items.popitem(last=False)

    def drop(self, match_id: int) -> None:
        self._items.pop(match_id, None)

    def __contains__(self, match_id: object) -> bool:
        return match_id in self._items

    def __len__(self) -> int:
        return len(self._items)
