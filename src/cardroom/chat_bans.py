"""The chat ban ladder (RULEBOOK §10.7): one place for the room, which judges an
offence, and the store, which keeps the bans with the account and counts the earlier
ones; and the longest sanction with an end, for the operator's API and command line.
Standard library only, so every layer may import it."""

from __future__ import annotations

from datetime import timedelta
from typing import Final

CHAT_BAN_STEPS: Final[tuple[timedelta | None, ...]] = (
    timedelta(hours=24),
    timedelta(hours=48),
    timedelta(hours=72),
    timedelta(weeks=1),
    timedelta(days=30),
    None,  # permanent
)
"""Chat ban length by offence: 24 h, 48 h, 72 h, 1 week, 1 month (30 days), then
permanent; the first offence gets the first step."""

MAX_SANCTION_HOURS: Final = 24 * 3650
"""The longest sanction with an end an operator may impose: ten years (87,600 hours);
a longer one is one until lifted."""


def chat_ban_duration(past_offences: int) -> timedelta | None:
    """The length of the next chat ban for a player with ``past_offences`` earlier ones
    (None: permanent).

    >>> chat_ban_duration(0), chat_ban_duration(5), chat_ban_duration(99)
    (datetime.timedelta(days=1), None, None)
    """
    if past_offences < 0:
        raise ValueError("a count of offences is not negative")
    return CHAT_BAN_STEPS[min(past_offences, len(CHAT_BAN_STEPS) - 1)]
