"""A table standing still while the database refuses its steps (a full disk...).

Each refused step rebuilds the table from its record (nothing of it happened) and its
clocks resume: a step to store at the next tick, refused again. At the clock's 0.2 s the
table tried five times a second, and each rebuild sent every watcher a fresh snapshot of
the same table: about 200 snapshots (670 KB) a watcher in 30 s of full disk.
:class:`Pause` spaces the clock's tries out (half a second, doubling to five: play resumes
at most five seconds after the database takes steps again) and sends a watcher the
rebuilt table only when it is not what he was last sent, nothing stored since. Its
watchers are told when the table pauses and when it plays on (``table_paused``): only the
player who acted was told before ("The change could not be stored"), the others saw a
table standing still with no word why. Its log says the refusals once when they begin, a
reminder a minute while they last, and once when a step is stored again, with how long
and how many (each refused step was logged: 1,853 WARNING lines a minute for eight tables
on a full disk, burying the first, which said why).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable

from cardroom.room.table import Table
from cardroom.server import broadcast, protocol
from cardroom.server.broadcast import Watcher

FIRST_WAIT = 0.5
"""Seconds the clock waits after a first refused step before the table tries again."""
LONGEST_WAIT = 5.0
"""The longest wait between tries, doubling from :data:`FIRST_WAIT`."""
TOLD_EVERY = 60.0
"""Seconds between the log's reminders while a table's steps are refused."""

log = logging.getLogger("cardroom.server")


class Pause:
    """One table's run of refused steps: its log, its tries, the snapshots sent meanwhile."""

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        self.since: float | None = None
        """When the refusals began (``time.monotonic``); None while steps are stored."""
        self.told = 0.0
        self.count = 0
        self.wait = 0.0
        """Seconds between the clock's tries now; 0 while steps are stored."""
        self.until = 0.0
        """When the clock tries again (``time.monotonic``)."""
        self.sent: dict[int, bytes] = {}
        """The snapshot each connection was last sent by a rebuild, nothing stored since."""

    def refused(self, exc: Exception) -> None:
        """A step was not stored (``exc``): logged if it is the first of a run, or the
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

    def hold(self, seq: int, watchers: Iterable[Watcher]) -> None:
        """After a refused step the table plays on (its lease held): the clock waits
        longer before the next try; the watchers are told the table is paused if it was
        not (``table_paused``)."""
        if self.wait == 0.0:
            tell(self.table_id, seq, True, watchers)
        self.wait = min(LONGEST_WAIT, max(FIRST_WAIT, 2 * self.wait))
        self.until = time.monotonic() + self.wait

    def stored(self, seq: int, watchers: Iterable[Watcher]) -> None:
        """A step was stored: the end of a run of refusals, logged if there was one; the
        table plays on at its clock (its watchers told so, if it was paused)."""
        if self.since is not None:
            log.warning(
                "table %s: steps stored again after %.0f s, %d step(s) refused meanwhile",
                self.table_id, time.monotonic() - self.since, self.count,
            )  # fmt: skip
            self.since, self.count = None, 0
        if self.wait > 0.0:
            tell(self.table_id, seq, False, watchers)
        self.wait = 0.0
        self.sent.clear()

    def holding(self) -> bool:
        """Whether the clock's tick is to be skipped (steps refused, the wait not over);
        a player's own job is tried all the same."""
        return self.wait > 0.0 and time.monotonic() < self.until

    def tell(self, seq: int, watcher: Watcher) -> None:
        """Tell a watcher who starts watching that the table is paused, if it is."""
        if self.wait > 0.0:
            tell(self.table_id, seq, True, [watcher])

    def send_table(
        self, table: Table, seq: int, watchers: Iterable[Watcher], aliases: dict[str, str]
    ) -> None:
        """Send each of ``watchers`` the table rebuilt from its record (at ``seq``), but
        not the very snapshot a rebuild sent him, nothing stored since. Called before the
        table's clocks resume: their resumption is not stored yet, so is not told."""
        for w in list(watchers):
            data = broadcast.snapshot(table, seq, w.player, aliases)
            if self.sent.get(w.conn) != data:
                self.sent[w.conn] = data
                w.send(data)


def tell(table_id: str, seq: int, paused: bool, watchers: Iterable[Watcher]) -> None:
    """Tell ``watchers`` the table is paused (or plays on again)."""
    data = protocol.encode(protocol.TablePaused(table=table_id, seq=seq, paused=paused))
    for w in watchers:
        w.send(data)
