"""§10.5's time bank is the player's at the table: standing up and sitting down again
does not make it new. Before, a player who had spent his bank left and came back at
once with a full one (``time_bank_start``), as often as he liked."""

from __future__ import annotations

from cardroom.room import commands as cmd
from cardroom.room import events as rv
from cardroom.room.seating import buy_in_bounds, time_bank_on_return
from cardroom.room.state import Departure, state_from_dict, state_to_dict

from .conftest import Harness, holdem


def _spent_five_seconds_then_left() -> Harness:
    """p0 spends 5 s of a 20 s bank on his first decision, then leaves after the hand."""
    h = Harness(holdem(time_bank_start=20))
    h.seat({0: 40, 1: 40, 2: 40})
    h.tick()
    assert h.actor == "p0"
    h.tick(30)  # the action time is up: the bank runs
    h.clock.advance(5)
    h.act("fold")
    assert h.table.state.seats[0].time_bank == 15.0  # type: ignore[union-attr]
    h.do(cmd.Leave("p0"))  # dealt in: he leaves when the hand ends
    h.finish_by_checking()
    assert h.table.state.seats[0] is None
    return h


def _seated(events: list[object]) -> rv.PlayerSeated:
    (seated,) = [e for e in events if isinstance(e, rv.PlayerSeated)]
    return seated


def test_10_5_a_player_back_within_reducing_minutes_has_the_time_bank_he_left_with() -> None:
    h = _spent_five_seconds_then_left()
    h.clock.advance(60 * 29)
    seated = _seated(h.do(cmd.Sit("p0", 3, 40)))
    assert seated.time_bank == 15.0
    assert h.table.state.seats[3].time_bank == 15.0  # type: ignore[union-attr]


def test_10_5_a_player_back_after_reducing_minutes_sits_with_a_new_time_bank() -> None:
    h = _spent_five_seconds_then_left()
    h.tick(60 * 31)  # the departure is forgotten (the reducing rule's window, §10.2)
    assert _seated(h.do(cmd.Sit("p0", 3, 40))).time_bank == 20.0


def test_a_departure_stored_before_the_bank_was_kept_restores_and_gives_a_new_bank() -> None:
    # Snapshots written before held [chips, when]: read back, the reducing rule still
    # binds, and the player sits with time_bank_start.
    h = _spent_five_seconds_then_left()
    snapshot = state_to_dict(h.table.state)
    chips, at, bank = snapshot["departures"]["p0"]
    assert bank == 15.0
    snapshot["departures"]["p0"] = [chips, at]
    h.table.state = state_from_dict(snapshot)
    assert h.table.state.departures["p0"] == Departure(chips, at, None)
    assert time_bank_on_return(h.table, "p0") == 20.0
    assert buy_in_bounds(h.table, "p0")[0] == max(chips, 20)


def test_10_5_a_bank_kept_over_a_departure_is_not_above_the_table_s_maximum_now() -> None:
    # Left with 15 s; the table reopened since with a bank of at most 10 s (an operator's
    # new settings): he comes back with 10 s, the bank "never above time_bank_max".
    h = _spent_five_seconds_then_left()
    h.table.settings = holdem(time_bank_start=5, time_bank_max=10)
    h.clock.advance(60)
    assert _seated(h.do(cmd.Sit("p0", 3, 40))).time_bank == 10.0
