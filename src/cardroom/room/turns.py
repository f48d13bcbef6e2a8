"""Acting in time and while away (RULEBOOK §10.5, §10.6).

Each decision has ``action_seconds``; then the player's time bank runs; then the
table acts for the player (check if possible, otherwise fold, through the
engine's room entry point). A disconnected player's turn waits
``reconnect_seconds`` (from the turn's start or the disconnection, the later);
then the table checks, or gives a disconnect all-in when the table offers them,
the player faces a bet with chips already in and has one left today, or folds.
A decision waits so once (``TurnStarted.waited``): a player who comes back and goes
again in the same decision finds his clock running on (the action time, or the bank
already running), and the table acts for him when it runs out with him away.

Advance actions: ``check_fold``, ``check``, ``call_any``, ``call`` (an amount),
``fold``, set before one's turn and played when it comes. Each remembers the
street and the bet to match when it was set: every one is dropped when the street
changes, and ``check`` and ``call X`` also when the bet changes (the situation
they assumed); ``check_fold``, ``call_any`` and ``fold`` stand through raises.
``fold`` checks instead when a check is free. Advance actions apply to betting
decisions only (not to a draw or a bring-in).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from cardroom.games import Action, Hand
from cardroom.games.actions import CALL, CHECK, FOLD
from cardroom.room import commands as cmd
from cardroom.room import engine_port
from cardroom.room import events as rv
from cardroom.room.clock import day_of
from cardroom.room.errors import (
    BAD_COMMAND,
    NO_RESET_LEFT,
    NOT_IN_HAND,
    NOTHING_TO_RESET,
    YOUR_TURN,
    TableError,
)
from cardroom.room.seating import back_from_a_lost_connection, seat_of
from cardroom.room.state import SeatState

if TYPE_CHECKING:
    from cardroom.room.table import Table

CHECK_FOLD: Final = "check_fold"
CALL_ANY: Final = "call_any"
ADVANCE_KINDS: Final = frozenset({CHECK_FOLD, CHECK, CALL_ANY, CALL, FOLD})


def bank_left(turn: rv.TurnStarted, now: float) -> float:
    """Seconds left of a time bank running on ``turn`` at ``now`` (what a player keeps
    when acting, or leaving, on it)."""
    return max(0.0, turn.deadline - now)


def start_turn(table: Table, s: int, seat: SeatState) -> None:
    """Start the clock of ``s``'s decision (``seat``: the player in it)."""
    settings = table.settings
    wait = settings.action_seconds
    away = not seat.connected
    if away:  # the decision's one wait for the player's return
        wait = max(wait, settings.reconnect_seconds)
    table.emit(rv.TurnStarted(s, table.now + wait, False, away))


def expire_turn(table: Table) -> None:
    """Handle a decision whose time ran out (repeatedly, if the clock jumped far)."""
    while table.state.in_hand:
        turn = table.state.turn
        if turn is None or table.now < turn.deadline:
            return
        s = turn.seat
        seat = table.seat(s)
        if turn.bank:
            table.emit(rv.TimeBankChanged(s, 0.0))
        elif seat.connected and seat.time_bank > 0:
            table.emit(rv.TurnStarted(s, turn.deadline + seat.time_bank, True, turn.waited))
            continue
        if not seat.connected and seat.disconnected_at is not None and not turn.waited:
            back_by = seat.disconnected_at + table.settings.reconnect_seconds
            if table.now < back_by:
                table.emit(rv.TurnStarted(s, back_by, False, True))
                continue
        table.play_for(s, disconnected=not seat.connected)


