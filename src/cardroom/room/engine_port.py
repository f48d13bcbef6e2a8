"""The room's decisions in a hand, behind one small adapter (ENGINE_API.md).

The engine's contract gives the room its own entry point (``Hand.apply_room``
with a ``RoomAction`` of kind ``timeout`` or ``disconnect_all_in``) and
``Hand.cancel()``; everything the table does to a hand on its own authority goes
through the functions here, so the engine's entry points change in one place.
"""

from __future__ import annotations

from cardroom.cards import Card
from cardroom.games import Action, Event, Hand, IllegalAction
from cardroom.games.actions import BET, BRING_IN, CALL, CHECK, DISCONNECT_ALL_IN, DRAW, FOLD, RAISE

PLAYER_KINDS = frozenset({FOLD, CHECK, CALL, RAISE, BET, BRING_IN, DRAW})
"""What a player may send (the room's own decisions are not among them)."""


def player_action(seat: int, kind: str, amount: int, cards: tuple[Card, ...]) -> Action:
    """A player's action; IllegalAction for a kind only the room may use."""
    if kind not in PLAYER_KINDS:
        raise IllegalAction(f"unknown action {kind!r}")
    return Action(seat, kind, amount, cards)


def timeout(hand: Hand, seat: int) -> list[Event]:
    """Act for a player out of time: stand pat on a draw, post a due bring-in, check if
    possible, otherwise fold (RULEBOOK §10.5; seed 003 for the draw)."""
    legal = hand.legal_actions(seat)
    if legal.draw is not None:
        return hand.apply(Action.draw_timeout(seat))
    if legal.bring_in is not None:
        return hand.apply(Action.bring_in(seat))
    return hand.apply(Action.check(seat) if legal.check else Action.fold(seat))


def may_disconnect_all_in(hand: Hand, seat: int) -> bool:
    """True when a disconnect all-in applies: a betting decision facing a bet, with chips
    already in this hand (RULEBOOK §10.6)."""
    legal = hand.legal_actions(seat)
    facing = legal.call is not None and not legal.check
    plain = legal.draw is None and legal.bring_in is None
    return facing and plain and hand.committed[seat] > 0


def disconnect_all_in(hand: Hand, seat: int) -> list[Event]:
    """The disconnected player stays in for the chips already in the pot."""
    return hand.apply(Action(seat, DISCONNECT_ALL_IN))


def cancel(hand: Hand) -> list[Event]:
    """Cancel the hand (§10.10); the table restores the start-of-hand stacks itself.

    Until the engine's ``Hand.cancel`` lands the hand is simply abandoned: the table's
    settled stacks are the start-of-hand ones and nothing was posted to the ledger."""
    del hand
    return []
