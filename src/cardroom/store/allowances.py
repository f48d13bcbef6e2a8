"""Disconnect all-ins used per player and UTC day (RULEBOOK §10.6), in the database.

A player has a few disconnect all-ins a day, shared by every table, and may
ask for them back (a reset) a limited number of times a day. The room decides
in memory; each use or reset it granted is an :class:`AllowanceChange`, written
by :func:`spend` in the SAME transaction as the table step that granted it
(the step's ``DisconnectAllInUsed`` / ``AllowanceReset`` entries are the log
kept for review). So a restart forgets nothing, and the account page reads
what is left from here (:meth:`AllowanceBook.of`).

Each change is guarded by the limit it was granted under: should two writers
(two tables, later two processes) both grant the day's last one, the second
step's transaction is refused with :class:`AllowanceRefused` and rolled back
whole, as when two tables take the same chips.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sqlalchemy import CursorResult, Engine, delete, select, update
from sqlalchemy.orm import Session

from cardroom.store.database import Clock, system_clock
from cardroom.store.errors import StoreError, storage_errors
from cardroom.store.models import AllowanceDay

KEEP_DAYS = 7
"""Days of rows kept (the server only reads today's; the review log is the table entries)."""


class AllowanceRefused(StoreError):
    """Another step used (or reset) the allowance first: this step is not stored."""


@dataclass(frozen=True, slots=True)
class AllowanceChange:
    """One disconnect all-in used (``reset`` False) or a reset granted (True) to
    ``player`` on ``day``, under ``limit`` (uses, or resets, allowed that day)."""

    player: str
    day: int
    reset: bool
    limit: int


def spend(session: Session, changes: Sequence[AllowanceChange], at: int) -> None:
    """Apply ``changes`` inside the caller's transaction (``at`` in Unix seconds);
    :class:`AllowanceRefused` when one goes past its limit."""
    for c in changes:
        key = (AllowanceDay.player == c.player, AllowanceDay.day == c.day)
        if c.reset:
            guarded = update(AllowanceDay).where(*key, AllowanceDay.resets < c.limit)
            statement = guarded.values(used=0, resets=AllowanceDay.resets + 1, updated_at=at)
        else:
            guarded = update(AllowanceDay).where(*key, AllowanceDay.used < c.limit)
            statement = guarded.values(used=AllowanceDay.used + 1, updated_at=at)
        result = session.connection().execute(statement)
        if isinstance(result, CursorResult) and result.rowcount == 1:
            continue
        found = session.scalar(select(AllowanceDay.day).where(*key))
        if found is not None or c.limit < 1:
            raise AllowanceRefused(f"{c.player} has no disconnect all-in left on day {c.day}")
        # A first row: two writers adding it at once clash on the key and retry the step.
        used, resets = (0, 1) if c.reset else (1, 0)
        session.add(AllowanceDay(player=c.player, day=c.day, used=used, resets=resets,
                                 updated_at=at))  # fmt: skip
        session.flush()


class AllowanceBook:
    """The stored allowances behind ``engine``: (used, resets) per player and day."""

    def __init__(self, engine: Engine, clock: Clock = system_clock) -> None:
        self.engine = engine
        self.clock = clock

    @storage_errors("reading disconnect all-ins")
    def of(self, player: str, day: int) -> tuple[int, int]:
        """(used, resets) of ``player`` on ``day``."""
        with Session(self.engine) as session:
            row = session.get(AllowanceDay, (player, day))
            return (0, 0) if row is None else (row.used, row.resets)

    @storage_errors("reading disconnect all-ins")
    def day(self, day: int, players: Iterable[str] | None = None) -> dict[str, tuple[int, int]]:
        """(used, resets) per player on ``day`` (only ``players``, when given); a player
        absent used none."""
        query = select(AllowanceDay).where(AllowanceDay.day == day)
        if players is not None:
            wanted = list(players)
            if not wanted:
                return {}
            query = query.where(AllowanceDay.player.in_(wanted))
        with Session(self.engine) as session:
            return {r.player: (r.used, r.resets) for r in session.scalars(query)}

    @storage_errors("recording disconnect all-ins")
    def spend(self, changes: Sequence[AllowanceChange]) -> None:
        """Apply ``changes`` in a transaction of their own (tests, tools)."""
        with Session(self.engine) as session, session.begin():
            spend(session, changes, int(self.clock().timestamp()))

    @storage_errors("pruning disconnect all-ins")
    def prune(self, today: int, keep_days: int = KEEP_DAYS) -> int:
        """Delete the rows of days before the last ``keep_days``; returns how many."""
        with Session(self.engine) as session, session.begin():
            result = session.connection().execute(
                delete(AllowanceDay).where(AllowanceDay.day <= today - keep_days)
            )
        return int(result.rowcount or 0)
