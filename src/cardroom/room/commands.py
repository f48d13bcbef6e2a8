"""What the server may ask of a table, one command (an immutable value) per request.

Players are named by their account id; the server has authenticated them. A
refused command raises :class:`~cardroom.room.errors.TableError` and changes
nothing.
"""

from __future__ import annotations

from cardroom.cards import Card
from cardroom.values import value


@value
class Sit:
    """Take ``seat`` with a buy-in of ``amount``; in a blind game wait for the big blind
    (``post_now`` False) or post one big blind now, live. ``ip`` and ``device``: where
    the server sees the player connect from, for the table's integrity monitor (§10.9,
    shared IP or device; never shown, never recorded but in a review flag)."""

    player: str
    seat: int
    amount: int
    post_now: bool = False
    ip: str = ""
    device: str = ""


@value
class Rebuy:
    """Add chips between hands, never above the table's maximum."""

    player: str
    amount: int


@value
class Leave:
    """Stand up and cash out (after the hand when dealt in); ``reason``: ``left`` when the
    player asks, else why the room stands him up (the server: ``frozen``, ``banned``)."""

    player: str
    reason: str = "left"


@value
class Stay:
    """Take back a leave asked during the hand (``Leave`` while dealt in): the seat plays
    on. Only the player's own leave: one the room stands him up for stays."""

    player: str


@value
class SitOut:
    """Keep the seat, stop being dealt in (from the next hand when dealt in)."""

    player: str


@value
class AutoMuck:
    """Muck losing hands at the showdown (``on``, the default) or show them (RULEBOOK §7:
    an option per player), from the next hand dealt."""

    player: str
    on: bool


@value
class SitIn:
    """Come back; ``post_now``: post the blinds owed at once instead of waiting."""

    player: str
    post_now: bool = False


@value
class JoinWaitlist:
    """Wait for a seat at a full table."""

    player: str


@value
class LeaveWaitlist:
    """Stop waiting (or decline an offered seat); ``reason``: ``left`` when the player
    asks, else why the room takes him off (the server: ``disconnected``)."""

    player: str
    reason: str = "left"


@value
class Act:
    """A player's action in the hand (the engine's vocabulary: fold, check, call, raise
    with ``amount`` the total to, bring_in, draw with ``cards`` discarded)."""

    player: str
    kind: str
    amount: int = 0
    cards: tuple[Card, ...] = ()


@value
class PlaceCards:
    """A Chinese poker placement (RULEBOOK §8): the cards added to each row, left to
    right, and those discarded (Pineapple); every card dealt this street, no other."""

    player: str
    top: tuple[Card, ...] = ()
    middle: tuple[Card, ...] = ()
    bottom: tuple[Card, ...] = ()
    discard: tuple[Card, ...] = ()


@value
class SetAdvance:
    """Pre-select an action before one's turn: ``check_fold``, ``check``, ``call_any``,
    ``call`` (``amount``: the call it assumes) or ``fold``."""

    player: str
    kind: str
    amount: int = 0


@value
class ClearAdvance:
    """Withdraw a pre-selected action."""

    player: str


@value
class Disconnect:
    """The server lost the player's connection."""

    player: str


@value
class Reconnect:
    """The player's connection is back."""

    player: str


@value
class ResetAllowance:
    """The player asks for their disconnect all-ins of today back (logged)."""

    player: str


@value
class Say:
    """A chat message to the table (moderated, §10.7)."""

    player: str
    text: str


@value
class Report:
    """Report a player for review (``reason``: coffee_housing, collusion, chat_abuse,
    other)."""

    player: str
    accused: str
    reason: str
    note: str = ""


Command = (
    Sit
    | Rebuy
    | Leave
    | Stay
    | SitOut
    | AutoMuck
    | SitIn
    | JoinWaitlist
    | LeaveWaitlist
    | Act
    | PlaceCards
    | SetAdvance
    | ClearAdvance
    | Disconnect
    | Reconnect
    | ResetAllowance
    | Say
    | Report
)
"""Any command."""
