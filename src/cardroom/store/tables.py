"""Table records: what a server needs to rebuild its tables after a crash.

A table's record is its entries (every event, numbered from 1 without gaps)
and its snapshots (the state at the start of a hand, taken after some entry).
:meth:`TableRecords.commit` writes a step of a table in ONE transaction: its
entries, a snapshot if one was taken, and the ledger transfers the step made;
so the money a hand moved and the events saying so are stored together or not
at all, and both before anyone is told. The store does not read the JSON it
keeps (only ``type`` and ``hand_no``, copied into columns for the history).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Engine, Table, bindparam, func, insert, select, update
from sqlalchemy.orm import Session

from cardroom.ledger import AccountKind, Reason, Transfer
from cardroom.store.allowances import AllowanceChange, spend
from cardroom.store.audit import audit
from cardroom.store.client_ids import Answered, remember
from cardroom.store.database import Clock, system_clock
from cardroom.store.errors import storage_errors
from cardroom.store.leases import check_held
from cardroom.store.ledger_sql import dialect_insert, in_transaction, post_fresh
from cardroom.store.models import (
    SEATING_KINDS,
    RoomTable,
    TableEntry,
    TableSeating,
    TableSnapshot,
)
from cardroom.store.players import impose
from cardroom.store.sanction_rows import MoneyStopped, SanctionKind, money_stopped

_ENTRIES = cast(Table, TableEntry.__table__)
_SEATINGS = cast(Table, TableSeating.__table__)
_SNAPSHOTS = cast(Table, TableSnapshot.__table__)
_LAST_SEQS = (
    select(TableEntry.table_id, func.max(TableEntry.seq))
    .where(TableEntry.table_id.in_(bindparam("ids", expanding=True)))
    .group_by(TableEntry.table_id)
)


class RecordError(ValueError):
    """A table step was refused before anything was written: its entries do not
    continue the record exactly where it is, or are not plain JSON."""


@dataclass(frozen=True, slots=True)
class StoredRecord:
    """A table's stored record: its last snapshot (None: none yet), the entry it was
    taken after, and the entries since, as ``(seq, entry)``."""

    table_id: str
    settings: dict[str, Any]
    snapshot: dict[str, Any] | None
    after_seq: int
    entries: list[tuple[int, dict[str, Any]]]

    @property
    def last_seq(self) -> int:
        """The number of the table's last entry (0: none)."""
        return self.entries[-1][0] if self.entries else self.after_seq


@dataclass(frozen=True, slots=True)
class HandSummary:
    """How each hand of a table ended, from its entries: ``dealt`` hand numbers, and
    those ``finished`` (settled) and ``voided`` (cancelled, RULEBOOK §10.10)."""

    dealt: list[int]
    finished: list[int]
    voided: list[int]


@dataclass(frozen=True, slots=True)
class ChatOffence:
    """A chat offence a table stored: the escalating chat ban on ``alias``'s account, by
    ``operator`` for ``reason``, goes in the same transaction (a crash between the two
    kept the offence and lost the ban)."""

    alias: str
    operator: str
    reason: str


@dataclass(frozen=True, slots=True)
class TableStep:
    """One step of a table to store (see :meth:`TableRecords.commit`)."""

    table_id: str
    first_seq: int
    entries: Sequence[Mapping[str, Any]]
    snapshot: tuple[int, Mapping[str, Any]] | None = None
    transfers: Sequence[Transfer] = ()
    allowances: Sequence[AllowanceChange] = ()
    """The disconnect all-ins the step used or reset."""
    answered: Sequence[Answered] = ()
    """The client ids the step acted on."""
    offences: Sequence[ChatOffence] = ()
    """The chat offences the step stored, each to ban its player from chat (§10.7)."""


def _buy_ins_allowed(session: Session, transfers: Sequence[Transfer], now: datetime) -> None:
    """MoneyStopped for a buy-in from an account a freeze or ban stops at the commit: the
    table read the sanctions before (to refuse at once), and one imposed meanwhile (by
    another process) must still stop the chips. Read after the posting locked the
    account, so a sanction committed while the buy-in waited for it is seen."""
    for t in transfers:
        player = t.debit.owner
        if t.reason is Reason.BUY_IN and t.debit.kind is AccountKind.PLAYER and player.isdigit():
            kinds = money_stopped(session, int(player), now)
            if kinds:
                raise MoneyStopped(int(player), kinds)


def _entry_row(table_id: str, seq: int, entry: dict[str, Any], now: datetime) -> dict[str, Any]:
    hand_no = entry.get("hand_no")
    return {
        "table_id": table_id,
        "seq": seq,
        "kind": str(entry.get("type", ""))[:40],
        "hand_no": hand_no if type(hand_no) is int else None,
        "entry": entry,
        "created_at": now,
    }


