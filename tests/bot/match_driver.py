"""Start stored matches and play them through the real MatchService (random legal moves)."""

from __future__ import annotations

import random

from bot.services.matches import MatchService
from bot.store import Store
from tests.bot.conftest import ALICE, BOB, CHANNEL, GUILD


async def start_match(
    service: MatchService,
    game: str,
    *,
    channel: int = CHANNEL,
    seat_pref: str = "random",
    clock: str | None = None,
    challenger: int = ALICE,
    opponent: int = BOB,
    **options: str,
) -> int:
    """`challenger` (Alice) challenges `opponent` (Bob) to `game` (with `options` and
    `clock`) and the opponent accepts; the match id."""
    row = await service.challenge(
        game=game,
        channel_id=channel,
        guild_id=GUILD,
        challenger_id=challenger,
        opponent_id=opponent,
        options=options,
        seat_pref=seat_pref,
        clock=clock,
    )
    await service.accept(row.id, opponent)
    return row.id


async def stored_challenge(
    store: Store,
    *,
    channel: int = CHANNEL,
    guild: int | None = 1,
    game: str = "focus",
    challenger: int = ALICE,
    opponent: int = BOB,
) -> int:
    """A challenge written straight to the store, first seat to the challenger; its id.

    For store-level tests, which need a match row without the service's rules and seeds."""
    row = await store.create_challenge(
        game=game,
        options={},
        guild_id=guild,
        channel_id=channel,
        challenger_id=challenger,
        opponent_id=opponent,
        seat_pref="first",
        seed="s",
        seed_hash="h",
    )
    assert row is not None, f"channel {channel} already holds an open match"
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
