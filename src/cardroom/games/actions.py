"""What a player may do: the action vocabulary and the legal-action bounds.

Action vocabulary (``Action.kind``):

``fold``
    Give up the hand. Legal at every betting decision, even when a check is free
    (binding, as real rooms record it; RULEBOOK §5).
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

The stud and draw games add their own kinds (bring-in, draw or stand pat) to
this vocabulary; every kind is a plain string so the record stays JSON-able.

Player vs room authority: an :class:`Action` is what a player may send, and
:meth:`~cardroom.games.hand.Hand.apply` accepts it exactly when
:meth:`LegalActions.allows` does. Decisions only the room may take (a timeout, a
disconnect all-in) are a :class:`RoomAction`, applied through
:meth:`~cardroom.games.hand.Hand.apply_room`, an entry point nothing a client
sends can reach; cancelling a hand is :meth:`~cardroom.games.hand.Hand.cancel`.

Amounts: ``Acted.amount`` in the record is always the
chips the action added, ``Acted.to`` the player's bet total in the round after it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from cardroom.cards import Card
from cardroom.games import errors as err
from cardroom.games.errors import IllegalAction
from cardroom.values import value

FOLD: Final = "fold"
CHECK: Final = "check"
CALL: Final = "call"
RAISE: Final = "raise"
BET: Final = "bet"
"""Input synonym of :data:`RAISE` (a bet is a raise from zero)."""
# Stud and draw games (RULEBOOK §4, §6.7).
BRING_IN: Final = "bring_in"
"""Post the stud bring-in (the alternative is to complete: a ``raise`` to the small bet)."""
DRAW: Final = "draw"
"""Discard ``cards`` (none: stand pat) and be dealt as many replacements."""

PLAYER_KINDS: Final = frozenset({FOLD, CHECK, CALL, RAISE, BET, BRING_IN, DRAW})
"""Every kind a player's :class:`Action` may have."""

# The room's decisions (RULEBOOK §10.5, §10.6).
TIMEOUT: Final = "timeout"
"""The player did not act in time: stand pat on a draw (and no bet or raise in the next
round, seed 003; on a discard street, throw the last cards dealt), post a due bring-in,
otherwise check if possible, otherwise fold."""
DISCONNECT_ALL_IN: Final = "disconnect_all_in"
"""A disconnected player facing a bet, with chips in the pot and a disconnect all-in left
(the room counts those): the player stays in, all-in for the chips already in the pot
(side pots for the rest), keeps the stack behind and is not asked to act again."""

SIZED_KINDS: Final = frozenset({RAISE, BET})
"""The kinds that name an amount (the total to): the engine sizes every other move."""

ROOM_KINDS: Final = frozenset({TIMEOUT, DISCONNECT_ALL_IN})
"""Every kind a :class:`RoomAction` may have."""


def _check_seat(seat: object) -> None:
    if type(seat) is not int or seat < 0:
        raise IllegalAction(f"a seat is a seat number, not {seat!r}", err.BAD_ACTION)


@value
class Action:
    """One decision by the player in ``seat``: ``kind`` and, for ``raise``, the amount TO.

    Checked where it is built (actions arrive from the network): a seat and an amount
    are plain integers, the kind is a player's, an amount is named by a bet or raise
    only, and ``cards`` are cards, named by a draw only (its discards); anything else
    is an :class:`~cardroom.games.errors.IllegalAction` with code ``bad_action``.
    """

    seat: int
    kind: str
    amount: int = 0
    cards: tuple[Card, ...] = ()

    def __post_init__(self) -> None:
        cards = self.cards
        if (
            type(self.seat) is int
            and self.seat >= 0
            and type(self.kind) is str
            and self.kind in PLAYER_KINDS
            and type(self.amount) is int
            and (not self.amount or self.kind in SIZED_KINDS)
            and type(cards) is tuple
            and (not cards or (self.kind == DRAW and all(type(c) is Card for c in cards)))
        ):
            return  # the usual case, checked at the cost of a few type tests
        _check_seat(self.seat)
        if type(self.kind) is not str or self.kind not in PLAYER_KINDS:
            if type(self.kind) is str and self.kind in ROOM_KINDS:
                raise IllegalAction(f"{self.kind} is the room's decision", err.BAD_ACTION)
            raise IllegalAction(f"unknown action {self.kind!r}", err.BAD_ACTION)
        if type(self.amount) is not int:
            raise IllegalAction(
                f"a raise needs a whole number of chips, not {self.amount!r}", err.BAD_ACTION
            )
        if isinstance(cards, str | bytes) or not isinstance(cards, Sequence):
            raise IllegalAction(f"cards must be a sequence of cards, not {cards!r}")
        for c in cards:
            if not isinstance(c, Card):
                raise IllegalAction(f"{c!r} is not a card", err.BAD_ACTION)
        if cards and self.kind != DRAW:  # only a draw names cards (its discards)
            raise IllegalAction(f"a {self.kind} names no cards", err.BAD_ACTION)
        if self.amount and self.kind not in SIZED_KINDS:  # the engine decides every other sum
            raise IllegalAction(f"a {self.kind} names no amount", err.BAD_ACTION)
        object.__setattr__(self, "cards", tuple(cards))  # a value: set once, here

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


