"""Players' reports of other players (RULEBOOK §10.7), as stored for review.

A report is an audit record (``audit_log``: action :data:`REPORT`, actor the
reporter's alias, subject the accused's, ``detail`` with the table, reason, note and
the accused's recent lines), written by ``TableRecords.note`` with the client id it
answers. :meth:`Reports.last` reads them back for the room's cooldown (one report
of the same player by the same reporter at a table per
``ChatRules.report_every_seconds``, decided by ``TableChat.report``): the chat's
own memory ends with the process, the stored reports do not, so a restart does not
let the same complaint be filed again at once. Aliases never change (migration
0002), so they name the same players for as long as the records are kept; the
query uses the index on (actor, action, at) of migration 0012.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Final

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from cardroom.store.errors import storage_errors
from cardroom.store.models import AuditRecord

REPORT: Final = "report"
"""The audit action of a player's report."""


class Reports:
    """The stored reports, read for the cooldown."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @storage_errors("reading the reports")
    def last(self, reporter: str, accused: str, table_id: str, since: float) -> float | None:
        """When ``reporter`` last reported ``accused`` at ``table_id`` (Unix seconds), of
        the reports stored at ``since`` or later (None: none): aliases, as stored."""
        query = (
            select(AuditRecord.at, AuditRecord.detail)
            .where(
                AuditRecord.actor == reporter[:64],
                AuditRecord.action == REPORT,
                AuditRecord.at >= datetime.fromtimestamp(since, UTC),
                AuditRecord.subject == accused[:200],
            )
            .order_by(AuditRecord.at.desc(), AuditRecord.id.desc())
        )
        with Session(self.engine) as session:
            for row in session.execute(query):
                # The table is in the JSON detail: few rows are left to look at by now.
                if isinstance(row.detail, dict) and row.detail.get("table") == table_id:
                    at: datetime = row.at
                    return at.timestamp()
        return None
