"""When a player may be told something: time zones, quiet hours, the digest's hour.

Pure functions of the time (`now`, epoch seconds) and a player's choice, so the tests can
walk them through any hour of any zone, daylight-saving changes included, without a clock.
"""

from __future__ import annotations

import re
from datetime import datetime
from functools import lru_cache
from zoneinfo import ZoneInfo, available_timezones

from bot.i18n import tr
from bot.services.matches.errors import ServiceError

QuietHours = tuple[int, int]
"""(first hour, end hour) in local time: quiet from `first`:00 until `end`:00, across midnight
when `end` is smaller (`(22, 7)`: 22:00 to 07:00)."""

_QUIET = re.compile(r"(\d{1,2})(?::00)?\s*[-–]\s*(\d{1,2})(?::00)?")


@lru_cache(maxsize=1)
def zone_names() -> tuple[str, ...]:
    """Every IANA time zone name this machine knows, sorted (for autocomplete and checks)."""
    return tuple(sorted(available_timezones()))


def parse_zone(text: str) -> str:
    """The zone name as the database spells it (`europe/berlin` -> `Europe/Berlin`).

    Raises ServiceError with a sentence for the player."""
    wanted = text.strip().replace(" ", "_")
    by_lower = {name.lower(): name for name in zone_names()}
    name = by_lower.get(wanted.lower())
    if name is None:
        raise ServiceError(
            tr(
                "`{strip}` is not a time zone I know; pick one from the list, e.g. `Europe/Berlin`, "
                "`America/New_York` or `UTC`.",
                strip=text.strip()[:40],
            )
        )
    return name


def parse_quiet(text: str) -> QuietHours | None:
    """`22-7` or `22:00-07:00` -> (22, 7); `off` -> None.  Raises ServiceError."""
    raw = text.strip().lower()
    if raw in ("off", "none", "no"):
        return None
    found = _QUIET.fullmatch(raw)
    if found is None:
        raise ServiceError(
            tr("`{strip}` is not a window of hours; write e.g. `22-7` (or `off`).", strip=text.strip()[:20])
        )
    first, end = int(found[1]), int(found[2])
    if not (0 <= first <= 23 and 0 <= end <= 23):
        raise ServiceError(tr("Quiet hours are whole hours from 0 to 23, e.g. `22-7`."))
    if first == end:
        raise ServiceError(tr("Quiet hours must start and end at different hours (e.g. `22-7`)."))
    return first, end


def local(now: float, zone: str) -> datetime:
    return datetime.fromtimestamp(now, ZoneInfo(zone))


def in_quiet(now: float, zone: str, quiet: QuietHours | None) -> bool:
    """Whether `now` falls in the player's quiet hours (local time)."""
    if quiet is None:
        return False
    first, end = quiet
    hour = local(now, zone).hour
    return first <= hour < end if first < end else hour >= first or hour < end


def digest_day(now: float, zone: str, hour: int) -> str | None:
    """The local date (`2026-11-26`) whose digest is due at `now`: from `hour`:00 local time
    on; None before it.  A digest missed while the bot was down is sent when it is back, the
    same day; the caller claims the day so that it never goes out twice."""
    moment = local(now, zone)
    return moment.date().isoformat() if moment.hour >= hour else None


def describe_quiet(quiet: QuietHours | None) -> str:
    return tr("none") if quiet is None else f"{quiet[0]:02d}:00–{quiet[1]:02d}:00"
