"""The record of a hand: small frozen events, in the order they happened.

Events carry every card dealt (the record must allow an exact replay); hiding
other seats' cards is the job of :mod:`cardroom.games.views` alone. Amounts are
integer chips. ``to`` is a player's total bet in the current betting round.

The events built on every hand (not the shared ones) write their own
``__init__``: a compiled build (``setup.py``) runs the one a dataclass generates
as interpreted code, at four times the cost of a compiled one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from cardroom.cards import Card

# Imported at run time: a compiled build (setup.py) reads dataclass field types.
from cardroom.games.config import Seat, TableConfig

K = TypeVar("K", bound=tuple[object, ...])
E = TypeVar("E")


@dataclass(frozen=True, slots=True, init=False)
class HandStarted:
    """The hand's starting point: table configuration, seats (None = nobody dealt in), button."""

    config: TableConfig
    seats: tuple[Seat | None, ...]
    button: int
    blind_seats: tuple[int | None, int | None] | None

    def __init__(
        self,
        config: TableConfig,
        seats: tuple[Seat | None, ...],
        button: int,
        blind_seats: tuple[int | None, int | None] | None,
    ) -> None:
        object.__setattr__(self, "config", config)
        object.__setattr__(self, "seats", seats)
        object.__setattr__(self, "button", button)
        object.__setattr__(self, "blind_seats", blind_seats)


@dataclass(frozen=True, slots=True)
class Posted:
    """A forced bet: ``what`` is ``ante``, ``big_blind_ante`` (dead money for the main pot),
    ``small_blind``, ``big_blind``, ``straddle``, ``button_blind``, ``dead_small_blind`` (or
    ``bring_in``); ``live`` posts count toward the first round's bet."""

    seat: int
    what: str
    amount: int
    live: bool
    all_in: bool


@dataclass(frozen=True, slots=True)
class StreetStarted:
    """Street ``index`` of the variant (``name``: pre-flop, flop, ...) begins."""

    index: int
    name: str


@dataclass(frozen=True, slots=True, init=False)
class HoleDealt:
    """Cards dealt to one seat on one street, in dealing order; ``up[i]`` marks face-up cards."""

    seat: int
    cards: tuple[Card, ...]
    up: tuple[bool, ...]

    def __init__(self, seat: int, cards: tuple[Card, ...], up: tuple[bool, ...]) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "up", up)


@dataclass(frozen=True, slots=True)
class Burned:
    """A burn card (never shown to anyone)."""

    card: Card


@dataclass(frozen=True, slots=True)
class BoardDealt:
    """Community cards turned face up."""

    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True, init=False)
class Drew:
    """A draw: ``discarded`` went to the muck and ``dealt`` replaced them (both empty when
    standing pat); ``timed_out`` when the room stood the player pat. Others see the count only."""

    seat: int
    discarded: tuple[Card, ...]
    dealt: tuple[Card, ...]
    timed_out: bool

    def __init__(
        self, seat: int, discarded: tuple[Card, ...], dealt: tuple[Card, ...], timed_out: bool
    ) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "discarded", discarded)
        object.__setattr__(self, "dealt", dealt)
        object.__setattr__(self, "timed_out", timed_out)


@dataclass(frozen=True, slots=True)
class StubReshuffled:
    """The stub ran out: the muck (never the drawing player's own discards) was shuffled
    into a new stub, in this order (never shown to anyone)."""

    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Acted:
    """A player's action: ``amount`` chips added now; ``to`` the round's bet total after it."""

    seat: int
    kind: str
    amount: int
    to: int
    all_in: bool


@dataclass(frozen=True, slots=True)
class BettingClosed:
    """The betting round of street ``index`` is over; bets go into the pot(s)."""

    index: int


@dataclass(frozen=True, slots=True)
class UncalledReturned:
    """The part of a bet nobody called goes back to the bettor."""

    seat: int
    amount: int