def _seating_row(entry_row: dict[str, Any]) -> dict[str, Any] | None:
    """The ``table_seatings`` row of an entry that seats or unseats a player (None for
    any other): the index a player's hands are found by (``store/history.py``)."""
    entry = entry_row["entry"]
    player, seat = entry.get("player"), entry.get("seat")
    if (
        entry_row["kind"] not in SEATING_KINDS
        or not isinstance(player, str)
        or type(seat) is not int
    ):
        return None
    keys = ("table_id", "seq", "kind")
    return {**{k: entry_row[k] for k in keys}, "player": player[:40], "seat": seat}


def _plain(entry: Mapping[str, Any]) -> dict[str, Any]:
    try:
        data: dict[str, Any] = json.loads(json.dumps(dict(entry), allow_nan=False))
    except (TypeError, ValueError) as exc:
        raise RecordError(f"entry is not plain JSON: {exc}") from None
    return data


class TableRecords:
    """The tables, entries and snapshots behind ``engine``."""

    def __init__(
        self, engine: Engine, clock: Clock = system_clock, lease: tuple[str, str] | None = None
    ) -> None:
        self.engine = engine
        self.clock = clock
        self.lease = lease
        """(name, instance): steps are stored, tables opened or closed, and notes about
        them (:meth:`note`) written only while that instance holds that lease
        (``store/leases.py``: a server that lost it stores nothing more); None: no check
        (the recovery command, which holds the lease for its run, and tools)."""

    def fence(self, session: Session) -> None:
        """In a writer's transaction: ``LeaseLost`` unless the records' server holds the
        lease (``lease``; no check when None)."""
        if self.lease is not None:
            check_held(session, *self.lease)

    @storage_errors("opening a table")
    def open(self, table_id: str, settings: Mapping[str, Any]) -> None:
        """Record that ``table_id`` is open with ``settings`` (again, after a restart)."""
        data = _plain(settings)
        with Session(self.engine) as session, session.begin():
            self.fence(session)
            row = session.get(RoomTable, table_id)
            if row is None:
                session.add(RoomTable(table_id=table_id, settings=data, opened_at=self.clock()))
            else:
                row.settings, row.closed_at = data, None

    @storage_errors("closing a table")
    def close(self, table_id: str) -> None:
        """Record that the table is closed for good."""
        with Session(self.engine) as session, session.begin():
            self.fence(session)
            session.execute(
                update(RoomTable)
                .where(RoomTable.table_id == table_id)
                .values(closed_at=self.clock())
            )

    @storage_errors("listing open tables")
    def open_tables(self) -> list[str]:
        """The tables not closed (after a crash: those to recover)."""
        with Session(self.engine) as session:
            return open_tables_in(session)

    @storage_errors("reading a table's settings")
    def settings_of(self, table_id: str) -> dict[str, Any] | None:
        """The settings a table last opened with (None: a table never opened)."""
        with Session(self.engine) as session:
            table = session.get(RoomTable, table_id)
            return None if table is None else dict(table.settings)

    @storage_errors("reading a table's record")
    def load(self, table_id: str) -> StoredRecord | None:
        """The table's settings, last snapshot and the entries after it (None: unknown)."""
        with Session(self.engine) as session:
            return load_in(session, table_id)

    @storage_errors("reading table entries")
    def entries(
        self, table_id: str, after: int = 0, limit: int = 1000
    ) -> list[tuple[int, dict[str, Any]]]:
        """Entries of the table after ``after``, in order (at most ``limit``)."""
        with Session(self.engine) as session:
            query = (
                select(TableEntry.seq, TableEntry.entry)
                .where(TableEntry.table_id == table_id, TableEntry.seq > max(0, after))
                .order_by(TableEntry.seq)
                .limit(max(0, min(limit, 100_000)))
            )
            return [(seq, entry) for seq, entry in session.execute(query)]

    def commit(
        self,
        table_id: str,
        first_seq: int,
        entries: Sequence[Mapping[str, Any]],
        *,
        snapshot: tuple[int, Mapping[str, Any]] | None = None,
        transfers: Sequence[Transfer] = (),
        allowances: Sequence[AllowanceChange] = (),
        answered: Sequence[Answered] = (),
    ) -> None:
        """Store one step of a table atomically: ``entries`` numbered from ``first_seq``
        (refused unless the record continues exactly there), the ``snapshot`` taken after
        entry ``snapshot[0]``, the ledger ``transfers`` (replayed keys move nothing), the
        disconnect all-ins the step used or reset, and the client ids it acted on."""
        step = TableStep(table_id, first_seq, entries, snapshot, transfers, allowances, answered)
        self.commit_all([step])

    @storage_errors("writing table steps")
    def commit_all(self, steps: Sequence[TableStep]) -> None:
        """Store the steps of several tables in ONE transaction (a group commit): all of
        them or none, each checked and stored as :meth:`commit` says.

        The entries of every step go in one multi-row insert and the record's
        continuation is checked for all tables in one query: the cost of a
        transaction is paid once per group, not per table.
        """
        if not steps:
            return
        plain = [
            (
                s,
                [_plain(e) for e in s.entries],
                None if s.snapshot is None else _plain(s.snapshot[1]),
            )
            for s in steps
        ]

        def work(session: Session) -> None:
            self.fence(session)
            ids = list({s.table_id for s in steps})
            last = dict(session.execute(_LAST_SEQS, {"ids": ids}).all())
            now = self.clock()
            rows: list[dict[str, Any]] = []
            snapshots: list[dict[str, Any]] = []
            for step, entries, state in plain:
                table_id = step.table_id
                expected = last.get(table_id, 0) + 1
                if step.first_seq != expected:
                    raise RecordError(f"table {table_id} continues at {expected}")
                last[table_id] = expected + len(entries) - 1
                if step.transfers:
                    fresh = post_fresh(session, step.transfers, self.clock, f"table:{table_id}")
                    _buy_ins_allowed(session, fresh, self.clock())  # after the lock
                spend(session, step.allowances, int(now.timestamp()))
                remember(session, step.answered, int(now.timestamp()))
                for o in step.offences:
                    ban = SanctionKind.CHAT_BAN
                    impose(session, self.clock, o.alias, ban, o.operator, o.reason, offence=True)
                rows.extend(
                    _entry_row(table_id, step.first_seq + i, e, now) for i, e in enumerate(entries)
                )
                if step.snapshot is not None:
                    snapshots.append(
                        {"table_id": table_id, "after_seq": step.snapshot[0], "state": state,
                         "created_at": now}
                    )  # fmt: skip
            if rows:
                session.execute(insert(_ENTRIES), rows)
                seatings = [r for r in map(_seating_row, rows) if r is not None]
                if seatings:
                    session.execute(insert(_SEATINGS), seatings)
            for snap in snapshots:  # a table reopened with no new entry keeps one row
                upsert = dialect_insert(session)(_SNAPSHOTS).values(snap)
                new = upsert.excluded
                session.execute(
                    upsert.on_conflict_do_update(
                        index_elements=["table_id", "after_seq"],
                        set_={"state": new.state, "created_at": new.created_at},
                    )
                )

        in_transaction(self.engine, work)

    @storage_errors("reading the hand history")
    def hands(self, table_id: str | None = None) -> dict[str, HandSummary]:
        """How the hands of each table (or one) ended: dealt, finished, voided."""
        kinds = ("HandDealt", "HandFinished", "HandVoided")
        query = select(TableEntry.table_id, TableEntry.kind, TableEntry.hand_no).where(
            TableEntry.kind.in_(kinds)
        )
        if table_id is not None:
            query = query.where(TableEntry.table_id == table_id)
        found: dict[str, dict[str, list[int]]] = {}
        with Session(self.engine) as session:
            for table, kind, hand_no in session.execute(query.order_by(TableEntry.seq)):
                per = found.setdefault(table, {k: [] for k in kinds})
                if hand_no is not None:
                    per[kind].append(hand_no)
        return {
            t: HandSummary(v["HandDealt"], v["HandFinished"], v["HandVoided"])
            for t, v in found.items()
        }

    @storage_errors("writing the audit log")
    def note(
        self, actor: str, action: str, subject: str, answered: Answered | None = None,
        **detail: Any,
    ) -> None:  # fmt: skip
        """Append an audit record about a table (a report, a chat offence) for review;
        with the client id it answers, in the same transaction. Fenced like a step
        (``LeaseLost``): a server that lost the lease writes no more rows of its tables."""
        with Session(self.engine) as session, session.begin():
            self.fence(session)
            audit(session, self.clock, actor, action, subject, **_plain(detail))
            if answered is not None:
                remember(session, [answered], int(self.clock().timestamp()))


def open_tables_in(session: Session) -> list[str]:
    """:meth:`TableRecords.open_tables` in ``session`` (a check reading at one moment)."""
    query = select(RoomTable.table_id).where(RoomTable.closed_at.is_(None))
    return list(session.scalars(query.order_by(RoomTable.table_id)))


def load_in(session: Session, table_id: str) -> StoredRecord | None:
    """:meth:`TableRecords.load` in ``session`` (a check reading at one moment)."""
    table = session.get(RoomTable, table_id)
    if table is None:
        return None
    snap = session.scalars(
        select(TableSnapshot)
        .where(TableSnapshot.table_id == table_id)
        .order_by(TableSnapshot.after_seq.desc())
        .limit(1)
    ).first()
    after = 0 if snap is None else snap.after_seq
    rows = session.execute(
        select(TableEntry.seq, TableEntry.entry)
        .where(TableEntry.table_id == table_id, TableEntry.seq > after)
        .order_by(TableEntry.seq)
    ).all()
    return StoredRecord(
        table_id,
        dict(table.settings),
        None if snap is None else dict(snap.state),
        after,
        [(seq, entry) for seq, entry in rows],
    )
