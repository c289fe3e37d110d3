"""ClockState and TimeControl: pure transitions, reminders, timeouts, formatting, parsing."""

from __future__ import annotations

import json

import pytest

from bot.clocks import (
    PRESETS,
    ClockState,
    InvalidTimeControl,
    Reminder,
    TimeControl,
    Timeout,
    format_clock,
    format_duration,
    parse_duration,
    parse_time_control,
    timeout_move,
)
from bot.clocks.model import ClockEvent

T0 = 1_000_000.0
H = 3600.0


def run_out(clock: ClockState, limit: int = 100) -> list[tuple[float, ClockEvent]]:
    """Step from event to event until a timeout, as the scheduler would: (offset, event)."""
    fired: list[tuple[float, ClockEvent]] = []
    at = T0
    for _ in range(limit):
        found = clock.next_event(at)
        if found is None:
            break
        at = found[0]
        clock, events = clock.take_due(at)
        fired.extend((event.due - T0, event) for event in events)
        if any(isinstance(e, Timeout) for e in events):
            break
    return fired


def labels(fired: list[tuple[float, ClockEvent]]) -> list[tuple[float, str]]:
    return [(at, e.label if isinstance(e, Reminder) else "TIMEOUT") for at, e in fired]


# --- presets and controls -------------------------------------------------------------


def test_presets_match_the_issue() -> None:
    blitz, rapid, daily = PRESETS["blitz"], PRESETS["rapid"], PRESETS["daily"]
    assert (blitz.per_move, blitz.reserve, blitz.draft_time, blitz.via) == (60, 180, 120, "channel")
    assert (rapid.per_move, rapid.reserve, rapid.via) == (300, 900, "channel")
    assert (daily.per_move, daily.reserve, daily.via) == (24 * H, 72 * H, "dm")
    assert (daily.move_reminders, daily.reserve_every) == ((12 * H, 1 * H), None)
    assert (blitz.move_reminders, blitz.reserve_every) == ((30.0, 15.0, 5.0), 30.0)
    assert (PRESETS["none"].unlimited, PRESETS["none"].kind) == (True, "none")


def test_kind_is_derived_from_the_move_time_unless_given() -> None:
    assert TimeControl.custom(59 * 60).kind == "short"
    assert TimeControl.custom(H).kind == "long"
    assert TimeControl.custom(10 * 60, kind="long").via == "dm"


def test_bad_controls_are_refused() -> None:
    with pytest.raises(InvalidTimeControl):
        TimeControl.custom(0)
    with pytest.raises(InvalidTimeControl):
        TimeControl.custom(60, -5)


# --- reminders in order ---------------------------------------------------------------


def test_blitz_reminders_fire_once_each_in_order_then_timeout() -> None:
    clock = ClockState.new(PRESETS["blitz"]).start_turn({0}, T0)
    assert labels(run_out(clock)) == [
        (30, "30 s left"),
        (45, "15 s left"),
        (55, "5 s left"),
        (60, "entering reserve"),
        (90, "2:30 of reserve left"),
        (120, "2:00 of reserve left"),
        (150, "1:30 of reserve left"),
        (180, "1:00 of reserve left"),
        (210, "0:30 of reserve left"),
        (240, "TIMEOUT"),
    ]
    assert all(e.via == "channel" for _, e in run_out(clock) if isinstance(e, Reminder))


def test_daily_reminders_go_by_dm_at_12h_1h_and_entering_reserve() -> None:
    clock = ClockState.new(PRESETS["daily"]).start_turn({1}, T0)
    fired = run_out(clock)
    assert labels(fired) == [
        (12 * H, "12 h left"),
        (23 * H, "1 h left"),
        (24 * H, "entering reserve"),
        (96 * H, "TIMEOUT"),
    ]
    assert {e.via for _, e in fired if isinstance(e, Reminder)} == {"dm"}
    assert all(e.seat == 1 for _, e in fired)


def test_reminder_points_are_settings() -> None:
    control = TimeControl.custom(60, 60, move_reminders=[10], remind_on_reserve=False, reserve_every=None)
    clock = ClockState.new(control).start_turn({0}, T0)
    assert labels(run_out(clock)) == [(50, "10 s left"), (120, "TIMEOUT")]


def test_reminder_points_above_the_move_time_never_fire() -> None:
    clock = ClockState.new(TimeControl.custom(20)).start_turn({0}, T0)
    assert labels(run_out(clock)) == [(5, "15 s left"), (15, "5 s left"), (20, "TIMEOUT")]


def test_overdue_reminders_collapse_to_the_most_urgent() -> None:
    clock = ClockState.new(PRESETS["blitz"]).start_turn({0}, T0)
    clock, events = clock.take_due(T0 + 57)
    assert [e.label for e in events if isinstance(e, Reminder)] == ["5 s left"]
    assert clock.next_event(T0 + 57) == (T0 + 60, Reminder(0, "reserve", "entering reserve", T0 + 60, "channel"))


