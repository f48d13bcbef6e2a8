"""Disconnect all-ins per player per day (RULEBOOK §10.6), shared by all tables.

A player has ``per_day`` disconnect all-ins each UTC day; a player may ask for a
reset, granted ``resets_per_day`` times a day. Every use and reset is also a
table event, logged for abuse review. The server backs this with the database
(``cardroom.server.allowances``: each change stored with the table step that made
it); :class:`MemoryAllowances` is the in-memory book of simulations and tests.
"""

from __future__ import annotations

from typing import Protocol


class Allowances(Protocol):
    """The book of disconnect all-ins used, per player and day."""

    def used(self, player: str, day: int) -> int:
        """Disconnect all-ins ``player`` used on ``day``."""
        ...

    def use(self, player: str, day: int) -> int:
        """Count one more use; returns the uses that day."""
        ...

    def resets(self, player: str, day: int) -> int:
        """Resets granted to ``player`` on ``day``."""
        ...

    def reset(self, player: str, day: int) -> None:
        """Clear the day's uses and count the reset."""
        ...


class MemoryAllowances:
    """:class:`Allowances` held in memory."""

    def __init__(self) -> None:
        self._used: dict[tuple[str, int], int] = {}
        self._resets: dict[tuple[str, int], int] = {}

    def used(self, player: str, day: int) -> int:
        """Disconnect all-ins ``player`` used on ``day``."""
        return self._used.get((player, day), 0)

    def use(self, player: str, day: int) -> int:
        """Count one more use; returns the uses that day."""
        self._used[player, day] = self.used(player, day) + 1
        return self._used[player, day]

    def resets(self, player: str, day: int) -> int:
        """Resets granted to ``player`` on ``day``."""
        return self._resets.get((player, day), 0)

    def reset(self, player: str, day: int) -> None:
        """Clear the day's uses and count the reset."""
        self._used.pop((player, day), None)
        self._resets[player, day] = self.resets(player, day) + 1
