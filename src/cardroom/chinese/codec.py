"""The record of a Chinese poker hand as plain JSON data, and back.

The same style as the engine's (:mod:`cardroom.records`): ``{"v": 1, "type":
"CardsPlaced", ...}`` with cards as text. It holds everything (the deck, a
Fantasyland hand, the discards): the event log stores it; what a seat may see is
cut out only in :mod:`cardroom.chinese.views`.
"""

from __future__ import annotations

from typing import Any

from cardroom.cards import Card
from cardroom.chinese.events import (
    CardsDealt,
    CardsPlaced,
    Event,
    HandSettled,
    HandStarted,
    SeatResult,
)
from cardroom.records import Codec, CodecError

__all__ = ["CodecError", "decode_event", "encode_event"]

_CODEC = Codec(
    (HandStarted, CardsDealt, CardsPlaced, HandSettled, SeatResult),
    {"Card": Card, "SeatResult": SeatResult},
)


def encode_event(event: Event) -> dict[str, Any]:
    """``event`` as plain JSON data (every card, hidden ones included: for storage)."""
    if isinstance(event, SeatResult):
        raise CodecError("a seat result is part of HandSettled, not an event")
    return _CODEC.encode(event)


def decode_event(data: object) -> Event:
    """The event :func:`encode_event` made ``data`` from; :class:`CodecError` otherwise."""
    event = _CODEC.decode(data)
    if not isinstance(event, HandStarted | CardsDealt | CardsPlaced | HandSettled):
        raise CodecError("not a Chinese poker event")
    return event
