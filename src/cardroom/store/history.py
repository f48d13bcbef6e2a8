"""Reading the tables' records back: a player's hands, and the room's logs by kind.

The records are written by the tables (:mod:`cardroom.store.tables`); this
module only reads them. A player's hands are found from the record itself:
the player's stints at each table (``PlayerSeated`` to ``PlayerLeft``, both
copied into the ``kind`` column, which is indexed) and, within each stint, the
``HandDealt`` entries that dealt the player's seat in. The logs an operator
reads (chat, disconnects, integrity flags) are entries of some kinds, paged
by the entry's row id; chat bans and reports a server writes in the audit
log (``TableRecords.note``) are read with :meth:`TableHistory.notes`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, and_, or_, select
from sqlalchemy.orm import Session

from cardroom.store.errors import LARGEST_ID, storage_errors
from cardroom.store.models import SEATING_KINDS, AuditRecord, Player, TableEntry, TableSeating

END_KINDS = ("HandFinished", "HandVoided")


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One entry of a table's record, with its row id (the paging cursor)."""

    id: int
    table_id: str
    seq: int
    kind: str
    entry: dict[str, Any]
    at: datetime


@dataclass(frozen=True, slots=True)
class Note:
    """An audit record written about a table for review (a chat offence, a report)."""

    id: int
    at: datetime
    actor: str
    action: str
    subject: str
    detail: dict[str, Any]


@dataclass(frozen=True, slots=True)
class HandRef:
    """A hand a player was dealt into: the table, the hand number, the seat, where its
    entries start (``HandDealt``) and end (None: not over), and when it was dealt."""

    table_id: str
    hand_no: int
    seat: int
    first_seq: int
    last_seq: int | None
    at: datetime


@dataclass(frozen=True, slots=True)
class _Stint:
    table_id: str
    seat: int
    first_seq: int
    last_seq: int | None


class TableHistory:
    """Queries over the tables' stored records."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @storage_errors("reading the room's logs")
    def by_kind(
        self,
        kinds: Iterable[str],
        *,
        table_id: str | None = None,
        after_id: int = 0,
        limit: int = 100,
        since: datetime | None = None,
        before_id: int | None = None,
    ) -> list[LogEntry]:
        """Entries of ``kinds`` (optionally of one table, written at or after ``since``)
        after row ``after_id``, oldest first; with ``before_id``, the newest of them
        before that row, newest first (a review queue reads back from the last)."""
        query = select(TableEntry).where(
            TableEntry.kind.in_(list(kinds)), TableEntry.id > max(0, min(after_id, LARGEST_ID))
        )
        if table_id is not None:
            query = query.where(TableEntry.table_id == table_id)
        if since is not None:
            query = query.where(TableEntry.created_at >= since)
        if before_id is None:
            query = query.order_by(TableEntry.id)
        else:
            before = max(0, min(before_id, LARGEST_ID))
            query = query.where(TableEntry.id < before).order_by(TableEntry.id.desc())
        query = query.limit(max(0, min(limit, 1000)))
        with Session(self.engine) as session:
            return [
                LogEntry(r.id, r.table_id, r.seq, r.kind, dict(r.entry), r.created_at)
                for r in session.scalars(query)
            ]

    @storage_errors("reading the audit log")
    def notes(self, actions: Iterable[str], *, after_id: int = 0, limit: int = 100) -> list[Note]:
        """Audit records of ``actions`` after row ``after_id``, oldest first."""
        query = (
            select(AuditRecord)
            .where(
                AuditRecord.action.in_(list(actions)),
                AuditRecord.id > max(0, min(after_id, LARGEST_ID)),
            )
            .order_by(AuditRecord.id)
            .limit(max(0, min(limit, 1000)))
        )
        with Session(self.engine) as session:
            return [
                Note(r.id, r.at, r.actor, r.action, r.subject, dict(r.detail))
                for r in session.scalars(query)
            ]

    @storage_errors("reading the hand history")
    def hands_of(self, player: str, table_id: str | None = None) -> list[HandRef]:
        """Every hand ``player`` was dealt into (at ``table_id`` only, if given), newest
        first. Two queries a table he sat at, whatever the number of his stints there."""
        with Session(self.engine) as session:
            stints = _stints(session, player, table_id)
            tables = sorted({s.table_id for s in stints})
            found = [
                h
                for t in tables
                for h in _hands_at(session, [s for s in stints if s.table_id == t])
            ]
        found.sort(key=lambda h: (h.at, h.table_id, h.hand_no), reverse=True)
        return found

    @storage_errors("reading the hand history")
    def seated(self, table_id: str, seqs: Iterable[int]) -> dict[int, dict[int, str]]:
        """For each of ``seqs``: who sat where at ``table_id`` just before it (seat ->
        alias), from the table's seating entries; a player no longer known keeps its id."""
        wanted = sorted(set(seqs))
        if not wanted:
            return {}
        query = select(TableEntry.seq, TableEntry.kind, TableEntry.entry).where(
            TableEntry.table_id == table_id,
            TableEntry.kind.in_(SEATING_KINDS),
            TableEntry.seq < wanted[-1],
        )
        with Session(self.engine) as session:
            rows = [
                (seq, kind, dict(e))
                for seq, kind, e in session.execute(query.order_by(TableEntry.seq))
            ]
            names = _aliases(session, [str(e.get("player", "")) for _, _, e in rows])
        found: dict[int, dict[int, str]] = {}
        seats: dict[int, str] = {}
        i = 0
        for seq in wanted:
            while i < len(rows) and rows[i][0] < seq:
                _, kind, entry = rows[i]
                seat, player = int(entry.get("seat", -1)), str(entry.get("player", ""))
                if kind == "PlayerSeated":
                    seats[seat] = player
                elif seats.get(seat) == player:
                    del seats[seat]
                i += 1
            found[seq] = {s: names.get(p, p) for s, p in sorted(seats.items())}
        return found

    @storage_errors("reading the room's logs")
    def aliases(self, players: Iterable[str]) -> dict[str, str]:
        """The alias of each of ``players`` (ids as the records name them) still known."""
        with Session(self.engine) as session:
            return _aliases(session, players)

    @storage_errors("reading the hand history")
    def span(self, table_id: str, first_seq: int, last_seq: int | None) -> list[dict[str, Any]]:
        """The entries of a table from ``first_seq`` to ``last_seq`` (None: to the end)."""
        query = select(TableEntry.entry).where(
            TableEntry.table_id == table_id, TableEntry.seq >= first_seq
        )
        if last_seq is not None:
            query = query.where(TableEntry.seq <= last_seq)
        with Session(self.engine) as session:
            return [dict(e) for e in session.scalars(query.order_by(TableEntry.seq))]


