"""The table's record as plain JSON data, versioned like the engine's codec.

Room events encode as ``{"v": 1, "type": "PlayerSeated", ...fields}``; a hand's
events are the engine's own encoding (``cardroom.games.codec``), and the
snapshot is ``{"v": 1, "type": "TableSnapshot", "state": ...}``. Anything
malformed raises :class:`CodecError` (one error type for the whole record).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, Final

from cardroom.room import events as rv

VERSION: Final = 1


class CodecError(ValueError):
    """A record entry that is not valid table data."""


def _int(v: Any) -> int:
    if type(v) is not int:
        raise CodecError(f"expected a whole number, got {v!r}")
    return v


def _float(v: Any) -> float:
    if type(v) not in (int, float):
        raise CodecError(f"expected a number, got {v!r}")
    return float(v)


def _str(v: Any) -> str:
    if type(v) is not str:
        raise CodecError(f"expected text, got {v!r}")
    return v


def _bool(v: Any) -> bool:
    if type(v) is not bool:
        raise CodecError(f"expected true or false, got {v!r}")
    return v


def _opt_str(v: Any) -> str | None:
    return None if v is None else _str(v)


def _list(v: Any) -> list[Any]:
    if type(v) is not list:
        raise CodecError(f"expected a list, got {v!r}")
    return v


def _ints(v: Any) -> tuple[int, ...]:
    return tuple(_int(x) for x in _list(v))


def _pairs(second: Callable[[Any], Any]) -> Callable[[Any], tuple[tuple[int, Any], ...]]:
    def read(v: Any) -> tuple[tuple[int, Any], ...]:
        out = []
        for pair in _list(v):
            if len(_list(pair)) != 2:
                raise CodecError(f"expected a pair, got {pair!r}")
            out.append((_int(pair[0]), second(pair[1])))
        return tuple(out)

    return read


_READERS: dict[str, Callable[[Any], Any]] = {
    "int": _int,
    "float": _float,
    "str": _str,
    "bool": _bool,
    "str | None": _opt_str,
    "tuple[int, ...]": _ints,
    "tuple[tuple[int, str], ...]": _pairs(_str),
    "tuple[tuple[int, int], ...]": _pairs(_int),
}

_BY_NAME: dict[str, type] = {cls.__name__: cls for cls in rv.ROOM_EVENTS}


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def encode_room_event(event: rv.RoomEvent) -> dict[str, Any]:
    """A room event as JSON data."""
    out: dict[str, Any] = {"v": VERSION, "type": type(event).__name__}
    for f in dataclasses.fields(event):
        out[f.name] = _plain(getattr(event, f.name))
    return out


def decode_room_event(data: Any) -> rv.RoomEvent:
    """The room event encoded in ``data``; CodecError if it is not one."""
    if not isinstance(data, dict):
        raise CodecError(f"a record entry is an object, not {data!r}")
    if data.get("v") != VERSION:
        raise CodecError(f"unknown record version {data.get('v')!r}")
    cls = _BY_NAME.get(data.get("type", ""))
    if cls is None:
        raise CodecError(f"unknown room event type {data.get('type')!r}")
    fields = dataclasses.fields(cls)
    names = {f.name for f in fields}
    extra = set(data) - names - {"v", "type"}
    if extra:
        raise CodecError(f"{cls.__name__}: unexpected fields {sorted(extra)}")
    values: dict[str, Any] = {}
    for f in fields:
        if f.name not in data:
            raise CodecError(f"{cls.__name__}: missing field {f.name!r}")
        reader = _READERS[str(f.type)]
        values[f.name] = reader(data[f.name])
    event: rv.RoomEvent = cls(**values)
    return event


def encode_snapshot(state: dict[str, Any]) -> dict[str, Any]:
    """A table snapshot (``state_to_dict`` data) as a versioned record entry."""
    return {"v": VERSION, "type": "TableSnapshot", "state": state}


def decode_snapshot(data: Any) -> dict[str, Any]:
    """The snapshot data of a record entry; CodecError if it is not one."""
    if not isinstance(data, dict) or data.get("v") != VERSION:
        raise CodecError("not a version-1 record entry")
    if data.get("type") != "TableSnapshot" or not isinstance(data.get("state"), dict):
        raise CodecError("not a table snapshot")
    state: dict[str, Any] = data["state"]
    return state
