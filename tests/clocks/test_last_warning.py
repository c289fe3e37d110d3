"""`ClockState.warnings_left`: which reminder is the last warning before a loss on time (the one
that goes out whatever the player chose with `/notify`)."""

from __future__ import annotations

import pytest

from bot.clocks import ClockState, Reminder, parse_time_control


@pytest.mark.parametrize(
    ("control", "last"),
    [
        ("blitz", "0:30 of reserve left"),  # the written-out schedule in tests/e2e/harness.py
        ("daily", "entering reserve"),  # 12 h and 1 h of move time, then the reserve: no more
        ("2m", "5 s left"),  # no reserve: the move reminders only
        ("10m+5m every=off", "entering reserve"),
    ],
)
def test_only_the_last_reminder_before_the_timeout_has_no_warning_left(control: str, last: str) -> None:
    clock = ClockState.new(parse_time_control(control)).start_turn([0], 1000.0)
    finals, now = [], 1000.0
    while True:
        due = clock.next_event(now)
        assert due is not None
        now = max(now, due[0])
        clock, events = clock.take_due(now)
        reminders = [e for e in events if isinstance(e, Reminder)]
        if not reminders:
            break  # the timeout
        finals.extend(e.label for e in reminders if clock.warnings_left(0, now) == 0)
    assert finals == [last]
