"""What a table's log says while the database refuses its steps (a full disk...).

Each refused step was logged, and a table tries again at every tick of its clock (the
table rebuilt from its record, its clocks resumed: a step to store): a full disk under
the room's eight tables wrote 1,853 WARNING lines a minute, burying the first, which
said why. :class:`Refusals` says it once when the refusals begin, a reminder a minute
while they last, and once when a step is stored again, with how long and how many.
"""

from __future__ import annotations

import logging
import time

log = logging.getLogger("cardroom.server")

TOLD_EVERY = 60.0
"""Seconds between reminders while a table's steps are refused."""


class Refusals:
    """The refused steps of one table, as its log tells them."""

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        self.since: float | None = None
        """When the refusals began (``time.monotonic``); None while steps are stored."""
        self.told = 0.0
        self.count = 0

    def refused(self, exc: Exception) -> None:
        """A step was not stored (``exc``): said if it is the first of a run, or the
        first for a minute."""
        now = time.monotonic()
        self.count += 1
        if self.since is None:
            self.since = self.told = now
            log.warning("table %s: a step was not stored (%s)", self.table_id, exc)
        elif now - self.told >= TOLD_EVERY:
            self.told = now
            log.warning(
                "table %s: steps still not stored after %.0f s, %d step(s) refused (%s)",
                self.table_id, now - self.since, self.count, exc,
            )  # fmt: skip

    def stored(self) -> None:
        """A step was stored: the end of a run of refusals, said if there was one."""
        if self.since is None:
            return
        log.warning(
            "table %s: steps stored again after %.0f s, %d step(s) refused meanwhile",
            self.table_id, time.monotonic() - self.since, self.count,
        )  # fmt: skip
        self.since, self.count = None, 0