def test_a_due_timeout_supersedes_reminders() -> None:
    clock = ClockState.new(PRESETS["blitz"]).start_turn({0}, T0)
    clock, events = clock.take_due(T0 + 500)
    assert events == [Timeout(0, T0 + 240)]
    assert clock.next_event(T0 + 500) is None


def test_take_due_twice_announces_nothing_new() -> None:
    clock = ClockState.new(PRESETS["blitz"]).start_turn({0}, T0)
    clock, first = clock.take_due(T0 + 30)
    assert len(first) == 1
    assert clock.take_due(T0 + 31)[1] == []


# --- charging time and the reserve -------------------------------------------------------


def test_move_time_is_used_first_then_the_reserve_which_is_not_refilled() -> None:
    clock = ClockState.new(PRESETS["blitz"]).start_turn({0}, T0)
    assert clock.remaining(0, T0 + 20) == (40, 180)
    assert clock.remaining(0, T0 + 75) == (0, 165)
    clock = clock.start_turn({1}, T0 + 75)
    assert clock.remaining(0, T0 + 75) == (60, 165)
    clock = clock.start_turn({0}, T0 + 100)
    assert clock.remaining(0, T0 + 100) == (60, 165)
    assert clock.remaining(0, T0 + 200) == (0, 125)


def test_unused_move_time_is_not_banked() -> None:
    clock = ClockState.new(PRESETS["blitz"]).start_turn({0}, T0).start_turn({1}, T0 + 10)
    clock = clock.start_turn({0}, T0 + 20)
    assert clock.remaining(0, T0 + 20) == (60, 180)


def test_reserve_reminders_are_spaced_from_the_reserve_the_move_started_with() -> None:
    clock = ClockState.new(PRESETS["blitz"]).start_turn({0}, T0).start_turn({1}, T0 + 75)
    clock = clock.start_turn({0}, T0 + 100)
    fired = labels(run_out(clock))
    assert fired[3:6] == [(160, "entering reserve"), (190, "2:15 of reserve left"), (220, "1:45 of reserve left")]
    assert fired[-1] == (325, "TIMEOUT")


def test_only_the_seat_that_must_act_is_charged() -> None:
    clock = ClockState.new(PRESETS["blitz"]).on_move(1, {0}, T0)
    assert clock.running_seats == {0}
    assert clock.remaining(1, T0 + 500) == (60, 180)
    clock = clock.on_move(0, {1}, T0 + 10)
    assert clock.running_seats == {1}
    assert clock.remaining(0, T0 + 500) == (60, 180)


def test_a_seat_moving_again_gets_a_fresh_move() -> None:
    clock = ClockState.new(PRESETS["blitz"]).start_turn({0}, T0).on_move(0, {0}, T0 + 50)
    assert clock.remaining(0, T0 + 50) == (60, 180)


def test_timeout_only_when_move_time_and_reserve_are_gone() -> None:
    clock = ClockState.new(PRESETS["blitz"]).start_turn({0}, T0)
    assert not clock.expired(0, T0 + 239.9)
    assert clock.expired(0, T0 + 240)
    assert not clock.expired(1, T0 + 10_000)


def test_a_claim_is_possible_only_for_a_missed_timeout() -> None:
    clock = ClockState.new(PRESETS["rapid"]).start_turn({1}, T0)
    assert not clock.expired(1, T0 + 1199)  # the claim is refused: time is left
    assert clock.expired(1, T0 + 1200)  # the bot missed it: the claim stands
    assert not clock.start_turn({0}, T0 + 100).expired(1, T0 + 1200)  # seat 1 moved in time


def test_timeout_move_prefers_pass_then_a_forced_move_else_a_loss() -> None:
    assert timeout_move(["5-3 b2-b3", "pass"]) == "pass"
    assert timeout_move(["keep"]) == "keep"
    assert timeout_move(["a1-a2", "b1-b2"]) is None
    assert timeout_move([]) is None


# --- simultaneous drafts --------------------------------------------------------------


def test_a_draft_runs_both_clocks_on_the_draft_time() -> None:
    clock = ClockState.new(PRESETS["blitz"]).on_move(1, {0, 1}, T0, draft=True)
    assert clock.running_seats == {0, 1}
    assert clock.remaining(0, T0 + 30) == clock.remaining(1, T0 + 30) == (90, 180)


