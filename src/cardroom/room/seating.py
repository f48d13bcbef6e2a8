"""Seats and money at the table (RULEBOOK §10.2–§10.4): sitting down, buying in,
rebuys, leaving (and staying after all), sitting out and back in, the waiting list.

Each handler checks everything first, then moves money through the table's bank,
then emits events: a refused command changes nothing.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cardroom.games.checks import MAX_CHIPS
from cardroom.games.variants import BLINDS
from cardroom.room import commands as cmd
from cardroom.room import events as rv
from cardroom.room.errors import (
    ALREADY_SEATED,
    ALREADY_WAITING,
    BAD_COMMAND,
    BUY_IN_TOO_LARGE,
    BUY_IN_TOO_SMALL,
    HAND_IN_PROGRESS,
    INSUFFICIENT_FUNDS,
    NO_SUCH_SEAT,
    NOT_LEAVING,
    NOT_SEATED,
    NOT_WAITING,
    SEAT_RESERVED,
    SEAT_TAKEN,
    STOOD_UP,
    TABLE_NOT_FULL,
    TableError,
)
from cardroom.room.positions import OWES_BIG, dealing_need

if TYPE_CHECKING:
    from cardroom.room.table import Table


def seat_of(table: Table, player: str) -> int:
    """The seat ``player`` sits in; TableError when not seated."""
    s = table.state.seat_of(player)
    if s is None:
        raise TableError(NOT_SEATED, "you are not seated at this table")
    return s


def buy_in_bounds(table: Table, player: str) -> tuple[int, int | None]:
    """The buy-in range for ``player`` now: the table's, raised by the reducing rule
    (§10.2) to what the player took off here within ``reducing_minutes``."""
    low, high = table.settings.buy_in_range
    left = table.state.departures.get(player)
    if left is not None and _reducing_binds(table, left.at):
        low = max(low, left.chips)
        high = None if high is None else max(high, left.chips)
    return low, high


def reducing_floor(table: Table, player: str) -> tuple[int, float] | None:
    """When the reducing rule (§10.2) raises ``player``'s minimum buy-in here: the chips
    he left with and the time (the table's clock) until which they bind; else None."""
    left = table.state.departures.get(player)
    if left is None or not _reducing_binds(table, left.at):
        return None
    if left.chips <= table.settings.buy_in_range[0]:
        return None  # the table's own minimum asks as much
    return left.chips, left.at + 60 * table.settings.reducing_minutes


def _too_small(table: Table, player: str, low: int) -> str:
    """Why a buy-in below ``low`` is refused, in words: the reducing rule says what was
    taken off and for how long it binds (a range of 20 to 40 that refused 30 said
    nothing of why)."""
    floor = reducing_floor(table, player)
    if floor is None:
        return f"the buy-in is at least {low}"
    chips, until = floor
    left = max(1, math.ceil((until - table.now) / 60))
    return (
        f"the buy-in is at least {low}: you left this table with {chips} chips, and "
        f"for {table.settings.reducing_minutes:g} minutes after leaving you may not come "
        f"back with less (no reducing, RULEBOOK §10.2): {left} "
        f"minute{'s' if left > 1 else ''} left"
    )


def check_table_room(table: Table, amount: int) -> None:
    """Refuse chips that would take the table past :data:`MAX_CHIPS` in all: stacks win
    each other's chips, and no stack or pot may pass what the engine deals and a
    browser's numbers show exactly (a deal with a larger stack failed for good)."""
    held = sum(seat.stack for seat in table.state.seats if seat is not None)
    if held + amount > MAX_CHIPS:
        raise TableError(
            BUY_IN_TOO_LARGE,
            f"a table holds at most {MAX_CHIPS} chips in all: "
            f"at most {max(0, MAX_CHIPS - held)} more may come in",
        )


def time_bank_on_return(table: Table, player: str) -> float:
    """The time bank ``player`` sits down with: the one he left with when he left within
    the reducing rule's window (§10.5: leaving does not make a spent bank new), else
    ``time_bank_start``."""
    left = table.state.departures.get(player)
    if left is None or left.time_bank is None or not _reducing_binds(table, left.at):
        return table.settings.time_bank_start
    return min(left.time_bank, table.settings.time_bank_max)  # the max may be lower now


def _reducing_binds(table: Table, left_at: float) -> bool:
    """Whether a departure at ``left_at`` still binds a return (§10.2, the one place)."""
    return table.now - left_at < 60 * table.settings.reducing_minutes


def _sit(table: Table, c: cmd.Sit) -> None:
    state = table.state
    if not 0 <= c.seat < len(state.seats):
        raise TableError(NO_SUCH_SEAT, f"there is no seat {c.seat}")
    if state.seat_of(c.player) is not None:
        raise TableError(ALREADY_SEATED, "you are already seated here")
    if state.seats[c.seat] is not None:
        raise TableError(SEAT_TAKEN, f"seat {c.seat} is taken")
    held = {o.seat for p, o in state.offers.items() if p != c.player}
    # A seat nobody holds goes to whoever is first: the waiting list first, unless every
    # player on it already holds a seat (then it is free for anyone, §10.3).
    queued = c.player not in state.offers and any(p not in state.offers for p in state.waitlist)
    if c.seat in held or queued:
        raise TableError(SEAT_RESERVED, f"seat {c.seat} is held for the waiting list")
    low, high = buy_in_bounds(table, c.player)
    if type(c.amount) is not int or c.amount < low:
        raise TableError(BUY_IN_TOO_SMALL, _too_small(table, c.player, low))
    if high is not None and c.amount > high:
        raise TableError(BUY_IN_TOO_LARGE, f"the buy-in is at most {high}")
    check_table_room(table, c.amount)
    table.bank.buy_in(c.player, c.amount, f"e{state.seq}:buy-in")
    bank = time_bank_on_return(table, c.player)
    blinds = any(g.variant.forced_bets == BLINDS for g in table.settings.games)
    owes = OWES_BIG if blinds else None  # a stud table deals a new player in at once
    table.emit(rv.PlayerSeated(c.player, c.seat, c.amount, owes, c.post_now, bank, table.now))
    if c.player in state.waitlist:
        table.emit(rv.WaitlistLeft(c.player, "seated"))
    if c.ip or c.device:
        table.review_access(c.player, c.ip, c.device)


def _rebuy(table: Table, c: cmd.Rebuy) -> None:
    s = seat_of(table, c.player)
    seat = table.seat(s)
    if table.dealt_in(s):
        raise TableError(HAND_IN_PROGRESS, "chips may be added only between hands")
    if type(c.amount) is not int or c.amount <= 0:
        raise TableError(BAD_COMMAND, "a rebuy is a positive number of chips")
    high = table.settings.buy_in_range[1]
    if high is not None and seat.stack + c.amount > high:
        raise TableError(BUY_IN_TOO_LARGE, f"a stack may not exceed {high}")
    check_table_room(table, c.amount)
    table.bank.buy_in(c.player, c.amount, f"e{table.state.seq}:rebuy")
    table.emit(rv.ChipsAdded(s, c.amount, seat.stack + c.amount))


def _leave(table: Table, c: cmd.Leave) -> None:
    s = seat_of(table, c.player)
    if table.dealt_in(s):
        if not table.seat(s).leaving:
            table.emit(rv.LeaveRequested(s, c.reason))
        hand = table.hand
        if hand is not None and hand.actor == s:
            table.after_hand_change()  # a leaving player's turn is played at once
        return
    remove(table, s, c.reason)


def _stay(table: Table, c: cmd.Stay) -> None:
    s = seat_of(table, c.player)
    seat = table.seat(s)
    if not seat.leaving:
        raise TableError(NOT_LEAVING, "you are not leaving: there is nothing to take back")
    if seat.leave_reason != "left":  # the room's decision (a sanction), not the player's
        raise TableError(STOOD_UP, "the room stands you up after this hand: you may not stay")
    table.emit(rv.LeaveCancelled(s))


def remove(table: Table, s: int, reason: str) -> None:
    """Cash the seat's chips out and free it (offering it to the waiting list)."""
    seat = table.seat(s)
    table.bank.cash_out(seat.player, seat.stack, f"e{table.state.seq}:cash-out")
    table.emit(rv.PlayerLeft(s, seat.player, seat.stack, reason, table.now))
    offer_seats(table)


def _sit_out(table: Table, c: cmd.SitOut) -> None:
    s = seat_of(table, c.player)
    seat = table.seat(s)
    if table.dealt_in(s):
        if not seat.sit_out_next:
            table.emit(rv.SitOutRequested(s))
    elif not seat.sitting_out:
        table.emit(rv.SatOut(s, "asked", table.now))


def _auto_muck(table: Table, c: cmd.AutoMuck) -> None:
    s = seat_of(table, c.player)
    if type(c.on) is not bool:
        raise TableError(BAD_COMMAND, "auto-muck is on or off")
    if table.seat(s).auto_muck != c.on:
        table.emit(rv.AutoMuckSet(s, c.on))


def _sit_in(table: Table, c: cmd.SitIn) -> None:
    s = seat_of(table, c.player)
    seat = table.seat(s)
    if not (seat.sitting_out or seat.sit_out_next) and c.post_now == seat.post_now:
        return
    if seat.stack < table.next_need(seat, post_now=c.post_now):
        raise TableError(INSUFFICIENT_FUNDS, "not enough chips for the forced bets: add chips")
    table.emit(rv.SatIn(s, c.post_now))


def back_from_a_lost_connection(table: Table, s: int) -> None:
    """Seat ``s``'s player is back (§10.6): if the room sat him out because he was away
    at a deal, he is dealt in again as if he had asked, waiting for the big blind if he
    missed it (§10.4). He did not choose to sit out, and a blip at a deal should not
    cost him his place in the game. Short of chips, he stays out."""
    seat = table.seat(s)
    away = seat.sitting_out and seat.sat_out_for == "disconnected"
    if away and seat.stack >= table.next_need(seat):
        table.emit(rv.SatIn(s, False))


def _join_waitlist(table: Table, c: cmd.JoinWaitlist) -> None:
    state = table.state
    if state.seat_of(c.player) is not None:
        raise TableError(ALREADY_SEATED, "you are already seated here")
    if c.player in state.waitlist:
        raise TableError(ALREADY_WAITING, "you are already on the waiting list")
    if free_seats(table):
        raise TableError(TABLE_NOT_FULL, "there is a free seat: sit down")
    table.emit(rv.WaitlistJoined(c.player))


def _leave_waitlist(table: Table, c: cmd.LeaveWaitlist) -> None:
    if c.player not in table.state.waitlist:
        raise TableError(NOT_WAITING, "you are not on the waiting list")
    table.emit(rv.WaitlistLeft(c.player, c.reason))
    offer_seats(table)


def free_seats(table: Table) -> list[int]:
    """Empty seats not held for a player of the waiting list."""
    held = {o.seat for o in table.state.offers.values()}
    return [s for s, seat in enumerate(table.state.seats) if seat is None and s not in held]


def offer_seats(table: Table) -> None:
    """Offer each free seat to the next player waiting, in order (§10.3)."""
    if not table.state.waitlist:
        return
    free = free_seats(table)
    expires = table.now + table.settings.waitlist_offer_seconds
    for player in list(table.state.waitlist):
        if not free:
            return
        if player not in table.state.offers:
            table.emit(rv.SeatOffered(player, free.pop(0), expires))


def expire(table: Table) -> None:
    """Offers not taken in time pass to the next player; long sit-outs are removed;
    departures older than the reducing rule's window are forgotten."""
    for player, offer in sorted(table.state.offers.items()):
        if table.now >= offer.expires:
            table.emit(rv.WaitlistLeft(player, "offer_expired"))
    offer_seats(table)
    limit = 60 * table.settings.sit_out_minutes
    for s, seat in enumerate(table.state.seats):
        if seat is None or not seat.sitting_out or table.dealt_in(s):
            continue
        if seat.sat_out_at is not None and table.now - seat.sat_out_at >= limit:
            remove(table, s, "sat_out_too_long")
    old = [p for p, left in table.state.departures.items() if not _reducing_binds(table, left.at)]
    if old:
        table.emit(rv.DeparturesForgotten(tuple(sorted(old))))


def sit_out_unready(table: Table, need: int, small_blind: int) -> None:
    """Before a deal of a hand whose forced bets are ``need`` (``small_blind``: its small
    blind): players short of the chips to be dealt in (§10.2, with a dead small blind
    when they post both blinds now, §10.4) or disconnected are sat out (they keep the
    seat; the sit-out clock runs)."""
    for s, seat in enumerate(table.state.seats):
        if seat is None or seat.sitting_out:
            continue
        if seat.stack < dealing_need(need, small_blind, seat.owes, seat.post_now):
            table.emit(rv.SatOut(s, "short", table.now))
        elif not seat.connected:
            table.emit(rv.SatOut(s, "disconnected", table.now))


def after_hand(table: Table) -> None:
    """Between hands: leaving players go, sit-out requests take effect, seats are offered."""
    for s, seat in enumerate(table.state.seats):
        if seat is None:
            continue
        if seat.leaving:
            remove(table, s, seat.leave_reason)
        elif seat.sit_out_next:
            table.emit(rv.SatOut(s, "asked", table.now))
    offer_seats(table)


HANDLERS: dict[type, Callable[[Table, Any], None]] = {
    cmd.Sit: _sit,
    cmd.Rebuy: _rebuy,
    cmd.Leave: _leave,
    cmd.Stay: _stay,
    cmd.SitOut: _sit_out,
    cmd.AutoMuck: _auto_muck,
    cmd.SitIn: _sit_in,
    cmd.JoinWaitlist: _join_waitlist,
    cmd.LeaveWaitlist: _leave_waitlist,
}
