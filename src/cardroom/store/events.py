"""The hand event log: each hand's engine events, in order, append-only.

Events are written before they are sent (ARCHITECTURE "Time, money and
durability"); replaying a hand's events rebuilds it. An event is any JSON
object the engine emits; the log does not interpret it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

from cardroom.store.database import Clock, system_clock
from cardroom.store.errors import storage_errors
from cardroom.store.models import HandEvent


class EventLogError(ValueError):
    """An append was refused (out of order, not JSON); nothing was written."""


class HandEventLog:
    """Append and read the events of hands."""

    def __init__(self, engine: Engine, clock: Clock = system_clock) -> None:
        self.engine = engine
        self.clock = clock

    @storage_errors("writing hand events")
    def append(
        self, hand_id: str, events: Sequence[Mapping[str, Any]], first_seq: int | None = None
    ) -> list[int]:
        """Append ``events`` to the hand; returns their sequence numbers (from 1).

        With ``first_seq``, the append is refused unless it continues the log
        exactly there: a writer that lost track never duplicates or skips events.
        """
        if not hand_id or len(hand_id) > 64:
            raise EventLogError("hand id must be 1..64 characters")
        rows = []
        for event in events:
            try:
                rows.append(json.loads(json.dumps(dict(event), allow_nan=False)))
            except (TypeError, ValueError) as exc:
                raise EventLogError(f"event is not plain JSON: {exc}") from None
        with Session(self.engine) as session, session.begin():
            last = session.scalar(
                select(func.max(HandEvent.seq)).where(HandEvent.hand_id == hand_id)
            )
            start = (last or 0) + 1
            if first_seq is not None and first_seq != start:
                raise EventLogError(f"hand {hand_id} continues at {start}, not {first_seq}")
            now = self.clock()
            for i, event in enumerate(rows):
                session.add(HandEvent(hand_id=hand_id, seq=start + i, event=event, created_at=now))
        return list(range(start, start + len(rows)))

    @storage_errors("reading hand events")
    def read(self, hand_id: str) -> list[dict[str, Any]]:
        """The hand's events in order."""
        with Session(self.engine) as session:
            query = select(HandEvent.event).where(HandEvent.hand_id == hand_id)
            return list(session.scalars(query.order_by(HandEvent.seq)))