def test_draft_picks_keep_one_clock_and_a_finished_drafter_stops() -> None:
    clock = ClockState.new(PRESETS["blitz"]).on_move(1, {0, 1}, T0, draft=True)
    clock = clock.on_move(0, {0, 1}, T0 + 20, draft=True)  # seat 0 picks one tile of eight
    assert clock.remaining(0, T0 + 50) == (70, 180)
    clock = clock.on_move(0, {1}, T0 + 50, draft=True)  # seat 0 submitted its draft
    assert clock.running_seats == {1}
    assert clock.remaining(0, T0 + 500) == (60, 180)
    assert clock.remaining(1, T0 + 130) == (0, 180)  # the draft's own limit: the reserve is untouched
    assert clock.expired(1, T0 + 120) and not clock.expired(1, T0 + 119)


def test_a_draft_limit_is_hard_its_timeout_falls_when_the_draft_time_does() -> None:
    """Domino Wars ruling: 2 minutes to submit the draft, a hard limit of its own, not move
    time plus reserve; so no reserve reminders, and the timeout at 2:00."""
    clock = ClockState.new(PRESETS["blitz"]).start_turn({0, 1}, T0, draft=True)
    assert all(seat.hard for seat in clock.seats)
    clock = clock.take_due(T0 + 110)[0]  # "30 s left" and "15 s left" went out
    assert clock.next_due(T0 + 110) == T0 + 115  # "5 s left"
    clock, events = clock.take_due(T0 + 120)
    assert sorted((e.seat, type(e).__name__) for e in events) == [(0, "Timeout"), (1, "Timeout")]
    assert all(e.due == T0 + 120 for e in events)
    assert clock.next_event(T0 + 120) is None  # nothing after it: no "entering reserve"
    stopped = clock.on_move(0, {1}, T0 + 121, draft=False)  # the picks were completed for seat 0
    assert stopped.remaining(0, T0 + 121) == (60, 180) and not stopped.seats[0].hard


def test_without_a_draft_limit_a_draft_is_an_ordinary_move() -> None:
    clock = ClockState.new(PRESETS["rapid"]).start_turn({0, 1}, T0, draft=True)
    assert not any(seat.hard for seat in clock.seats)
    assert clock.remaining(0, T0 + 400) == (0, 800) and not clock.expired(0, T0 + 400)


def test_draft_reminders_fire_per_seat() -> None:
    clock = ClockState.new(PRESETS["blitz"]).start_turn({0, 1}, T0, draft=True)
    clock, events = clock.take_due(T0 + 90)
    assert sorted((e.seat, e.label) for e in events if isinstance(e, Reminder)) == [(0, "30 s left"), (1, "30 s left")]


def test_a_draft_after_ones_own_move_starts_a_fresh_draft_clock() -> None:
    clock = ClockState.new(PRESETS["blitz"]).start_turn({0}, T0)
    clock = clock.on_move(0, {0, 1}, T0 + 40, draft=True)
    assert clock.remaining(0, T0 + 40) == (120, 180)


def test_the_draft_time_defaults_to_the_move_time() -> None:
    clock = ClockState.new(PRESETS["rapid"]).start_turn({0, 1}, T0, draft=True)
    assert clock.remaining(0, T0) == (300, 900)


# --- pause / resume / restart ------------------------------------------------------------


def test_pause_freezes_and_resume_continues() -> None:
    clock = ClockState.new(PRESETS["blitz"]).start_turn({0}, T0).pause(T0 + 20)
    assert clock.remaining(0, T0 + 1000) == (40, 180)
    assert clock.next_event(T0 + 1000) is None and not clock.expired(0, T0 + 10_000)
    clock = clock.resume(T0 + 1000)
    assert clock.next_event(T0 + 1000) == (T0 + 1010, Reminder(0, "move:30", "30 s left", T0 + 1010, "channel"))


def test_a_move_during_a_pause_starts_frozen() -> None:
    clock = ClockState.new(PRESETS["blitz"]).start_turn({0}, T0).pause(T0 + 5).start_turn({1}, T0 + 6)
    assert clock.remaining(1, T0 + 100) == (60, 180)
    assert clock.resume(T0 + 100).remaining(1, T0 + 110) == (50, 180)


def test_downtime_counts_without_forgiveness() -> None:
    clock = ClockState.new(PRESETS["blitz"]).start_turn({0}, T0)
    rearmed = clock.rearm_after_downtime(T0 + 40, down_since=T0 + 10, forgive_over=None)
    assert rearmed.remaining(0, T0 + 40) == (20, 180)


def test_downtime_beyond_the_setting_is_forgiven() -> None:
    clock = ClockState.new(PRESETS["blitz"]).start_turn({0}, T0)
    rearmed = clock.rearm_after_downtime(T0 + 40, down_since=T0 + 10, forgive_over=10)
    assert rearmed.remaining(0, T0 + 40) == (40, 180)  # 10 s before, 10 s of the 30 s outage
    short = clock.rearm_after_downtime(T0 + 15, down_since=T0 + 10, forgive_over=10)
    assert short.remaining(0, T0 + 15) == (45, 180)  # a short outage counts fully


