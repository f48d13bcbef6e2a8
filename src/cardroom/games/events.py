"""The record of a hand: small events (immutable values), in the order they happened.

Events carry every card dealt (the record must allow an exact replay); hiding
other seats' cards is the job of :mod:`cardroom.games.views` alone. Amounts are
integer chips. ``to`` is a player's total bet in the current betting round.
"""

from __future__ import annotations

from cardroom.cards import Card
from cardroom.games.config import Seat, TableConfig
from cardroom.values import value


@value
class HandStarted:
    """The hand's starting point: table configuration, seats (None = nobody dealt in), button."""

    config: TableConfig
    seats: tuple[Seat | None, ...]
    button: int
    blind_seats: tuple[int | None, int | None] | None


@value
class Posted:
    """A forced bet: ``what`` is ``ante``, ``big_blind_ante`` (dead money for the main pot),
    ``small_blind``, ``big_blind``, ``straddle``, ``button_blind``, ``dead_small_blind`` (or
    ``bring_in``); ``live`` posts count toward the first round's bet."""

    seat: int
    what: str
    amount: int
    live: bool
    all_in: bool


@value
class StreetStarted:
    """Street ``index`` of the variant (``name``: pre-flop, flop, ...) begins."""

    index: int
    name: str


@value
class HoleDealt:
    """Cards dealt to one seat on one street, in dealing order; ``up[i]`` marks face-up cards."""

    seat: int
    cards: tuple[Card, ...]
    up: tuple[bool, ...]


@value
class Burned:
    """A burn card (never shown to anyone)."""

    card: Card


@value
class BoardDealt:
    """Community cards turned face up."""

    cards: tuple[Card, ...]


@value
class Drew:
    """A draw: ``discarded`` went to the muck and ``dealt`` replaced them (both empty when
    standing pat); ``timed_out`` when the room stood the player pat. Others see the count only."""

    seat: int
    discarded: tuple[Card, ...]
    dealt: tuple[Card, ...]
    timed_out: bool


@value
class StubReshuffled:
    """The stub ran out: the muck (never the drawing player's own discards) was shuffled
    into a new stub, in this order (never shown to anyone)."""

    cards: tuple[Card, ...]


@value
class Acted:
    """A player's action: ``amount`` chips added now; ``to`` the round's bet total after it."""

    seat: int
    kind: str
    amount: int
    to: int
    all_in: bool


@value
class BettingClosed:
    """The betting round of street ``index`` is over; bets go into the pot(s)."""

    index: int


@value
class UncalledReturned:
    """The part of a bet nobody called goes back to the bettor."""

    seat: int
    amount: int


@value
class Shown:
    """A player's hole cards shown at showdown."""

    seat: int
    cards: tuple[Card, ...]


@value
class Mucked:
    """A player threw the hand away at showdown without showing it."""

    seat: int


@value
class RakeTaken:
    """Rake taken by the house from pot ``pot`` (0 = main pot)."""

    pot: int
    amount: int


@value
class PotAwarded:
    """Chips of pot ``pot`` paid to ``seat``: ``share`` is ``all``, ``high`` or ``low``;
    ``hand`` names the winning hand in words (empty when won without showdown)."""

    pot: int
    seat: int
    amount: int
    share: str
    hand: str
    cards: tuple[Card, ...]


@value
class HandEnded:
    """The hand is over; ``stacks`` are the finishing stacks by seat (None = not dealt in)."""

    stacks: tuple[int | None, ...]


@value
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
