"""Start stored matches and play them through the real MatchService (random legal moves)."""

from __future__ import annotations

import random

from bot.matches import MatchService
from tests.bot.conftest import ALICE, BOB, CHANNEL, GUILD


async def start_match(
    service: MatchService, game: str, *, channel: int = CHANNEL, seat_pref: str = "random", **options: str
) -> int:
    """Alice challenges Bob to `game` (with `options`) and Bob accepts; the match id."""
    row = await service.challenge(
        game=game,
        channel_id=channel,
        guild_id=GUILD,
        challenger_id=ALICE,
        opponent_id=BOB,
        options=options,
        seat_pref=seat_pref,
    )
    await service.accept(row.id, BOB)
    return row.id


async def play_randomly(service: MatchService, match_id: int, rng: random.Random, max_moves: int = 5000) -> None:
    """Random legal moves by whoever must act, until the match ends or `max_moves` were made."""
    for _ in range(max_moves):
        row = await service.get(match_id)
        if row.status != "active" or row.seats is None:
            return
        view = await service.view(match_id, None)
        seat = rng.choice([s for s in view["turn"] if s in (0, 1)])
        moves = await service.legal_moves(match_id, row.seats[seat])
        await service.play(match_id, row.seats[seat], rng.choice(moves))