def test_rearming_keeps_sent_reminders_but_retries_a_timeout() -> None:
    clock = ClockState.new(PRESETS["blitz"]).start_turn({0}, T0)
    clock, _ = clock.take_due(T0 + 30)
    clock, _ = clock.take_due(T0 + 300)
    assert clock.next_event(T0 + 300) is None
    rearmed = clock.rearm_after_downtime(T0 + 400, T0 + 301, None)
    assert rearmed.take_due(T0 + 400)[1] == [Timeout(0, T0 + 240)]
    assert "move:30" in rearmed.seats[0].sent


def test_json_round_trip() -> None:
    clock = ClockState.new(PRESETS["blitz"].with_options(on_timeout="pass")).start_turn({0, 1}, T0, draft=True)
    clock = clock.take_due(T0 + 95)[0].pause(T0 + 96)
    assert ClockState.from_json(json.loads(json.dumps(clock.to_json()))) == clock
    none = ClockState.new(PRESETS["none"]).start_turn({0}, T0)
    assert ClockState.from_json(json.loads(json.dumps(none.to_json()))) == none


def test_no_clock_has_no_events() -> None:
    clock = ClockState.new(PRESETS["none"]).start_turn({0}, T0)
    assert clock.next_event(T0) is None and not clock.expired(0, T0 + 10**9)
    assert clock.display(0, T0) == ""


# --- formatting and parsing -----------------------------------------------------------


def test_format_clock_short_and_long() -> None:
    assert format_clock(42, 150) == "0:42 + 2:30"
    assert format_clock(41.2, 0) == "0:42 + 0:00"
    assert format_clock(23 * H + 10 * 60 + 30, 72 * H, long=True) == "23h 10m + 3d"
    assert format_duration(2 * 86400 + 5 * H, long=True) == "2d 5h"
    assert format_duration(45 * 60, long=True) == "45m"
    assert format_duration(3725) == "1:02:05"


def test_display_of_running_and_idle_seats() -> None:
    clock = ClockState.new(PRESETS["blitz"]).start_turn({0}, T0)
    assert clock.display(0, T0 + 18) == "0:42 + 3:00"
    assert clock.display(1, T0 + 18) == "1:00 + 3:00"
    daily = ClockState.new(PRESETS["daily"]).start_turn({0}, T0)
    assert daily.display(0, T0 + 50 * 60) == "23h 10m + 3d"
    assert clock.header(T0 + 18) == ("0:42 + 3:00", "1:00 + 3:00")
    assert ClockState.new(PRESETS["none"]).header(T0) is None
    assert ClockState.new(TimeControl.custom(90)).display(0, T0) == "1:30"  # no reserve, no "+ 0:00"


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("90s", 90), ("1m30s", 90), ("1:30", 90), ("2h", 7200), ("3d", 259200), ("1.5h", 5400), ("5", 300)],
)
def test_parse_duration(text: str, seconds: float) -> None:
    assert parse_duration(text) == seconds


def test_parse_time_control() -> None:
    assert parse_time_control("Blitz") == PRESETS["blitz"]
    custom = parse_time_control("2m+5m")
    assert (custom.per_move, custom.reserve, custom.kind) == (120, 300, "short")
    assert parse_time_control("24h+3d").kind == "long"
    assert parse_time_control("rapid timeout=pass").on_timeout == "pass"
    assert parse_time_control("3m+10m draft=2m").draft_time == 120
    tuned = parse_time_control("blitz remind=10s,20s every=off")
    assert (tuned.move_reminders, tuned.reserve_every) == ((20.0, 10.0), None)
    assert parse_time_control("rapid remind=off").move_reminders == ()


@pytest.mark.parametrize("text", ["", "abc", "5m+x", "blitz foo=1", "none draft=2m", "0s", "5 m 3"])
def test_parse_time_control_refuses_nonsense(text: str) -> None:
    with pytest.raises(InvalidTimeControl):
        parse_time_control(text)


def test_the_chance_seat_never_runs_a_clock() -> None:
    clock = ClockState.new(PRESETS["blitz"]).on_move(0, {-1}, T0)
    assert clock.running_seats == frozenset()
    assert ClockState.new(PRESETS["blitz"]).start_turn({-1, 1}, T0).running_seats == {1}


def test_describe_for_embeds() -> None:
    assert PRESETS["blitz"].describe() == "blitz: 1:00 per move + 3:00 reserve, draft 2:00"
    assert (
        PRESETS["daily"].with_options(on_timeout="pass").describe() == "daily: 1d per move + 3d reserve, timeout passes"
    )
    assert PRESETS["none"].describe() == "no clock"
