"""The refusals of the match service: every one is a sentence the player reads as it is.

They live apart from the service so that cogs, the lobby, agreements and tournaments can catch
and raise them without importing the service itself; the cogs show `str(exc)` and tell the
kinds apart only where the answer differs (a stale button links the current board, a secret
move typed in the channel is quietly deleted).
"""

from __future__ import annotations

from typing import ClassVar

from bot.i18n import tr


class ServiceError(Exception):
    """A request the service refuses; the message is shown to the user as it is.

    A refusal given in several places has a class of its own whose `sentence` is its message,
    so the same situation is always said the same way (`raise NotRunning()`)."""

    sentence: ClassVar[str | None] = None
    """Texts (bot.i18n): each reader sees the refusal in their language."""

    def __init__(self, message: str | None = None) -> None:
        text = message if message is not None else self.sentence
        if text is None:
            raise TypeError(f"{type(self).__name__} needs a message")
        super().__init__(text)


class NoMatchHere(ServiceError):
    """No such match, or not one in the state the request needs (not started, not running)."""


class NoSuchMatch(NoMatchHere):
    sentence = tr("That match does not exist.")


class NotRunning(NoMatchHere):
    sentence = tr("This match is not running.")


class NotStarted(NoMatchHere):
    sentence = tr("This match has not started yet.")


class ChallengeClosed(ServiceError):
    """The challenge was accepted, declined, withdrawn or expired meanwhile."""

    sentence = tr("This challenge is no longer open.")


class NoClock(ServiceError):
    sentence = tr("This match has no clock.")


class NotInMatch(ServiceError):
    """The user is not one of the match's players (or not the one the request is for)."""

    sentence = tr("You are not playing in this match.")


class NotYourTurn(ServiceError):
    """A seated player tried to act while the game waits for someone else."""

    sentence = tr("It is not your turn.")


class ChannelBusy(ServiceError):
    """The channel already holds a match or an open challenge."""


class MatchConflict(ServiceError):
    """Another writer changed the match at the same moment (the optimistic version check lost)."""


class StalePosition(ServiceError):
    """A move made for a position that is no longer current (an old button)."""


class WrongChannel(ServiceError):
    """A move made from outside the match's channel or thread."""


class SecretMove(ServiceError):
    """A move the game keeps secret, sent where everyone reads it (a typed channel message).

    `legal` says whether it would have been played: a refusal never tells whether a secret
    move was legal, but the cog uses it to tell a secret move from ordinary chatter."""

    def __init__(self, message: str, *, legal: bool) -> None:
        super().__init__(message)
        self.legal = legal


SECRET_IN_PUBLIC = tr(
    "That move is secret, so it is not played from the channel: use the controls in your DMs "
    "or `/hand` (or `/move`, whose replies only you see)."
)
"""The one refusal of a secret move typed in public, legal or not (it must not tell which)."""
