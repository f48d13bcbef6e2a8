"""Look-alike aliases, integer-only money on SQLite, an atomic login throttle.

- ``players.alias_canonical``: the canonical form of RULEBOOK §10.1 (case
  folded, ``-``/``_`` dropped, ``0``→``o``, ``1``/``l``/``i``→``l``), filled in
  for existing players, NOT NULL and UNIQUE, immutable like the alias. Two
  existing players whose aliases collide stop the upgrade with a clear error
  (nothing changes), since the database cannot choose which one keeps it.
- SQLite: ``ledger_accounts.balance`` and ``ledger_entries.amount`` get a CHECK
  ``typeof(...) = 'integer'``: SQLite turns an overflowing sum into a float
  where PostgreSQL's BIGINT raises. SQLite cannot add a CHECK to a table, so
  these tables (and ``players``) are rebuilt: copied aside, dropped, created
  anew and filled again, with foreign keys deferred to the commit so every
  reference is checked once the rows are back.
- ``login_throttle_keys``: one row per alias and per IP address, upserted (so
  locked) before a login attempt is counted: concurrent attempts at one alias
  are counted one after the other.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections import defaultdict

import sqlalchemy as sa
from alembic import op
from sqlalchemy.schema import SchemaItem

from cardroom.ledger import canonical_alias
from cardroom.store.database import DatabaseError

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

ID_TYPE = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _ts(name: str, nullable: bool = False) -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def _players(new: bool) -> list[SchemaItem]:
    items: list[SchemaItem] = [
        sa.Column("id", ID_TYPE, primary_key=True),
        sa.Column("alias", sa.String(16), nullable=False),
        sa.Column("alias_key", sa.String(16), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=False),
        _ts("age_attested_at"),
        _ts("created_at"),
        sa.Column("registration_ip", sa.String(64), nullable=False),
        sa.Column("registration_device", sa.String(128), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_players"),
        sa.UniqueConstraint("alias_key", name="uq_players_alias_key"),
    ]
    if new:
        items.append(sa.Column("alias_canonical", sa.String(16), nullable=False))
        items.append(sa.UniqueConstraint("alias_canonical", name="uq_players_alias_canonical"))
    return items


def _accounts(new: bool) -> list[SchemaItem]:
    items: list[SchemaItem] = [
        sa.Column("id", ID_TYPE, primary_key=True),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("currency", sa.String(8), nullable=False),
        sa.Column("owner", sa.String(120), nullable=False),
        sa.Column("balance", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_ledger_accounts"),
        sa.UniqueConstraint("kind", "currency", "owner", name="uq_ledger_accounts_kind"),
        sa.CheckConstraint(
            "balance >= 0 OR kind = 'cashier'", name="ck_ledger_accounts_nonnegative"
        ),
    ]
    if new:
        items.append(
            sa.CheckConstraint(
                "typeof(balance) = 'integer'", name="ck_ledger_accounts_integer_balance"
            )
        )
    return items


def _entries(new: bool) -> list[SchemaItem]:
    items: list[SchemaItem] = [
        sa.Column("id", ID_TYPE, primary_key=True),
        sa.Column("idempotency_key", sa.String(200), nullable=False),
        sa.Column("reason", sa.String(32), nullable=False),
        sa.Column("currency", sa.String(8), nullable=False),
        sa.Column("debit_account_id", ID_TYPE, nullable=False),
        sa.Column("credit_account_id", ID_TYPE, nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("memo", sa.String(500), nullable=False),
        sa.Column("reverses_entry_id", ID_TYPE, nullable=True),
        sa.Column("actor", sa.String(64), nullable=False),
        _ts("created_at"),
        sa.PrimaryKeyConstraint("id", name="pk_ledger_entries"),
        sa.UniqueConstraint("idempotency_key", name="uq_ledger_entries_idempotency_key"),
        sa.UniqueConstraint("reverses_entry_id", name="uq_ledger_entries_reverses_entry_id"),
        sa.ForeignKeyConstraint(
            ["debit_account_id"],
            ["ledger_accounts.id"],
            name="fk_ledger_entries_debit_account_id_ledger_accounts",
        ),
        sa.ForeignKeyConstraint(
            ["credit_account_id"],
            ["ledger_accounts.id"],
            name="fk_ledger_entries_credit_account_id_ledger_accounts",
        ),
        sa.ForeignKeyConstraint(
            ["reverses_entry_id"],
            ["ledger_entries.id"],
            name="fk_ledger_entries_reverses_entry_id_ledger_entries",
        ),
        sa.CheckConstraint("amount > 0", name="ck_ledger_entries_positive"),
        sa.CheckConstraint(
            "debit_account_id <> credit_account_id", name="ck_ledger_entries_two_sides"
        ),
    ]
    if new:
        items.append(
            sa.CheckConstraint(
                "typeof(amount) = 'integer'", name="ck_ledger_entries_integer_amount"
            )
        )
    return items


def _immutable_alias_trigger(columns: tuple[str, ...]) -> str:
    """SQLite's trigger keeping the alias columns as they were written."""
    changed = " OR ".join(f"OLD.{c} <> NEW.{c}" for c in columns)
    return (
        f"CREATE TRIGGER players_alias_immutable BEFORE UPDATE OF {', '.join(columns)} "
        f"ON players WHEN {changed} BEGIN SELECT RAISE(ABORT, 'alias is immutable'); END"
    )


