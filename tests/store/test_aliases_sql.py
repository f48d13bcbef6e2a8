"""Look-alike aliases (RULEBOOK §10.1) on both databases: refused at registration, by
the database itself, under concurrency, and for players who registered before."""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import inspect, text
from sqlalchemy.exc import DBAPIError, IntegrityError

from cardroom.ledger import AliasError, canonical_alias
from cardroom.store import AccountError, DatabaseError, Players, SqlLedger, migrate
from cardroom.store.database import make_engine

PW = "long enough"
GROUPS = [("PlayerI", "Playerl", "Player1"), ("B0B", "BOB"), ("Ace-High", "AceHigh")]


@pytest.fixture
def players(db: Any, cheap_passwords: Any) -> Players:
    return Players(db.engine, passwords=cheap_passwords)


@pytest.mark.parametrize("group", GROUPS)
def test_10_1_look_alikes_cannot_register_side_by_side(
    players: Players, group: tuple[str, ...]
) -> None:
    first, *others = group
    players.register(first, PW, age_confirmed=True)
    for alias in others:
        with pytest.raises(AccountError, match="taken"):
            players.register(alias, PW, age_confirmed=True)
    assert players.get(first).alias == first
    with players.engine.connect() as conn:
        stored = conn.execute(text("SELECT alias, alias_canonical FROM players")).all()
    assert stored == [(first, canonical_alias(first))]


def test_10_1_reserved_names_cannot_register(players: Players) -> None:
    for alias in ("admin", "Adm1n", "TheHouse", "Cashier_2", "dealer", "Support", "0perator"):
        with pytest.raises(AliasError, match="reserved"):
            players.register(alias, PW, age_confirmed=True)
    with players.engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM players")).scalar() == 0


def test_10_1_the_database_itself_keeps_canonical_aliases_unique(players: Players) -> None:
    players.register("PlayerI", PW, age_confirmed=True)
    insert = text(
        "INSERT INTO players (alias, alias_key, alias_canonical, password_hash, age_attested_at,"
        " created_at, registration_ip, registration_device)"
        " VALUES (:a, :k, :c, 'x', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, '', '')"
    )
    with pytest.raises(IntegrityError), players.engine.begin() as conn:
        conn.execute(insert, {"a": "Player1", "k": "player1", "c": "playerl"})
    with pytest.raises(IntegrityError), players.engine.begin() as conn:  # NOT NULL
        conn.execute(insert, {"a": "Other", "k": "other", "c": None})


def test_10_1_racing_look_alikes_only_one_registers(players: Players) -> None:
    aliases = ["PlayerI", "Playerl", "Player1", "playeri", "PLAYER1", "Play-erI"]
    barrier = threading.Barrier(len(aliases))
    outcomes: dict[str, str] = {}

    def register(alias: str) -> None:
        barrier.wait()
        try:
            players.register(alias, PW, age_confirmed=True)
            outcomes[alias] = "ok"
        except AccountError as exc:
            outcomes[alias] = str(exc)

    threads = [threading.Thread(target=register, args=(a,)) for a in aliases]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes.values()).count("ok") == 1, outcomes
    assert all("taken" in v for v in outcomes.values() if v != "ok")


def insert_old_player(conn: Any, alias: str) -> int:
    """A player as revision 0002 stored one (no canonical alias yet)."""
    now = datetime(2026, 1, 1, tzinfo=UTC)
    row = conn.execute(
        text(
            "INSERT INTO players (alias, alias_key, password_hash, age_attested_at, created_at,"
            " registration_ip, registration_device) VALUES (:a, :k, 'h', :t, :t, '', '')"
            " RETURNING id"
        ),
        {"a": alias, "k": alias.casefold(), "t": now},
    )
    return int(row.scalar_one())


@pytest.fixture
def old_engine(fresh_url: str) -> Any:
    engine = make_engine(fresh_url)
    migrate.upgrade(engine, "0002")
    yield engine
    engine.dispose()


def test_10_1_upgrade_fills_canonical_aliases_and_keeps_every_row(
    old_engine: Any, cheap_passwords: Any
) -> None:
    from cardroom.ledger import AccountRef, Currency, Reason, Transfer

    with old_engine.begin() as conn:
        ids = [insert_old_player(conn, a) for a in ("PlayerI", "Ace-High", "B0B")]
        conn.execute(
            text(
                "INSERT INTO login_attempts (alias_key, player_id, ip, device, at, success)"
                " VALUES ('playeri', :p, '', '', CURRENT_TIMESTAMP, false)"
            ),
            {"p": ids[0]},
        )
    led = SqlLedger(old_engine)
    cash, alice = AccountRef.cashier(Currency.REAL), AccountRef.player("1", Currency.REAL)
    led.post(Transfer("d", Reason.DEPOSIT, cash, alice, 50))
    led.reverse(led.post(Transfer("d2", Reason.DEPOSIT, cash, alice, 7)).id)
    migrate.upgrade(old_engine)
    with old_engine.connect() as conn:
        rows = conn.execute(text("SELECT id, alias_canonical FROM players ORDER BY id")).all()
        if old_engine.dialect.name == "sqlite":
            assert conn.execute(text("PRAGMA foreign_key_check")).all() == []
    assert rows == list(zip(ids, ["playerl", "acehlgh", "bob"], strict=True))
    assert led.balance(alice) == 50 and len(led.entries()) == 3 and led.check() == []
    players = Players(old_engine, passwords=cheap_passwords)
    with pytest.raises(AccountError, match="taken"):
        players.register("Player1", PW, age_confirmed=True)
    players.register("NewOne", PW, age_confirmed=True)
    # The rebuilt tables kept their guards: append-only entries, immutable aliases.
    for statement in ("DELETE FROM ledger_entries", "UPDATE players SET alias_canonical = 'z'"):
        with pytest.raises(DBAPIError, match=r"append-only|immutable"), old_engine.begin() as c:
            c.execute(text(statement))
    migrate.downgrade(old_engine, "0002")
    assert "alias_canonical" not in {c["name"] for c in inspect(old_engine).get_columns("players")}
    assert led.balance(alice) == 50 and led.check() == []
    migrate.upgrade(old_engine)  # and up again, with the player registered at 0003
    assert players.get("newone").alias == "NewOne" and led.check() == []


def test_10_1_upgrade_stops_when_existing_aliases_collide(old_engine: Any) -> None:
    with old_engine.begin() as conn:
        for alias in ("PlayerI", "Player1", "Solo", "B0B", "BOB"):
            insert_old_player(conn, alias)
    with pytest.raises(DatabaseError) as refused:
        migrate.upgrade(old_engine)
    message = str(refused.value)
    assert "'PlayerI' and 'Player1' (as 'playerl')" in message
    assert "'B0B' and 'BOB' (as 'bob')" in message and "Solo" not in message
    assert "rename" in message
    assert migrate.current_revision(old_engine) == "0002"
    assert "alias_canonical" not in {c["name"] for c in inspect(old_engine).get_columns("players")}
