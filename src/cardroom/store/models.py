"""The database schema as typed SQLAlchemy 2 models.

Tables created only by migrations (``store/migrations``); these models must
match them (a test compares the two). ``ledger_entries``, ``table_entries`` and
``audit_log`` are append-only: the migrations install triggers that refuse
UPDATE and DELETE on both SQLite and PostgreSQL.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    Dialect,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

# 64-bit ids on PostgreSQL; SQLite autoincrements only a plain INTEGER primary key.
Id = BigInteger().with_variant(Integer(), "sqlite")


class UtcDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC timestamp on every backend (SQLite stores it naive)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime: pass an aware UTC time")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    """Declarative base with deterministic constraint names."""

    metadata = MetaData(naming_convention=NAMING)


class Player(Base):
    """A registered player; the alias never changes once taken.

    ``alias_key`` (case folded) is how a player is found; ``alias_canonical``
    (RULEBOOK §10.1, look-alikes folded) is what no two players may share.
    """

    __tablename__ = "players"

    id: Mapped[int] = mapped_column(Id, primary_key=True)
    alias: Mapped[str] = mapped_column(String(16))
    alias_key: Mapped[str] = mapped_column(String(16), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    age_attested_at: Mapped[datetime] = mapped_column(UtcDateTime)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime)
    registration_ip: Mapped[str] = mapped_column(String(64), default="")
    registration_device: Mapped[str] = mapped_column(String(128), default="")
    alias_canonical: Mapped[str] = mapped_column(String(16), unique=True)
    role: Mapped[str] = mapped_column(String(16), server_default="player")
    """``player`` or ``operator`` (migration 0005)."""


def _sqlite_integer(column: str, name: str) -> CheckConstraint:
    """SQLite keeps a sum that overflows 64 bits as a float; this refuses it (PostgreSQL's
    BIGINT raises by itself)."""
    check = CheckConstraint(f"typeof({column}) = 'integer'", name=name)
    return check.ddl_if(dialect="sqlite")


class LedgerAccount(Base):
    """One ledger account and its balance (kept equal to the sum of its entries)."""

    __tablename__ = "ledger_accounts"
    __table_args__ = (
        UniqueConstraint("kind", "currency", "owner"),
        # The last line of defence: the database itself refuses an overdraft.
        CheckConstraint("balance >= 0 OR kind = 'cashier'", name="nonnegative"),
        _sqlite_integer("balance", "integer_balance"),
    )

    id: Mapped[int] = mapped_column(Id, primary_key=True)
    kind: Mapped[str] = mapped_column(String(20))
    currency: Mapped[str] = mapped_column(String(8))
    owner: Mapped[str] = mapped_column(String(120))
    balance: Mapped[int] = mapped_column(BigInteger, default=0)


class LedgerEntry(Base):
    """One posted transfer. Append-only."""

    __tablename__ = "ledger_entries"
    __table_args__ = (
        CheckConstraint("amount > 0", name="positive"),
        CheckConstraint("debit_account_id <> credit_account_id", name="two_sides"),
        _sqlite_integer("amount", "integer_amount"),
    )

    id: Mapped[int] = mapped_column(Id, primary_key=True)
    idempotency_key: Mapped[str] = mapped_column(String(200), unique=True)
    reason: Mapped[str] = mapped_column(String(32))
    currency: Mapped[str] = mapped_column(String(8))
    debit_account_id: Mapped[int] = mapped_column(ForeignKey("ledger_accounts.id"), index=True)
    credit_account_id: Mapped[int] = mapped_column(ForeignKey("ledger_accounts.id"), index=True)
    amount: Mapped[int] = mapped_column(BigInteger)
    memo: Mapped[str] = mapped_column(String(500), default="")
    reverses_entry_id: Mapped[int | None] = mapped_column(
        ForeignKey("ledger_entries.id"), unique=True
    )
    actor: Mapped[str] = mapped_column(String(64), default="")
    created_at: Mapped[datetime] = mapped_column(UtcDateTime)


class LoginSession(Base):
    """A login token (only its SHA-256 is stored), with expiry and revocation."""

    __tablename__ = "login_sessions"

    id: Mapped[int] = mapped_column(Id, primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime)
    expires_at: Mapped[datetime] = mapped_column(UtcDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    ip: Mapped[str] = mapped_column(String(64), default="")
    device: Mapped[str] = mapped_column(String(128), default="")


class LoginAttempt(Base):
    """Every login attempt: feeds throttling and shared IP/device review."""

    __tablename__ = "login_attempts"
    __table_args__ = (
        Index("ix_login_attempts_alias_key_at", "alias_key", "at"),
        Index("ix_login_attempts_ip_at", "ip", "at"),
    )

    id: Mapped[int] = mapped_column(Id, primary_key=True)
    alias_key: Mapped[str] = mapped_column(String(64))
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    ip: Mapped[str] = mapped_column(String(64), default="")
    device: Mapped[str] = mapped_column(String(128), default="")
    at: Mapped[datetime] = mapped_column(UtcDateTime)
    success: Mapped[bool] = mapped_column(Boolean)


class LoginThrottleKey(Base):
    """One row per throttled scope (``alias:<key>`` or ``ip:<address>``).

    A login upserts its scopes' rows first, which locks them until its attempt
    is recorded: concurrent attempts at one alias or from one address are
    counted one after the other, so none slips past the limit.
    """

    __tablename__ = "login_throttle_keys"

    scope: Mapped[str] = mapped_column(String(80), primary_key=True)
    touched_at: Mapped[datetime] = mapped_column(UtcDateTime)


class Sanction(Base):
    """A chat ban, freeze or ban; ``ends_at`` None means until lifted (or forever)."""

    __tablename__ = "sanctions"

    id: Mapped[int] = mapped_column(Id, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    reason: Mapped[str] = mapped_column(String(500), default="")
    starts_at: Mapped[datetime] = mapped_column(UtcDateTime)
    ends_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    lifted_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    created_by: Mapped[str] = mapped_column(String(64), default="")


class AuditRecord(Base):
    """Who did what to whom, when. Append-only."""

    __tablename__ = "audit_log"
    __table_args__ = (Index("ix_audit_log_actor_action_at", "actor", "action", "at"),)

    id: Mapped[int] = mapped_column(Id, primary_key=True)
    at: Mapped[datetime] = mapped_column(UtcDateTime)
    actor: Mapped[str] = mapped_column(String(64))
    action: Mapped[str] = mapped_column(String(64))
    subject: Mapped[str] = mapped_column(String(200), default="")
    detail: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)


class RoomTable(Base):
    """A table a server opened; ``closed_at`` once closed for good."""

    __tablename__ = "room_tables"

    table_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    opened_at: Mapped[datetime] = mapped_column(UtcDateTime)
    closed_at: Mapped[datetime | None] = mapped_column(UtcDateTime)


class TableEntry(Base):
    """One event of a table, numbered from 1 without gaps. Append-only; written before
    anyone is told of it."""

    __tablename__ = "table_entries"
    __table_args__ = (UniqueConstraint("table_id", "seq"),)

    id: Mapped[int] = mapped_column(Id, primary_key=True)
    table_id: Mapped[str] = mapped_column(String(40))
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(40), index=True)
    hand_no: Mapped[int | None] = mapped_column(Integer)
    entry: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime)


SEATING_KINDS = ("PlayerSeated", "PlayerLeft")
"""The kinds of entry that seat and unseat a player, kept in ``table_seatings`` too."""


class TableSeating(Base):
    """A ``PlayerSeated`` or ``PlayerLeft`` entry of a table, by player (migration 0013):
    a player's hands are found from his own seatings, not by reading every seating of
    the room. Written with the entries, in the same transaction."""

    __tablename__ = "table_seatings"
    __table_args__ = (Index("ix_table_seatings_player", "player", "table_id", "seq"),)

    table_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    player: Mapped[str] = mapped_column(String(40))
    kind: Mapped[str] = mapped_column(String(40))
    seat: Mapped[int] = mapped_column(Integer)


class TableSnapshot(Base):
    """A table's state at the start of a hand, taken after entry ``after_seq``."""

    __tablename__ = "table_snapshots"

    table_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    after_seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    state: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime)


