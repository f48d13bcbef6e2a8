"""Drop ``hand_events``: the tables' records (``table_entries``, revision 0004) hold
every event of every hand, typed by the engine's codec; the untyped per-hand log
of the first schema was never written by the room or the server.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS hand_events_append_only ON hand_events")
    else:
        op.execute("DROP TRIGGER IF EXISTS hand_events_no_update")
        op.execute("DROP TRIGGER IF EXISTS hand_events_no_delete")
    op.drop_table("hand_events")


def downgrade() -> None:
    id_type = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
    op.create_table(
        "hand_events",
        sa.Column("id", id_type, primary_key=True),
        sa.Column("hand_id", sa.String(64), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("event", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_hand_events"),
        sa.UniqueConstraint("hand_id", "seq", name="uq_hand_events_hand_id"),
    )
    # The append-only triggers of revision 0001 (its downgrade drops them again).
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            "CREATE TRIGGER hand_events_append_only BEFORE UPDATE OR DELETE ON hand_events "
            "FOR EACH ROW EXECUTE FUNCTION cardroom_append_only()"
        )
        return
    for verb in ("UPDATE", "DELETE"):
        op.execute(
            f"CREATE TRIGGER hand_events_no_{verb.lower()} BEFORE {verb} ON hand_events "
            "BEGIN SELECT RAISE(ABORT, 'hand_events is append-only'); END"
        )
