"""Outbox rows are written with the change they announce, and describe it completely."""

from __future__ import annotations

import asyncio
import random
import time
from types import SimpleNamespace

import pytest

from bot.infra.shards import ShardLayout
from bot.services.matches import MatchService, Update
from bot.services.outbox import Outbox
from bot.store import StaleVersion, Store
from bot.store.outbox import BOARD, GRACE_SECONDS, Announcement
from tests.bot.conftest import ALICE, BOB, CHANNEL, GUILD


async def _started(service: MatchService) -> Update:
    row = await service.challenge(
        game="focus", channel_id=CHANNEL, guild_id=GUILD, challenger_id=ALICE, opponent_id=BOB, seat_pref="first"
    )
    return await service.accept(row.id, BOB, intro="Welcome.")


async def test_every_update_has_its_board_stored_and_the_row_rebuilds_it(service: MatchService, store: Store) -> None:
    start = await _started(service)
    move = await service.play(start.match.id, ALICE, "d2-d1")
    end = await service.resign(start.match.id, BOB)
    rows = await store.unsent_announcements()
    assert [r.key for r in rows] == [start.announcement, move.announcement, end.announcement]
    assert {r.kind for r in rows} == {BOARD} and {r.channel_id for r in rows} == {CHANNEL}
    for row, update in zip(rows, (start, move, end), strict=True):
        rebuilt = Update.from_board_payload(update.match, row.payload, row.key)
        assert rebuilt.public_view == update.public_view
        assert (rebuilt.played, rebuilt.outcome, rebuilt.ply, rebuilt.note, rebuilt.buttons, rebuilt.intro) == (
            update.played,
            update.outcome,
            update.ply,
            update.note,
            update.buttons,
            update.intro,
        )
        # what the presenter needs to post it as it would have live (turn posts, quiet drafts,
        # the engine's sentences, the draft completed at random, buttons of that position)
        assert (rebuilt.told, rebuilt.quiet, rebuilt.secret_move, rebuilt.completed_for) == (
            update.told,
            update.quiet,
            update.secret_move,
            update.completed_for,
        )
        assert rebuilt.match.version == update.match.version
    assert rows[0].payload["intro"] == "Welcome."
    assert [r.payload["version"] for r in rows] == [1, 2, 3] == [u.match.version for u in (start, move, end)]
    assert rows[1].payload["told"] and rows[1].payload["told"][0][:3] == [0, "d2-d1", True]
    later = Update.from_board_payload(end.match, rows[1].payload, rows[1].key)
    assert later.match.version == 2, "a late board keeps its own position's version (its buttons go stale)"
    # no private view is ever kept for the channel
    assert all("private" not in r.payload["view"] for r in rows)


async def test_a_refused_commit_stores_no_announcement(service: MatchService, store: Store) -> None:
    start = await _started(service)
    ghost = Announcement(BOARD, CHANNEL, GUILD, {"view": {}}, match_id=start.match.id)
    with pytest.raises(StaleVersion):
        await store.commit_moves(
            start.match.id, expected_version=99, first_ply=1, moves=[], snapshot={}, announce=[ghost]
        )
    assert await store.announcement(ghost.key) is None


async def test_marking_sent_is_final(service: MatchService, store: Store) -> None:
    start = await _started(service)
    assert start.announcement is not None
    await store.note_follow_up(start.announcement, 77)
    await store.count_failed_post(start.announcement)
    await store.count_failed_post(start.announcement)
    row = await store.announcement(start.announcement)
    assert row is not None and row.follow_up_of == 77 and row.attempts == 2 and not row.sent
    await store.mark_announced(start.announcement, 123)
    await store.mark_announced(start.announcement, None, failure="late")  # ignored: already sent
    sent = await store.fetch_one("SELECT message_id, failure FROM outbox WHERE key = ?", (start.announcement,))
    assert sent == (123, None)
    assert await store.unsent_announcements() == []


