"""Rows of the computer's analyses: one per finished match, its JSON as the analysis wrote it.

Why a table of its own and not a column of `matches`: an analysis is written long after
the match ended, by a request anyone may make, and must never touch the match's row (its
version guards every change of the match).  The store does not read the JSON.
"""

from __future__ import annotations

import json
from typing import Any

from bot.store.core import Store


class AnalysisStore:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def get(self, match_id: int) -> dict[str, Any] | None:
        row = await self.store.fetch_one("SELECT result FROM analyses WHERE match_id = ?", (match_id,))
        return json.loads(row[0]) if row else None

    async def put(self, match_id: int, result: dict[str, Any], at: float) -> None:
        """Keep the analysis of `match_id` (a second one of the same match replaces it)."""
        async with self.store.transaction() as tx:
            await tx.execute(
                "INSERT INTO analyses (match_id, result, created_at) VALUES (?, ?, ?) ON CONFLICT (match_id) "
                "DO UPDATE SET result = excluded.result, created_at = excluded.created_at",
                (match_id, json.dumps(result, separators=(",", ":")), at),
            )
