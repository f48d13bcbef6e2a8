"""The one place table state changes: apply one room event to a :class:`TableState`.

The live table and a table rebuilt from its record run the same function, so
both reach the same state (the hand itself is rebuilt from its own events).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardroom.room import events as rv
from cardroom.room.positions import Positions
from cardroom.room.state import Advance, Departure, Offer, SeatState, TableState


def _seat(state: TableState, s: int) -> SeatState:
    seat = state.seats[s]
    assert seat is not None, f"no player in seat {s}"
    return seat


def apply_event(state: TableState, e: rv.RoomEvent) -> None:
    """Apply ``e`` to ``state`` (the event is assumed valid: the table checked it)."""
    state.seq += 1
    if isinstance(e, rv.TurnStarted):  # one every decision: the commonest by far, so first
        state.turn = e
        return
    handler = _HANDLERS.get(type(e))
    if handler is not None:
        handler(state, e)


def _seated(state: TableState, e: rv.PlayerSeated) -> None:
    state.seats[e.seat] = SeatState(
        e.player, e.stack, e.time_bank, owes=e.owes, post_now=e.post_now
    )
    state.offers.pop(e.player, None)
    state.departures.pop(e.player, None)
    state.index[e.player] = e.seat


def _chips(state: TableState, e: rv.ChipsAdded) -> None:
    _seat(state, e.seat).stack = e.stack


def _left(state: TableState, e: rv.PlayerLeft) -> None:
    bank = _seat(state, e.seat).time_bank
    state.seats[e.seat] = None
    state.reindex()
    if e.reason != rv.TABLE_CLOSED:  # what the player chose to take off, his bank
        state.departures[e.player] = Departure(e.cashed_out, e.at, bank)


def _departures_forgotten(state: TableState, e: rv.DeparturesForgotten) -> None:
    for player in e.players:
        state.departures.pop(player, None)


def _leave_requested(state: TableState, e: rv.LeaveRequested) -> None:
    seat = _seat(state, e.seat)
    seat.leaving, seat.leave_reason = True, e.reason


def _leave_cancelled(state: TableState, e: rv.LeaveCancelled) -> None:
    seat = _seat(state, e.seat)
    seat.leaving, seat.leave_reason = False, "left"


def _sat_out(state: TableState, e: rv.SatOut) -> None:
    seat = _seat(state, e.seat)
    seat.sitting_out, seat.sit_out_next, seat.post_now = True, False, False
    seat.sat_out_for = e.reason
    # Away since the last sit-out if no hand was dealt to him since (see _sat_in).
    if seat.sat_out_at is None or seat.hands_dealt != seat.sat_out_hands:
        seat.sat_out_at, seat.sat_out_hands = e.at, seat.hands_dealt


def _sit_out_requested(state: TableState, e: rv.SitOutRequested) -> None:
    _seat(state, e.seat).sit_out_next = True


def _auto_muck_set(state: TableState, e: rv.AutoMuckSet) -> None:
    _seat(state, e.seat).auto_muck = e.on


def _sat_in(state: TableState, e: rv.SatIn) -> None:
    seat = _seat(state, e.seat)
    seat.sitting_out, seat.sit_out_next, seat.sat_out_for = False, False, None
    seat.post_now = e.post_now
    # sat_out_at stays: a sit-in dealing him no hand is no return (_sat_out), or toggling
    # sit in / sit out would hold a seat for ever (§10.4).


def _disconnected(state: TableState, e: rv.Disconnected) -> None:
    seat = _seat(state, e.seat)
    seat.connected, seat.disconnected_at = False, e.at


def _reconnected(state: TableState, e: rv.Reconnected) -> None:
    seat = _seat(state, e.seat)
    seat.connected, seat.disconnected_at = True, None


def _wl_joined(state: TableState, e: rv.WaitlistJoined) -> None:
    state.waitlist.append(e.player)


def _wl_left(state: TableState, e: rv.WaitlistLeft) -> None:
    if e.player in state.waitlist:
        state.waitlist.remove(e.player)
    state.offers.pop(e.player, None)


def _offered(state: TableState, e: rv.SeatOffered) -> None:
    state.offers[e.player] = Offer(e.seat, e.expires)


def _dealt(state: TableState, e: rv.HandDealt) -> None:
    state.hand_no, state.game = e.hand_no, e.game
    state.positions = Positions(e.button, e.sb, e.bb)
    state.in_hand, state.dealt, state.turn = True, e.dealt, None
    for s in e.dealt:
        seat = _seat(state, s)
        if not e.debts_kept:  # dealt in: what was owed is posted (or no longer owed)
            seat.owes, seat.post_now, seat.missed_bb_hand = None, False, None
        seat.hands_dealt += 1
    for s, owes in e.owes:
        seat = _seat(state, s)
        if seat.owes is None or s in e.missed:
            seat.missed_bb_hand = e.hand_no
        seat.owes = owes


def _bank(state: TableState, e: rv.TimeBankChanged) -> None:
    _seat(state, e.seat).time_bank = e.seconds


def _advance_set(state: TableState, e: rv.AdvanceSet) -> None:
    seat = _seat(state, e.seat)
    state.advances += seat.advance is None
    seat.advance = Advance(e.kind, e.amount, e.street, e.bet)


def _advance_cleared(state: TableState, e: rv.AdvanceCleared) -> None:
    seat = _seat(state, e.seat)
    state.advances -= seat.advance is not None
    seat.advance = None


def _hand_over(state: TableState, stacks: tuple[tuple[int, int], ...], next_at: float) -> None:
    for s, stack in stacks:
        seat = _seat(state, s)
        seat.stack, seat.advance = stack, None
    state.in_hand, state.dealt, state.turn = False, (), None
    state.next_hand_at = next_at
    state.reindex()


def _finished(state: TableState, e: rv.HandFinished) -> None:
    _hand_over(state, e.stacks, e.next_hand_at)


def _voided(state: TableState, e: rv.HandVoided) -> None:
    if e.positions is not None:  # undo what the deal did (see _dealt)
        for s in state.dealt:
            _seat(state, s).hands_dealt -= 1
        for s, _player, owes, post_now, missed in e.debts:
            seat = _seat(state, s)
            seat.owes, seat.post_now, seat.missed_bb_hand = owes, post_now, missed
        p = e.positions
        state.positions = Positions(p[0], p[1], p[2]) if p else None
        state.cancelled += 1  # the rotation deals this hand's game again
    _hand_over(state, e.stacks, e.next_hand_at)


_HANDLERS: dict[type, Callable[[TableState, Any], None]] = {
    rv.PlayerSeated: _seated,
    rv.ChipsAdded: _chips,
    rv.PlayerLeft: _left,
    rv.DeparturesForgotten: _departures_forgotten,
    rv.LeaveRequested: _leave_requested,
    rv.LeaveCancelled: _leave_cancelled,
    rv.SatOut: _sat_out,
    rv.SitOutRequested: _sit_out_requested,
    rv.AutoMuckSet: _auto_muck_set,
    rv.SatIn: _sat_in,
    rv.Disconnected: _disconnected,
    rv.Reconnected: _reconnected,
    rv.WaitlistJoined: _wl_joined,
    rv.WaitlistLeft: _wl_left,
    rv.SeatOffered: _offered,
    rv.HandDealt: _dealt,
    rv.TimeBankChanged: _bank,
    rv.AdvanceSet: _advance_set,
    rv.AdvanceCleared: _advance_cleared,
    rv.HandFinished: _finished,
    rv.HandVoided: _voided,
}
