"""Named points where a crash test has the process killed, as a power cut would.

`BONEYARD_CRASH_AT=name` (or `name:n`, the n-th time that point is reached) makes the
process send itself SIGKILL there: no `finally`, no rollback, no closing heartbeat: exactly
what a crash leaves behind.  The crash tests (tests/e2e/test_crashes.py) run the real bot
in a subprocess with one point armed, then restart it and check that nothing announced
went missing and nothing was posted twice.  Unarmed (always, in production) a point costs
one dictionary lookup.
"""

from __future__ import annotations

import os
import signal
from typing import Final

ENV: Final = "BONEYARD_CRASH_AT"


def _armed() -> dict[str, int]:
    armed: dict[str, int] = {}
    for item in os.environ.get(ENV, "").split(","):
        name, _, count = item.strip().partition(":")
        if name:
            armed[name] = int(count or "1")
    return armed


_ARMED: Final = _armed()
_reached: dict[str, int] = {}


def reached(name: str) -> None:
    """Die here if this point is armed (and this is the armed occurrence)."""
    if name not in _ARMED:
        return
    _reached[name] = _reached.get(name, 0) + 1
    if _reached[name] == _ARMED[name]:
        os.kill(os.getpid(), signal.SIGKILL)
