"""Checks of configuration values, shared by every configuration type.

``Stakes``, ``Seat``, ``TableConfig``, ``RakeRule``, ``RakeTier``, ``Street`` and
``Variant`` check their fields when they are built (``__post_init__``) with these
helpers, so a bad value raises :class:`~cardroom.games.errors.ConfigError`, with
one wording, whether it came from code or from JSON, and never reaches a hand.
Amounts are ``int`` only: ``bool`` (an ``int`` to Python) and ``float`` are refused.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from typing import Any, Final, TypeVar

from cardroom.games.errors import ConfigError

MAX_CHIPS: Final = 2**53 - 1
"""The largest amount or count a configuration may hold: the largest integer every JSON
reader keeps exactly (a browser reads numbers as doubles), so a stored table reads back
as it was written, and a huge number from JSON is refused before any arithmetic."""

T = TypeVar("T")


def is_whole(value: object) -> bool:
    """True for an ``int`` that is not a ``bool``."""
    return isinstance(value, int) and not isinstance(value, bool)


def whole(value: object, what: str, low: int = 0, high: int = MAX_CHIPS) -> int:
    """``value`` when it is an int (not a bool) from ``low`` to ``high``; ConfigError else."""
    if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
        return value
    top = "2**53 - 1" if high == MAX_CHIPS else str(high)
    if low == 0:
        raise ConfigError(
            f"{what} must be a non-negative whole number up to {top}, not {shown(value)}"
        )
    raise ConfigError(f"{what} must be a whole number from {low} to {top}, not {shown(value)}")


def maybe_whole(value: object, what: str, low: int = 0, high: int = MAX_CHIPS) -> int | None:
    """As :func:`whole`, or None (unset)."""
    return None if value is None else whole(value, what, low, high)


def wholes(value: object, what: str, low: int = 0) -> tuple[int, ...]:
    """``value`` when it is a tuple of whole numbers of at least ``low``."""
    if not isinstance(value, tuple):
        raise ConfigError(f"{what} must be a tuple of amounts, e.g. (4,) or (4, 8)")
    return tuple(whole(v, f"each of {what}", low) for v in value)


def flag(value: object, what: str) -> bool:
    """``value`` when it is true or false."""
    if not isinstance(value, bool):
        raise ConfigError(f"{what} must be true or false, not {shown(value)}")
    return value


def text(value: object, what: str) -> str:
    """``value`` when it is a non-empty str."""
    if not isinstance(value, str) or not value:
        raise ConfigError(f"{what} must be a non-empty string, not {shown(value)}")
    return value


def choice(value: object, what: str, choices: tuple[T, ...]) -> T:
    """``value`` when it is one of ``choices`` (strings); ConfigError naming them else."""
    for known in choices:
        if type(value) is type(known) and value == known:
            return known
    listed = ", ".join(repr(c) for c in choices)
    raise ConfigError(f"{what} must be one of {listed}, not {shown(value)}")


def unknown_name(what: str, name: object, known: Iterable[str]) -> ConfigError:
    """The error for a name that is not one of ``known``: the nearest name, and all of them."""
    names = sorted(known)
    hint = ""
    if isinstance(name, str):
        near = difflib.get_close_matches(name, names, n=1, cutoff=0.5)
        hint = f" (did you mean {near[0]!r}?)" if near else ""
    return ConfigError(f"no {what} called {shown(name)}{hint}; known: {', '.join(names)}")


def json_object(data: object, what: str, keys: Iterable[str]) -> Mapping[str, Any]:
    """``data`` when it is a mapping (a JSON object) whose keys are all in ``keys``."""
    if not isinstance(data, Mapping):
        raise ConfigError(f"{what} must be a JSON object, not {shown(data)}")
    known = frozenset(keys)
    for key in data:
        if key not in known:
            raise unknown_name(f"key of {what}", key, known)
    return data


def json_array(data: object, what: str) -> tuple[Any, ...]:
    """``data`` as a tuple when it is a list (JSON) or a tuple."""
    if not isinstance(data, list | tuple):
        raise ConfigError(f"{what} must be a list, not {shown(data)}")
    return tuple(data)


def shown(value: object) -> str:
    """``value`` for a message: its repr, cut short (a value from JSON may be huge)."""
    if isinstance(value, int) and value.bit_length() > 64:
        return f"a {value.bit_length()}-bit number"  # repr fails past 4300 digits
    text = repr(value)
    return text[:60] + "..." if len(text) > 60 else text