@value
class RoomAction:
    """A decision only the room may take for ``seat`` (:data:`ROOM_KINDS`)."""

    seat: int
    kind: str

    def __post_init__(self) -> None:
        _check_seat(self.seat)
        if type(self.kind) is not str or self.kind not in ROOM_KINDS:
            raise IllegalAction(f"unknown room action {self.kind!r}", err.BAD_ACTION)


@value
class LegalActions:
    """What ``seat`` may do now.

    ``call`` is the number of chips a call adds (``None`` when calling is not
    possible, e.g. there is nothing to call); ``min_raise_to`` and
    ``max_raise_to`` bound the total of a bet or raise for this round (both
    ``None`` when the seat may not bet or raise, and then ``no_raise`` says why;
    equal in fixed limit, or when the only raise left is all-in).

    A value (immutable): the set handed out is the one
    :meth:`~cardroom.games.hand.Hand.apply` checks the action against.
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
    held: tuple[Card, ...] = ()
    """On a draw: the cards the seat holds, the only ones it may discard."""
    no_raise: str = ""
    """Why no bet or raise is possible (empty when one is, or when it is not the seat's turn)."""
    draw_min: int = 0
    """On a draw: the fewest cards to discard. A discard street asks for exactly ``draw``
    (``draw_min == draw``) and deals nothing in their place."""

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
        return self.refusal(action) is None

    def refusal(self, action: Action) -> IllegalAction | None:
        """Why ``action`` is not allowed (None when it is): the one place that decides."""
        if action.seat != self.seat:
            return IllegalAction(f"seat {action.seat} is not seat {self.seat}", err.NOT_YOUR_TURN)
        kind = action.kind
        if kind in (RAISE, BET):
            return self._raise_refusal(action.amount)
        if kind == DRAW:
            return self._draw_refusal(action.cards)
        if (
            (kind == FOLD and self.fold)
            or (kind == CHECK and self.check)
            or (kind == CALL and self.call is not None)
            or (kind == BRING_IN and self.bring_in is not None)
        ):
            return None
        if self.draw is not None:
            return IllegalAction(f"seat {self.seat} is to draw or stand pat", err.DRAW_DUE)
        if self.bring_in is not None:
            return IllegalAction("post the bring-in or complete", err.BRING_IN_DUE)
        if kind == CHECK:
            return IllegalAction(f"cannot check: {self.call} to call", err.CANNOT_CHECK)
        if kind == CALL:
            return IllegalAction("there is nothing to call: check instead", err.NOTHING_TO_CALL)
        if kind == BRING_IN:
            return IllegalAction("there is no bring-in to post (bring_in)", err.NO_BRING_IN)
        return IllegalAction(f"no {kind} now", err.CANNOT_FOLD)

    def _raise_refusal(self, to: int) -> IllegalAction | None:
        lo, hi = self.min_raise_to, self.max_raise_to
        if lo is None or hi is None:
            if self.draw is not None:
                return IllegalAction(f"seat {self.seat} is to draw or stand pat", err.DRAW_DUE)
            why = self.no_raise or "no bet or raise is possible now"
            return IllegalAction(why, err.RAISE_NOT_ALLOWED)
        if lo <= to <= hi:
            if self.raise_sizes and to not in self.raise_sizes:
                sizes = " or to ".join(map(str, self.raise_sizes))
                return IllegalAction(f"the bet is to {sizes}, not {to}", err.NOT_A_BET_SIZE)
            return None
        where = f"to {lo}" if lo == hi else f"to between {lo} and {hi}"
        code = err.AMOUNT_TOO_SMALL if to < lo else err.AMOUNT_TOO_LARGE
        return IllegalAction(f"a bet or raise must be {where}, not {to}", code)

    def _draw_refusal(self, cards: tuple[Card, ...]) -> IllegalAction | None:
        if self.draw is None:
            return IllegalAction("there is no draw now", err.NO_DRAW)
        if len(cards) > self.draw:
            return IllegalAction(
                f"at most {self.draw} cards may be discarded, not {len(cards)}", err.TOO_MANY_CARDS
            )
        if len(cards) < self.draw_min:
            return IllegalAction(
                f"discard exactly {self.draw_min} cards, not {len(cards)}", err.TOO_FEW_CARDS
            )
        if len(set(cards)) != len(cards):
            return IllegalAction("a card may be discarded only once", err.CARDS_NOT_HELD)
        missing = [str(c) for c in cards if c not in self.held]
        if missing:
            return IllegalAction(
                f"cannot discard {' '.join(missing)}: not in this hand", err.CARDS_NOT_HELD
            )
        return None


def nothing_for(seat: int) -> LegalActions:
    """The empty set: not this seat's turn, or the hand is over."""
    return LegalActions(seat, False, False, None, None, None)
