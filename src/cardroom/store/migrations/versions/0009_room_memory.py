"""What a room's process keeps over a restart (issue 13, RULEBOOK §10.9).

- ``room_memory``: a name and a JSON value, written when the server stops and taken
  (read and deleted) when it starts: the room's integrity monitor, whose windows of
  weeks would otherwise start empty at every restart.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "room_memory",
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("value", sa.JSON(), nullable=False),
        sa.Column("saved_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("name", name="pk_room_memory"),
    )


def downgrade() -> None:
    op.drop_table("room_memory")
