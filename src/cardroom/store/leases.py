"""Which server process serves the database (migration 0011): a lease, one row a name.

A server takes the lease when it starts and renews it every few seconds; a clean stop
gives it back. Taking it is one conditional statement (an insert where there is no
row, else an update from the holder the taker judged gone), so of two servers
starting at once exactly one holds it. Ages are read by the database's clock on
PostgreSQL (servers on several hosts need not agree on the time); SQLite is a file on
this host, so its clock is the host's.

The lease also fences the tables' records: a server's table steps are stored only in
a transaction that finds the lease still its own (:func:`check_held`), so a server
that lost it (paused, or cut off from the database past the lease, while another
took over) stores nothing more from the tables it holds in memory.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Engine, delete, func, insert, inspect, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from cardroom.store.errors import StoreError, storage_errors
from cardroom.store.models import RoomMemory, ServerLease


class LeaseLost(StoreError):
    """A server's step was refused: the database's lease is no longer its own."""


def check_held(session: Session, name: str, instance: str) -> None:
    """In a writer's transaction: raise :class:`LeaseLost` unless ``instance`` holds
    ``name``. On PostgreSQL the lease's row stays locked (FOR SHARE) until the
    transaction ends, so nobody takes the lease before the write is committed (a taker
    waits for it); SQLite's writers are one at a time (BEGIN IMMEDIATE) anyway."""
    query = select(ServerLease.instance).where(ServerLease.name == name)
    if session.get_bind().dialect.name == "postgresql":
        query = query.with_for_update(read=True)
    if session.scalar(query) != instance:
        raise LeaseLost("this server no longer holds the database's lease: not stored")


@dataclass(frozen=True, slots=True)
class Holder:
    """Who holds a lease: the server's ``instance`` (random, per start), its process
    ``pid`` on ``host`` and that process's start (``started``: tells a reused process
    id apart), and how many seconds ago it last renewed it (``age``)."""

    instance: str
    pid: int
    host: str
    started: str
    age: float = 0.0


def _now(session: Session) -> datetime:
    """The database's time (PostgreSQL), or this host's (SQLite: a file of this host)."""
    if session.get_bind().dialect.name == "postgresql":
        now = session.scalar(select(func.now()))
        assert isinstance(now, datetime)
        return now
    return datetime.now(UTC)


def _former_holder(row: RoomMemory, now: datetime) -> Holder | None:
    """The server an older release's heartbeat names (None: not one)."""
    pid, host, instance = (row.value.get(key) for key in ("pid", "host", "instance"))
    if type(pid) is not int or not isinstance(host, str) or not isinstance(instance, str):
        return None
    return Holder(instance, pid, host, "", (now - row.saved_at).total_seconds())


class Leases:
    """The leases of the database behind ``engine``."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @storage_errors("reading the server lease")
    def holder(self, name: str) -> Holder | None:
        """Who holds ``name`` (None: nobody)."""
        with Session(self.engine) as session:
            row = session.get(ServerLease, name)
            if row is None:
                return None
            age = (_now(session) - row.beat_at).total_seconds()
            return Holder(row.instance, row.pid, row.host, row.started, age)

    @storage_errors("reading the server lease")
    def holders(self, name: str) -> list[Holder]:
        """Who may hold ``name``, in a database of any revision: the lease's holder
        (migration 0011 on), and the heartbeat an older release kept as ``name`` in the
        room's memory (migrations 0009-0010: ``{pid, host, instance}``, renewed every
        10 s, its age by ``saved_at``); each only where its table is."""
        tables = set(inspect(self.engine).get_table_names())
        held = self.holder(name) if ServerLease.__tablename__ in tables else None
        found = [] if held is None else [held]
        if RoomMemory.__tablename__ in tables:
            with Session(self.engine) as session:
                row = session.get(RoomMemory, name)
                beat = None if row is None else _former_holder(row, _now(session))
            found += [] if beat is None else [beat]
        return found

    @storage_errors("taking the server lease")
    def take(self, name: str, me: Holder, replacing: str | None) -> bool:
        """Take ``name`` for ``me``: when nobody holds it (``replacing`` None), or from
        the holder ``replacing`` (judged gone by the caller). False when another took it
        first (or holds it still)."""
        with Session(self.engine) as session, session.begin():
            now = _now(session)
            values = {
                "instance": me.instance,
                "pid": me.pid,
                "host": me.host,
                "started": me.started,
                "beat_at": now,
            }
            if replacing is None:
                try:
                    with session.begin_nested():
                        session.execute(insert(ServerLease).values(name=name, **values))
                except IntegrityError:
                    return False  # another server inserted it first
                return True
            done = session.execute(
                update(ServerLease)
                .where(ServerLease.name == name, ServerLease.instance == replacing)
                .values(**values)
            )
            return bool(done.rowcount)  # type: ignore[attr-defined]

    @storage_errors("renewing the server lease")
    def renew(self, name: str, instance: str) -> bool:
        """Renew ``instance``'s lease; False when it no longer holds it."""
        with Session(self.engine) as session, session.begin():
            done = session.execute(
                update(ServerLease)
                .where(ServerLease.name == name, ServerLease.instance == instance)
                .values(beat_at=_now(session))
            )
            return bool(done.rowcount)  # type: ignore[attr-defined]

    @storage_errors("giving the server lease back")
    def give_back(self, name: str, instance: str) -> None:
        """A clean stop: ``instance`` gives ``name`` back (if it still holds it)."""
        with Session(self.engine) as session, session.begin():
            session.execute(
                delete(ServerLease).where(
                    ServerLease.name == name, ServerLease.instance == instance
                )
            )
