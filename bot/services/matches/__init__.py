"""Matches: creating, playing and ending them, the lobby around them, and their records.

The rest of the bot imports from here.  Inside the package each module has one job:
`service` (MatchService: challenges, play, clocks, queries), `commit` (a change of a match
as one `Transition`, and the one way it is written), `describe` (how a change of state
becomes an update), `updates` (what a change tells its callers), `errors` (the refusals),
`cache` (live states), `options` (typed options to engine options), `clocks` (a match's
clock and the keeper wiring), `agreements` (draw offers, takebacks), `lobby` (venues,
expiry, rematches) and `records` (a stored match as a record).  The match rows and their
status are the store's types, handed out here so that callers need not reach into the store.
"""

from bot.services.matches.agreements import Agreements, Offered
from bot.services.matches.clocks import TIME_UP, ClockResultHandler, attach_clocks, clock_of
from bot.services.matches.commit import FinishListener, Transition, commit_transition
from bot.services.matches.errors import (
    SECRET_IN_PUBLIC,
    ChallengeClosed,
    ChannelBusy,
    MatchConflict,
    NoClock,
    NoMatchHere,
    NoSuchMatch,
    NotInMatch,
    NotRunning,
    NotStarted,
    NotYourTurn,
    SecretMove,
    ServiceError,
    StalePosition,
    WrongChannel,
)
from bot.services.matches.lobby import VENUES, ChallengeExpired, GuildSettings, Lobby, RematchStands, parse_expiry
from bot.services.matches.options import PER_SEAT_WORDS, SEAT_PREFS, resolve_options, started_options
from bot.services.matches.records import build_record, engine_options, job_for
from bot.services.matches.service import MatchService, where_played
from bot.services.matches.updates import ClockChange, ClockNotice, ClockResult, Told, Update
from bot.store import MatchRow, MatchStatus, MoveRow  # the rows the service hands out
from bot.store.outage import DatabaseUnavailable
from bot.store.outage import unavailable as database_unavailable  # for the cogs' error replies

__all__ = [
    "PER_SEAT_WORDS",
    "SEAT_PREFS",
    "SECRET_IN_PUBLIC",
    "TIME_UP",
    "VENUES",
    "Agreements",
    "ChallengeClosed",
    "ChallengeExpired",
    "ChannelBusy",
    "ClockChange",
    "ClockNotice",
    "ClockResult",
    "ClockResultHandler",
    "DatabaseUnavailable",
    "FinishListener",
    "GuildSettings",
    "Lobby",
    "MatchConflict",
    "MatchRow",
    "MatchService",
    "MatchStatus",
    "MoveRow",
    "NoClock",
    "NoMatchHere",
    "NoSuchMatch",
    "NotInMatch",
    "NotRunning",
    "NotStarted",
    "NotYourTurn",
    "Offered",
    "RematchStands",
    "SecretMove",
    "ServiceError",
    "StalePosition",
    "Told",
    "Transition",
    "Update",
    "WrongChannel",
    "attach_clocks",
    "build_record",
    "clock_of",
    "commit_transition",
    "database_unavailable",
    "engine_options",
    "job_for",
    "parse_expiry",
    "resolve_options",
    "started_options",
    "where_played",
]