def _append_only_triggers() -> list[str]:
    return [
        f"CREATE TRIGGER ledger_entries_no_{verb.lower()} BEFORE {verb} ON ledger_entries "
        "BEGIN SELECT RAISE(ABORT, 'ledger_entries is append-only'); END"
        for verb in ("UPDATE", "DELETE")
    ]


ENTRY_INDEXES = ("debit_account_id", "credit_account_id")


def _rebuild(table: str, items: list[SchemaItem], after: list[str]) -> None:
    """Recreate a SQLite ``table`` with ``items``, keeping its rows; then run ``after``.

    Dropping the table drops its indexes and triggers (``after`` recreates them).
    Foreign keys must be deferred by the caller: the rows referring to this
    table are checked at the commit, once its rows are back under the same ids.
    """
    bind = op.get_bind()
    old = [c["name"] for c in sa.inspect(bind).get_columns(table)]
    new = [i.name for i in items if isinstance(i, sa.Column)]
    kept = ", ".join(c for c in new if c in old)
    op.execute(f"CREATE TABLE _rebuild_{table} AS SELECT * FROM {table}")
    op.drop_table(table)
    op.create_table(table, *items)
    op.execute(f"INSERT INTO {table} ({kept}) SELECT {kept} FROM _rebuild_{table} ORDER BY id")
    op.drop_table(f"_rebuild_{table}")
    for statement in after:
        op.execute(statement)


def _fill_canonical() -> None:
    """Set every player's canonical alias, or stop if two collide (nothing is changed).

    The folding is the ledger's own (RULEBOOK §10.1), so rows and new
    registrations agree; changing that rule later needs a migration like this one.
    """
    bind = op.get_bind()
    rows = bind.execute(sa.text("SELECT id, alias FROM players ORDER BY id")).all()
    groups: dict[str, list[str]] = defaultdict(list)
    for _id, alias in rows:
        groups[canonical_alias(alias)].append(alias)
    clashes = [f"{' and '.join(map(repr, a))} (as {c!r})" for c, a in groups.items() if len(a) > 1]
    if clashes:
        raise DatabaseError(
            "cannot upgrade: these players' aliases read as one alias under RULEBOOK §10.1 "
            f"(case, '-', '_', 0/o and 1/l/i folded): {'; '.join(clashes[:10])}"
            f"{' and more' if len(clashes) > 10 else ''}. An operator must close or rename "
            "all but one account of each group, then run the upgrade again."
        )
    if rows:
        bind.execute(
            sa.text("UPDATE players SET alias_canonical = :canonical WHERE id = :id"),
            [{"canonical": canonical_alias(alias), "id": pid} for pid, alias in rows],
        )


