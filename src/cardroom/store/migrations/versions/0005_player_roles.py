"""Player roles: ``players.role`` is ``player`` (everyone) or ``operator`` (the room's staff).

The server's operator area (open and close tables, freeze accounts, review
integrity flags, read the disconnect and chat logs) is for operators only. A
role lives in the database, granted by an operator (``Players.set_role``,
audited), so no name in a configuration file can be registered first by
someone else and inherit the role.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "players",
        sa.Column("role", sa.String(16), nullable=False, server_default="player"),
    )


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_column("role")
