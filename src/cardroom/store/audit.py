"""The audit log: who did what to whom, written in the same transaction as the act."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from cardroom.store.database import Clock
from cardroom.store.errors import storage_errors
from cardroom.store.models import AuditRecord


def audit(
    session: Session, clock: Clock, actor: str, action: str, subject: str, **detail: Any
) -> None:
    """Append one audit record inside the caller's transaction."""
    session.add(
        AuditRecord(
            at=clock(), actor=actor[:64], action=action, subject=subject[:200], detail=detail
        )
    )


@storage_errors("reading the audit log")
def audit_trail(engine: Engine, subject: str | None = None) -> list[AuditRecord]:
    """Audit records in order, optionally only those about ``subject``."""
    query = select(AuditRecord).order_by(AuditRecord.id)
    if subject is not None:
        query = query.where(AuditRecord.subject == subject)
    with Session(engine) as session:
        return list(session.scalars(query))
