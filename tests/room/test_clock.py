"""The room's clock (RULEBOOK §10.4-§10.6): Unix seconds that a step of the system's
wall clock does not move. A server's NTP step, an operator's ``date``, a resumed
virtual machine once made every decision running time out at once (a step forward:
found with a served table under libfaketime, a 20 s decision folded 0.45 s after a
one-hour step) or wait the step out (a step back: no timeout within 40 s)."""

from __future__ import annotations

import time
from datetime import UTC, date, datetime

from cardroom.room import clock as room_clock
from cardroom.room import commands as cmd
from cardroom.room import events as rv
from cardroom.room.clock import ManualClock, steady_clock, system_clock

from .conftest import Harness, holdem

HOUR = 3600.0


def stepping_table(**options: object) -> tuple[Harness, ManualClock]:
    """A table on a room clock built from a wall clock (returned: the test steps it) and
    a monotonic one (the harness's: ``h.tick`` runs it)."""
    h = Harness(holdem(**options))  # type: ignore[arg-type]
    wall, steady = ManualClock(h.clock.now), ManualClock(50.0)
    h.clock = steady
    h.table.clock = steady_clock(wall, steady)
    return h, wall


def test_the_room_clock_reads_the_wall_clock_once_then_runs_on_monotonic_time() -> None:
    wall, steady = ManualClock(1_800_000_000.0), ManualClock(7.0)
    clock = steady_clock(wall, steady)
    assert clock() == 1_800_000_000.0  # Unix seconds, as records and clients take them
    steady.advance(2.5)
    wall.advance(HOUR)  # stepped forward while it runs
    assert clock() == 1_800_000_002.5
    wall.advance(-2 * HOUR)  # and back
    assert clock() == 1_800_000_002.5


def test_the_servers_clock_is_the_steady_room_clock() -> None:
    # The wall clock read once, run on by the monotonic clock; no step here: the wall.
    assert abs(system_clock() - (room_clock.WALL_OFFSET + time.monotonic())) < 1
    assert abs(system_clock() - time.time()) < 5


def test_10_5_a_wall_clock_step_forward_does_not_time_a_decision_out() -> None:
    h, wall = stepping_table(time_bank_start=0)
    h.seat({0: 40, 1: 40, 2: 40})
    h.tick()
    assert h.actor == "p0"
    wall.advance(HOUR)
    events = h.tick(29)
    assert not any(isinstance(e, rv.TimedOut) for e in events)
    assert rv.TimedOut(0, False) in h.tick(1)  # action_seconds of real time, no less


def test_10_5_a_wall_clock_step_back_does_not_hold_a_decision_for_the_step() -> None:
    h, wall = stepping_table(time_bank_start=0)
    h.seat({0: 40, 1: 40, 2: 40})
    h.tick()
    wall.advance(-HOUR)
    assert rv.TimedOut(0, False) in h.tick(30)  # not an hour and 30 s


def test_10_6_a_wall_clock_step_keeps_the_reconnect_wait() -> None:
    h, wall = stepping_table(time_bank_start=0, action_seconds=10, reconnect_seconds=30)
    h.seat({0: 40, 1: 40, 2: 40})
    h.tick()
    h.do(cmd.Disconnect("p0"))
    wall.advance(HOUR)
    assert not any(isinstance(e, rv.TimedOut) for e in h.tick(29))
    assert rv.TimedOut(0, True) in h.tick(1)


def test_10_4_a_wall_clock_step_forward_does_not_remove_a_player_sitting_out() -> None:
    h, wall = stepping_table()
    h.seat({0: 40, 1: 40})
    h.do(cmd.SitOut("p1"))
    wall.advance(HOUR)
    h.tick(9 * 60)
    assert h.table.state.seats[1] is not None  # ten minutes of real time, no less
    assert any(isinstance(e, rv.PlayerLeft) for e in h.tick(61))


def test_10_5_a_table_resumed_after_standing_still_gives_the_action_time_again() -> None:
    h = Harness(holdem(time_bank_start=20))
    h.seat({0: 40, 1: 40, 2: 40})
    h.tick()
    h.clock.advance(40)  # the table stood still (its database gone) past the bank too
    assert h.table.resume_clocks() == [rv.TurnStarted(0, h.clock.now + 30, False)]
    assert h.table.resume_clocks() == []  # the action time left: nothing moves
    assert not any(isinstance(e, rv.TimedOut) for e in h.tick(29))
    assert rv.TurnStarted(0, h.clock.now + 1 + 20, True) in h.tick(1)  # then his bank


def test_10_3_a_table_resumed_after_standing_still_holds_an_offered_seat_again() -> None:
    h = Harness(holdem(seats=2, waitlist_offer_seconds=60))
    h.seat({0: 40, 1: 40})
    h.do(cmd.JoinWaitlist("p2"))
    h.do(cmd.Leave("p0"))
    h.clock.advance(90)  # stood still: p2 could not take the seat
    assert rv.SeatOffered("p2", 0, h.clock.now + 60) in h.table.resume_clocks()
    assert not any(isinstance(e, rv.WaitlistLeft) for e in h.tick(59.5))


def test_10_6_the_allowance_s_day_is_a_whole_utc_calendar_day() -> None:
    """Disconnect all-ins are counted per UTC day (§10.6, `disconnect_allins_per_day`):
    from 00:00:00 to 23:59:59 UTC is one day, whatever the hour of the use."""
    start = datetime(2026, 12, 7, tzinfo=UTC).timestamp()
    first = room_clock.day_of(start)
    assert first == (date(2026, 12, 7) - date(1970, 1, 1)).days
    assert room_clock.day_of(start + 12 * HOUR) == first
    assert room_clock.day_of(start + 24 * HOUR - 1) == first
    assert room_clock.day_of(start + 24 * HOUR) == first + 1
    assert room_clock.day_of(start - 1) == first - 1
