"""The one error type of a table: a refused command, with a stable code and a reason."""

from __future__ import annotations

from typing import Final

NO_SUCH_SEAT: Final = "no_such_seat"
SEAT_TAKEN: Final = "seat_taken"
SEAT_RESERVED: Final = "seat_reserved"
ALREADY_SEATED: Final = "already_seated"
NOT_SEATED: Final = "not_seated"
BUY_IN_TOO_SMALL: Final = "buy_in_too_small"
BUY_IN_TOO_LARGE: Final = "buy_in_too_large"
INSUFFICIENT_FUNDS: Final = "insufficient_funds"
HAND_IN_PROGRESS: Final = "hand_in_progress"
NOT_IN_HAND: Final = "not_in_hand"
TABLE_NOT_FULL: Final = "table_not_full"
ALREADY_WAITING: Final = "already_waiting"
NOT_WAITING: Final = "not_waiting"
BAD_COMMAND: Final = "bad_command"
NO_RESET_LEFT: Final = "no_reset_left"
NOTHING_TO_RESET: Final = "nothing_to_reset"
"""A reset of disconnect all-ins asked with none used today: refused, so the day's reset
is kept for when it is needed."""
NOT_LEAVING: Final = "not_leaving"
"""A stay asked with no leave pending (none asked, or the seat already gone)."""
STOOD_UP: Final = "stood_up"
"""A stay asked of a leave the room made (a sanction, §10.9), not the player's: it stands."""
NO_HAND: Final = "no_hand"
NOT_YOUR_TURN: Final = "not_your_turn"
"""The engine's code, used by a Chinese poker table for a placement out of turn."""
BAD_PLACEMENT: Final = "bad_placement"
"""A Chinese poker placement the rules refuse (cards not dealt, a full row, the discard)."""
WRONG_GAME: Final = "wrong_game"
"""A poker action at a Chinese poker table, or a placement at a poker table."""
RATE_LIMITED: Final = "rate_limited"
"""A chat line past the player's rate (§10.7): the chat's verdict, which the table
makes a refusal (recorded, a flood of lines would be a flood of stored events)."""
YOUR_TURN: Final = "your_turn"
"""An advance action arrived when the turn had already come (a race any client meets):
act now instead."""

CODES: Final = frozenset(
    {
        NO_SUCH_SEAT, SEAT_TAKEN, SEAT_RESERVED, ALREADY_SEATED, NOT_SEATED,
        BUY_IN_TOO_SMALL, BUY_IN_TOO_LARGE, INSUFFICIENT_FUNDS, HAND_IN_PROGRESS,
        NOT_IN_HAND, TABLE_NOT_FULL, ALREADY_WAITING, NOT_WAITING, BAD_COMMAND,
        NO_RESET_LEFT, NOTHING_TO_RESET, NO_HAND, NOT_YOUR_TURN, BAD_PLACEMENT, WRONG_GAME,
        YOUR_TURN, RATE_LIMITED, NOT_LEAVING, STOOD_UP,
    }
)  # fmt: skip
"""Every code of this module (a refusal may also carry an engine code)."""


class TableError(ValueError):
    """A command the table refused; the table is unchanged. ``code`` is machine-readable
    (the constants of this module, or an engine ``IllegalAction`` code), ``reason`` human."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
