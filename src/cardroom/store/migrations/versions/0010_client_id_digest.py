"""A client id's message digest (the protocol's idempotency).

- ``client_answers.digest``: what the message said (its digest, without its id), so
  that an id sent again with a different message is refused ``id_reused`` rather than
  answered as a resend. Rows written before have none (''): a resend of one is answered
  as before.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("client_answers") as batch:
        batch.add_column(sa.Column("digest", sa.String(32), nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("client_answers") as batch:
        batch.drop_column("digest")
