"""Fixtures shared by the engine's tests."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from dataclasses import fields, is_dataclass

import pytest

from cardroom.games.hand import Hand


@pytest.fixture(scope="session")
def hand_state() -> Callable[[Hand], object]:
    """Every attribute of a hand, recursively, as plain values that compare by value.

    The hand's attributes are its ``vars``; its per-hand helpers (stud, draw, the
    reshuffle) have no ``__dict__``, so theirs are read from their class's ``__slots__``,
    and the mutable dataclasses' (the dealer, the betting round) from their fields.
    """
    return _plain


def _plain(value: object) -> object:
    if isinstance(value, list | tuple | deque):
        return tuple(_plain(v) for v in value)
    if isinstance(value, dict):
        return tuple((k, _plain(v)) for k, v in value.items())
    if isinstance(value, set):
        return frozenset(value)
    if isinstance(value, random.SystemRandom):
        return "system random"
    if isinstance(value, random.Random):
        return value.getstate()
    kind = type(value)
    names = getattr(kind, "__slots__", ())
    if hasattr(value, "__dict__") and kind.__module__.startswith("cardroom.games"):
        caches = getattr(kind, "CACHES", ())  # what the state determines is not state
        names = tuple(n for n in vars(value) if n not in caches)
    if is_dataclass(value):
        params = kind.__dataclass_params__  # type: ignore[attr-defined]
        # A @value (an event, an action: hashable, never changed) compares as it is; a
        # mutable helper (the dealer, the round) by its fields.
        mutable = not (params.frozen or params.unsafe_hash)
        names = tuple(f.name for f in fields(value)) if mutable else ()
    if names:  # the hand and its per-hand helpers
        return (kind.__name__, tuple((n, _plain(getattr(value, n))) for n in names))
    return value  # immutable: numbers, strings, cards, events, configuration
