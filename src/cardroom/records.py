"""The one style of a stored record: versioned plain JSON data for dataclasses.

An event (of a hand, of a Chinese poker hand, of a table) is stored as a JSON
object ``{"v": 1, "type": "<class name>", <field>: <value>, ...}``: cards as text
(``"Ah"``), amounts and seats as integers, tuples as lists, ``None`` as null.
A :class:`Codec` is built once per family of event types from the dataclasses'
own type hints, so adding an event needs no codec code. Decoding is strict: an
unknown version or type, a missing or extra field, or a value of the wrong type
raises :class:`CodecError` and nothing else.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Dealt:
...     seat: int
...     cards: tuple[Card, ...]
>>> codec = Codec([Dealt], {"Card": Card})
>>> codec.encode(Dealt(2, (Card.parse("Ah"),)))
{'v': 1, 'type': 'Dealt', 'seat': 2, 'cards': ['Ah']}
>>> codec.decode({"v": 1, "type": "Dealt", "seat": 2, "cards": ["Ah"]})
Dealt(seat=2, cards=(Ah,))
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import fields, is_dataclass
from typing import Any, Final

from cardroom.cards import Card, CardError

VERSION: Final = 1
"""The record format's version; a reader refuses any other."""

LIMIT: Final = 2**63 - 1
"""The largest integer a record holds (what a database's BIGINT stores)."""

Hook = tuple[Callable[[Any], Any], Callable[[Any], Any]]
"""How a type that is not plain data is encoded and decoded (e.g. a table configuration)."""


class CodecError(ValueError):
    """A record that cannot be encoded or decoded; says which field and why."""


