"""What one move costs the database, counted statement by statement at the driver.

Why counted in a test: each statement is a round trip the mover waits for (on PostgreSQL a
network trip, each commit a WAL flush), and one more slips in unnoticed (a second read of the
match, a reset of a pooled connection, a BEGIN/COMMIT around a single write).  So the exact
statements of a `/move` and of a typed move are listed here, on both backends: adding one fails
this test, and whoever adds it says why here.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from bench.statements import Statements, counting
from bot.services.notices.route_cache import RouteCache
from tests.conftest import fresh_database
from tests.e2e.harness import Harness
from tests.fake_discord import FakeDiscord, restore_discord_defaults
from tests.postgres import PostgresServer

pytestmark = pytest.mark.e2e

MOVE_TRANSACTION = ["BEGIN", "UPDATE matches", "INSERT INTO moves", "INSERT INTO outbox", "COMMIT"]
"""The move's one transaction on SQLite (one trip to its thread): the match row (snapshot,
version, clock), its log lines, its board's outbox row (the INSERT returns the row's id and
whether its channel has an earlier row unsent)."""
MOVE_STATEMENT = ["WITH m AS (UPDATE matches"]
"""The same writes on PostgreSQL as ONE statement committed by itself (`_COMMIT_MOVES` in
bot/store/core.py): one round trip and one WAL flush, no BEGIN and COMMIT around it."""


def a_move(backend: str) -> list[str]:
    """What a `/move` and a typed move cost alike: the interaction a `/move`'s board is posted as
    the reply of is noted by the move's own INSERT (`follow_up_of`), a channel post carries its
    nonce.  How the player the board names wants to be told (/notify, the server's default) is
    remembered after their first board (bot/services/notices/route_cache.py): no read per move."""
    return [
        "SELECT m.id",  # the match of the channel (the service uses it: no second read)
        *(MOVE_STATEMENT if backend == "postgresql" else MOVE_TRANSACTION),
        "UPDATE outbox SET sent_at",  # marked sent (unflushed)
    ]


ENDING_READS = [
    "SELECT changes FROM rated_matches",  # the final board's rating line
    "SELECT tournament_id FROM tournament_games",  # the tournaments' finish listener
    "SELECT 1 FROM tournament_games",  # whether the final board offers Rematch
]
"""What a final board reads after its commit (in an order that varies: listeners run as tasks)."""
RATING_TRANSACTION = [
    "BEGIN",
    "INSERT INTO rated_matches (match_id)",
    *["SELECT user_id, game, value"] * 2,
    *["INSERT INTO ratings"] * 2,
    "INSERT INTO rated_matches (match_id, changes)",
    "COMMIT",
]
"""A rated match's end: both ratings, claimed once (bot/services/ratings.py)."""
ABORT_VOTE = ["BEGIN", "INSERT INTO abort_votes", "SELECT user_id FROM abort_votes", "COMMIT"]


DRAW_ACCEPTED = ["SELECT kind, user_id, version FROM match_offers"]
"""The standing offer read; it is taken by the ending's own transaction (`DRAW_TAKEN`), so an
ending that fails to commit leaves it standing."""
DRAW_TAKEN = "DELETE FROM match_offers"


def an_ending(kind: str) -> list[str]:
    """What the second `/abort` or `/draw` (the match ends) and a click on `/resign`'s
    confirmation cost on SQLite: the ending's one transaction, like a move's.  The board of
    `/abort` and `/draw` is the reply to its interaction, noted by the ending's own INSERT
    (`follow_up_of`), no UPDATE of its own; a resignation's board is posted in the channel (the
    confirmation is private), with its nonce."""
    looked_up = ["SELECT m.id"] * 2  # the channel's match, then read again under the match's lock
    after = [*ENDING_READS, "UPDATE outbox SET sent_at"]
    if kind == "abort":
        return [*looked_up, *ABORT_VOTE, *MOVE_TRANSACTION, *after]
    if kind == "draw":
        ending = [*MOVE_TRANSACTION[:-1], DRAW_TAKEN, MOVE_TRANSACTION[-1]]
        return [*looked_up, *DRAW_ACCEPTED, *ending, *RATING_TRANSACTION, *after]
    return [*looked_up, *MOVE_TRANSACTION, *RATING_TRANSACTION, *after]


def beginnings(seen: Statements) -> list[str]:
    """Each statement by the words it starts with, as the lists above name them."""
    named = sorted(
        {
            *MOVE_TRANSACTION,
            *MOVE_STATEMENT,
            *a_move("sqlite"),
            *an_ending("abort"),
            *an_ending("draw"),
            *an_ending("resign"),
        },
        key=len,
        reverse=True,
    )
    out = []
    for text in seen.texts:
        flat = " ".join(text.split()).rstrip(";")
        out.append(next((n for n in named if flat.upper().startswith(n.upper())), flat[:60]))
    return out


async def count_moves(harness: Harness, seed: int) -> None:
    fake = harness.fake
    alice, bob, _ = fake.players
    await harness.start_match("focus", alice, bob)
    bot = harness.bot
    for duty in bot.duties.health():  # nothing else may reach the database while counting
        await bot.duties.stop(duty.name)
    # each player's route is read once (their first board), then remembered; the bound on its
    # staleness is set long here so that a slow, loaded machine never reads it again mid-test
    bot.notices.routes = RouteCache(ttl=24 * 3600.0)
    for player in (alice, bob):
        await bot.notices.turn_route(player.id, fake.guild.id, bot.service.now())
    rng = random.Random(seed)
    players = {alice.id: alice, bob.id: bob}
    for number in range(6):  # slash and typed moves in a random order, after a first move
        row = await bot.service.running_in(fake.channel.id)
        assert row is not None and row.seats is not None
        state = await bot.service.state_of(row)
        [seat] = state.turn
        move = rng.choice(state.legal_moves(seat))
        typed = number > 0 and rng.random() < 0.5
        async with counting(bot.store.db) as seen:
            if typed:
                await harness.typed_move(players[row.seats[seat]], move)
            else:
                await harness.slash_move(players[row.seats[seat]], move)
            await fake.wait_until_idle()
        if number == 0:
            continue  # the first move of a connection prepares its statements (asyncpg)
        expected = a_move(bot.store.backend)
        assert beginnings(seen) == expected, "\n".join(seen.texts)
        [board] = await bot.store.fetch_all("SELECT follow_up_of FROM outbox ORDER BY id DESC LIMIT 1")
        assert (board[0] is None) == typed, "a /move's board row names its interaction, a typed move's none"
        writes_alone = sum(1 for s in expected if s.startswith("UPDATE outbox"))
        assert seen.commits == 1 + writes_alone  # the move's transaction, and each write on its own
        if harness.bot.store.backend == "postgresql":
            assert seen.flushes == 1, "only the move's own commit waits for the disk"
            assert len(expected) <= 6, "the goal: at most 6 statements a move on PostgreSQL"


@pytest.mark.parametrize("seed", [1, 2])
async def test_a_move_costs_its_listed_statements_on_sqlite(harness: Harness, seed: int) -> None:
    await count_moves(harness, seed)


async def test_a_move_costs_its_listed_statements_on_postgresql(
    tmp_path: Path, postgres_server: PostgresServer
) -> None:
    async with fresh_database(postgres_server) as url, FakeDiscord() as fake:
        harness = Harness(fake, tmp_path / "unused.sqlite3")
        harness.database_url = url
        try:
            await harness.start()
            await count_moves(harness, 3)
        finally:
            await harness.stop()
            restore_discord_defaults()


@pytest.mark.parametrize("seed", [4, 9])
async def test_an_abort_a_draw_and_a_resignation_cost_their_listed_statements_on_sqlite(
    harness: Harness, seed: int
) -> None:
    fake = harness.fake
    bot = harness.bot
    rng = random.Random(seed)
    for duty in bot.duties.health():  # nothing else may reach the database while counting
        await bot.duties.stop(duty.name)
    bot.notices.routes = RouteCache(ttl=24 * 3600.0)
    for kind in rng.sample(["abort", "draw", "resign"], 3):
        first, second = rng.sample(fake.players[:2], 2)
        match_id, _ = await harness.start_match("focus", first, second)
        for _ in range(rng.randrange(3)):  # a few moves first, or none
            row = await bot.service.get(match_id)
            assert row.seats is not None
            state = await bot.service.state_of(row)
            [seat] = state.turn
            mover = first if row.seats[seat] == first.id else second
            await harness.slash_move(mover, rng.choice(state.legal_moves(seat)))
        if kind in ("abort", "draw"):
            await harness.command(kind, {}, user=first)
            await fake.wait_until_idle()
            async with counting(bot.store.db) as seen:
                ended = await harness.command(kind, {}, user=second)
                await fake.wait_until_idle()
        else:
            asked = await fake.slash_command("resign", {}, user=first)
            confirm = await fake.wait_for_answer(asked)
            await fake.wait_until_idle()
            async with counting(bot.store.db) as seen:
                ended = await fake.click_button(confirm, f"boneyard:resign:{match_id}", user=first)
                await fake.wait_until_idle()
        assert (await bot.service.get(match_id)).status.value == ("aborted" if kind == "abort" else "finished")
        assert Counter(beginnings(seen)) == Counter(an_ending(kind)), "\n".join(seen.texts)
        [board] = await bot.store.fetch_all(
            "SELECT follow_up_of FROM outbox WHERE kind = 'board' ORDER BY id DESC LIMIT 1"
        )
        assert board[0] == (None if kind == "resign" else ended.id), "the board names the interaction it answers"
        assert seen.commits == 3  # the votes (abort) or the ratings (draw, resignation), the ending, the mark
