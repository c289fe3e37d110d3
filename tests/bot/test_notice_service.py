"""Routing of turn notices and clock reminders (bot/services/notices/service.py), on both backends."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

import pytest

from bench.statements import counting
from bot.services.matches import MatchService, ServiceError
from bot.services.notices import NoticeService
from bot.services.notices.route_cache import ROUTE_TTL, RouteCache
from tests.bot.conftest import ALICE, BOB, CAROL, GUILD
from tests.bot.match_driver import play_randomly, start_match

NOON = datetime(2026, 1, 14, 12, tzinfo=UTC).timestamp()
MIDNIGHT = datetime(2026, 1, 14, 23, 30, tzinfo=UTC).timestamp()


async def test_a_server_that_only_set_its_vacation_days_keeps_the_bots_defaults(service: MatchService) -> None:
    notices = NoticeService(service)
    await notices.configure_server(GUILD, vacation_days=10)
    server = await notices.server(GUILD)
    assert server.default_mode is None and server.vacation_days == 10
    assert await notices.turn_route(ALICE, GUILD, NOON) == "ping"
    assert await notices.reminder_route(ALICE, GUILD, NOON, "dm", last=False) == "dm"
    assert await notices.reminder_route(ALICE, GUILD, NOON, "channel", last=False) == "channel"
    with pytest.raises(ServiceError, match="own hour"):
        await notices.configure_server(GUILD, mode="digest", vacation_days=3)
    assert await notices.server(GUILD) == server, "a refusal changes nothing"
    await notices.configure_server(GUILD, mode="dm")
    assert await notices.turn_route(ALICE, GUILD, NOON) == "dm"
    assert await notices.turn_route(ALICE, None, NOON) == "ping", "in DMs no server default applies"
    assert (await notices.server(GUILD)).vacation_days == 10


@pytest.mark.parametrize(
    ("mode", "via", "quiet", "last", "route"),
    [
        ("off", "channel", False, False, "none"),
        ("off", "channel", False, True, "channel"),  # the last warning always goes out
        ("digest", "dm", False, True, "dm"),
        ("dm", "channel", False, False, "dm"),
        ("ping", "dm", False, False, "channel"),
        ("dm", "dm", True, False, "none"),  # stale by morning: dropped, not held
        ("ping", "dm", True, True, "channel"),
    ],
)
async def test_reminders_follow_the_choice(
    service: MatchService, mode: str, via: str, quiet: bool, last: bool, route: str
) -> None:
    notices = NoticeService(service)
    await notices.choose(BOB, mode=mode, quiet="22-7")
    now = MIDNIGHT if quiet else NOON
    assert await notices.reminder_route(BOB, GUILD, now, via, last=last) == route


async def test_turn_routes_in_and_out_of_quiet_hours(service: MatchService) -> None:
    notices = NoticeService(service)
    for mode, day, night in (("ping", "ping", "hold"), ("dm", "dm", "hold"), ("digest", "none", "none")):
        await notices.choose(BOB, mode=mode, zone="UTC", quiet="22-7")
        assert (await notices.turn_route(BOB, GUILD, NOON), await notices.turn_route(BOB, GUILD, MIDNIGHT)) == (
            day,
            night,
        ), mode


class Ticks:
    """A clock the test moves by hand (the cache's `ROUTE_TTL` without waiting)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def _statements_of(service: MatchService, run: Callable[[], Awaitable[object]]) -> int:
    async with counting(service.store.db) as seen:
        await run()
    return len(seen.texts)


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_routes_are_remembered_and_changes_here_are_seen_at_once(service: MatchService, seed: int) -> None:
    """A board's route costs no statement once remembered; `/notify` and the server's setting in
    this process are followed by the very next board; a change by another process (another
    service on the same database) after at most `ROUTE_TTL`."""
    rng = random.Random(seed)
    ticks = Ticks()
    here = NoticeService(service, routes=RouteCache(clock=ticks))
    elsewhere = NoticeService(service)  # another bot process on the same database
    player, guild = rng.choice([ALICE, BOB]), rng.choice([GUILD, GUILD + 1])
    assert await here.turn_route(player, guild, NOON) == "ping"
    assert await _statements_of(service, lambda: here.turn_route(player, guild, NOON)) == 0
    for _ in range(8):
        mode = rng.choice(["ping", "dm", "digest", "off"])
        expected = {"ping": "ping", "dm": "dm"}.get(mode, "none")
        if rng.random() < 0.5:
            await here.choose(player, mode=mode)  # in this process: seen at once
        elif mode in ("ping", "dm", "off") and (await here.prefs(player)).mode is None:
            await here.configure_server(guild, mode=mode)
        else:
            before = await here.turn_route(player, guild, NOON)
            await elsewhere.choose(player, mode=mode)
            ticks.now += ROUTE_TTL / 2
            assert await here.turn_route(player, guild, NOON) == before, "remembered within the bound"
            ticks.now += ROUTE_TTL / 2
        assert await here.turn_route(player, guild, NOON) == expected, mode
        assert await here.turn_route(player, guild, MIDNIGHT) == expected, "no quiet hours chosen"
    await here.choose(player, quiet="22-7")
    night = await here.turn_route(player, guild, MIDNIGHT)
    assert (
        night in ("hold", "none") and await _statements_of(service, lambda: here.turn_route(player, guild, NOON)) == 0
    )
    assert await here.turn_route(player, guild, NOON) != "hold", "quiet hours are worked out at each use"


async def test_a_read_that_raced_a_change_is_not_remembered(service: MatchService) -> None:
    """A route read while `/notify` changed it may be the old one: it is used once, never kept."""
    notices = NoticeService(service)
    read = notices.store.route_facts

    async def slow_read(user_id: int, guild_id: int | None) -> Any:
        found = await read(user_id, guild_id)
        await notices.choose(BOB, mode="off")  # lands while the board's read is under way
        return found

    notices.store.route_facts = slow_read  # type: ignore[method-assign]
    assert await notices.turn_route(BOB, GUILD, NOON) == "ping", "the read from before the change"
    notices.store.route_facts = read  # type: ignore[method-assign]
    assert await notices.turn_route(BOB, GUILD, NOON) == "none"


@pytest.mark.parametrize("seed", [2, 13])
async def test_waiting_for_lists_the_matches_at_the_players_turn_without_building_a_view(
    service: MatchService, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(seed)
    notices = NoticeService(service)
    players = (ALICE, BOB, CAROL)
    for channel in range(40, 40 + rng.randrange(6, 10)):  # random games, pairs, lengths; some end
        a, b = rng.sample(players, 2)
        game = rng.choice(["focus", "domineering", "dominance", "domino_wars", "wonderland"])
        match_id = await start_match(service, game, channel=channel, challenger=a, opponent=b)
        await play_randomly(service, match_id, rng, max_moves=rng.choice([0, 1, 3, 9, 400]))
    expected: dict[int, list[int]] = {}  # told independently: the public view's turn, as a board shows it
    for user_id in players:
        expected[user_id] = []
        for row in sorted(await service.of_player(user_id), key=lambda r: r.id):
            seat = row.seat_of(user_id)
            if row.status == "active" and seat is not None and seat in (await service.view(row.id, None))["turn"]:
                expected[user_id].append(row.id)
    assert any(expected.values()), "some match waits for someone"

    views: list[int] = []
    looked: list[int] = []
    state_of = service.state_of

    async def counted_view(match_id: int, user_id: int | None) -> dict[str, Any]:
        views.append(match_id)
        raise AssertionError("waiting_for built a view")

    async def counted_state(row: Any) -> Any:
        looked.append(row.id)
        return await state_of(row)

    monkeypatch.setattr(service, "view", counted_view)
    monkeypatch.setattr(service, "state_of", counted_state)
    for user_id in players:
        waiting = await notices.waiting_for(user_id)
        assert [w.match.id for w in waiting] == expected[user_id]
        for w in waiting:
            assert w.match.seats is not None and w.opponent_id in w.match.seats and w.opponent_id != user_id
        running = [r.id for r in await service.of_player(user_id) if r.status == "active"]
        among = set(rng.sample(running, len(running) // 2)) if running else set()
        looked.clear()
        kept = await notices.waiting_for(user_id, among=among)
        assert [w.match.id for w in kept] == [m for m in expected[user_id] if m in among]
        assert sorted(looked) == sorted(among), "only the matches asked about are looked at"
    assert views == []
