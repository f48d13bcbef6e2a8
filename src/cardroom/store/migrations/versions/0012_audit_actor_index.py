"""An index on the audit log by actor, action and time.

- ``ix_audit_log_actor_action_at``: a player's reports of the last minutes are read
  before each new report (the cooldown, ``store/reports.py``), and the audit log is
  never pruned: without it every report read the whole log.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-05
"""

from __future__ import annotations

from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_audit_log_actor_action_at", "audit_log", ["actor", "action", "at"])


def downgrade() -> None:
    op.drop_index("ix_audit_log_actor_action_at", "audit_log")
