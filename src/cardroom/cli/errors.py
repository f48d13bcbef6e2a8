"""The two ways a command ends badly, and argument types shared by several commands.

A :class:`UsageError` (the command line is wrong) exits 2, like argparse's own
refusals; a command that fails for any other reason returns 1.
"""

from __future__ import annotations

import argparse
import reprlib
from collections.abc import Callable


class UsageError(Exception):
    """The command line is wrong (exit code 2); raised by a command after parsing."""


def is_utf8(text: str) -> bool:
    """Whether ``text`` is text a database can store: bytes that are not UTF-8 (on the
    command line, or piped in under the C locale) reach Python as lone surrogates
    (``surrogateescape``), which no driver encodes."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def seed(text: str) -> int:
    """An argparse type: a seed is a whole number, so ``007`` and ``7`` are the same seed."""
    try:
        value = int(text.strip(), 10)
    except ValueError:
        shown = reprlib.repr(text)
        raise argparse.ArgumentTypeError(f"a seed is a whole number, not {shown}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"a seed is zero or more, not {value}")
    return value


def whole_number(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high`` (no upper bound: None)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            shown = reprlib.repr(text)
            raise argparse.ArgumentTypeError(f"{shown} is not a whole number") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"must be {_bounds(low, high)}, not {value}")
        return value

    return parse


def _bounds(low: int, high: int | None) -> str:
    if high is not None:
        return f"from {low} to {high}"
    return {0: "zero or more", 1: "above zero"}.get(low, f"at least {low}")


positive_int = whole_number(1)
"""An argparse type: a whole number above zero."""
non_negative_int = whole_number(0)
"""An argparse type: a whole number, zero or more."""


def positive_seconds(text: str) -> float:
    """An argparse type: a duration in seconds above zero."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be above zero seconds, not {text}")
    return value
