"""The two ways a command ends badly, and argument types shared by several commands.

A :class:`UsageError` (the command line is wrong) exits 2, like argparse's own
refusals; a command that fails for any other reason returns 1.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable


class UsageError(Exception):
    """The command line is wrong (exit code 2); raised by a command after parsing."""


def positive_int(text: str) -> int:
    """An argparse type: a whole number above zero."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be above zero, not {value}")
    return value


def non_negative_int(text: str) -> int:
    """An argparse type: a whole number, zero or more."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be zero or more, not {value}")
    return value


def seed(text: str) -> int:
    """An argparse type: a seed is a whole number, so ``007`` and ``7`` are the same seed."""
    try:
        value = int(text.strip(), 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a seed is a whole number, not {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"a seed is zero or more, not {value}")
    return value


def whole_number(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high`` (no upper bound: None)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < low or (high is not None and value > high):
            bounds = f"at least {low}" if high is None else f"from {low} to {high}"
            raise argparse.ArgumentTypeError(f"must be {bounds}, not {value}")
        return value

    return parse


def positive_seconds(text: str) -> float:
    """An argparse type: a duration in seconds above zero."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be above zero seconds, not {text}")
    return value
