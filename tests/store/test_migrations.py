"""Migrations: a fresh database upgrades to the models exactly; append-only is enforced."""

from __future__ import annotations

from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlalchemy.exc import DBAPIError

from cardroom.ledger import AccountRef, Currency, Reason, Transfer
from cardroom.store import migrate
from cardroom.store.database import DatabaseError, make_engine
from cardroom.store.ledger_sql import SqlLedger
from cardroom.store.models import Base
from cardroom.store.players import Players
from cardroom.store.tables import TableRecords


def test_fresh_database_upgrades_to_exactly_the_models(fresh_url: str) -> None:
    engine = make_engine(fresh_url)
    try:
        assert migrate.current_revision(engine) is None
        with pytest.raises(DatabaseError, match="cardroom db upgrade"):
            migrate.require_current(engine)
        migrate.upgrade(engine)
        assert migrate.current_revision(engine) == migrate.head_revision()
        migrate.require_current(engine)
        with engine.connect() as conn:
            ctx = MigrationContext.configure(conn, opts={"compare_type": True})
            assert compare_metadata(ctx, Base.metadata) == []
        migrate.upgrade(engine)  # idempotent
        migrate.downgrade(engine, "base")
        assert set(inspect(engine).get_table_names()) <= {"alembic_version"}
        migrate.upgrade(engine)
        assert "ledger_entries" in inspect(engine).get_table_names()
    finally:
        engine.dispose()


def test_migrations_ship_inside_the_package() -> None:
    assert (migrate.MIGRATIONS / "env.py").is_file()
    assert migrate.MIGRATIONS.parent.name == "store"
    assert migrate.head_revision() == "0013"


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE ledger_entries SET amount = 1",
        "DELETE FROM ledger_entries",
        "UPDATE table_entries SET seq = 9",
        "DELETE FROM table_entries",
        "DELETE FROM audit_log",
    ],
)
def test_append_only_tables_refuse_update_and_delete(db: object, statement: str) -> None:
    engine = db.engine  # type: ignore[attr-defined]
    SqlLedger(engine).post(
        Transfer(
            "d",
            Reason.DEPOSIT,
            AccountRef.cashier(Currency.REAL),
            AccountRef.player("a", Currency.REAL),
            5,
        )
    )
    records = TableRecords(engine)
    records.open("t1", {})
    records.commit("t1", 1, [{"v": 1, "type": "HandDealt", "hand_no": 1}])
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO audit_log (at, actor, action, subject, detail) "
                "VALUES (CURRENT_TIMESTAMP, 'x', 'y', 'z', '{}')"
            )
        )
    with pytest.raises(DBAPIError, match="append-only"), engine.begin() as conn:
        conn.execute(text(statement))


def test_database_refuses_a_negative_player_balance(db: object) -> None:
    engine = db.engine  # type: ignore[attr-defined]
    SqlLedger(engine).post(
        Transfer(
            "d",
            Reason.DEPOSIT,
            AccountRef.cashier(Currency.REAL),
            AccountRef.player("a", Currency.REAL),
            5,
        )
    )
    with pytest.raises(DBAPIError), engine.begin() as conn:
        conn.execute(text("UPDATE ledger_accounts SET balance = -1 WHERE kind = 'player'"))
    with engine.begin() as conn:  # the cashier alone may go below zero
        conn.execute(text("UPDATE ledger_accounts SET balance = balance WHERE kind = 'cashier'"))


def test_aliases_cannot_be_changed_in_the_database(db: Any, cheap_passwords: Any) -> None:
    Players(db.engine, passwords=cheap_passwords).register(
        "Fixed", "long enough", age_confirmed=True
    )
    for column, value in (("alias", "Other"), ("alias_key", "other"), ("alias_canonical", "x")):
        with pytest.raises(DBAPIError, match="immutable"), db.engine.begin() as conn:
            conn.execute(text(f"UPDATE players SET {column} = :v"), {"v": value})
    with db.engine.begin() as conn:  # other columns may change (e.g. a rehashed password)
        conn.execute(text("UPDATE players SET password_hash = 'x'"))


def test_a_database_newer_than_the_code_is_refused_in_words(fresh_url: str) -> None:
    # A database migrated by a newer release, then served by this one (a rollback):
    # `cardroom serve` and `cardroom db upgrade` died with Alembic's traceback ("Can't
    # locate revision identified by '0014'"), and the tools told the operator to run
    # `cardroom db upgrade`, which cannot help.
    engine = make_engine(fresh_url)
    try:
        migrate.upgrade(engine)
        with engine.begin() as conn:
            conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
        for attempt in (migrate.upgrade, migrate.require_current):
            with pytest.raises(DatabaseError, match="newer cardroom") as refused:
                attempt(engine)
            assert "9999" in str(refused.value) and "db upgrade" not in str(refused.value)
    finally:
        engine.dispose()
