"""The house bots' credentials (issue 14's audit): their passwords come from a secret
nobody outside knows, the operator's ``CARDROOM_BOT_SECRET`` or a random one kept in the
database, never from the old public default; bot accounts left on the public password
by an earlier version get a new one. A real ``cardroom serve`` with bots, SQLite and
PostgreSQL."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import httpx
from tests.server.test_crash import ServerProcess

from cardroom.bots.house import PUBLIC_SECRET, bot_password
from cardroom.ledger import Currency
from cardroom.room.codec import encode_room_event
from cardroom.room.events import ReviewFlagged
from cardroom.server.house import SECRET_ENV, SECRET_NAME, house_bot_secret
from cardroom.store import Cashier, Passwords, Players, TableRecords, make_engine, upgrade
from cardroom.store.secrets import ServerSecrets

TABLES = """
[[table]]
id = "house"
game = "holdem"
stakes = { small_blind = 1, big_blind = 2 }
seats = 6
bots = 2
"""


def _login(base: str, alias: str, password: str) -> int:
    body = {"alias": alias, "password": password}
    return httpx.post(base + "/api/login", json=body, timeout=60).status_code


def test_house_bots_log_in_with_a_secret_of_the_database_and_never_the_public_default(
    database_url: str, tmp_path: Path
) -> None:
    engine = make_engine(database_url)
    upgrade(engine)
    # A database of an earlier version: Bot001 made with the public default's password.
    old = Players(engine, passwords=Passwords(1, 8, 1))
    public = bot_password("Bot001", PUBLIC_SECRET)
    old.register("Bot001", public, age_confirmed=True)
    Cashier(engine).deposit("Bot001", 10_000, Currency.PLAY, operator="server:signup")
    old_session = old.login("Bot001", public)
    tables = tmp_path / "tables.toml"
    tables.write_text(TABLES)
    env = {k: v for k, v in os.environ.items() if k != SECRET_ENV}
    server = ServerProcess(database_url, tables, bots=True, env=env)
    try:
        _seated(server.base, 2)  # both bots logged in and sat down
        for alias in ("Bot001", "Bot002"):
            assert _login(server.base, alias, bot_password(alias, PUBLIC_SECRET)) == 401
        me = httpx.get(server.base + "/api/me", headers={"authorization": f"Bearer {old_session}"})
        assert me.status_code == 401  # the old session ended with the old password
        secret = ServerSecrets(engine).get(SECRET_NAME)
        assert secret is not None and len(secret) >= 40 and secret != PUBLIC_SECRET
        assert _login(server.base, "Bot002", bot_password("Bot002", secret)) == 200
        # The bots never register over HTTP: this address's registrations are all left.
        for i in range(10):
            body = {"alias": f"Guest{i}x", "password": "Correct-Horse-9", "age_confirmed": True}
            made = httpx.post(server.base + "/api/register", json=body, timeout=60)
            assert made.status_code == 201, (i, made.text)
    finally:
        server.kill()
        engine.dispose()


def test_the_house_secret_is_the_operators_or_one_random_secret_per_database(
    database_url: str,
) -> None:
    engine = make_engine(database_url)
    upgrade(engine)
    try:
        assert house_bot_secret(engine, {SECRET_ENV: "the operator's"}) == "the operator's"
        assert ServerSecrets(engine).get(SECRET_NAME) is None  # nothing made for it
        found: list[str] = []
        threads = [
            threading.Thread(target=lambda: found.append(house_bot_secret(engine, {})))
            for _ in range(4)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(set(found)) == 1 and found[0] != PUBLIC_SECRET  # the first writer's
        assert house_bot_secret(engine, {}) == found[0]
    finally:
        engine.dispose()


def test_10_9_the_review_leaves_out_the_house_bots(database_url: str, tmp_path: Path) -> None:
    """The house's bots all log in from the server's own address and play pots against
    each other: neither is collusion. They carry the house's role (one made before bots
    had one too), and the operator's integrity report names them nowhere: no shared
    address among them, no table flag that does not name two people."""
    engine = make_engine(database_url)
    upgrade(engine)
    secret = "the operator's secret for these bots"
    Players(engine).register("Bot001", bot_password("Bot001", secret), age_confirmed=True)
    Cashier(engine).deposit("Bot001", 10_000, Currency.PLAY, operator="server:signup")
    tables = tmp_path / "tables.toml"
    tables.write_text(TABLES)
    server = ServerProcess(database_url, tables, bots=True, env={**os.environ, SECRET_ENV: secret})
    try:
        _seated(server.base, 2)
        players = Players(engine)
        assert [players.role(players.get(b).id) for b in ("Bot001", "Bot002")] == ["house"] * 2
        people = [f"Human{i}x" for i in range(3)]
        for alias in people:  # all from 127.0.0.1, as the bots
            body = {"alias": alias, "password": "Correct-Horse-9", "age_confirmed": True}
            assert httpx.post(server.base + "/api/register", json=body, timeout=60).is_success
        players.set_role(people[0], "operator", operator="test")
        ids = {a: str(players.get(a).id) for a in ("Bot001", "Bot002", *people)}
        flagged = [
            ("Bot001", "Bot002"),  # between bots
            ("Human1x", "Bot001"),  # one player and a bot
            ("Human1x", "Bot001", "Bot002"),  # one player among bots
            ("Human1x", "Human2x"),  # two people: for review
            ("Human1x", "Human2x", "Bot002"),  # two people among bots: for review
        ]
        events = [ReviewFlagged("shared_ip", tuple(ids[a] for a in f), "x", ()) for f in flagged]
        TableRecords(engine).commit("flags-1", 1, [encode_room_event(e) for e in events])
        login = {"alias": people[0], "password": "Correct-Horse-9"}
        token = httpx.post(server.base + "/api/login", json=login, timeout=60).json()["token"]
        report = httpx.get(
            server.base + "/api/operator/integrity",
            headers={"authorization": f"Bearer {token}"},
            timeout=60,
        ).json()
        (shared,) = [f for f in report["shared_access"] if f["value"] == "127.0.0.1"]
        assert sorted(shared["players"]) == people
        named = [tuple(f["entry"]["accounts"]) for f in report["table_flags"]]
        assert named == [tuple(ids[a] for a in f) for f in reversed(flagged[3:])]  # newest first
    finally:
        server.kill()
        engine.dispose()


def _seated(base: str, bots: int) -> None:
    """Wait until ``bots`` house bots sat down at the house table (logged in first)."""
    deadline = time.monotonic() + 120
    while True:
        rows = httpx.get(base + "/api/tables", timeout=30).json()["tables"]
        if next(r for r in rows if r["table_id"] == "house")["seats_taken"] == bots:
            return
        assert time.monotonic() < deadline, "the house bots did not sit down"
        time.sleep(0.2)
