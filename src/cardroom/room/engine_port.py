"""The room's decisions in a hand, behind one small adapter (ENGINE_API.md).

The engine gives the room its own entry point (``Hand.apply_room``
with a ``RoomAction`` of kind ``timeout`` or ``disconnect_all_in``) and
``Hand.cancel()``; everything the table does to a hand on its own authority goes
through the functions here, so the engine's entry points change in one place.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from cardroom.cards import Card, shuffled
from cardroom.games import Action, ConfigError, Event, Hand, RoomAction
from cardroom.games import events as ev
from cardroom.games.actions import DISCONNECT_ALL_IN, TIMEOUT
from cardroom.games.replay import deck_from_events, redo


def player_action(seat: int, kind: str, amount: int, cards: tuple[Card, ...]) -> Action:
    """A player's action (the engine refuses a kind only the room may use)."""
    return Action(seat, kind, amount, cards)


def timeout(hand: Hand, seat: int) -> list[Event]:
    """Act for a player out of time: stand pat on a draw, post a due bring-in, check if
    possible, otherwise fold (RULEBOOK §10.5; seed 003 for the draw)."""
    return hand.apply_room(RoomAction(seat, TIMEOUT))


def may_disconnect_all_in(hand: Hand, seat: int) -> bool:
    """True when a disconnect all-in applies: a betting decision facing a bet, with chips
    already in this hand (RULEBOOK §10.6)."""
    legal = hand.legal_actions(seat)
    facing = legal.call is not None and not legal.check
    plain = legal.draw is None and legal.bring_in is None
    return facing and plain and hand.committed[seat] > 0


def disconnect_all_in(hand: Hand, seat: int) -> list[Event]:
    """The disconnected player stays in for the chips already in the pot."""
    return hand.apply_room(RoomAction(seat, DISCONNECT_ALL_IN))


def cancel(hand: Hand) -> list[Event]:
    """Cancel the hand (§10.10): the engine puts every stack back to its start."""
    return hand.cancel()


def _cards_in(events: Sequence[Event]) -> set[Card]:
    seen: set[Card] = set()
    for e in events:
        for f in dataclasses.fields(e):
            value = getattr(e, f.name)
            if isinstance(value, Card):
                seen.add(value)
            elif isinstance(value, tuple):
                seen.update(c for c in value if isinstance(c, Card))
    return seen


def rebuild_hand(events: Sequence[Event], seed: str | None) -> Hand:
    """The hand in progress rebuilt from its events, ready to go on.

    A seeded hand is dealt again from its seed. Otherwise the cards already seen
    keep their places and the unseen rest of the deck is shuffled afresh (CSPRNG):
    the engine's ``replay`` puts unseen cards in a fixed order, which a hand that
    continues must not deal from."""
    started = events[0]
    if not isinstance(started, ev.HandStarted):
        raise ConfigError("a hand's record starts with HandStarted")
    reshuffles = [e.cards for e in events if isinstance(e, ev.StubReshuffled)]
    if seed is not None:
        deck: list[Card] | None = None
    else:
        order, seen = deck_from_events(events), _cards_in(events)
        deck = [c for c in order if c in seen] + shuffled([c for c in order if c not in seen])
    hand = Hand(
        started.config,
        started.seats,
        started.button,
        deck,
        seed=seed,
        blind_seats=started.blind_seats,
        reshuffles=reshuffles,
    )
    redo(hand, events)
    if hand.events != list(events):
        raise ConfigError("the record does not rebuild to the same events")
    return hand
