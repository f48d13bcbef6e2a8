"""How long a bot thinks before acting: human-looking delays, or none (fast mode).

A human's decision times are skewed: most actions are quick, a few take long.
:class:`Timing` draws from a triangular distribution between ``low`` and
``high`` whose mode sits near ``low``, and ``FAST`` (all zero) is the mode for
tests and benchmarks.
"""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Timing:
    """Think time in seconds: between ``low`` and ``high``, most often near ``mode``
    (None: a quarter of the way up from ``low``)."""

    low: float = 0.5
    high: float = 3.0
    mode: float | None = None

    def __post_init__(self) -> None:
        if not 0 <= self.low <= self.high:
            raise ValueError(f"think time needs 0 <= low <= high, got {self.low}, {self.high}")
        if self.mode is not None and not self.low <= self.mode <= self.high:
            raise ValueError(f"the mode {self.mode} is outside {self.low}..{self.high}")

    @property
    def fast(self) -> bool:
        """Whether the bot acts at once."""
        return self.high == 0

    def draw(self, rng: random.Random) -> float:
        """One think time."""
        if self.high == self.low:
            return self.low
        mode = self.low + (self.high - self.low) / 4 if self.mode is None else self.mode
        return rng.triangular(self.low, self.high, mode)

    @classmethod
    def parse(cls, text: str) -> Timing:
        """``"0"`` (fast), ``"1.5"`` (always 1.5 s) or ``"0.5,3"`` (low, high)."""
        parts = [float(x) for x in text.split(",")]
        if len(parts) == 1:
            return cls(parts[0], parts[0])
        if len(parts) == 2:
            return cls(parts[0], parts[1])
        raise ValueError(f"think time {text!r}: one number or 'low,high'")


FAST = Timing(0.0, 0.0)
"""No think time (tests, benchmarks)."""
HUMAN = Timing(0.5, 3.0)
"""Half a second to three, mostly around a second (``cardroom serve``'s bots)."""
