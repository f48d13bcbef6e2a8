"""Secrets the server makes for itself, kept in the database (issue 14's audit).

- ``server_secrets``: a name and a random value, written once (the first
  writer wins) and read by every later start: the secret the house bots'
  passwords are derived from (``house_bot_secret``), unless the operator gives
  one (``CARDROOM_BOT_SECRET``), and markers of one-time set-up steps. The
  earlier default was public, so anyone could log in as a house bot.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "server_secrets",
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("value", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("name", name="pk_server_secrets"),
    )


def downgrade() -> None:
    op.drop_table("server_secrets")
