"""Client message ids that acted, kept across restarts (the protocol's idempotency).

A client names each message with an id; resending an id must never act twice.
Each id whose message changed stored state (a table step, a chat line, a report)
is written by :func:`remember` in the SAME transaction as that change, so
"acted" and "id remembered" are stored together or not at all. The server
answers the ids it saw lately from memory; for any other id that may have acted
it asks here (:meth:`ClientIds.find`) before acting, so a resend is answered,
never done again, however many messages came between, and across restarts.

Rows live for :data:`KEEP_SECONDS` (a day); :meth:`ClientIds.prune` deletes
older ones (the server runs it hourly). An id written again (a client that
reused an id the server no longer remembered) replaces its row rather than
failing the step it belongs to: a client cannot make another player's step
fail by reusing an old id.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, delete, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from cardroom.store.database import Clock, system_clock
from cardroom.store.errors import storage_errors
from cardroom.store.models import ClientAnswer

KEEP_SECONDS = 86_400
"""How long an id that acted is kept in the database (a day)."""


@dataclass(frozen=True, slots=True)
class Answered:
    """An id ``account`` sent whose message acted at ``table_id``; ``seq`` is the table's
    sequence number in the answer (``ok`` with ``seq``); ``digest`` what the message said
    (``''``: not known, a row written before migration 0010)."""

    account: str
    client_id: str
    table_id: str
    seq: int
    digest: str = ""


def _upsert(dialect: str) -> Any:
    """The statement writing one id (replacing an older row of the same key); built once
    per dialect so that SQLAlchemy's compiled cache serves every step."""
    insert = pg_insert if dialect == "postgresql" else sqlite_insert
    statement = insert(ClientAnswer)
    excluded = statement.excluded
    return statement.on_conflict_do_update(
        index_elements=["account", "client_id"],
        set_={
            "table_id": excluded.table_id,
            "seq": excluded.seq,
            "at": excluded.at,
            "digest": excluded.digest,
        },
    )


_UPSERTS = {name: _upsert(name) for name in ("postgresql", "sqlite")}


def remember(session: Session, answered: Sequence[Answered], at: int) -> None:
    """Store ``answered`` inside the caller's transaction (the one of what they did);
    ``at`` is the time in Unix seconds."""
    if not answered:
        return
    dialect = session.get_bind().dialect.name
    rows = {(a.account, a.client_id): a for a in answered}  # one row per key
    session.connection().execute(
        _UPSERTS["postgresql" if dialect == "postgresql" else "sqlite"],
        [
            {"account": a.account, "client_id": a.client_id, "table_id": a.table_id,
             "seq": a.seq, "at": at, "digest": a.digest}
            for a in rows.values()
        ],
    )  # fmt: skip


class ClientIds:
    """The stored client ids behind ``engine``."""

    def __init__(self, engine: Engine, clock: Clock = system_clock) -> None:
        self.engine = engine
        self.clock = clock

    def now(self) -> int:
        """The time in Unix seconds, as stored."""
        return int(self.clock().timestamp())

    @storage_errors("remembering client ids")
    def remember(self, answered: Sequence[Answered]) -> None:
        """Store ``answered`` in a transaction of their own (tests, tools)."""
        with Session(self.engine) as session, session.begin():
            remember(session, answered, self.now())

    @storage_errors("reading client ids")
    def recent(self, account: str, limit: int) -> list[Answered]:
        """The ``limit`` newest ids of ``account`` kept (younger than a day), oldest first."""
        query = (
            select(
                ClientAnswer.client_id, ClientAnswer.table_id, ClientAnswer.seq, ClientAnswer.digest
            )
            .where(ClientAnswer.account == account, ClientAnswer.at >= self.now() - KEEP_SECONDS)
            .order_by(ClientAnswer.at.desc())
            .limit(max(0, limit))
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [Answered(account, *row) for row in reversed(rows)]

    @storage_errors("reading client ids")
    def find(self, account: str, client_id: str) -> Answered | None:
        """The stored answer of ``client_id`` sent by ``account`` (younger than a day), or
        None: the id never acted (or was forgotten). One primary-key read: give the
        server's reader engine (``read_only``) so that it never waits for a writer."""
        query = select(ClientAnswer.table_id, ClientAnswer.seq, ClientAnswer.digest).where(
            ClientAnswer.account == account,
            ClientAnswer.client_id == client_id,
            ClientAnswer.at >= self.now() - KEEP_SECONDS,
        )
        with self.engine.connect() as conn:
            row = conn.execute(query).first()
        return None if row is None else Answered(account, client_id, row[0], row[1], row[2])

    @storage_errors("pruning client ids")
    def prune(self, keep_seconds: int = KEEP_SECONDS) -> int:
        """Delete the ids older than ``keep_seconds``; returns how many."""
        with Session(self.engine) as session, session.begin():
            result = session.connection().execute(
                delete(ClientAnswer).where(ClientAnswer.at < self.now() - keep_seconds)
            )
        return int(result.rowcount or 0)