def act_for(table: Table, hand: Hand, s: int, *, disconnected: bool) -> None:
    """The table acts for a player out of time (§10.5) or away (§10.6)."""
    table.emit(rv.TimedOut(s, disconnected))
    seat = table.seat(s)
    day = day_of(table.now)
    if (
        disconnected
        and table.settings.protection_for(table.configs[table.state.game])
        and engine_port.may_disconnect_all_in(hand, s)
        and table.allowances.used(seat.player, day) < table.settings.disconnect_allins_per_day
    ):
        used = table.allowances.use(seat.player, day)
        table.emit(rv.DisconnectAllInUsed(s, seat.player, table.state.hand_no, used, day))
        table.emit_hand(engine_port.disconnect_all_in(hand, s))
    else:
        table.emit_hand(engine_port.timeout(hand, s))
    table.after_hand_change()


def act_without_waiting(table: Table, hand: Hand, s: int) -> bool:
    """Play ``s``'s decision at once if the player is leaving or pre-selected an action
    that fits; True when something was played (the caller moves on)."""
    seat = table.seat(s)
    adv = seat.advance
    if adv is None and not seat.leaving:
        return False
    if seat.leaving:
        table.emit_hand(engine_port.timeout(hand, s))
        return True
    assert adv is not None
    legal = hand.legal_actions(s)
    if legal.draw is not None or legal.bring_in is not None:
        return False
    kind: str | None = None
    if adv.kind in (CHECK_FOLD, FOLD):
        kind = CHECK if legal.check else FOLD
    elif adv.kind == CHECK and legal.check:
        kind = CHECK
    elif adv.kind == CALL_ANY:
        kind = CALL if legal.call is not None else CHECK
    elif adv.kind == CALL and legal.call == adv.amount:
        kind = CALL
    table.emit(rv.AdvanceCleared(s, "used" if kind else "stale"))
    if kind is None:
        return False
    table.emit_hand(hand.apply(engine_port.player_action(s, kind, 0, ())))
    return True


def clear_stale_advances(table: Table, hand: Hand) -> None:
    """Drop the advance actions whose assumed situation changed."""
    seats = table.state.seats
    for s in table.state.dealt:
        seat = seats[s]
        adv = None if seat is None else seat.advance
        if adv is None:
            continue
        reason = ""
        if not hand.is_live(s) or hand.is_all_in(s):
            reason = "out"
        elif hand.street_index != adv.street:
            reason = "street"
        elif adv.kind in (CHECK, CALL) and hand.current_bet != adv.bet:
            reason = "bet_changed"
        if reason:
            table.emit(rv.AdvanceCleared(s, reason))


def clear_advances_at_hand_end(table: Table) -> None:
    """Drop every advance action left when the hand ends (won without the seat's turn
    coming, or cancelled): the room's reducer forgets them with the hand, and a client
    that follows the events must be told, or it keeps showing a choice the room no
    longer holds (a reconnection's snapshot would then disagree with it)."""
    if not table.state.advances:
        return
    for s in table.state.dealt:
        seat = table.state.seats[s]
        if seat is not None and seat.advance is not None:
            table.emit(rv.AdvanceCleared(s, "hand_over"))


def refill_time_banks(table: Table, dealt: list[int]) -> None:
    """The time bank rule: ``time_bank_refill`` seconds every ``time_bank_every`` hands
    dealt in, up to ``time_bank_max``."""
    settings = table.settings
    for s in dealt:
        seat = table.seat(s)
        if seat.hands_dealt % settings.time_bank_every or seat.time_bank >= settings.time_bank_max:
            continue
        topped = min(settings.time_bank_max, seat.time_bank + settings.time_bank_refill)
        table.emit(rv.TimeBankChanged(s, topped))


def _act(table: Table, c: cmd.Act) -> None:
    # The hot path of a table: read the state directly.
    state, hand = table.state, table.hand
    s = state.index.get(c.player)
    if s is None:
        s = seat_of(table, c.player)  # raises: not seated
    if hand is None or not state.in_hand or s not in state.dealt:
        raise TableError(NOT_IN_HAND, "you are not in this hand")
    events = hand.apply(Action(s, c.kind, c.amount, c.cards))  # the engine checks it
    turn = state.turn
    if turn is not None and turn.bank:  # what is left of the bank stays for later
        table.emit(rv.TimeBankChanged(s, bank_left(turn, table.now)))
    if state.advances and table.seat(s).advance is not None:
        table.emit(rv.AdvanceCleared(s, "acted"))
    table.emit_hand(events)
    table.after_hand_change()


