"""What a room's process keeps over a restart (migration 0009), by name.

A server counts some things in memory only, because they change with every hand
and matter over weeks: the integrity monitor's windows (RULEBOOK §10.9). It writes
them here now and then while it runs and when it stops (:meth:`RoomMemories.keep`,
each value replacing the one before), and reads them when it starts
(:meth:`RoomMemories.read`). A crash loses only what was counted since the last
value kept.

A server's memories are kept only while it holds the database's lease (``lease``,
``store/leases.py``): one that lost it (paused, or cut off, while another server took
over) must not write its stale counts over those the new holder recalled and keeps.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, select, update
from sqlalchemy.orm import Session

from cardroom.store.database import Clock, system_clock
from cardroom.store.errors import storage_errors
from cardroom.store.leases import check_held
from cardroom.store.models import RoomMemory


class RoomMemories:
    """Named JSON values over the database behind ``engine``."""

    def __init__(
        self, engine: Engine, clock: Clock = system_clock, lease: tuple[str, str] | None = None
    ) -> None:
        self.engine = engine
        self.clock = clock
        self.lease = lease
        """(name, instance): values are kept only while that instance holds that lease
        (``LeaseLost`` else); None: no check (tests, tools)."""

    @storage_errors("keeping the room's memory")
    def keep(self, name: str, value: dict[str, Any]) -> None:
        """Store ``value`` as ``name`` (replacing one kept before)."""
        # An update, not a delete and an insert: two keeps at once (one while the room
        # runs, one as it stops) wait for each other and the later one wins.
        now = self.clock()
        with Session(self.engine) as session, session.begin():
            if self.lease is not None:
                check_held(session, *self.lease)
            changed = session.execute(
                update(RoomMemory)
                .where(RoomMemory.name == name)
                .values(value=value, saved_at=now)
                .execution_options(synchronize_session=False)
            )
            if not changed.rowcount:  # type: ignore[attr-defined]
                session.add(RoomMemory(name=name, value=value, saved_at=now))

    @storage_errors("reading the room's memory")
    def read(self, name: str) -> dict[str, Any] | None:
        """The value last kept as ``name`` (None: nothing kept)."""
        with Session(self.engine) as session:
            value = session.scalar(select(RoomMemory.value).where(RoomMemory.name == name))
        return None if value is None else dict(value)