async def test_a_channel_s_rows_are_posted_in_the_order_they_were_saved(
    service: MatchService, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two players' moves saved a moment apart are announced by two tasks; the later one
    (a board, slower to draw) must not reach the channel before the earlier one's line, and
    an earlier row nobody posts (left to the drain) holds the channel up only briefly."""
    from cogs.out import outbox

    start = await _started(service)
    first = await service.play(start.match.id, ALICE, "d2-d1")
    second = await service.resign(start.match.id, BOB)
    assert start.announcement and first.announcement and second.announcement
    posted: list[str] = []
    dispatcher = outbox.Dispatcher(SimpleNamespace(announcements=Outbox(store)), {})  # type: ignore[arg-type]

    def send_as(name: str) -> outbox.Send:
        async def send(nonce: str) -> int | None:
            posted.append(name)
            return None

        return send

    await dispatcher.deliver_by(start.announcement, send_as("start"))
    later = asyncio.create_task(dispatcher.deliver_by(second.announcement, send_as("resigned")))
    for _ in range(50):  # the later post gets every chance to go first
        await asyncio.sleep(0)
    assert posted == ["start"]
    assert await dispatcher.deliver_by(first.announcement, send_as("d2-d1")) is True
    assert await later is True
    assert posted == ["start", "d2-d1", "resigned"]

    monkeypatch.setattr(outbox, "ORDER_WAIT", 0.05)
    rematch = await _started(service)  # a new match in the same channel: its start row is left unsent
    move = await service.play(rematch.match.id, ALICE, "d2-d1")
    assert move.announcement is not None
    assert await dispatcher.deliver_by(move.announcement, send_as("next")) is True
    assert posted[-1] == "next"
    assert [r.key for r in await store.unsent_announcements()] == [rematch.announcement]


async def test_the_drain_forgets_rows_posted_over_a_day_ago(service: MatchService, store: Store) -> None:
    """Posted rows are never read again; kept, they would grow the database by a board per
    move forever.  Unsent rows and rows posted within the day stay."""
    from cogs.out import outbox

    start = await _started(service)
    old = await service.play(start.match.id, ALICE, "d2-d1")
    recent = await service.resign(start.match.id, BOB)
    assert start.announcement and old.announcement and recent.announcement
    now = time.time()
    await store.mark_announced(old.announcement, 1)
    await store.mark_announced(recent.announcement, 2)
    await store.db.execute(  # posted a day and a minute ago
        "UPDATE outbox SET sent_at = ? WHERE key = ?", (now - outbox.KEEP_SENT_SECONDS - 60, old.announcement)
    )
    bot = SimpleNamespace(announcements=Outbox(store), leases=SimpleNamespace(current=ShardLayout()))
    await outbox.Dispatcher(bot, {}).drain()  # type: ignore[arg-type]
    assert await store.announcement(old.announcement) is None
    kept = [await store.announcement(k) for k in (start.announcement, recent.announcement)]
    assert [(row is not None, row is not None and row.sent) for row in kept] == [(True, False), (True, True)]


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_a_commit_returns_its_board_row_as_a_read_would_find_it(
    service: MatchService, store: Store, seed: int
) -> None:
    """`Fresh` replaces the read after the commit: the row's id and key, and whether the channel
    has an earlier unsent row (of the last `GRACE_SECONDS`; older, sent or of another channel
    ones do not count), must be what `announcement_in_order` reads."""
    rng = random.Random(seed)
    start = await _started(service)
    move = await service.play(start.match.id, ALICE, "d2-d1")
    assert move.fresh is not None and move.fresh.row.key == move.announcement
    assert move.fresh.behind, "the start's board is still unsent in this channel"
    match_id, version, ply = move.match.id, move.match.version, 1
    for _ in range(6):
        others = [
            Announcement(BOARD, rng.choice([CHANNEL, CHANNEL + 1]), GUILD, {}, match_id=match_id)
            for _ in range(rng.randrange(3))
        ]
        await store.announce(others)
        for row in [*others, *(await store.unsent_announcements())]:
            if rng.random() < 0.5:
                await store.mark_announced(row.key, None)
        if rng.random() < 0.3:  # an unsent row older than the window: the drain's, not waited for
            await store.fetch_one(
                "UPDATE outbox SET created_at = created_at - ? WHERE sent_at IS NULL RETURNING id",
                (GRACE_SECONDS + 5,),
            )
        board = Announcement(BOARD, CHANNEL, GUILD, {"view": {}}, match_id=match_id)
        version, fresh = await store.commit_moves(
            match_id,
            expected_version=version,
            first_ply=ply,
            moves=[(0, "x", True, False)],
            snapshot={},
            announce=[board],
        )
        ply += 1
        read, behind = await store.announcement_in_order(board.key, window=GRACE_SECONDS)
        assert fresh is not None and read is not None
        assert (fresh.row.id, fresh.row.key, fresh.row.sent, fresh.behind) == (read.id, read.key, False, behind)
        assert abs(fresh.row.created_at - read.created_at) < 1e-6
