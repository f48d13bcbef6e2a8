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
table standing still with no word why.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from cardroom.room.table import Table
from cardroom.server import broadcast, protocol
from cardroom.server.broadcast import Watcher

FIRST_WAIT = 0.5
"""Seconds the clock waits after a first refused step before the table tries again."""
LONGEST_WAIT = 5.0
"""The longest wait between tries, doubling from :data:`FIRST_WAIT`."""


class Pause:
    """One table's tries while its steps are refused, and the snapshots sent meanwhile."""

    def __init__(self) -> None:
        self.wait = 0.0
        """Seconds between tries now; 0 while steps are stored."""
        self.until = 0.0
        """When the clock tries again (``time.monotonic``)."""
        self.sent: dict[int, bytes] = {}
        """The snapshot each connection was last sent by a rebuild, nothing stored since."""

    def refused(self, table_id: str, seq: int, watchers: Iterable[Watcher]) -> None:
        """A step was refused: the clock waits longer before the next try; the watchers
        are told the table is paused if it was not (``table_paused``)."""
        if self.wait == 0.0:
            tell(table_id, seq, True, watchers)
        self.wait = min(LONGEST_WAIT, max(FIRST_WAIT, 2 * self.wait))
        self.until = time.monotonic() + self.wait

    def stored(self, table_id: str, seq: int, watchers: Iterable[Watcher]) -> None:
        """A step was stored: the table plays on at its clock (its watchers told so, if
        it was paused); what was sent is moot."""
        if self.wait > 0.0:
            tell(table_id, seq, False, watchers)
        self.wait = 0.0
        self.sent.clear()

    def holding(self) -> bool:
        """Whether the clock's tick is to be skipped (steps refused, the wait not over);
        a player's own job is tried all the same."""
        return self.wait > 0.0 and time.monotonic() < self.until

    def tell(self, table_id: str, seq: int, watcher: Watcher) -> None:
        """Tell a watcher who starts watching that the table is paused, if it is."""
        if self.wait > 0.0:
            tell(table_id, seq, True, [watcher])

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
