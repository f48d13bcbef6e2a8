"""Aliases cannot be changed (RULEBOOK §10.1), enforced by the database itself.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            "CREATE FUNCTION cardroom_alias_immutable() RETURNS trigger LANGUAGE plpgsql AS $$ "
            "BEGIN RAISE EXCEPTION 'alias is immutable'; END $$"
        )
        op.execute(
            "CREATE TRIGGER players_alias_immutable BEFORE UPDATE OF alias, alias_key ON players "
            "FOR EACH ROW WHEN (OLD.alias IS DISTINCT FROM NEW.alias "
            "OR OLD.alias_key IS DISTINCT FROM NEW.alias_key) "
            "EXECUTE FUNCTION cardroom_alias_immutable()"
        )
        return
    op.execute(
        "CREATE TRIGGER players_alias_immutable BEFORE UPDATE OF alias, alias_key ON players "
        "WHEN OLD.alias <> NEW.alias OR OLD.alias_key <> NEW.alias_key "
        "BEGIN SELECT RAISE(ABORT, 'alias is immutable'); END"
    )


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS players_alias_immutable ON players")
        op.execute("DROP FUNCTION IF EXISTS cardroom_alias_immutable()")
    else:
        op.execute("DROP TRIGGER IF EXISTS players_alias_immutable")
