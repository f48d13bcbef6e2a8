"""Server state that used to live in one process's memory (issue 14).

- ``client_answers``: the client message ids an account sent that acted
  (a table step, a report), with the table and the sequence number of the
  answer, written in the same transaction as what they did; so an id resent
  after a restart is answered again, never acted on twice. ``at`` (Unix
  seconds) is indexed for pruning: rows older than a day are deleted.
- ``disconnect_allowances``: per player and UTC day, the disconnect all-ins
  used (RULEBOOK §10.6) and the resets granted on request; updated in the
  same transaction as the table step that used or reset them, guarded so that
  no two writers can give more than the day's allowance.

Integer and text columns only (Unix seconds, not timestamps): both are read
by key and by range, never shown as dates.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "client_answers",
        sa.Column("account", sa.String(64), nullable=False),
        sa.Column("client_id", sa.String(64), nullable=False),
        sa.Column("table_id", sa.String(40), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("at", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("account", "client_id", name="pk_client_answers"),
    )
    op.create_index("ix_client_answers_at", "client_answers", ["at"])
    op.create_index("ix_client_answers_account_at", "client_answers", ["account", "at"])
    op.create_table(
        "disconnect_allowances",
        sa.Column("player", sa.String(64), nullable=False),
        sa.Column("day", sa.Integer(), nullable=False),
        sa.Column("used", sa.Integer(), nullable=False),
        sa.Column("resets", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("player", "day", name="pk_disconnect_allowances"),
        sa.CheckConstraint("used >= 0 AND resets >= 0", name="ck_disconnect_allowances_counts"),
    )
    op.create_index("ix_disconnect_allowances_day", "disconnect_allowances", ["day"])


def downgrade() -> None:
    op.drop_index("ix_disconnect_allowances_day", table_name="disconnect_allowances")
    op.drop_table("disconnect_allowances")
    op.drop_index("ix_client_answers_account_at", table_name="client_answers")
    op.drop_index("ix_client_answers_at", table_name="client_answers")
    op.drop_table("client_answers")
