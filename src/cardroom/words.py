"""Words quoted back to whoever sent them, cut to a size (a hostile input's words are
quoted, not dumped): the one rule for an error that quotes its input.

>>> clipped("short")
'short'
>>> clipped("x" * 500)[-20:]
'... (500 characters)'
"""

from __future__ import annotations

from typing import Final

LONGEST_MESSAGE: Final = 400
"""An error's message is cut here: it may quote input of any size."""


def clipped(message: object) -> str:
    """``message`` in words, cut to :data:`LONGEST_MESSAGE` characters, saying how long
    it was."""
    text = str(message)
    if len(text) <= LONGEST_MESSAGE:
        return text
    return f"{text[:LONGEST_MESSAGE]}... ({len(text)} characters)"
