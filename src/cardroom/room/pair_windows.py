"""A pair of accounts' window for the integrity rules (RULEBOOK §10.9): exact and small.

The room's one monitor (:mod:`cardroom.room.integrity`) keeps a window for each pair
of accounts that met lately, per hand rule: in a busy room, hundreds of thousands.
So a window holds no object per hand. A :class:`FoldWindow` is a bit a hand (in one
integer); a :class:`PotWindow` one machine integer a hand (a ring). Each keeps, for a
flag's evidence, only the hands of its latest ``keep`` counted events (the rule's
threshold: when the rule holds, they are all in the window).

>>> w = FoldWindow()
>>> [w.push(n, f, size=3, keep=2, at=0.0) for n, f in enumerate([True, False, True, True])]
[1, 1, 2, 2]
>>> w.hands, w.folds, w.recent  # the last 3 hands: no fold, fold, fold
(3, 2, [2, 3])
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass, field
from typing import Any

HandId = int | str
"""A hand as the monitor names it in a flag: a table's hand number, or the room's
``table#n`` (:func:`cardroom.room.review.hand_ref`) when one monitor sees every table."""


def _hands(data: list[Any]) -> list[HandId]:
    """Hand names read back (each a number or a text)."""
    if not all(type(h) in (int, str) for h in data):
        raise TypeError("a hand is named by a number or a text")
    return list(data)


def _keep_last(hands: list[HandId], hand: HandId, keep: int) -> None:
    hands.append(hand)
    if len(hands) > keep:
        del hands[0]


@dataclass(eq=False, slots=True)
class FoldWindow:
    """(A, B)'s last hands in which A faced B's bet or raise: ``bits``, one a hand, the
    newest lowest, 1 where A folded to it; ``hands`` how many (at most the window);
    ``recent`` the hands A folded in lately; ``last`` when the latest hand was."""

    bits: int = 0
    hands: int = 0
    recent: list[HandId] = field(default_factory=list)
    last: float = 0.0

    @property
    def folds(self) -> int:
        """The hands in the window in which A folded to B."""
        return self.bits.bit_count()

    def push(self, hand: HandId, folded: bool, size: int, keep: int, at: float) -> int:
        """Count one more hand of a window of ``size`` (the oldest leaves when full);
        keep the latest ``keep`` fold hands; return :attr:`folds`."""
        self.bits = bits = ((self.bits << 1) | folded) & ((1 << size) - 1)
        if self.hands < size:
            self.hands += 1
        if folded:
            _keep_last(self.recent, hand, keep)
        self.last = at
        return bits.bit_count()

    def dump(self) -> list[Any]:
        """The window as JSON values (:meth:`load` reads it back)."""
        return [hex(self.bits), self.hands, list(self.recent), self.last]

    @classmethod
    def load(cls, data: list[Any]) -> FoldWindow:
        """A window from :meth:`dump` (ValueError, TypeError: not one)."""
        bits, hands, recent, last = data
        return cls(int(bits, 16), int(hands), _hands(recent), float(last))


@dataclass(eq=False, slots=True)
class PotWindow:
    """{A, B}'s last hands in which chips moved between them, A being the first by name:
    each hand's net chips in ``flows`` (positive: A lost them to B), a ring of ``pushed``
    hands so far; ``pots`` and ``chips`` each way over the window (0: A to B, 1: B to
    A); ``recent`` each way, the hands lost lately; ``last`` when the latest hand was."""

    flows: array[int] = field(default_factory=lambda: array("q"))
    pushed: int = 0
    pots: list[int] = field(default_factory=lambda: [0, 0])
    chips: list[int] = field(default_factory=lambda: [0, 0])
    recent: tuple[list[HandId], list[HandId]] = field(default_factory=lambda: ([], []))
    last: float = 0.0

    def push(self, hand: HandId, net: int, size: int, keep: int, at: float) -> None:
        """Count one more hand (``net`` not 0) of a window of ``size`` (the oldest
        leaves when full); keep the latest ``keep`` hands lost each way."""
        pots, chips = self.pots, self.chips
        if len(self.flows) < size:
            self.flows.append(net)
        else:  # the oldest hand leaves
            at_oldest = self.pushed % size
            old = self.flows[at_oldest]
            self.flows[at_oldest] = net
            way = int(old < 0)
            pots[way] -= 1
            chips[way] -= abs(old)
        self.pushed += 1
        way = int(net < 0)
        pots[way] += 1
        chips[way] += abs(net)
        _keep_last(self.recent[way], hand, keep)
        self.last = at

    def dump(self) -> list[Any]:
        """The window as JSON values (:meth:`load` reads it back), copies all: a room keeps
        them while its tables play on, and the counts must stay those of the flows."""
        recent = [list(self.recent[0]), list(self.recent[1])]
        counts = list(self.pots), list(self.chips)
        return [self.flows.tolist(), self.pushed, *counts, recent, self.last]

    @classmethod
    def load(cls, data: list[Any]) -> PotWindow:
        """A window from :meth:`dump` (ValueError, TypeError: not one)."""
        flows, pushed, pots, chips, (mine, theirs), last = data
        counts = [[int(n) for n in pots], [int(n) for n in chips]]
        if any(len(c) != 2 for c in counts):
            raise ValueError("pots and chips are counted two ways")
        recent = (_hands(mine), _hands(theirs))
        return cls(array("q", flows), int(pushed), counts[0], counts[1], recent, float(last))

    def holds(self, way: int, threshold: int, one_way_percent: int) -> bool:
        """Whether the flow ``way`` (0: A to B, 1: B to A) was lost in at least
        ``threshold`` hands and is at least ``one_way_percent`` % one way (the chips
        back cancel it)."""
        if self.pots[way] < threshold:
            return False
        sent, back = self.chips[way], self.chips[1 - way]
        return sent > back and 100 * (sent - back) >= one_way_percent * (sent + back)
