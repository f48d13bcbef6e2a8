"""What a player may do: the action vocabulary and the legal-action bounds.

Action vocabulary (``Action.kind``):

``fold``
    Give up the hand. Only legal when facing a bet (with nothing to call, check).
``check``
    Pass when there is nothing to call.
``call``
    Match the current bet, or put in the whole stack if it is smaller (all-in
    for less). ``amount`` is ignored on input; the event records the chips added.
``raise``
    Bet, raise or complete **to** a total for this betting round, exactly as
    PHH's ``cbr``: ``amount`` is the player's whole bet in this round after the
    action (blinds posted this round included), not the increment. A first bet
    is a ``raise`` from zero. ``bet`` is accepted as a synonym on input.

``disconnect_all_in`` (the room's, RULEBOOK §10.6)
    A disconnected player facing a bet, with chips in the pot and a disconnect
    all-in left, stays in for what is already in; side pots take the rest.

The stud and draw games add their own kinds (bring-in, draw, stand pat, the
room's draw timeout) to this vocabulary; every kind is a plain string so the
record stays JSON-able. Amounts: ``Acted.amount`` in the record is always the
chips the action added, ``Acted.to`` the player's bet total in the round after it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from mypy_extensions import mypyc_attr

from cardroom.cards import Card
from cardroom.games.errors import IllegalAction

FOLD: Final = "fold"
CHECK: Final = "check"
CALL: Final = "call"
RAISE: Final = "raise"
BET: Final = "bet"
"""Input synonym of :data:`RAISE` (a bet is a raise from zero)."""

BETTING_KINDS: Final = frozenset({FOLD, CHECK, CALL, RAISE, BET})

# Stud and draw games (RULEBOOK §4, §6.7).
BRING_IN: Final = "bring_in"
"""Post the stud bring-in (the alternative is to complete: a ``raise`` to the small bet)."""
DRAW: Final = "draw"
"""Discard ``cards`` (none: stand pat) and be dealt as many replacements."""
DRAW_TIMEOUT: Final = "draw_timeout"
"""The room's action for a player who did not draw in time: stands pat, and may not
bet or raise in the next betting round (seed 003)."""
# Room actions (RULEBOOK §10.6).
DISCONNECT_ALL_IN: Final = "disconnect_all_in"
"""The room's action for a disconnected player facing a bet who has a disconnect all-in
left: the player stays in, all-in for the chips already in the pot (side pots for the
rest), keeps the stack behind and is not asked to act again this hand."""


@mypyc_attr(native_class=False)  # a plain class in a compiled build: any field type gets in
@dataclass(frozen=True, slots=True)
class Action:
    """One decision by the player in ``seat``: ``kind`` and, for ``raise``, the amount TO."""

    seat: int
    kind: str
    amount: int = 0
    cards: tuple[Card, ...] = ()

    def __post_init__(self) -> None:
        # Actions arrive from the network: a malformed one is refused where it is built,
        # so the engine (compiled or not) only ever reads well-typed fields.
        # Read untyped: a compiled build would refuse a wrong type with its own TypeError.
        seat, kind = getattr(self, "seat"), getattr(self, "kind")  # noqa: B009
        amount, cards = getattr(self, "amount"), getattr(self, "cards")  # noqa: B009
        if type(seat) is not int or type(amount) is not int or type(kind) is not str:
            _refuse_malformed(seat, kind, amount)
        if type(cards) is not tuple:
            if isinstance(cards, str | bytes) or not isinstance(cards, Sequence):
                raise IllegalAction(f"cards must be a sequence of cards, not {cards!r}")
            object.__setattr__(self, "cards", tuple(cards))

    @staticmethod
    def fold(seat: int) -> Action:
        """Fold."""
        return Action(seat, FOLD)

    @staticmethod
    def check(seat: int) -> Action:
        """Check."""
        return Action(seat, CHECK)

    @staticmethod
    def call(seat: int) -> Action:
        """Call (all-in for less when the stack is short)."""
        return Action(seat, CALL)

    @staticmethod
    def raise_to(seat: int, amount: int) -> Action:
        """Bet or raise to ``amount`` in total for this betting round."""
        return Action(seat, RAISE, amount)

    @staticmethod
    def bring_in(seat: int) -> Action:
        """Post the stud bring-in."""
        return Action(seat, BRING_IN)

    @staticmethod
    def draw(seat: int, discards: Sequence[Card] = ()) -> Action:
        """Discard ``discards`` (none: stand pat) and draw as many cards."""
        return Action(seat, DRAW, 0, tuple(discards))

    @staticmethod
    def draw_timeout(seat: int) -> Action:
        """The room's action when ``seat`` did not draw in time."""
        return Action(seat, DRAW_TIMEOUT)


