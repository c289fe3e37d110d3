"""The notices' tables on both backends: each claim succeeds once (a digest a day, a held
notice, a vacation's end, a nudge a day), and a player's choice round-trips."""

from __future__ import annotations

from bot.services.matches import MatchService
from bot.store import Store
from bot.store.notices import NoticeStore, StoredPrefs, Vacation
from tests.bot.conftest import ALICE, BOB, GUILD


async def _match(service: MatchService) -> int:
    row = await service.challenge(
        game="focus", channel_id=600, guild_id=GUILD, challenger_id=ALICE, opponent_id=BOB, seat_pref="first"
    )
    await service.accept(row.id, BOB)
    return row.id


async def test_a_choice_round_trips_and_the_digest_day_is_claimed_once(store: Store) -> None:
    notices = NoticeStore(store)
    assert await notices.prefs(ALICE) is None
    prefs = StoredPrefs(ALICE, "digest", "Asia/Tokyo", 0, 23, 6, None)
    await notices.save_prefs(prefs)
    assert await notices.prefs(ALICE) == prefs
    assert await notices.claim_digest(ALICE, "2026-11-26")
    assert not await notices.claim_digest(ALICE, "2026-11-26")
    await notices.save_prefs(StoredPrefs(ALICE, "digest", "Asia/Tokyo", 7, None, None, None))
    stored = await notices.prefs(ALICE)
    assert stored is not None and stored.digest_day == "2026-11-26" and stored.quiet_start is None
    assert not await notices.claim_digest(ALICE, "2026-11-26"), "a new choice does not resend today's digest"
    assert await notices.claim_digest(ALICE, "2026-11-27")
    assert [p.user_id for p in await notices.with_schedules()] == [ALICE]


async def test_held_notices_are_taken_once(store: Store, service: MatchService) -> None:
    notices = NoticeStore(store)
    match_id = await _match(service)
    await notices.hold(BOB, match_id, 10.0)
    await notices.hold(BOB, match_id, 20.0)  # a second notice for the same match is the same news
    assert await notices.held_users() == [BOB]
    assert await notices.take_held(BOB) == [match_id]
    assert await notices.take_held(BOB) == []
    assert await notices.held_users() == []


async def test_a_vacation_ends_once_and_its_days_add_up(store: Store) -> None:
    notices = NoticeStore(store)
    first = Vacation(GUILD, ALICE, 100.0, 100.0 + 3 * 86400)
    assert await notices.start_vacation(first)
    assert not await notices.start_vacation(Vacation(GUILD, ALICE, 200.0, 300.0)), "one at a time"
    assert await notices.vacations_over(100.0 + 3 * 86400) == [first]
    assert await notices.end_vacation(first, 2026, 3)
    assert not await notices.end_vacation(first, 2026, 3), "ended twice charges once"
    second = Vacation(GUILD, ALICE, 900_000.0, 990_000.0)
    assert await notices.start_vacation(second)
    assert await notices.end_vacation(second, 2026, 2)
    assert await notices.days_used(GUILD, ALICE, 2026) == 5
    assert await notices.days_used(GUILD, ALICE, 2027) == 0
    assert await notices.vacation(GUILD, ALICE) is None


async def test_a_nudge_is_recorded_once_a_day(store: Store, service: MatchService) -> None:
    notices = NoticeStore(store)
    match_id = await _match(service)
    assert await notices.nudge(match_id, ALICE, 1000.0, 1000.0 - 86400)
    assert not await notices.nudge(match_id, ALICE, 2000.0, 2000.0 - 86400)
    assert await notices.last_nudge(match_id, ALICE) == 1000.0
    assert await notices.nudge(match_id, ALICE, 1000.0 + 86400, 1000.0)
    assert await notices.last_nudge(match_id, ALICE) == 1000.0 + 86400
    assert await notices.nudge(match_id, BOB, 1500.0, 0.0), "each player has their own"
