"""Durable storage: SQLAlchemy models, migrations, the SQL ledger, players, cashier, tables.

Start with :func:`make_engine` (SQLite file by default, PostgreSQL by URL) and
:func:`upgrade`; then :class:`SqlLedger` for money movements (same methods as
``cardroom.ledger.MemoryLedger``), :class:`Players` for registration, logins
and sanctions, :class:`Cashier` for the operator's money API, and
:class:`TableRecords` for the tables' records (every event of every hand, stored
before it is sent, with the money it moved). Database failures reach callers
as :class:`StoreError` (a :class:`DatabaseError`), never as SQLAlchemy errors.
"""

from __future__ import annotations

from cardroom.store.audit import audit_trail
from cardroom.store.cashier import Cashier, IntegrityReport
from cardroom.store.database import (
    DEFAULT_URL,
    ENV_VAR,
    Clock,
    DatabaseError,
    make_engine,
    read_only,
    resolve_url,
    system_clock,
)
from cardroom.store.errors import StoreError, client_words
from cardroom.store.ledger_sql import SqlLedger
from cardroom.store.migrate import current_revision, head_revision, require_current, upgrade
from cardroom.store.passwords import Passwords
from cardroom.store.players import (
    HOUSE_ROLE,
    ROLES,
    AccountBanned,
    AccountError,
    LoginRefused,
    LoginThrottled,
    PlayerInfo,
    Players,
    SanctionInfo,
    SanctionKind,
)
from cardroom.store.tables import RecordError, TableRecords

__all__ = [
    "DEFAULT_URL",
    "ENV_VAR",
    "HOUSE_ROLE",
    "ROLES",
    "AccountBanned",
    "AccountError",
    "Cashier",
    "Clock",
    "DatabaseError",
    "IntegrityReport",
    "LoginRefused",
    "LoginThrottled",
    "Passwords",
    "PlayerInfo",
    "Players",
    "RecordError",
    "SanctionInfo",
    "SanctionKind",
    "SqlLedger",
    "StoreError",
    "TableRecords",
    "audit_trail",
    "client_words",
    "current_revision",
    "head_revision",
    "make_engine",
    "read_only",
    "require_current",
    "resolve_url",
    "system_clock",
    "upgrade",
]
