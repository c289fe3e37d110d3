"""`python -m bench attention`: what a complete game costs each person's attention.

Through the real bot and the protocol-level fake Discord, one random game of each of the
five games is played to its end by `/move` (secret moves included: their replies are
private), with the server's default venue of the channel.  Counted per game:

- posts: new bot messages in the match's channel, per turn change;
- pings: users the posts notified (Discord's `allowed_mentions`, as the fake computes it),
  per turn change, and how many of them went to the player who had just acted (goal 0);
- DMs: new direct messages per player per turn (goal ≤ 1; edits are not new DMs).

A turn change is a move after which a different player is to move.  Each run plays new games
(the match seeds are secret and random, as in production), so compare ratios, not counts.
The fake Discord lives in `tests/` (a developer tool like this bench), imported only when the
section runs.
"""

from __future__ import annotations

import random
import tempfile
from dataclasses import dataclass
from pathlib import Path

GAMES_PLAYED = ("focus", "domineering", "domino_wars", "dominance", "wonderland")
MAX_MOVES = 1_500
"""A game still running after this many moves is cut there (Focus can be long)."""


@dataclass(frozen=True)
class Attention:
    game: str
    moves: int
    turn_changes: int
    posts: int
    pings: int
    pings_to_mover: int
    dms: tuple[int, int]


async def attention_of(game: str, seed: int = 1) -> Attention:
    """Play one random game of `game` to its end (or `MAX_MOVES`) and count what it sent."""
    from tests.e2e.harness import running_bot  # dev-only: the fake Discord

    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        async with running_bot(Path(tmp) / "bench.sqlite3") as harness:
            fake = harness.fake
            alice, bob, _ = fake.players
            users = {alice.id: alice, bob.id: bob}
            match_id, _ = await harness.start_match(game, alice, bob)
            service = harness.bot.service
            first_post = fake.bot_messages(fake.channel)[-1].id
            moves = turn_changes = pings_to_mover = 0
            while moves < MAX_MOVES and (await service.get(match_id)).status == "active":
                waiting = await harness.to_move(match_id)
                mover = rng.choice(sorted(waiting))
                move = rng.choice(await service.legal_moves(match_id, mover))
                mark = fake.mark()
                await harness.command("move", {"notation": move}, user=users[mover])
                await fake.wait_until_idle()
                moves += 1
                if set(await harness.to_move(match_id)) - {mover}:
                    turn_changes += 1
                new = [m for m in fake.bot_messages(fake.channel) if m.id > mark.snowflake]
                pings_to_mover += sum(mover in m.pinged_ids for m in new)
            posts = [m for m in fake.bot_messages(fake.channel) if m.id > first_post]
            return Attention(
                game,
                moves,
                turn_changes,
                len(posts),
                sum(len(m.pinged_ids) for m in posts),
                pings_to_mover,
                (len(fake.dms_to(alice)), len(fake.dms_to(bob))),
            )


def attention_rows() -> list[tuple[str, str, str]]:
    import asyncio

    rows = []
    for game in GAMES_PLAYED:
        a = asyncio.run(attention_of(game))
        turns = max(a.turn_changes, 1)
        rows.append(
            (
                f"attention {game}: {a.moves} moves, {a.turn_changes} turn changes",
                f"posts/turn {a.posts / turns:.2f} · pings/turn {a.pings / turns:.2f} · pings to the mover "
                f"{a.pings_to_mover} · DMs/turn {a.dms[0] / turns:.2f} and {a.dms[1] / turns:.2f}",
                "pings/turn ≤ 1, 0 to the mover, DMs/turn ≤ 1",
            )
        )
    return rows
