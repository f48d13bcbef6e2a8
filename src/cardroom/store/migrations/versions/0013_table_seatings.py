"""A player's seatings, indexed by player.

- ``table_seatings``: the ``PlayerSeated`` and ``PlayerLeft`` entries of every table,
  by player (``ix_table_seatings_player``). A player's hands were found by reading every
  seating entry of the room, then two queries per stint at a table: a room with a long
  history read its whole seating record for each hand a player looked up. Filled here
  from the entries already stored; written with each new entry from now on.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-06
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

SEATING_KINDS = ("PlayerSeated", "PlayerLeft")
BATCH = 5000

_entries = sa.table(
    "table_entries",
    sa.column("id", sa.Integer()),
    sa.column("table_id", sa.String(40)),
    sa.column("seq", sa.Integer()),
    sa.column("kind", sa.String(40)),
    sa.column("entry", sa.JSON()),
)


def upgrade() -> None:
    seatings = op.create_table(
        "table_seatings",
        sa.Column("table_id", sa.String(40), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("player", sa.String(40), nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "seq", name="pk_table_seatings"),
    )
    op.create_index("ix_table_seatings_player", "table_seatings", ["player", "table_id", "seq"])
    _fill(op.get_bind(), seatings)


def _fill(bind: Any, seatings: sa.Table) -> None:
    """The seatings of the entries already stored, a batch at a time (by row id)."""
    after = 0
    while True:
        query = (
            sa.select(_entries.c.id, _entries.c.table_id, _entries.c.seq, _entries.c.kind,
                      _entries.c.entry)
            .where(_entries.c.kind.in_(SEATING_KINDS), _entries.c.id > after)
            .order_by(_entries.c.id)
            .limit(BATCH)
        )  # fmt: skip
        found = bind.execute(query).all()
        if not found:
            return
        rows = [r for r in (seating_row(t, q, k, e) for _, t, q, k, e in found) if r]
        if rows:
            bind.execute(sa.insert(seatings), rows)
        after = found[-1][0]


def seating_row(table_id: str, seq: int, kind: str, entry: Any) -> dict[str, Any] | None:
    """The seating row of a stored entry (None: not a seating of a player)."""
    if kind not in SEATING_KINDS or not isinstance(entry, dict):
        return None
    player, seat = entry.get("player"), entry.get("seat")
    if not isinstance(player, str) or type(seat) is not int:
        return None
    return {"table_id": table_id, "seq": seq, "player": player[:40], "kind": kind, "seat": seat}


def downgrade() -> None:
    op.drop_index("ix_table_seatings_player", "table_seatings")
    op.drop_table("table_seatings")
