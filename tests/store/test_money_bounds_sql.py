"""Balances have a bound in the database ledger too, and SQLite stores integers only.

Before: four deposits of 2**62 turned SQLite balances into floats (``typeof =
real``) and ``ledger check`` passed; PostgreSQL raised a raw ``DataError``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from cardroom.ledger import (
    MAX_BALANCE,
    AccountRef,
    BalanceOutOfRange,
    Currency,
    Reason,
    Transfer,
)
from cardroom.store import AccountError, Cashier, DatabaseError, Players, SqlLedger, migrate
from cardroom.store.database import make_engine

REAL = Currency.REAL
PLAY = Currency.PLAY
CASH = AccountRef.cashier(REAL)
ALICE = AccountRef.player("alice", REAL)


def deposit(key: str, amount: int, who: AccountRef = ALICE) -> Transfer:
    return Transfer(key, Reason.DEPOSIT, CASH, who, amount)


def balance_types(engine: Any) -> set[str]:
    with engine.connect() as conn:
        return set(conn.execute(text("SELECT typeof(balance) FROM ledger_accounts")).scalars())


def test_10_9_four_deposits_of_2_62_stop_at_the_bound(db: Any) -> None:
    led = SqlLedger(db.engine)
    led.post(deposit("d0", 2**62))
    for i in range(1, 4):
        with pytest.raises(BalanceOutOfRange, match="outside the ledger's range"):
            led.post(deposit(f"d{i}", 2**62))
    led.post(deposit("top", 2**62 - 1))
    balances = led.balances()
    assert balances == {ALICE: MAX_BALANCE, CASH: -MAX_BALANCE}
    assert all(type(v) is int for v in balances.values())
    assert len(led.entries()) == 2 and led.check() == []
    if db.kind == "sqlite":
        assert balance_types(db.engine) == {"integer"}


def test_10_9_cashier_money_stops_where_a_balance_is_shown_exactly(
    db: Any, cheap_passwords: Any
) -> None:
    # A balance is a JSON number to the API and the browser: past 2**53 - 1 the account
    # page showed 9007199254740993 as 9,007,199,254,740,992. The cashier's deposits and
    # transfers stop there, told in words (the ledger's own bound is 2**63 - 1, above).
    players = Players(db.engine, passwords=cheap_passwords)
    for alias in ("Whale", "Minnow"):
        players.register(alias, "long enough", age_confirmed=True)
    cashier = Cashier(db.engine)
    first = cashier.deposit("Whale", 2**53 - 1, operator="op", key="big")
    assert cashier.deposit("Whale", 2**53 - 1, operator="op", key="big").id == first.id
    cashier.deposit("Minnow", 2, operator="op")
    for move in (
        lambda: cashier.deposit("Whale", 1, operator="op"),
        lambda: cashier.deposit("Whale", 2**62, operator="op"),
        lambda: cashier.transfer("Minnow", "Whale", 1, actor="op"),
    ):
        with pytest.raises(AccountError, match=r"Whale would hold .*2\*\*53 - 1"):
            move()
    assert cashier.balances("Whale")[REAL] == 2**53 - 1
    cashier.deposit("Whale", 2**53 - 1, PLAY, operator="op")  # each currency its own
    assert cashier.ledger.check() == []


def test_10_9_the_database_refuses_a_balance_beyond_64_bits(db: Any) -> None:
    SqlLedger(db.engine).post(deposit("d", 2**62))
    # SQLite: the sum would become a float, refused by the CHECK on typeof;
    # PostgreSQL: BIGINT out of range.
    with pytest.raises(DBAPIError), db.engine.begin() as conn:
        conn.execute(text(f"UPDATE ledger_accounts SET balance = balance + {MAX_BALANCE}"))
    assert SqlLedger(db.engine).balance(ALICE) == 2**62


def test_10_9_sqlite_stores_integers_only(db: Any) -> None:
    if db.kind != "sqlite":
        pytest.skip("PostgreSQL's BIGINT columns hold integers by their type")
    SqlLedger(db.engine).post(deposit("d", 5))
    for statement in (
        "UPDATE ledger_accounts SET balance = 2.5 WHERE kind = 'player'",
        "UPDATE ledger_accounts SET balance = '7' || 'x' WHERE kind = 'player'",
        "INSERT INTO ledger_entries (idempotency_key, reason, currency, debit_account_id,"
        " credit_account_id, amount, memo, actor, created_at)"
        " SELECT 'f', 'deposit', 'real', 1, 2, 1.5, '', '', CURRENT_TIMESTAMP",
    ):
        with pytest.raises(DBAPIError, match="integer"), db.engine.begin() as conn:
            conn.execute(text(statement))
    assert balance_types(db.engine) == {"integer"}


@pytest.fixture
def sqlite_at_0002(tmp_path: Path) -> Any:
    engine = make_engine(f"sqlite:///{tmp_path / 'old.db'}")
    migrate.upgrade(engine, "0002")
    yield engine
    engine.dispose()


def test_10_9_ledger_check_reports_float_balances(sqlite_at_0002: Any) -> None:
    # A database written by an older version, where SQLite made floats of an overflow.
    engine = sqlite_at_0002
    led = SqlLedger(engine)
    led.post(deposit("d", 2**62))
    with engine.begin() as conn:
        conn.execute(text("UPDATE ledger_accounts SET balance = balance * 4"))
    assert balance_types(engine) == {"real"}
    found = led.check()
    assert sorted(v.rule for v in found) == ["type", "type"]
    assert all("float" in v.detail for v in found)


def test_upgrade_refuses_a_ledger_that_already_holds_floats(sqlite_at_0002: Any) -> None:
    engine = sqlite_at_0002
    SqlLedger(engine).post(deposit("d", 2**62))
    with engine.begin() as conn:
        conn.execute(text("UPDATE ledger_accounts SET balance = balance * 4"))
    with pytest.raises(DatabaseError, match=r"not an integer \(account 1, account 2\)"):
        migrate.upgrade(engine)
    assert migrate.current_revision(engine) == "0002"