@dataclass(frozen=True, slots=True, init=False)
class Shown:
    """A player's hole cards shown at showdown."""

    seat: int
    cards: tuple[Card, ...]

    def __init__(self, seat: int, cards: tuple[Card, ...]) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "cards", cards)


@dataclass(frozen=True, slots=True)
class Mucked:
    """A player threw the hand away at showdown without showing it."""

    seat: int


@dataclass(frozen=True, slots=True)
class RakeTaken:
    """Rake taken by the house from pot ``pot`` (0 = main pot)."""

    pot: int
    amount: int


@dataclass(frozen=True, slots=True, init=False)
class PotAwarded:
    """Chips of pot ``pot`` paid to ``seat``: ``share`` is ``all``, ``high`` or ``low``;
    ``hand`` names the winning hand in words (empty when won without showdown)."""

    pot: int
    seat: int
    amount: int
    share: str
    hand: str
    cards: tuple[Card, ...]

    def __init__(
        self, pot: int, seat: int, amount: int, share: str, hand: str, cards: tuple[Card, ...]
    ) -> None:
        object.__setattr__(self, "pot", pot)
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "share", share)
        object.__setattr__(self, "hand", hand)
        object.__setattr__(self, "cards", cards)


@dataclass(frozen=True, slots=True, init=False)
class HandEnded:
    """The hand is over; ``stacks`` are the finishing stacks by seat (None = not dealt in)."""

    stacks: tuple[int | None, ...]

    def __init__(self, stacks: tuple[int | None, ...]) -> None:
        object.__setattr__(self, "stacks", stacks)


@dataclass(frozen=True, slots=True)
class HandCancelled:
    """The room cancelled the hand (RULEBOOK §10.10): ``stacks`` are every seat's stack
    back at its start-of-hand value (None = not dealt in); no pot was played."""

    stacks: tuple[int | None, ...]


Event = (
    HandStarted
    | Posted
    | StreetStarted
    | HoleDealt
    | Burned
    | BoardDealt
    | Drew
    | StubReshuffled
    | Acted
    | BettingClosed
    | UncalledReturned
    | Shown
    | Mucked
    | RakeTaken
    | PotAwarded
    | HandEnded
    | HandCancelled
)
"""Any event of a hand."""


_CACHE_MAX = 1 << 14
"""Shared events kept per kind at most (amounts vary without limit across tables)."""


def _share(made: dict[K, E], key: K, make: Callable[..., E]) -> E:
    """The shared ``make(*key)``: events are immutable and compare by value, so a record
    may hold the same object twice, and the engine's hot path saves building one."""
    found = made.get(key)
    if found is None:
        if len(made) >= _CACHE_MAX:
            made.clear()
        found = made[key] = make(*key)
    return found


_ACTED: dict[tuple[int, str, int, int, bool], Acted] = {}
_POSTED: dict[tuple[int, str, int, bool, bool], Posted] = {}
_STREETS: dict[tuple[int, str], StreetStarted] = {}
_CLOSED: dict[tuple[int], BettingClosed] = {}


def shared_acted(seat: int, kind: str, amount: int, to: int, all_in: bool) -> Acted:
    """``Acted(...)``, one shared object per distinct action event."""
    return _share(_ACTED, (seat, kind, amount, to, all_in), Acted)


def shared_posted(seat: int, what: str, amount: int, live: bool, all_in: bool) -> Posted:
    """``Posted(...)``, one shared object per distinct forced bet (a table posts the same ones)."""
    return _share(_POSTED, (seat, what, amount, live, all_in), Posted)


def shared_street_started(index: int, name: str) -> StreetStarted:
    """``StreetStarted(...)``, shared (a game has a handful of streets)."""
    return _share(_STREETS, (index, name), StreetStarted)


def shared_betting_closed(index: int) -> BettingClosed:
    """``BettingClosed(...)``, shared (one per street index)."""
    return _share(_CLOSED, (index,), BettingClosed)
