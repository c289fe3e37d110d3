"""`python -m bench attention`: what a complete game costs each person's attention.

Through the real bot and the protocol-level fake Discord, one random game of each of the
five games is played to its end by `/move` (secret moves included: their replies are
private), with the server's default venue of the channel, by two players while a third
member (the spectator) reads the channel.  Counted per game:

- posts: new bot messages in the match's channel, per turn change (what the spectator and
  both players see arrive), and edits of posts (a turn's post growing: they notify nobody);
- pings: users the posts notified (Discord's `allowed_mentions`, as the fake computes it),
  per turn change, and how many of them went to the player who had just acted (goal 0);
- DMs: new direct messages per player per turn change (goal ≤ 1), the most either player
  got in any one turn (goal ≤ 1), and DM edits (a private view updated in place).

A turn change is a move after which a player is to move who was not before it (in a phase of
both players at once, a secret draft, neither player's pick changes the turn); the DMs a move sends
count toward the turn it starts when it changes the turn (its new mover's DM), else toward
the turn it belongs to.  Each run plays new games (the match seeds are secret and random, as
in production), so compare ratios, not counts.  The fake Discord lives in `tests/` (a
developer tool like this bench), imported only when the section runs.
"""

from __future__ import annotations

import random
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

GAMES_PLAYED = ("focus", "domineering", "domino_wars", "dominance", "wonderland")
MAX_MOVES = 1_500
"""A game still running after this many moves is cut there (Focus can be long)."""
WEBHOOK_EDIT = re.compile(r"/webhooks/\d+/[^/]+/messages/(?:@original|\d+)")


@dataclass(frozen=True)
class Attention:
    game: str
    moves: int
    turn_changes: int
    posts: int
    post_edits: int
    pings: int
    pings_to_mover: int
    pings_to_spectator: int
    dms: tuple[int, int]
    dm_edits: tuple[int, int]
    most_dms_in_a_turn: int


def _edits_in(requests: list[Any], channel_id: int) -> int:
    """Successful edits of bot messages in a channel (by channel route or interaction webhook)."""
    count = 0
    for request in requests:
        body = request.response
        if request.method != "PATCH" or not request.status or request.status >= 300 or not isinstance(body, dict):
            continue
        if str(body.get("channel_id")) == str(channel_id) and (
            request.path.startswith(f"/channels/{channel_id}/messages/") or WEBHOOK_EDIT.fullmatch(request.path)
        ):
            count += 1
    return count


async def attention_of(game: str, seed: int = 1) -> Attention:
    """Play one random game of `game` to its end (or `MAX_MOVES`) and count what it sent."""
    from tests.e2e.harness import running_bot  # dev-only: the fake Discord

    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        async with running_bot(Path(tmp) / "bench.sqlite3") as harness:
            fake = harness.fake
            alice, bob, carol = fake.players
            users = {alice.id: alice, bob.id: bob}
            match_id, _ = await harness.start_match(game, alice, bob)
            await fake.wait_until_idle()
            service = harness.bot.service
            start = fake.mark()
            first_post = fake.bot_messages(fake.channel)[-1].id
            moves = turn_changes = pings_to_mover = most_in_a_turn = 0
            this_turn = {alice.id: 0, bob.id: 0}
            while moves < MAX_MOVES and (await service.get(match_id)).status == "active":
                waiting = await harness.to_move(match_id)
                mover = rng.choice(sorted(waiting))
                move = rng.choice(await service.legal_moves(match_id, mover))
                mark = fake.mark()
                await harness.command("move", {"notation": move}, user=users[mover])
                await fake.wait_until_idle()
                moves += 1
                changed = bool(set(await harness.to_move(match_id)) - set(waiting))
                if changed:
                    turn_changes += 1
                    this_turn = {alice.id: 0, bob.id: 0}
                for user in (alice, bob):
                    this_turn[user.id] += sum(m.id > mark.snowflake for m in fake.dms_to(user))
                most_in_a_turn = max(most_in_a_turn, *this_turn.values())
                new = [m for m in fake.bot_messages(fake.channel) if m.id > mark.snowflake]
                pings_to_mover += sum(mover in m.pinged_ids for m in new)
            posts = [m for m in fake.bot_messages(fake.channel) if m.id > first_post]
            requests = fake.requests[start.request_index :]
            return Attention(
                game,
                moves,
                turn_changes,
                len(posts),
                _edits_in(requests, fake.channel.id),
                sum(len(m.pinged_ids) for m in posts),
                pings_to_mover,
                sum(carol.id in m.pinged_ids for m in posts),
                (len(fake.dms_to(alice)), len(fake.dms_to(bob))),
                (_edits_in(requests, fake.dm_channel(alice).id), _edits_in(requests, fake.dm_channel(bob).id)),
                most_in_a_turn,
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
                f"posts/turn {a.posts / turns:.2f} (+{a.post_edits / turns:.2f} edits) · pings/turn "
                f"{a.pings / turns:.2f} · to the mover {a.pings_to_mover} · to the spectator "
                f"{a.pings_to_spectator} · new DMs/turn {a.dms[0] / turns:.2f} and {a.dms[1] / turns:.2f} "
                f"(most in one turn {a.most_dms_in_a_turn}; +{a.dm_edits[0] / turns:.2f} and "
                f"{a.dm_edits[1] / turns:.2f} edits)",
                "pings/turn ≤ 1, 0 to the mover, new DMs ≤ 1 a turn",
            )
        )
    return rows
