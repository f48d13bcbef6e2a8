"""A table's state between events: seats, positions, the waiting list, clocks.

The decision in progress is the last :class:`~cardroom.room.events.TurnStarted`
itself (``state.turn``): whose turn, until when, on the time bank or not.

Plain mutable records with public fields, changed only by
:func:`cardroom.room.reducer.apply_event`. :func:`state_to_dict` /
:func:`state_from_dict` are the snapshot (the hand in progress is not in it: the
hand is rebuilt from its own events).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, NamedTuple

from cardroom.room.events import TurnStarted as Turn
from cardroom.room.positions import Positions


@dataclass(slots=True)
class Advance:
    """A pre-selected action and the situation it assumed (street index, bet to match)."""

    kind: str
    amount: int
    street: int
    bet: int


@dataclass(slots=True)
class SeatState:
    """One occupied seat. ``stack`` is settled chips: during a hand, the stack the hand
    started with (the hand holds the live one)."""

    player: str
    stack: int
    time_bank: float
    sitting_out: bool = False
    sat_out_at: float | None = None
    """Since when the player is away (the sit-out clock of §10.4): set when he sits out,
    unless no hand was dealt to him since the last time (``sat_out_hands``): a sit-in
    dealing him no hand is no return."""
    owes: str | None = None
    post_now: bool = False
    missed_bb_hand: int | None = None
    connected: bool = True
    disconnected_at: float | None = None
    hands_dealt: int = 0
    leaving: bool = False
    sit_out_next: bool = False
    advance: Advance | None = None
    leave_reason: str = "left"
    """Why the seat goes when the hand ends (``PlayerLeft.reason``), while ``leaving``."""
    auto_muck: bool = True
    """Muck losing hands at the showdown (RULEBOOK §7, default on), from the next deal."""
    sat_out_hands: int = 0
    """``hands_dealt`` when ``sat_out_at`` was set (a cancelled hand gives its count back,
    so it does not count as played)."""
    sat_out_for: str | None = None
    """Why he sits out (``SatOut.reason``): the room sits one it sat out for a lost
    connection in again when he is back (§10.6)."""


@dataclass(slots=True)
class Offer:
    """A seat held for a player from the waiting list until ``expires``."""

    seat: int
    expires: float


class Departure(NamedTuple):
    """A player's stand-up, remembered for the reducing rule's window (§10.2): the chips
    he took off bind his return's buy-in, and he comes back with the time bank he left
    with (§10.5: leaving does not make a spent bank new)."""

    chips: int
    at: float
    time_bank: float | None = None
    """None: a departure stored before the bank was kept (a new bank on return)."""

    @classmethod
    def of(cls, stored: list[Any]) -> Departure:
        """The departure a snapshot holds (``[chips, at]`` or ``[chips, at, bank]``)."""
        bank = float(stored[2]) if len(stored) > 2 and stored[2] is not None else None
        return cls(int(stored[0]), float(stored[1]), bank)


@dataclass(slots=True)
class TableState:
    """Everything a table knows between events (the hand object aside)."""

    seats: list[SeatState | None]
    hand_no: int = 0
    game: int = 0
    positions: Positions | None = None
    in_hand: bool = False
    dealt: tuple[int, ...] = ()
    turn: Turn | None = None
    next_hand_at: float = 0.0
    waitlist: list[str] = field(default_factory=list)
    offers: dict[str, Offer] = field(default_factory=dict)
    departures: dict[str, Departure] = field(default_factory=dict)
    """Player -> his last departure, within the reducing rule's window (§10.2)."""
    seq: int = 0
    """Events applied so far (makes the ledger's idempotency keys)."""
    cancelled: int = 0
    """Hands cancelled so far (§10.10): a mixed rotation counts only the others."""
    # Derived from the seats (not in the snapshot), kept by the reducer for speed.
    index: dict[str, int] = field(default_factory=dict)
    """Player -> seat."""
    advances: int = 0
    """Seats with a pre-selected action."""

    def seat_of(self, player: str) -> int | None:
        """The seat ``player`` sits in, or None."""
        return self.index.get(player)

    def rotation_hand(self, hand_no: int) -> int:
        """Hand ``hand_no``'s number in a mixed rotation: a cancelled hand is as if never
        dealt, so it is not counted (its game's hand is dealt again)."""
        return hand_no - self.cancelled

    def reindex(self) -> None:
        """Recompute the derived fields from the seats."""
        self.index = {s.player: i for i, s in enumerate(self.seats) if s is not None}
        self.advances = sum(1 for s in self.seats if s is not None and s.advance is not None)


