"""Routing of turn notices and clock reminders (bot/services/notices/service.py), on both backends."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.services.matches import MatchService, ServiceError
from bot.services.notices import NoticeService
from tests.bot.conftest import ALICE, BOB, GUILD

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
