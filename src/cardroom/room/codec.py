"""The table's record as plain JSON data, in the one record style (:mod:`cardroom.records`).

A room event encodes as ``{"v": 1, "type": "PlayerSeated", ...fields}`` (times as
JSON numbers); a hand's events in the record are the engine's own encoding
(:mod:`cardroom.games.codec`; the type names of the two families differ, so one
entry decodes by its type); a Chinese poker hand's events, whose names are the
engine's too (``HandStarted``), are wrapped: ``{"v": 1, "type": "ChineseEvent",
"event": ...}`` (:mod:`cardroom.chinese.codec` inside); the snapshot is
``{"v": 1, "type": "TableSnapshot", "state": ...}``. Anything malformed raises
:class:`CodecError`, the one error type of every record.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from cardroom.chinese import codec as chinese_codec
from cardroom.games import codec as hand_codec
from cardroom.records import VERSION, Codec, CodecError
from cardroom.room import events as rv
from cardroom.room.table import AnyEvent
from cardroom.room.views import CHINESE_EVENTS

__all__ = [
    "CodecError",
    "decode_entry",
    "decode_record",
    "decode_room_event",
    "decode_snapshot",
    "encode_entry",
    "encode_record",
    "encode_room_event",
    "encode_snapshot",
]


def _read_float(value: Any) -> float:
    if type(value) not in (int, float):
        raise CodecError(f"expected a number of seconds, not {value!r}")
    return float(value)


_CODEC: Final = Codec(rv.ROOM_EVENTS, vars(rv), {float: (float, _read_float)})
"""Room events; their type names differ from the engine's (a test checks it)."""
_ROOM_TYPES: Final = frozenset(_CODEC.types)
CHINESE_ENTRY: Final = "ChineseEvent"
"""The type of a record entry that wraps a Chinese poker hand's event."""


def encode_room_event(event: rv.RoomEvent) -> dict[str, Any]:
    """A room event as JSON data."""
    return _CODEC.encode(event)


def decode_room_event(data: object) -> rv.RoomEvent:
    """The room event ``data`` encodes; CodecError if it is not one."""
    if isinstance(data, dict) and data.get("type") == "AllowanceReset" and "seat" not in data:
        data = {**data, "seat": -1}  # recorded before it named the seat: shown to no seat
    if isinstance(data, dict) and data.get("type") == "HandVoided" and "debts" not in data:
        data = {**data, "positions": None, "debts": []}  # recorded before cancels undid deals
    if isinstance(data, dict) and data.get("type") == "TurnStarted" and "waited" not in data:
        data = {**data, "waited": False}  # recorded before a decision waited only once
    if isinstance(data, dict) and data.get("type") == "LeaveRequested" and "reason" not in data:
        data = {**data, "reason": "left"}  # recorded before the room said why it stood one up
    if isinstance(data, dict) and data.get("type") == "HandDealt" and "debts_kept" not in data:
        data = {**data, "debts_kept": False}  # recorded before frozen stud rounds kept debts
    if isinstance(data, dict) and data.get("type") == "ReviewFlagged":
        # Recorded when each table had its own monitor, its hands were numbers of the
        # table itself: "#n" (the record's own table) in the room-wide naming.
        hands = data.get("hands")
        if isinstance(hands, list) and any(type(h) is int for h in hands):
            data = {**data, "hands": [f"#{h}" if type(h) is int else h for h in hands]}
    event: rv.RoomEvent = _CODEC.decode(data)
    return event


def encode_entry(event: AnyEvent) -> dict[str, Any]:
    """One entry of a table's record (a room event or a hand's event)."""
    if type(event) in rv.ROOM_EVENTS:
        return _CODEC.encode(event)
    if isinstance(event, CHINESE_EVENTS):
        inner = chinese_codec.encode_event(event)  # type: ignore[arg-type]
        return {"v": VERSION, "type": CHINESE_ENTRY, "event": inner}
    return hand_codec.encode_event(event)  # type: ignore[arg-type]


def decode_entry(data: object) -> AnyEvent:
    """The record entry ``data`` encodes; CodecError if it is not one."""
    if isinstance(data, dict) and data.get("type") in _ROOM_TYPES:
        return decode_room_event(data)
    if isinstance(data, dict) and data.get("type") == CHINESE_ENTRY:
        if data.get("v") != VERSION or set(data) != {"v", "type", "event"}:
            raise CodecError("a Chinese poker entry is {v: 1, type, event}")
        return chinese_codec.decode_event(data["event"])
    return hand_codec.decode_event(data)


def encode_snapshot(state: dict[str, Any]) -> dict[str, Any]:
    """A table snapshot (``state_to_dict`` data) as a versioned record entry."""
    return {"v": VERSION, "type": "TableSnapshot", "state": state}


def decode_snapshot(data: object) -> dict[str, Any]:
    """The snapshot data of a record entry; CodecError if it is not one."""
    if not isinstance(data, dict) or data.get("v") != VERSION:
        raise CodecError("not a version-1 record entry")
    if data.get("type") != "TableSnapshot" or not isinstance(data.get("state"), dict):
        raise CodecError("not a table snapshot")
    state: dict[str, Any] = data["state"]
    return state


def encode_record(snapshot: dict[str, Any], events: Sequence[AnyEvent]) -> list[dict[str, Any]]:
    """A table's whole record (:meth:`~cardroom.room.table.Table.record`) as JSON data."""
    return [encode_snapshot(snapshot), *(encode_entry(e) for e in events)]


def decode_record(data: object) -> tuple[dict[str, Any], list[AnyEvent]]:
    """The inverse of :func:`encode_record`."""
    if not isinstance(data, list) or not data:
        raise CodecError("a table's record is a list starting with its snapshot")
    return decode_snapshot(data[0]), [decode_entry(d) for d in data[1:]]
