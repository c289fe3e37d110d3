"""Rate-limited log lines: a fault that repeats every second is logged once per period.

Why: during an outage (a full disk, a database restarting) the same failure happens at every
try, and a log that repeats a 14-line traceback every second buries the one line that says
what is wrong, and fills the very disk that is full.  The first occurrence is logged in
full; later ones within `period` seconds are counted and the count is said with the next line.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any


class RateLimitedLog:
    """Logs through `logger` at most one line per `period` seconds; `reset()` after recovery."""

    def __init__(self, logger: logging.Logger, period: float, *, now: Callable[[], float] = time.monotonic) -> None:
        self.logger = logger
        self.period = period
        self._now = now
        self._last: float | None = None
        self._skipped = 0

    def reset(self) -> None:
        self._last = None
        self._skipped = 0

    def log(self, level: int, message: str, *args: Any, exc_info: BaseException | None = None) -> bool:
        """Log unless a line was logged within the period (True: logged)."""
        now = self._now()
        if self._last is not None and now - self._last < self.period:
            self._skipped += 1
            return False
        if self._skipped:
            message += " (%d similar lines suppressed)"
            args = (*args, self._skipped)
        self._last = now
        self._skipped = 0
        self.logger.log(level, message, *args, exc_info=exc_info)
        return True

    def error(self, message: str, *args: Any, exc_info: BaseException | None = None) -> bool:
        return self.log(logging.ERROR, message, *args, exc_info=exc_info)

    def warning(self, message: str, *args: Any, exc_info: BaseException | None = None) -> bool:
        return self.log(logging.WARNING, message, *args, exc_info=exc_info)
