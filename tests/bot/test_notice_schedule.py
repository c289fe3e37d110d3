"""Quiet hours, digest days and the parsing of `/notify` (bot/services/notices/schedule.py)."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

from bot.services.matches import ServiceError
from bot.services.notices.schedule import digest_day, in_quiet, parse_quiet, parse_zone


def utc(text: str) -> float:
    return datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp()


def quiet_hours_reference(first: int, end: int) -> set[int]:
    """The local hours a window covers, written out hour by hour (not the code's comparison)."""
    hours, hour = set(), first
    while hour != end:
        hours.add(hour)
        hour = (hour + 1) % 24
    return hours


@pytest.mark.parametrize("seed", range(5))
def test_quiet_hours_cover_exactly_their_window_across_midnight(seed: int) -> None:
    rng = random.Random(seed)
    day = utc("2026-06-10T00:00:00")
    for _ in range(40):
        first, end = rng.sample(range(24), 2)
        covered = quiet_hours_reference(first, end)
        for hour in range(24):
            minute = rng.randrange(60)
            now = day + hour * 3600 + minute * 60
            assert in_quiet(now, "UTC", (first, end)) == (hour in covered), (first, end, hour)


def test_quiet_hours_are_local_time() -> None:
    # 21:30 UTC is 23:30 in Berlin (summer time, UTC+2) and 17:30 in New York (UTC-4)
    now = utc("2026-06-10T21:30:00")
    assert in_quiet(now, "Europe/Berlin", (22, 7))
    assert not in_quiet(now, "America/New_York", (22, 7))
    assert not in_quiet(now, "UTC", None)


def test_the_digest_is_due_from_its_local_hour_and_follows_summer_time() -> None:
    # Berlin went to summer time on 2026-03-29 at 01:00 UTC: 9:00 local is 08:00 UTC the day
    # before and 07:00 UTC that day
    assert digest_day(utc("2026-03-28T07:30:00"), "Europe/Berlin", 9) is None
    assert digest_day(utc("2026-03-28T08:00:00"), "Europe/Berlin", 9) == "2026-03-28"
    assert digest_day(utc("2026-03-29T07:00:00"), "Europe/Berlin", 9) == "2026-03-29"
    # late in the local day it is still that day's digest (sent after a night-long outage)
    assert digest_day(utc("2026-03-29T21:59:00"), "Europe/Berlin", 9) == "2026-03-29"
    assert digest_day(utc("2026-03-29T22:00:00"), "Europe/Berlin", 9) is None  # 00:00 on the 30th


def test_zone_names_are_checked_and_spelled_as_the_database_does() -> None:
    assert parse_zone("europe/berlin") == "Europe/Berlin"
    assert parse_zone(" America/New York ") == "America/New_York"
    with pytest.raises(ServiceError, match="not a time zone I know"):
        parse_zone("Mars/Olympus")
    with pytest.raises(ServiceError):
        parse_zone("../../etc/passwd")


def test_quiet_hours_are_parsed_or_refused_with_a_sentence() -> None:
    assert parse_quiet("22-7") == (22, 7)
    assert parse_quiet("22:00 - 07:00") == (22, 7)
    assert parse_quiet("off") is None
    for bad in ("22", "25-7", "7-7", "night"):
        with pytest.raises(ServiceError):
            parse_quiet(bad)
