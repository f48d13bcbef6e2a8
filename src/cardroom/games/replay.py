"""Rebuild a hand from its record (RULEBOOK §1: a hand's record allows an exact replay).

The events carry the starting point (:class:`~cardroom.games.events.HandStarted`),
every card dealt in order, and every action. :func:`replay` rebuilds the deck in
dealing order, re-applies the actions through the rules and checks that the
rebuilt hand emits exactly the same events.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardroom.cards import Card
from cardroom.games import events as ev
from cardroom.games.actions import (
    DISCONNECT_ALL_IN,
    DRAW,
    SIZED_KINDS,
    TIMEOUT,
    Action,
    RoomAction,
)
from cardroom.games.config import Seat, TableConfig
from cardroom.games.dealing import round_robin
from cardroom.games.errors import ConfigError, IllegalAction
from cardroom.games.hand import Hand

Origin = tuple[
    tuple[Seat | None, ...],
    int,
    Sequence[Card],
    int | str | bytes,
    tuple[int | None, int | None] | None,
    Sequence[Sequence[Card | None]],
]
"""What a hand starts from: seats, button, deck, shuffle seed, blind seats, reshuffles."""


def deck_from_events(events: Sequence[ev.Event]) -> list[Card]:
    """The deck in dealing order as far as the events show it, then the unseen cards."""
    started = events[0]
    if not isinstance(started, ev.HandStarted):
        raise ConfigError("a hand's record starts with HandStarted")
    order: list[Card] = []
    batch: list[ev.HoleDealt] = []

    def flush() -> None:
        # One street's hole cards went out one at a time round the table (dealing.py).
        order.extend(round_robin([h.cards for h in batch]))
        batch.clear()

    universe = started.config.variant.cards
    # After a muck reshuffle the cards come from the recorded stub, not the deck:
    # only the old stub's last cards (``room``) still belong to the deck.
    room: int | None = None
    for e in events:
        if isinstance(e, ev.StubReshuffled):
            flush()
            if room is None:
                room = len(universe) - len(order)
            continue
        if isinstance(e, ev.Drew):
            flush()
            take = len(e.dealt) if room is None else min(room, len(e.dealt))
            order.extend(e.dealt[:take])
            if room is not None:
                room -= take
            continue
        if room is not None and room <= 0:
            continue
        if isinstance(e, ev.HoleDealt):
            if any(b.seat == e.seat for b in batch):
                flush()  # a seat seen again: the next group of this street (up cards)
            batch.append(e)
            continue
        flush()
        if isinstance(e, ev.Burned):
            order.append(e.card)
        elif isinstance(e, ev.BoardDealt):
            order.extend(e.cards)
    flush()
    seen = set(order)
    return order + [c for c in universe if c not in seen]


def replay(events: Sequence[ev.Event]) -> Hand:
    """A new hand rebuilt from ``events``; ConfigError if the record does not replay exactly."""
    if not events or not isinstance(events[0], ev.HandStarted):
        raise ConfigError("a hand's record starts with HandStarted")
    started = events[0]
    try:
        hand = replay_under(started.config, events)
    except IllegalAction as exc:  # a move the record holds that the rules refuse
        raise ConfigError(f"the record does not replay: {exc}") from None
    if hand.events != list(events):
        raise ConfigError("the record does not replay to the same events")
    return hand


def replay_under(config: TableConfig, events: Sequence[ev.Event]) -> Hand:
    """The hand the record's moves make at a table of ``config`` (same seats, button, deck
    and moves), to compare with the record: IllegalAction where ``config`` refuses a move,
    ConfigError where it cannot start the hand."""
    started = events[0]
    if not isinstance(started, ev.HandStarted):
        raise ConfigError("a hand's record starts with HandStarted")
    hand = Hand(
        config,
        started.seats,
        started.button,
        deck_from_events(events),
        blind_seats=started.blind_seats,
        reshuffles=[e.cards for e in events if isinstance(e, ev.StubReshuffled)],
    )
    redo(hand, events)
    return hand


def redo(hand: Hand, events: Sequence[ev.Event]) -> None:
    """Apply to ``hand`` (started as ``events[0]`` says) every move the record holds, each
    through its own authority: a player's through ``apply``, the room's (a disconnect
    all-in, a draw timeout, the cancel) through ``apply_room`` and ``cancel``."""
    for e in events:
        if isinstance(e, ev.Acted):
            if e.kind == DISCONNECT_ALL_IN:
                hand.apply_room(RoomAction(e.seat, DISCONNECT_ALL_IN))
            else:
                amount = e.to if e.kind in SIZED_KINDS else 0  # the rest name none
                hand.apply(Action(e.seat, e.kind, amount))
        elif isinstance(e, ev.Drew):
            if e.timed_out:
                hand.apply_room(RoomAction(e.seat, TIMEOUT))
            else:
                hand.apply(Action(e.seat, DRAW, 0, e.discarded))
        elif isinstance(e, ev.HandCancelled):
            hand.cancel()


def rebuild(
    config: TableConfig, origin: Origin, inputs: Sequence[Action | RoomAction | None]
) -> Hand:
    """The hand started from ``origin`` (its seats, button, deck, shuffle seed, blind seats
    and recorded reshuffles) after ``inputs``: the player and room actions it accepted, in
    order (``None``: the cancel). Everything is deterministic, so this is the same hand."""
    seats, button, deck, seed, blind_seats, reshuffles = origin
    hand = Hand(
        config, seats, button, deck, seed=seed, blind_seats=blind_seats, reshuffles=reshuffles
    )
    for done in inputs:
        if done is None:
            hand.cancel()
        elif isinstance(done, RoomAction):
            hand.apply_room(done)
        else:
            hand.apply(done)
    return hand
