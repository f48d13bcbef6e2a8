"""What a room's process keeps over a restart (migration 0009), by name.

A server counts some things in memory only, because they change with every hand
and matter over weeks: the integrity monitor's windows (RULEBOOK §10.9). When it
stops it writes them here (:meth:`RoomMemories.keep`); when it starts it takes
them (:meth:`RoomMemories.take`: read and deleted in one transaction, so a memory
is recalled once, and a process that crashes later does not recall a stale one).
A crash loses what was counted since the start, as before.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, delete, select
from sqlalchemy.orm import Session

from cardroom.store.database import Clock, system_clock
from cardroom.store.errors import storage_errors
from cardroom.store.models import RoomMemory


class RoomMemories:
    """Named JSON values over the database behind ``engine``."""

    def __init__(self, engine: Engine, clock: Clock = system_clock) -> None:
        self.engine = engine
        self.clock = clock

    @storage_errors("keeping the room's memory")
    def keep(self, name: str, value: dict[str, Any]) -> None:
        """Store ``value`` as ``name`` (replacing one kept before)."""
        with Session(self.engine) as session, session.begin():
            session.execute(delete(RoomMemory).where(RoomMemory.name == name))
            session.add(RoomMemory(name=name, value=value, saved_at=self.clock()))

    @storage_errors("taking the room's memory")
    def take(self, name: str) -> dict[str, Any] | None:
        """The value kept as ``name``, deleted as it is read (None: nothing kept)."""
        with Session(self.engine) as session, session.begin():
            value = session.scalar(
                select(RoomMemory.value).where(RoomMemory.name == name).with_for_update()
            )
            session.execute(delete(RoomMemory).where(RoomMemory.name == name))
        return None if value is None else dict(value)
