"""Which server serves the database.

- ``server_leases``: the server process holding the database (instance, process,
  host, process start) and its last heartbeat, taken by a conditional update so that
  two servers starting at once cannot both serve one database.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "server_leases",
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("instance", sa.String(32), nullable=False),
        sa.Column("pid", sa.BigInteger(), nullable=False),
        sa.Column("host", sa.String(255), nullable=False),
        sa.Column("started", sa.String(32), nullable=False),
        sa.Column("beat_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("name", name="pk_server_leases"),
    )


def downgrade() -> None:
    op.drop_table("server_leases")