def _refuse_malformed(seat: object, kind: object, amount: object) -> None:
    """Raise IllegalAction naming the field of an action that has the wrong type."""
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise IllegalAction(f"a seat is a seat number, not {seat!r}")
    if not isinstance(kind, str):
        raise IllegalAction(f"an action kind is a word such as 'call', not {kind!r}")
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise IllegalAction(f"a raise needs a whole number of chips, not {amount!r}")


@dataclass(frozen=True, slots=True)
class LegalActions:
    """What ``seat`` may do now.

    ``call`` is the number of chips a call adds (``None`` when calling is not
    possible, e.g. there is nothing to call); ``min_raise_to`` and
    ``max_raise_to`` bound the total of a bet or raise for this round (both
    ``None`` when the seat may not bet or raise; equal in fixed limit, or when
    the only raise left is all-in).
    """

    seat: int
    fold: bool
    check: bool
    call: int | None
    min_raise_to: int | None
    max_raise_to: int | None
    bring_in: int | None = None
    draw: int | None = None
    raise_sizes: tuple[int, ...] = ()
    """When not empty, the only totals a bet or raise may reach (between the bounds):
    stud's 4th-street open-pair option offers the small or the big bet, nothing between."""

    @property
    def kinds(self) -> tuple[str, ...]:
        """The action kinds allowed, in the order fold, check, call, raise (then bring-in,
        draw: ``bring_in`` is the amount of the bring-in, ``draw`` the most cards that may
        be discarded)."""
        out: list[str] = []
        if self.fold:
            out.append(FOLD)
        if self.check:
            out.append(CHECK)
        if self.call is not None:
            out.append(CALL)
        if self.min_raise_to is not None:
            out.append(RAISE)
        if self.bring_in is not None:
            out.append(BRING_IN)
        if self.draw is not None:
            out.append(DRAW)
        return tuple(out)

    def allows(self, action: Action) -> bool:
        """True when ``action`` (by this seat) is within these bounds."""
        if action.seat != self.seat:
            return False
        kind = action.kind
        if kind == FOLD:
            return self.fold
        if kind == CHECK:
            return self.check
        if kind == CALL:
            return self.call is not None
        if kind in (RAISE, BET):
            lo, hi = self.min_raise_to, self.max_raise_to
            if self.raise_sizes and action.amount not in self.raise_sizes:
                return False
            return lo is not None and hi is not None and lo <= action.amount <= hi
        if kind == BRING_IN:
            return self.bring_in is not None
        if kind in (DRAW, DRAW_TIMEOUT):
            return self.draw is not None and len(action.cards) <= self.draw
        return False


_SHARED: dict[tuple[int, bool, bool, int | None, int | None, int | None, int | None], LegalActions]
_SHARED = {}
_SHARED_MAX = 1 << 14


def shared_legal_actions(
    seat: int,
    fold: bool,
    check: bool,
    call: int | None,
    min_raise_to: int | None,
    max_raise_to: int | None,
    draw: int | None = None,
) -> LegalActions:
    """``LegalActions(...)`` with these fields, one shared object per distinct set.

    The engine's hot path: a frozen dataclass costs several attribute writes to
    build, and a table asks for the same few sets over and over. Sharing is safe
    because the sets are immutable and compare by value.
    """
    key = (seat, fold, check, call, min_raise_to, max_raise_to, draw)
    found = _SHARED.get(key)
    if found is None:
        if len(_SHARED) >= _SHARED_MAX:
            _SHARED.clear()  # bounded: amounts vary without limit across tables
        found = _SHARED[key] = LegalActions(
            seat, fold, check, call, min_raise_to, max_raise_to, draw=draw
        )
    return found


NO_ACTIONS: Final = LegalActions(-1, False, False, None, None, None)
"""The empty set (not this seat's turn, or the hand is over)."""