class Codec:
    """Encode and decode the dataclasses ``kinds`` in the one record style.

    ``names`` resolves the string annotations of the dataclasses' modules (pass the
    module's globals or the names used); ``hooks`` maps a type to its own encoder and
    decoder, for values that are not plain data.
    """

    def __init__(
        self,
        kinds: Iterable[type],
        names: Mapping[str, Any],
        hooks: Mapping[type, Hook] | None = None,
    ) -> None:
        self._kinds = {k.__name__: k for k in kinds}
        self._hooks = dict(hooks or {})
        self._fields: dict[str, list[tuple[str, Any]]] = {}
        for name, kind in self._kinds.items():
            if not is_dataclass(kind):
                raise TypeError(f"{name} is not a dataclass")
            hints = typing.get_type_hints(kind, {**vars(typing), **names})
            self._fields[name] = [(f.name, hints[f.name]) for f in fields(kind) if f.init]

    @property
    def types(self) -> tuple[str, ...]:
        """The type names this codec reads and writes."""
        return tuple(self._kinds)

    def encode(self, obj: object) -> dict[str, Any]:
        """``obj`` as a JSON object (CodecError if it is not one of this codec's types)."""
        name = type(obj).__name__
        if self._kinds.get(name) is not type(obj):
            raise CodecError(f"not a record type: {type(obj).__name__}")
        out: dict[str, Any] = {"v": VERSION, "type": name}
        for field, hint in self._fields[name]:
            out[field] = self._encode(hint, getattr(obj, field))
        return out

    def decode(self, data: object) -> Any:
        """The object ``data`` encodes; CodecError for anything malformed."""
        if not isinstance(data, Mapping):
            raise CodecError("a record is a JSON object")
        version = data.get("v")
        if type(version) is not int or version != VERSION:
            raise CodecError(f"unknown record version {version!r}")
        name = data.get("type")
        if not isinstance(name, str) or name not in self._kinds:
            raise CodecError(f"unknown record type {name!r}")
        expected = self._fields[name]
        extra = set(data) - {"v", "type"} - {f for f, _ in expected}
        if extra:
            raise CodecError(f"{name}: unknown field(s) {', '.join(sorted(map(str, extra)))}")
        values = {}
        for field, hint in expected:
            if field not in data:
                raise CodecError(f"{name}: missing field {field!r}")
            values[field] = self._decode(hint, data[field], f"{name}.{field}")
        try:
            return self._kinds[name](**values)
        except (TypeError, ValueError) as exc:
            raise CodecError(f"{name}: {exc}") from None

    # ------------------------------------------------------------------ values

    def _encode(self, hint: Any, value: Any) -> Any:
        hook = self._hooks.get(hint) or self._hooks.get(type(value))
        if hook is not None:
            return hook[0](value)
        if value is None or isinstance(value, bool | str):
            return value
        if isinstance(value, Card):
            return str(value)
        if isinstance(value, int):
            return int(value)
        if isinstance(value, tuple):
            return [self._encode(_item_hint(hint, i), v) for i, v in enumerate(value)]
        if isinstance(value, Mapping):
            return {str(k): self._encode(_value_hint(hint), v) for k, v in value.items()}
        if is_dataclass(value) and type(value).__name__ in self._kinds:
            return self.encode(value)
        raise CodecError(f"cannot encode {value!r}")

    def _decode(self, hint: Any, value: Any, where: str) -> Any:
        hook = self._hooks.get(hint)
        if hook is not None:
            try:
                return hook[1](value)
            except CodecError:
                raise
            except (TypeError, ValueError, KeyError) as exc:
                raise CodecError(f"{where}: {exc}") from None
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if origin in (typing.Union, types.UnionType):
            if value is None and type(None) in args:
                return None
            inner = [a for a in args if a is not type(None)]
            if len(inner) == 1:
                return self._decode(inner[0], value, where)
            raise CodecError(f"{where}: cannot decode a union of {inner}")
        if hint is Any:
            return value
        if origin is tuple:
            if not isinstance(value, list):
                raise CodecError(f"{where}: expected a list, not {value!r}")
            fixed = len(args) != 2 or args[1] is not Ellipsis
            if fixed and len(value) != len(args):
                raise CodecError(f"{where}: expected {len(args)} items")
            return tuple(
                self._decode(_item_hint(hint, i), v, f"{where}[{i}]") for i, v in enumerate(value)
            )
        if origin is not None and origin.__name__ == "Mapping":
            if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
                raise CodecError(f"{where}: expected an object, not {value!r}")
            return {k: self._decode(args[1], v, f"{where}.{k}") for k, v in value.items()}
        return self._scalar(hint, value, where)

    def _scalar(self, hint: Any, value: Any, where: str) -> Any:
        if hint is Card:
            if not isinstance(value, str):
                raise CodecError(f"{where}: a card is text such as 'Ah', not {value!r}")
            try:
                return Card.parse(value)
            except CardError as exc:
                raise CodecError(f"{where}: {exc}") from None
        if hint is bool:
            if type(value) is not bool:
                raise CodecError(f"{where}: expected true or false, not {value!r}")
            return value
        if hint is int:
            if type(value) is not int or not -LIMIT <= value <= LIMIT:
                raise CodecError(f"{where}: expected a whole number, not {value!r}")
            return value
        if hint is str:
            if type(value) is not str:
                raise CodecError(f"{where}: expected text, not {value!r}")
            return value
        if isinstance(hint, type) and hint.__name__ in self._kinds:
            decoded = self.decode(value)
            if not isinstance(decoded, hint):
                raise CodecError(f"{where}: expected {hint.__name__}")
            return decoded
        raise CodecError(f"{where}: cannot decode {hint!r}")


def _item_hint(hint: Any, i: int) -> Any:
    args = typing.get_args(hint)
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        return _item_hint(inner[0], i) if len(inner) == 1 else Any
    if not args:
        return Any
    return args[0] if len(args) == 2 and args[1] is Ellipsis else args[i]


def _value_hint(hint: Any) -> Any:
    args = typing.get_args(hint)
    return args[1] if len(args) == 2 else Any
