"""``@value``: the dataclass of the records made on every move (actions and events).

A hand makes a hundred or more of them (each action, each event), and a frozen
dataclass sets every field through ``object.__setattr__`` when it is built: four
times the cost of a plain one, a fifth of a draw-game hand (``cardroom bench
engine``, see docs/performance.md). A ``@value`` class is a plain slotted
dataclass at run time, with a hash of its fields like a frozen one, and frozen to
the type checker (``dataclass_transform(frozen_default=True)``), so
``mypy --strict`` refuses any assignment to a field. Nothing may change a value
once built: events are the record of a hand, and the engine keeps the actions it
applied to rebuild a hand.

>>> @value
... class Dealt:
...     seat: int
...     cards: tuple[str, ...] = ()
>>> Dealt(2, ("Ah",)) == Dealt(2, ("Ah",)), hash(Dealt(2)) == hash(Dealt(2))
(True, True)
>>> Dealt(2)
Dealt(seat=2, cards=())
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar, dataclass_transform

__all__ = ["value"]

_T = TypeVar("_T")


@dataclass_transform(frozen_default=True)
def value(cls: type[_T]) -> type[_T]:
    """Make ``cls`` a value: a slotted dataclass, hashable, frozen to the type checker."""
    return dataclass(slots=True, unsafe_hash=True)(cls)
