"""The record of a hand as plain JSON data, and back (the one record style of
:mod:`cardroom.records`).

Every engine event encodes to ``{"v": 1, "type": "Acted", ...}``: cards as text,
amounts as integers; ``HandStarted`` carries its table configuration
(:func:`~cardroom.games.config.config_to_dict`) and its seats. The encoding holds
everything, hidden cards included: it is what the event log stores, never what a
player is sent (that is :func:`~cardroom.games.views.event_view`, whose result is
the same for a decoded event as for the live one). :func:`decode_event` refuses an
unknown version or type and any malformed field with :class:`CodecError`, and an
event that cannot happen in any hand: a negative seat, amount, stack or index, an
action of no known kind, hole cards without one up-flag each.

>>> from cardroom.games.events import Acted
>>> encode_event(Acted(2, "raise", 6, 6, False))
{'v': 1, 'type': 'Acted', 'seat': 2, 'kind': 'raise', 'amount': 6, 'to': 6, 'all_in': False}
>>> decode_event(encode_event(Acted(2, "raise", 6, 6, False)))
Acted(seat=2, kind='raise', amount=6, to=6, all_in=False)
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from cardroom.cards import Card
from cardroom.games import events as ev
from cardroom.games.actions import PLAYER_KINDS, ROOM_KINDS
from cardroom.games.config import Seat, TableConfig, config_from_dict, config_to_dict
from cardroom.games.errors import ConfigError
from cardroom.records import Codec, CodecError

__all__ = ["EVENT_TYPES", "CodecError", "decode_event", "encode_event"]


def _seat_to_data(seat: Seat) -> dict[str, Any]:
    return {"stack": seat.stack, "auto_muck": seat.auto_muck, "post": seat.post}


def _seat_from_data(data: object) -> Seat:
    if not isinstance(data, Mapping) or set(data) != {"stack", "auto_muck", "post"}:
        raise CodecError(f"a seat is {{stack, auto_muck, post}}, not {data!r}")
    try:
        return Seat(data["stack"], data["auto_muck"], data["post"])
    except ConfigError as exc:
        raise CodecError(f"a malformed seat: {exc}") from None


def _config_from_data(data: object) -> TableConfig:
    if not isinstance(data, Mapping):
        raise CodecError(f"a table configuration is an object, not {data!r}")
    try:
        return config_from_dict(data)
    except ConfigError as exc:
        raise CodecError(f"HandStarted.config: {exc}") from None


EVENT_TYPES: tuple[type, ...] = typing.get_args(ev.Event)
"""Every event class of a hand (the members of :data:`cardroom.games.events.Event`)."""

_CODEC = Codec(
    EVENT_TYPES,
    {"Card": Card, "Seat": Seat, "TableConfig": TableConfig},
    {Seat: (_seat_to_data, _seat_from_data), TableConfig: (config_to_dict, _config_from_data)},
)


def encode_event(event: ev.Event) -> dict[str, Any]:
    """``event`` as plain JSON data (every card, hidden ones included: for storage)."""
    return _CODEC.encode(event)


def decode_event(data: object) -> ev.Event:
    """The event :func:`encode_event` made ``data`` from; :class:`CodecError` otherwise."""
    event: ev.Event = _CODEC.decode(data)
    _check_sense(event)
    return event


def _check_sense(event: ev.Event) -> None:
    """What the types allow but no hand emits (whether it fits *this* hand is for replay)."""
    name = type(event).__name__
    for field in fields(event):
        value = getattr(event, field.name)
        numbers = value if isinstance(value, tuple) else (value,)
        if any(type(n) is int and n < 0 for n in numbers):
            raise CodecError(
                f"{name}.{field.name}: no event holds a negative number, not {value!r}"
            )
    if isinstance(event, ev.Acted) and event.kind not in PLAYER_KINDS | ROOM_KINDS:
        raise CodecError(f"Acted.kind: no action is called {event.kind!r}")
    if isinstance(event, ev.HoleDealt) and len(event.up) != len(event.cards):
        raise CodecError("HoleDealt: one up-flag for each card dealt")