def _set_advance(table: Table, c: cmd.SetAdvance) -> None:
    s = seat_of(table, c.player)
    hand = table.hand
    if hand is None or not table.dealt_in(s) or not hand.is_live(s) or hand.is_all_in(s):
        raise TableError(NOT_IN_HAND, "you have no decision coming in this hand")
    if c.kind not in ADVANCE_KINDS:
        raise TableError(BAD_COMMAND, f"unknown advance action {c.kind!r}")
    if hand.actor == s:
        raise TableError(YOUR_TURN, "it is your turn: act now")
    if c.kind != CALL and c.amount != 0:  # as an act's: recorded, it must read back
        raise TableError(BAD_COMMAND, f"only a call assumes an amount, not a {c.kind}")
    to_call = hand.call_amount(s)  # the engine's: a short stack calls all in
    if c.kind == CALL and to_call is None:
        raise TableError(BAD_COMMAND, "there is nothing to call: pre-select a check")
    if c.kind == CALL and c.amount != to_call:
        raise TableError(BAD_COMMAND, f"the call now is {to_call}, not {c.amount}")
    if c.kind == CHECK and to_call is not None:
        raise TableError(BAD_COMMAND, f"there is {to_call} to call: no check")
    table.emit(rv.AdvanceSet(s, c.kind, c.amount, hand.street_index, hand.current_bet))


def _clear_advance(table: Table, c: cmd.ClearAdvance) -> None:
    s = seat_of(table, c.player)
    if table.seat(s).advance is not None:
        table.emit(rv.AdvanceCleared(s, "withdrawn"))


def _disconnect(table: Table, c: cmd.Disconnect) -> None:
    s = seat_of(table, c.player)
    if not table.seat(s).connected:
        return
    table.emit(rv.Disconnected(s, table.now))
    turn = table.state.turn
    mine = table.state.in_hand and turn is not None and turn.seat == s
    if mine and turn is not None and turn.bank and not turn.waited:
        # The time bank is not spent while away: it stops with what is left, and the
        # turn waits reconnect_seconds for the player, as any turn of one away does
        # (once a decision: gone again, the bank runs on).
        table.emit(rv.TimeBankChanged(s, bank_left(turn, table.now)))
        table.emit(rv.TurnStarted(s, table.now + table.settings.reconnect_seconds, False, True))


def _reconnect(table: Table, c: cmd.Reconnect) -> None:
    s = seat_of(table, c.player)
    if not table.seat(s).connected:
        table.emit(rv.Reconnected(s))
        back_from_a_lost_connection(table, s)


def _reset_allowance(table: Table, c: cmd.ResetAllowance) -> None:
    s = seat_of(table, c.player)
    day = day_of(table.now)
    if table.allowances.resets(c.player, day) >= table.settings.allowance_resets_per_day:
        raise TableError(NO_RESET_LEFT, "no reset of disconnect all-ins left today")
    if table.allowances.used(c.player, day) == 0:
        # Granting it would spend the day's one reset on nothing.
        raise TableError(NOTHING_TO_RESET, "no disconnect all-in used today: nothing to reset")
    table.allowances.reset(c.player, day)
    table.emit(rv.AllowanceReset(s, c.player, day))


HANDLERS: dict[type, Callable[[Table, Any], None]] = {
    cmd.Act: _act,
    cmd.SetAdvance: _set_advance,
    cmd.ClearAdvance: _clear_advance,
    cmd.Disconnect: _disconnect,
    cmd.Reconnect: _reconnect,
    cmd.ResetAllowance: _reset_allowance,
}
