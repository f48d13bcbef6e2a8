"""What each seat may have seen: the oracle of the hidden-card tests
(:class:`cardroom.room.checks.Knowledge`, which ``cardroom simulate`` runs too), asserting."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from cardroom.room import checks


class Knowledge:
    """The cards each seat (and a spectator, None) may have seen so far this hand."""

    def __init__(self, seats: int) -> None:
        self.oracle = checks.Knowledge(seats)
        self.viewers = self.oracle.viewers

    def check_events(self, events: Iterable[object]) -> None:
        """Learn from each event, then check it as every seat and a spectator see it."""
        found = self.oracle.check_events(events)
        assert not found, found[:3]

    def check_table(self, table: Any) -> None:
        """Check the table view of every seated player and of a spectator."""
        found = self.oracle.check_table(table)
        assert not found, found[:3]
