"""Table records: the tables a server runs, their events and their snapshots.

- ``room_tables``: one row per table a server has opened (its settings as JSON,
  when it was opened, and ``closed_at`` once closed for good).
- ``table_entries``: every event of a table, numbered from 1 (``seq``) with no
  gaps, append-only (triggers refuse UPDATE and DELETE); ``kind`` and
  ``hand_no`` are copied out of the JSON so the history can be searched.
- ``table_snapshots``: the table's state at the start of a hand, taken after
  entry ``after_seq``; a table is rebuilt from its last snapshot and the
  entries after it.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

ID_TYPE = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _ts(name: str, nullable: bool = False) -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "room_tables",
        sa.Column("table_id", sa.String(40), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        _ts("opened_at"),
        _ts("closed_at", nullable=True),
        sa.PrimaryKeyConstraint("table_id", name="pk_room_tables"),
    )
    op.create_table(
        "table_entries",
        sa.Column("id", ID_TYPE, primary_key=True),
        sa.Column("table_id", sa.String(40), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("hand_no", sa.Integer(), nullable=True),
        sa.Column("entry", sa.JSON(), nullable=False),
        _ts("created_at"),
        sa.PrimaryKeyConstraint("id", name="pk_table_entries"),
        sa.UniqueConstraint("table_id", "seq", name="uq_table_entries_table_id"),
    )
    op.create_index("ix_table_entries_kind", "table_entries", ["kind"])
    op.create_table(
        "table_snapshots",
        sa.Column("table_id", sa.String(40), nullable=False),
        sa.Column("after_seq", sa.Integer(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        _ts("created_at"),
        sa.PrimaryKeyConstraint("table_id", "after_seq", name="pk_table_snapshots"),
    )
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            "CREATE TRIGGER table_entries_append_only BEFORE UPDATE OR DELETE ON table_entries "
            "FOR EACH ROW EXECUTE FUNCTION cardroom_append_only()"
        )
    else:
        for verb in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER table_entries_no_{verb.lower()} BEFORE {verb} ON table_entries "
                "BEGIN SELECT RAISE(ABORT, 'table_entries is append-only'); END"
            )


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS table_entries_append_only ON table_entries")
    else:
        op.execute("DROP TRIGGER IF EXISTS table_entries_no_update")
        op.execute("DROP TRIGGER IF EXISTS table_entries_no_delete")
    op.drop_table("table_snapshots")
    op.drop_index("ix_table_entries_kind", table_name="table_entries")
    op.drop_table("table_entries")
    op.drop_table("room_tables")
