"""Notices each player chooses (`service`), when they may be sent (`schedule`), and holidays
and nudges (`holidays`)."""

from bot.services.notices.holidays import Holidays, Nudged, VacationChange, VacationStatus
from bot.services.notices.schedule import describe_quiet, zone_names
from bot.services.notices.service import (
    MODES,
    SERVER_MODES,
    Mode,
    NoticePrefs,
    NoticeService,
    ReminderRoute,
    ServerNotices,
    TurnRoute,
    Waiting,
)

__all__ = [
    "MODES",
    "SERVER_MODES",
    "Holidays",
    "Mode",
    "NoticePrefs",
    "NoticeService",
    "Nudged",
    "ReminderRoute",
    "ServerNotices",
    "TurnRoute",
    "VacationChange",
    "VacationStatus",
    "Waiting",
    "describe_quiet",
    "zone_names",
]
