"""The one error type of the Chinese poker package."""

from __future__ import annotations


class ChineseError(ValueError):
    """Raised for anything the rules refuse: a bad arrangement, an illegal action, bad data.

    The message says what was wrong; the state that raised it is unchanged.
    """
