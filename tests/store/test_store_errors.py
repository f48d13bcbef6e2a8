"""Every database error reaching a user is the project's own error, in plain words.

Each public function of the store is called against a database that cannot
serve it (no schema, no server, a value the server refuses): the caller gets a
:class:`StoreError` (a ``DatabaseError``) naming the operation and the reason,
never a SQLAlchemy exception, and never the SQL or its parameters.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import SQLAlchemyError

from cardroom.ledger import AccountRef, Currency, Reason, Transfer
from cardroom.store import (
    AccountError,
    Cashier,
    DatabaseError,
    Players,
    SanctionKind,
    SqlLedger,
    StoreError,
    TableRecords,
    audit_trail,
    make_engine,
)

DEPOSIT = Transfer(
    "k", Reason.DEPOSIT, AccountRef.cashier(Currency.REAL), AccountRef.player("1", Currency.REAL), 5
)


def every_public_call(engine: Any, passwords: Any) -> dict[str, Callable[[], object]]:
    """One call of each public store function, with ordinary arguments."""
    players, cashier = Players(engine, passwords=passwords), Cashier(engine)
    led, records = SqlLedger(engine), TableRecords(engine)
    ref = AccountRef.player("1", Currency.REAL)
    return {
        "register": lambda: players.register("Someone", "long enough", age_confirmed=True),
        "get": lambda: players.get("Someone"),
        "login": lambda: players.login("Someone", "long enough"),
        "authenticate": lambda: players.authenticate("token"),
        "logout": lambda: players.logout("token"),
        "revoke_all": lambda: players.revoke_all("Someone"),
        "sanction": lambda: players.sanction("Someone", SanctionKind.FREEZE, operator="op"),
        "lift": lambda: players.lift(1, operator="op"),
        "sanctions": lambda: players.sanctions("Someone"),
        "restricted_named": lambda: players.restricted_named(["Someone"]),
        "deposit": lambda: cashier.deposit("Someone", 5, operator="op"),
        "withdraw": lambda: cashier.withdraw("Someone", 5, operator="op"),
        "transfer": lambda: cashier.transfer("Someone", "Other", 5, actor="op"),
        "cashier.reverse": lambda: cashier.reverse(1, operator="op", reason="test"),
        "cashier.balances": lambda: cashier.balances("Someone"),
        "integrity_report": lambda: cashier.integrity_report(),
        "post": lambda: led.post(DEPOSIT),
        "post_all": lambda: led.post_all([DEPOSIT]),
        "reverse": lambda: led.reverse(1),
        "balance": lambda: led.balance(ref),
        "balances": lambda: led.balances(),
        "entry": lambda: led.entry(1),
        "entry_for_key": lambda: led.entry_for_key("k"),
        "entries": lambda: led.entries(),
        "account_entries": lambda: led.account_entries(ref),
        "check": lambda: led.check(),
        "open": lambda: records.open("t1", {}),
        "commit": lambda: records.commit("t1", 1, [{"v": 1, "type": "HandDealt"}]),
        "load": lambda: records.load("t1"),
        "audit_trail": lambda: audit_trail(engine),
    }


def assert_store_errors(calls: dict[str, Callable[[], object]], reason: str) -> None:
    for name, call in calls.items():
        with pytest.raises(StoreError) as caught:
            call()
        message = str(caught.value)
        assert reason in message, (name, message)
        assert "SELECT" not in message and "INSERT" not in message, (name, message)
        assert isinstance(caught.value, DatabaseError)
        assert not isinstance(caught.value, SQLAlchemyError)


def test_a_database_without_the_schema_says_to_upgrade(
    fresh_url: str, cheap_passwords: Any
) -> None:
    engine = make_engine(fresh_url)
    try:
        assert_store_errors(every_public_call(engine, cheap_passwords), "cardroom db upgrade")
    finally:
        engine.dispose()


def test_an_unreachable_database_says_so(tmp_path: Path, cheap_passwords: Any) -> None:
    for url in (
        f"sqlite:///{tmp_path / 'no such directory' / 'x.db'}",
        "postgresql+psycopg://postgres@127.0.0.1:1/test?connect_timeout=2",
    ):
        engine = make_engine(url)
        try:
            assert_store_errors(every_public_call(engine, cheap_passwords), "unreachable")
        finally:
            engine.dispose()


def test_a_value_the_database_refuses_is_a_store_error(db: Any) -> None:
    records = TableRecords(db.engine)
    if db.kind == "sqlite":
        records.open("t\x00nul", {})  # SQLite stores NUL as it is
        assert records.open_tables() == ["t\x00nul"]
        return
    with pytest.raises(StoreError, match=r"opening a table failed: a value does not fit"):
        records.open("t\x00nul", {})


def test_ids_beyond_64_bits_are_plain_answers(db: Any) -> None:
    led = SqlLedger(db.engine)
    assert led.entry(2**64) is None and led.entries(after=2**64) == []
    assert led.entries(after=-(2**70), limit=2**70) == []
    with pytest.raises(AccountError, match="no active sanction"):
        Players(db.engine).lift(2**64, operator="op")


def test_text_that_cannot_be_an_alias_is_simply_not_found(db: Any, cheap_passwords: Any) -> None:
    from cardroom.store import LoginRefused

    players = Players(db.engine, passwords=cheap_passwords)
    with pytest.raises(AccountError, match="no player"):
        players.get("nul\x00byte")
    with pytest.raises(LoginRefused):
        players.login("nul\x00byte", "whatever pw")


def test_migrating_an_unreachable_database_is_a_store_error(tmp_path: Path) -> None:
    from cardroom.store import migrate

    engine = make_engine(f"sqlite:///{tmp_path / 'no such directory' / 'x.db'}")
    for call in (lambda: migrate.upgrade(engine), lambda: migrate.current_revision(engine)):
        with pytest.raises(StoreError, match="unreachable"):
            call()
    engine.dispose()


@pytest.mark.postgres
def test_a_postgresql_database_that_does_not_exist_says_to_create_it(
    pg_server: Any, cheap_passwords: Any
) -> None:
    # It said "unreachable or busy; try again later": an operator who had not made the
    # database yet would wait for nothing (`cardroom serve` and `db upgrade` create the
    # schema, never the PostgreSQL database itself).
    from sqlalchemy.engine import make_url
    from tests.store.conftest import PG_ADMIN_URL

    from cardroom.store import migrate

    url = make_url(PG_ADMIN_URL).set(database="cardroom_never_created")
    engine = make_engine(url.render_as_string(hide_password=False))
    try:
        with pytest.raises(StoreError) as caught:
            migrate.upgrade(engine)
        message = str(caught.value)
        assert "does not exist: create it" in message, message
        assert "try again later" not in message, message
        assert_store_errors(every_public_call(engine, cheap_passwords), "create it")
    finally:
        engine.dispose()