class ClientAnswer(Base):
    """A client message id that acted (migration 0006): the protocol answers it again,
    never acts on it twice. Written with what it did; ``at`` in Unix seconds, for pruning;
    ``digest`` the message's (0010), so that the id reused for another is refused."""

    __tablename__ = "client_answers"
    __table_args__ = (Index("ix_client_answers_account_at", "account", "at"),)

    account: Mapped[str] = mapped_column(String(64), primary_key=True)
    client_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(40))
    seq: Mapped[int] = mapped_column(Integer)
    at: Mapped[int] = mapped_column(BigInteger, index=True)
    digest: Mapped[str] = mapped_column(String(32), default="", server_default="")
    """What the message said (migration 0010; '' for rows written before)."""


class AllowanceDay(Base):
    """A player's disconnect all-ins used and resets granted on one UTC day (RULEBOOK
    §10.6, migration 0006); every use and reset is also a table entry, for review."""

    __tablename__ = "disconnect_allowances"
    __table_args__ = (CheckConstraint("used >= 0 AND resets >= 0", name="counts"),)

    player: Mapped[str] = mapped_column(String(64), primary_key=True)
    day: Mapped[int] = mapped_column(Integer, primary_key=True, index=True)
    used: Mapped[int] = mapped_column(Integer)
    resets: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[int] = mapped_column(BigInteger)


class ServerSecret(Base):
    """A secret the server made for itself (migration 0007): written once, the first
    writer winning, then only read (e.g. the house bots' password secret)."""

    __tablename__ = "server_secrets"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime)


class RoomMemory(Base):
    """What a room's process counted in memory and keeps over a restart (migration
    0009), by name: written when the server stops, taken (read and deleted) when it
    starts, e.g. the integrity monitor's windows."""

    __tablename__ = "room_memory"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[dict[str, Any]] = mapped_column(JSON)
    saved_at: Mapped[datetime] = mapped_column(UtcDateTime)


class ServerLease(Base):
    """Which server process serves the database (migration 0011): its instance, process,
    host and process start, and its last heartbeat by the database's clock. Taken by a
    conditional update, so two servers starting at once cannot both hold it."""

    __tablename__ = "server_leases"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    instance: Mapped[str] = mapped_column(String(32))
    pid: Mapped[int] = mapped_column(BigInteger)
    host: Mapped[str] = mapped_column(String(255))
    started: Mapped[str] = mapped_column(String(32))
    beat_at: Mapped[datetime] = mapped_column(UtcDateTime)
