"""Initial schema: players, ledger, hand events, sessions, logins, sanctions, audit.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

APPEND_ONLY = ("ledger_entries", "hand_events", "audit_log")
# 64-bit ids on PostgreSQL; SQLite autoincrements only a plain INTEGER primary key.
ID_TYPE = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _id() -> sa.Column[int]:
    return sa.Column("id", ID_TYPE, primary_key=True)


def _ts(name: str, nullable: bool = False) -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "players",
        _id(),
        sa.Column("alias", sa.String(16), nullable=False),
        sa.Column("alias_key", sa.String(16), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=False),
        _ts("age_attested_at"),
        _ts("created_at"),
        sa.Column("registration_ip", sa.String(64), nullable=False),
        sa.Column("registration_device", sa.String(128), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_players"),
        sa.UniqueConstraint("alias_key", name="uq_players_alias_key"),
    )
    op.create_table(
        "ledger_accounts",
        _id(),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("currency", sa.String(8), nullable=False),
        sa.Column("owner", sa.String(120), nullable=False),
        sa.Column("balance", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_ledger_accounts"),
        sa.UniqueConstraint("kind", "currency", "owner", name="uq_ledger_accounts_kind"),
        sa.CheckConstraint(
            "balance >= 0 OR kind = 'cashier'", name="ck_ledger_accounts_nonnegative"
        ),
    )
    op.create_table(
        "ledger_entries",
        _id(),
        sa.Column("idempotency_key", sa.String(200), nullable=False),
        sa.Column("reason", sa.String(32), nullable=False),
        sa.Column("currency", sa.String(8), nullable=False),
        sa.Column("debit_account_id", ID_TYPE, nullable=False),
        sa.Column("credit_account_id", ID_TYPE, nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("memo", sa.String(500), nullable=False),
        sa.Column("reverses_entry_id", ID_TYPE, nullable=True),
        sa.Column("actor", sa.String(64), nullable=False),
        _ts("created_at"),
        sa.PrimaryKeyConstraint("id", name="pk_ledger_entries"),
        sa.UniqueConstraint("idempotency_key", name="uq_ledger_entries_idempotency_key"),
        sa.UniqueConstraint("reverses_entry_id", name="uq_ledger_entries_reverses_entry_id"),
        sa.ForeignKeyConstraint(
            ["debit_account_id"],
            ["ledger_accounts.id"],
            name="fk_ledger_entries_debit_account_id_ledger_accounts",
        ),
        sa.ForeignKeyConstraint(
            ["credit_account_id"],
            ["ledger_accounts.id"],
            name="fk_ledger_entries_credit_account_id_ledger_accounts",
        ),
        sa.ForeignKeyConstraint(
            ["reverses_entry_id"],
            ["ledger_entries.id"],
            name="fk_ledger_entries_reverses_entry_id_ledger_entries",
        ),
        sa.CheckConstraint("amount > 0", name="ck_ledger_entries_positive"),
        sa.CheckConstraint(
            "debit_account_id <> credit_account_id", name="ck_ledger_entries_two_sides"
        ),
    )
    op.create_index("ix_ledger_entries_debit_account_id", "ledger_entries", ["debit_account_id"])
    op.create_index("ix_ledger_entries_credit_account_id", "ledger_entries", ["credit_account_id"])
    op.create_table(
        "hand_events",
        _id(),
        sa.Column("hand_id", sa.String(64), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("event", sa.JSON(), nullable=False),
        _ts("created_at"),
        sa.PrimaryKeyConstraint("id", name="pk_hand_events"),
        sa.UniqueConstraint("hand_id", "seq", name="uq_hand_events_hand_id"),
    )
    op.create_table(
        "login_sessions",
        _id(),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("player_id", ID_TYPE, nullable=False),
        _ts("created_at"),
        _ts("expires_at"),
        _ts("revoked_at", nullable=True),
        sa.Column("ip", sa.String(64), nullable=False),
        sa.Column("device", sa.String(128), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_login_sessions"),
        sa.UniqueConstraint("token_hash", name="uq_login_sessions_token_hash"),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name="fk_login_sessions_player_id_players"
        ),
    )
    op.create_index("ix_login_sessions_player_id", "login_sessions", ["player_id"])
    op.create_table(
        "login_attempts",
        _id(),
        sa.Column("alias_key", sa.String(64), nullable=False),
        sa.Column("player_id", ID_TYPE, nullable=True),
        sa.Column("ip", sa.String(64), nullable=False),
        sa.Column("device", sa.String(128), nullable=False),
        _ts("at"),
        sa.Column("success", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_login_attempts"),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name="fk_login_attempts_player_id_players"
        ),
    )
    op.create_index("ix_login_attempts_alias_key_at", "login_attempts", ["alias_key", "at"])
    op.create_index("ix_login_attempts_ip_at", "login_attempts", ["ip", "at"])
    op.create_table(
        "sanctions",
        _id(),
        sa.Column("player_id", ID_TYPE, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("reason", sa.String(500), nullable=False),
        _ts("starts_at"),
        _ts("ends_at", nullable=True),
        _ts("lifted_at", nullable=True),
        sa.Column("created_by", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_sanctions"),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name="fk_sanctions_player_id_players"
        ),
    )
    op.create_index("ix_sanctions_player_id", "sanctions", ["player_id"])
    op.create_table(
        "audit_log",
        _id(),
        _ts("at"),
        sa.Column("actor", sa.String(64), nullable=False),
        sa.Column("action", sa.String(64), nullable=False),
        sa.Column("subject", sa.String(200), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_audit_log"),
    )
    _append_only_triggers()


def _append_only_triggers() -> None:
    """Refuse UPDATE and DELETE on the append-only tables, in the database itself."""
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            "CREATE FUNCTION cardroom_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ "
            "BEGIN RAISE EXCEPTION '% is append-only', TG_TABLE_NAME; END $$"
        )
        for table in APPEND_ONLY:
            op.execute(
                f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
                "FOR EACH ROW EXECUTE FUNCTION cardroom_append_only()"
            )
        return
    for table in APPEND_ONLY:
        for verb in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER {table}_no_{verb.lower()} BEFORE {verb} ON {table} "
                f"BEGIN SELECT RAISE(ABORT, '{table} is append-only'); END"
            )


def downgrade() -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    for table in APPEND_ONLY:
        if postgres:
            op.execute(f"DROP TRIGGER IF EXISTS {table}_append_only ON {table}")
        else:
            op.execute(f"DROP TRIGGER IF EXISTS {table}_no_update")
            op.execute(f"DROP TRIGGER IF EXISTS {table}_no_delete")
    if postgres:
        op.execute("DROP FUNCTION IF EXISTS cardroom_append_only()")
    for table in (
        "audit_log",
        "sanctions",
        "login_attempts",
        "login_sessions",
        "hand_events",
        "ledger_entries",
        "ledger_accounts",
        "players",
    ):
        op.drop_table(table)
