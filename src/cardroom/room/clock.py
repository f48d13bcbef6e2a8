"""Time for a table: an injected clock, so a test plays a 30-second timeout instantly."""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    """Seconds since the epoch (UTC); a table reads nothing else about time."""

    def __call__(self) -> float:
        """The current time in seconds."""
        ...


system_clock: Clock = time.time
"""The wall clock (the server's): ``time.time`` itself, read by every command and tick
(a wrapper would add a Python call to each)."""


class ManualClock:
    """A clock that moves only when told to (tests, simulations)."""

    def __init__(self, start: float = 0.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        """Move time forward by ``seconds``; returns the new time."""
        self.now += seconds
        return self.now


SECONDS_PER_DAY = 86_400


def day_of(now: float) -> int:
    """The UTC day number of ``now`` (disconnect all-in allowances are per day)."""
    return int(now // SECONDS_PER_DAY)