def _aliases(session: Session, players: Iterable[str]) -> dict[str, str]:
    """Player id -> alias, for those of ``players`` that are ids of a known player."""
    ids = {int(p) for p in players if p.isdigit()}
    if not ids:
        return {}
    query = select(Player.id, Player.alias).where(Player.id.in_(ids))
    return {str(pid): alias for pid, alias in session.execute(query)}


def _stints(session: Session, player: str, table_id: str | None) -> list[_Stint]:
    """The player's stints at each table (or at ``table_id``), from his own seatings
    (``table_seatings``, indexed by player)."""
    query = select(TableSeating.table_id, TableSeating.seq, TableSeating.kind, TableSeating.seat)
    query = query.where(TableSeating.player == player[:40])
    if table_id is not None:
        query = query.where(TableSeating.table_id == table_id)
    open_: dict[str, tuple[int, int]] = {}
    stints: list[_Stint] = []
    for table, seq, kind, seat in session.execute(
        query.order_by(TableSeating.table_id, TableSeating.seq)
    ):
        if kind == "PlayerSeated":
            open_[table] = (seat, seq)
        elif table in open_:
            seat, first = open_.pop(table)
            stints.append(_Stint(table, seat, first, seq))
    stints.extend(_Stint(t, seat, first, None) for t, (seat, first) in open_.items())
    return stints


STINTS_A_QUERY = 100
"""Stints read in one query (an OR of their spans; SQLite caps an expression's depth)."""
HANDS_A_QUERY = 500
"""Hand numbers in one query's IN list (the databases cap bound parameters)."""


def _hands_at(session: Session, stints: list[_Stint]) -> list[HandRef]:
    """The hands of the stints (all at one table, in order) that dealt the player's seat
    in, with where each ends: only the deals within his stints are read."""
    table_id = stints[0].table_id
    dealt: list[tuple[int, int, int, datetime]] = []
    for i in range(0, len(stints), STINTS_A_QUERY):
        dealt.extend(_deals_in(session, stints[i : i + STINTS_A_QUERY]))
    ends: dict[int, int] = {}
    for i in range(0, len(dealt), HANDS_A_QUERY):
        ends_query = select(TableEntry.hand_no, TableEntry.seq).where(
            TableEntry.table_id == table_id,
            TableEntry.kind.in_(END_KINDS),
            TableEntry.hand_no.in_([h for _, h, _, _ in dealt[i : i + HANDS_A_QUERY]]),
        )
        ends.update({h: seq for h, seq in session.execute(ends_query) if h is not None})
    return [
        HandRef(table_id, hand_no, seat, seq, ends.get(hand_no), at)
        for seq, hand_no, seat, at in dealt
    ]


def _deals_in(session: Session, stints: list[_Stint]) -> list[tuple[int, int, int, datetime]]:
    """(seq, hand_no, seat, at) of each ``HandDealt`` within the stints (one table's, in
    order) that dealt the player's seat in."""
    spans = [
        TableEntry.seq > s.first_seq
        if s.last_seq is None
        else and_(TableEntry.seq > s.first_seq, TableEntry.seq < s.last_seq)
        for s in stints
    ]
    query = select(TableEntry.seq, TableEntry.hand_no, TableEntry.entry, TableEntry.created_at)
    query = query.where(
        TableEntry.table_id == stints[0].table_id, TableEntry.kind == "HandDealt", or_(*spans)
    )
    found = []
    stint = iter(stints)
    now = next(stint)
    for seq, hand_no, entry, at in session.execute(query.order_by(TableEntry.seq)):
        while now.last_seq is not None and seq > now.last_seq:
            now = next(stint)  # the deals are in the stints' spans, in order
        if hand_no is not None and now.seat in entry.get("dealt", ()):
            found.append((seq, hand_no, now.seat, at))
    return found