def _refuse_inexact_money() -> None:
    """Stop if SQLite already holds money that is not an integer (it cannot be copied)."""
    bind = op.get_bind()
    found = bind.execute(
        sa.text(
            "SELECT 'account ' || id FROM ledger_accounts WHERE typeof(balance) <> 'integer' "
            "UNION ALL SELECT 'entry ' || id FROM ledger_entries "
            "WHERE typeof(amount) <> 'integer' LIMIT 10"
        )
    ).scalars()
    bad = list(found)
    if bad:
        raise DatabaseError(
            f"cannot upgrade: the ledger holds money that is not an integer ({', '.join(bad)}): "
            "it lost exactness before this version refused it; restore a backup or correct "
            "those rows by hand, then run the upgrade again."
        )


def _throttle_table() -> None:
    op.create_table(
        "login_throttle_keys",
        sa.Column("scope", sa.String(80), nullable=False),
        _ts("touched_at"),
        sa.PrimaryKeyConstraint("scope", name="pk_login_throttle_keys"),
    )


def upgrade() -> None:
    op.add_column("players", sa.Column("alias_canonical", sa.String(16), nullable=True))
    _fill_canonical()
    columns = ("alias", "alias_key", "alias_canonical")
    if op.get_bind().dialect.name == "postgresql":
        op.alter_column("players", "alias_canonical", nullable=False)
        op.create_unique_constraint("uq_players_alias_canonical", "players", ["alias_canonical"])
        changed = " OR ".join(f"OLD.{c} IS DISTINCT FROM NEW.{c}" for c in columns)
        op.execute("DROP TRIGGER players_alias_immutable ON players")
        op.execute(
            f"CREATE TRIGGER players_alias_immutable BEFORE UPDATE OF {', '.join(columns)} "
            f"ON players FOR EACH ROW WHEN ({changed}) "
            "EXECUTE FUNCTION cardroom_alias_immutable()"
        )
    else:
        _refuse_inexact_money()
        op.execute("PRAGMA defer_foreign_keys = ON")  # until this transaction commits
        _rebuild("players", _players(True), [_immutable_alias_trigger(columns)])
        _rebuild("ledger_accounts", _accounts(True), [])
        _rebuild("ledger_entries", _entries(True), _append_only_triggers())
        for column in ENTRY_INDEXES:
            op.create_index(f"ix_ledger_entries_{column}", "ledger_entries", [column])
    _throttle_table()


def downgrade() -> None:
    op.drop_table("login_throttle_keys")
    columns = ("alias", "alias_key")
    if op.get_bind().dialect.name == "postgresql":
        changed = " OR ".join(f"OLD.{c} IS DISTINCT FROM NEW.{c}" for c in columns)
        op.execute("DROP TRIGGER players_alias_immutable ON players")
        op.execute(
            f"CREATE TRIGGER players_alias_immutable BEFORE UPDATE OF {', '.join(columns)} "
            f"ON players FOR EACH ROW WHEN ({changed}) "
            "EXECUTE FUNCTION cardroom_alias_immutable()"
        )
        op.drop_constraint("uq_players_alias_canonical", "players", type_="unique")
        op.drop_column("players", "alias_canonical")
        return
    op.execute("PRAGMA defer_foreign_keys = ON")
    _rebuild("players", _players(False), [_immutable_alias_trigger(columns)])
    _rebuild("ledger_accounts", _accounts(False), [])
    _rebuild("ledger_entries", _entries(False), _append_only_triggers())
    for column in ENTRY_INDEXES:
        op.create_index(f"ix_ledger_entries_{column}", "ledger_entries", [column])