def _seat_to_dict(seat: SeatState) -> dict[str, Any]:
    # A snapshot is taken at every deal: one dict display (built presized, in one go)
    # is several times faster than dict(zip(...)) over the fields. A test checks that
    # it names every field of SeatState.
    adv = seat.advance
    return {
        "player": seat.player,
        "stack": seat.stack,
        "time_bank": seat.time_bank,
        "sitting_out": seat.sitting_out,
        "sat_out_at": seat.sat_out_at,
        "sat_out_hands": seat.sat_out_hands,
        "sat_out_for": seat.sat_out_for,
        "owes": seat.owes,
        "post_now": seat.post_now,
        "missed_bb_hand": seat.missed_bb_hand,
        "connected": seat.connected,
        "disconnected_at": seat.disconnected_at,
        "hands_dealt": seat.hands_dealt,
        "leaving": seat.leaving,
        "leave_reason": seat.leave_reason,
        "sit_out_next": seat.sit_out_next,
        "auto_muck": seat.auto_muck,
        "advance": None if adv is None else vars_of(adv),
    }


def vars_of(record: Advance | Turn | Offer | Positions) -> dict[str, Any]:
    """A flat record's fields as a dict."""
    names = _NAMES.get(type(record))
    if names is None:
        names = _NAMES[type(record)] = tuple(f.name for f in fields(record))
    return {name: getattr(record, name) for name in names}


# Field names by record type: dataclasses.fields() filters every field in Python, and a
# snapshot is taken at every deal.
_NAMES: dict[type, tuple[str, ...]] = {}


def state_to_dict(state: TableState) -> dict[str, Any]:
    """The snapshot as JSON data."""
    return {
        "seats": [None if s is None else _seat_to_dict(s) for s in state.seats],
        "hand_no": state.hand_no,
        "game": state.game,
        "positions": None if state.positions is None else vars_of(state.positions),
        "in_hand": state.in_hand,
        "dealt": list(state.dealt),
        "turn": None if state.turn is None else vars_of(state.turn),
        "next_hand_at": state.next_hand_at,
        "waitlist": list(state.waitlist),
        "offers": {p: vars_of(o) for p, o in state.offers.items()},
        "departures": {p: list(v) for p, v in state.departures.items()},
        "seq": state.seq,
        "cancelled": state.cancelled,
    }


def state_from_dict(data: dict[str, Any]) -> TableState:
    """The inverse of :func:`state_to_dict`."""
    seats: list[SeatState | None] = []
    for raw in data["seats"]:
        if raw is None:
            seats.append(None)
            continue
        values = dict(raw)
        adv = values.pop("advance")
        seats.append(SeatState(**values, advance=None if adv is None else Advance(**adv)))
    pos = data["positions"]
    turn = data["turn"]
    state = TableState(
        seats=seats,
        hand_no=data["hand_no"],
        game=data["game"],
        positions=None if pos is None else Positions(**pos),
        in_hand=data["in_hand"],
        dealt=tuple(data["dealt"]),
        turn=None if turn is None else Turn(**turn),
        next_hand_at=data["next_hand_at"],
        waitlist=list(data["waitlist"]),
        offers={p: Offer(**o) for p, o in data["offers"].items()},
        departures={p: Departure.of(v) for p, v in data["departures"].items()},
        seq=data["seq"],
        cancelled=data.get("cancelled", 0),  # snapshots before it: none counted
    )
    state.reindex()
    return state
