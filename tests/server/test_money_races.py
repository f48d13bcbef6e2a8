"""One account's money raced over real sockets against a real server (SQLite and
PostgreSQL): joins at several tables at the same instant, a rebuy against a join, a
top-up, a leave, a freeze or a withdrawal against a buy-in. After each storm the
database is read: the ledger's invariants hold (accounts + tables + house = deposits -
withdrawals, nothing negative), and what each client was told matches what was stored.

Each player of the one-account storms sits alone at tables of its own (opened by the
operator's API), so no hand moves the chips a test counts. ``CARDROOM_RACE_ACCOUNTS``
(4) and ``CARDROOM_RACE_ROUNDS`` (10) widen the storms (e.g. 30 and 40)."""

from __future__ import annotations

import asyncio
import itertools
import os
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from tests.server.api_client import BACKENDS, Api, bearer, fresh_alias, start_api
from tests.server.sessions import answer, money_problems, operator_client, player

from cardroom.bots.client import ProtocolClient
from cardroom.ledger import AccountKind, AccountRef, Currency, LedgerError, Reason
from cardroom.store import Cashier, Players, SanctionKind, SqlLedger, make_engine

TABLES = 4
ACCOUNTS = int(os.environ.get("CARDROOM_RACE_ACCOUNTS", "4"))
SIGNUP = 10_000
ROUNDS = int(os.environ.get("CARDROOM_RACE_ROUNDS", "10"))
_ids = itertools.count()


@pytest.fixture(scope="module", params=BACKENDS)
def api(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    tmp: Path = tmp_path_factory.mktemp("money_races")
    yield from start_api(request, tmp, signup_play_chips=SIGNUP)


def _open(api: Api, count: int, money: str = "play") -> list[str]:
    """``count`` new tables (hold'em, buy-ins 10..100,000): a player sits alone at each,
    so no hand moves the chips a test counts."""
    ids = [f"race{next(_ids)}" for _ in range(count)]
    with operator_client(api.base, api.database_url, fresh_alias("boss")) as boss:
        for table in ids:
            entry = {
                "id": table,
                "game": "holdem",
                "stakes": {"small_blind": 1, "big_blind": 2},
                "money": money,
                "options": {"min_buy_in": 10, "max_buy_in": 100_000},
            }
            opened = boss.post("/api/operator/tables", json=entry)
            assert opened.status_code == 201, opened.text
    return ids


class Account:
    """One player with a connection per table (each its own actor's client)."""

    def __init__(self, alias: str, player_id: str, conns: list[ProtocolClient]) -> None:
        self.alias = alias
        self.player = player_id
        self.conns = conns

    async def ask(self, conn: int, type_: str, **fields: Any) -> dict[str, Any]:
        """Send on connection ``conn``; the ok or error answering it."""
        client = self.conns[conn]
        sent = await client.send(type_, **fields)
        return await answer(client, sent, limit=30)

    async def close(self) -> None:
        for c in self.conns:
            await c.close()


async def _account(api: Api, conns: int = TABLES) -> Account:
    alias = fresh_alias("race")
    first, player_id = await player(api.base, alias)
    rest = [await player(api.base, alias) for _ in range(conns - 1)]
    return Account(alias, player_id, [first, *(c for c, _ in rest)])


def _balances(api: Api) -> dict[AccountRef, int]:
    engine = make_engine(api.database_url)
    try:
        return SqlLedger(engine).balances()
    finally:
        engine.dispose()


def _stacks(balances: dict[AccountRef, int], player_id: str) -> dict[str, int]:
    """The player's table stacks in the ledger: table id -> chips (non-zero only)."""
    found = {}
    for ref, held in balances.items():
        table, _, owner = ref.owner.rpartition(":")
        if ref.kind is AccountKind.TABLE_STACK and owner == player_id and held:
            found[table] = held
    return found


def _check(api: Api) -> dict[AccountRef, int]:
    """The invariants hold; the balances, for the test's own comparisons."""
    assert money_problems(api.database_url) == []
    balances = _balances(api)
    assert all(held >= 0 for ref, held in balances.items() if not ref.may_go_negative)
    return balances


def _ok(said: dict[str, Any]) -> bool:
    assert said["type"] == "ok" or said["code"] in {"insufficient_funds", "already_seated"}, said
    return bool(said["type"] == "ok")


def test_joins_at_every_table_at_once_each_for_the_whole_balance_seat_one(api: Api) -> None:
    async def storm() -> list[tuple[Account, list[str], list[dict[str, Any]]]]:
        accounts = [await _account(api) for _ in range(ACCOUNTS)]
        tables = [_open(api, TABLES) for _ in accounts]
        said = await asyncio.gather(
            *(
                asyncio.gather(
                    *(
                        a.ask(t, "join", table=table, seat=0, amount=SIGNUP)
                        for t, table in enumerate(ids)
                    )
                )
                for a, ids in zip(accounts, tables, strict=True)
            )
        )
        for a in accounts:
            await a.close()
        return list(zip(accounts, tables, said, strict=True))

    outcome = asyncio.run(storm())
    balances = _check(api)
    for account, tables, said in outcome:
        told = {table for table, s in zip(tables, said, strict=True) if _ok(s)}
        assert len(told) == 1, said
        assert _stacks(balances, account.player) == dict.fromkeys(told, SIGNUP)
        assert balances[AccountRef.player(account.player, Currency.PLAY)] == 0


Ask = tuple[int, str, dict[str, Any]]


def _race(
    api: Api,
    setup: list[Ask],
    racing: list[Ask],
    beside: Any = None,
    prepare: Any = None,
) -> tuple[Account, list[dict[str, Any]]]:
    """A new account does ``setup`` (each ok) then sends ``racing`` at once (each on its
    connection), with ``beside(account)`` run in a thread at the same time; the account
    and the answers (``beside``'s result last)."""

    async def storm() -> tuple[Account, list[dict[str, Any]]]:
        a = await _account(api)
        if prepare is not None:
            prepare(a)
        for conn, kind, fields in setup:
            done = await a.ask(conn, kind, **fields)
            assert done["type"] == "ok", done
        jobs = [a.ask(conn, kind, **fields) for conn, kind, fields in racing]
        if beside is not None:
            jobs.append(asyncio.to_thread(beside, a))
        said: list[dict[str, Any]] = await asyncio.gather(*jobs)
        await a.close()
        return a, said

    return asyncio.run(storm())


def test_a_rebuy_racing_a_join_elsewhere(api: Api) -> None:
    for _ in range(5):
        one, two = _open(api, 2)
        a, said = _race(
            api,
            [(0, "join", {"table": one, "seat": 0, "amount": 5000})],
            [
                (0, "rebuy", {"table": one, "amount": 5000}),
                (1, "join", {"table": two, "seat": 0, "amount": 5000}),
            ],
        )
        balances = _check(api)
        oks = [_ok(s) for s in said]
        assert oks.count(True) == 1, said
        want = {one: 10000} if oks[0] else {one: 5000, two: 5000}
        assert _stacks(balances, a.player) == want


def _play(api: Api, a: Account) -> int:
    return _balances(api).get(AccountRef.player(a.player, Currency.PLAY), 0)


def test_a_topup_racing_a_join(api: Api) -> None:
    for _ in range(5):
        one, two = _open(api, 2)

        def top_up(a: Account) -> dict[str, Any]:
            with bearer(api, a.alias) as client:
                said = client.post("/api/topup", json={})
                return {"status": said.status_code, **said.json()}

        a, (joined, topped) = _race(
            api,
            [(0, "join", {"table": one, "seat": 0, "amount": 4000})],
            [(1, "join", {"table": two, "seat": 0, "amount": SIGNUP})],
            top_up,
        )
        balances = _check(api)
        assert topped["status"] == 200 and topped["added"] == 4000, topped
        if _ok(joined):
            assert _stacks(balances, a.player) == {one: 4000, two: SIGNUP}
            assert _play(api, a) == 0
        else:
            assert _stacks(balances, a.player) == {one: 4000}
            assert _play(api, a) == SIGNUP


def test_a_leave_racing_a_join_elsewhere(api: Api) -> None:
    for _ in range(5):
        one, two = _open(api, 2)
        a, (left, joined) = _race(
            api,
            [(0, "join", {"table": one, "seat": 0, "amount": SIGNUP})],
            [
                (0, "leave", {"table": one}),
                (1, "join", {"table": two, "seat": 0, "amount": SIGNUP}),
            ],
        )
        balances = _check(api)
        assert left["type"] == "ok", left
        if _ok(joined):
            assert _stacks(balances, a.player) == {two: SIGNUP} and _play(api, a) == 0
        else:
            assert _stacks(balances, a.player) == {} and _play(api, a) == SIGNUP


def test_the_same_join_sent_twice_with_two_ids_over_two_connections(api: Api) -> None:
    for seats in ((0, 0), (0, 1)):
        (table,) = _open(api, 1)
        a, said = _race(
            api,
            [],
            [(c, "join", {"table": table, "seat": s, "amount": 6000}) for c, s in enumerate(seats)],
        )
        balances = _check(api)
        codes = sorted(s.get("code", "ok") for s in said)
        assert codes[-1] == "ok" and codes[0] in ("already_seated", "seat_taken"), said
        assert _stacks(balances, a.player) == {table: 6000} and _play(api, a) == SIGNUP - 6000


def test_a_freeze_racing_a_join(api: Api) -> None:
    boss = fresh_alias("boss")
    with operator_client(api.base, api.database_url, boss) as client:
        for _ in range(3):
            (table,) = _open(api, 1)

            def freeze(a: Account) -> dict[str, Any]:
                body = {"alias": a.alias, "kind": "freeze", "reason": "race"}
                said = client.post("/api/operator/sanctions", json=body)
                return {"status": said.status_code, **said.json()}

            a, (joined, frozen) = _race(
                api, [], [(0, "join", {"table": table, "seat": 0, "amount": SIGNUP})], freeze
            )
            assert frozen["status"] in (200, 201), frozen
            assert joined["type"] == "ok" or joined["code"] == "account_frozen", joined
            # Seated or not, the frozen player's chips end in the account.
            for _ in range(100):
                if not _stacks(_balances(api), a.player):
                    break
                time.sleep(0.1)
            _check(api)
            assert _stacks(_balances(api), a.player) == {} and _play(api, a) == SIGNUP


def test_10_9_a_freeze_imposed_while_a_buy_in_waits_for_its_account_stops_the_buy_in(
    api: Api,
) -> None:
    # The table reads the account's sanctions before the buy-in (to refuse at once); a
    # freeze imposed by another process while the buy-in's step waits to lock the account
    # let the chips go to the table, the player told ok. The commit reads them again.
    if not api.database_url.startswith("postgresql"):
        pytest.skip("SQLite queues whole write transactions: no buy-in waits on one row")
    (table,) = _open(api, 1)
    engine = make_engine(api.database_url)

    async def freeze_while_it_waits() -> tuple[Account, dict[str, Any]]:
        a = await _account(api, 1)
        held = "SELECT id FROM ledger_accounts WHERE kind = 'player' AND owner = :o FOR UPDATE"
        with engine.connect() as lock:
            assert lock.execute(text(held), {"o": a.player}).all()
            sent = await a.conns[0].send("join", table=table, seat=0, amount=100)
            await asyncio.sleep(1.0)  # its step is waiting for the row
            Players(engine).sanction(a.alias, SanctionKind.FREEZE, operator="test", reason="r")
            lock.rollback()
        said = await answer(a.conns[0], sent, limit=30)
        await a.close()
        return a, said

    try:
        a, said = asyncio.run(freeze_while_it_waits())
    finally:
        engine.dispose()
    assert said["type"] == "error" and said["code"] == "account_frozen", said
    _check(api)
    assert _stacks(_balances(api), a.player) == {} and _play(api, a) == SIGNUP


def test_a_withdrawal_racing_a_real_money_join(api: Api) -> None:
    engine = make_engine(api.database_url)
    try:
        cashier = Cashier(engine)
        for _ in range(5):
            (table,) = _open(api, 1, "real")

            def deposit(a: Account) -> None:
                cashier.deposit(a.alias, 1000, Currency.REAL, operator="test")

            def withdraw(a: Account) -> dict[str, Any]:
                try:
                    cashier.withdraw(a.alias, 1000, operator="test")
                except LedgerError as exc:
                    return {"type": "error", "code": type(exc).__name__}
                return {"type": "ok"}

            a, (joined, took) = _race(
                api,
                [],
                [(0, "join", {"table": table, "seat": 0, "amount": 1000})],
                withdraw,
                deposit,
            )
            balances = _check(api)
            assert [_ok(joined), took["type"] == "ok"].count(True) == 1, (joined, took)
            stacks = _stacks(balances, a.player)
            assert stacks == ({table: 1000} if _ok(joined) else {})
            assert balances[AccountRef.player(a.player, Currency.REAL)] == 0
    finally:
        engine.dispose()


def test_many_accounts_join_rebuy_leave_while_the_cashier_moves_their_money(api: Api) -> None:
    # Real money: every account deposited, so the cashier may move money between any two
    # (a transfer locks both accounts) while their buy-ins and cash-outs at several
    # tables are written in group commits (one transaction locking the accounts of each
    # table's step in turn): on PostgreSQL the two orders can deadlock. Whatever was
    # refused, the money told withdrawn left and the rest is all still there.
    rng = random.Random(7)
    tables = _open(api, TABLES, "real")
    engine = make_engine(api.database_url)
    cashier = Cashier(engine)
    deposit = 1000
    withdrawn: list[int] = []
    errors: list[str] = []

    def cash_moves(accounts: list[Account], stop: threading.Event) -> None:
        while not stop.is_set():
            a, b = rng.sample(accounts, 2)
            try:
                if rng.random() < 0.2:
                    amount = rng.randint(1, 50)
                    cashier.withdraw(a.alias, amount, operator="test")
                    withdrawn.append(amount)
                else:
                    cashier.transfer(a.alias, b.alias, rng.randint(1, 300), actor="test")
            except LedgerError:
                pass
            except Exception as exc:
                errors.append(repr(exc))

    async def storm() -> list[Account]:
        accounts = [await _account(api) for _ in range(ACCOUNTS)]
        for a in accounts:
            cashier.deposit(a.alias, deposit, Currency.REAL, operator="test")
        stop = threading.Event()
        mover = asyncio.ensure_future(asyncio.to_thread(cash_moves, accounts, stop))

        async def moves(n: int, a: Account) -> None:
            for _ in range(ROUNDS):
                t = rng.randrange(TABLES)
                kind = rng.choice(["join", "rebuy", "leave"])
                fields: dict[str, Any] = {"table": tables[t]}
                if kind == "join":
                    fields |= {"seat": n % 9, "amount": rng.randint(10, 600)}
                elif kind == "rebuy":
                    fields["amount"] = rng.randint(1, 400)
                said = await a.ask(t, kind, **fields)
                if said["type"] == "error" and said["code"] in ("internal", "not_stored"):
                    errors.append(f"{kind}: {said}")

        await asyncio.gather(*(moves(n, a) for n, a in enumerate(accounts)))
        stop.set()
        await mover
        for a in accounts:
            for t, table in enumerate(tables):
                await a.ask(t, "leave", table=table)
        return accounts

    try:
        accounts = asyncio.run(storm())
    finally:
        engine.dispose()
    assert errors == []
    _check(api)
    engine = make_engine(api.database_url)
    try:
        ledger = SqlLedger(engine)
        owners = {a.player for a in accounts}
        stored = [
            e.transfer.amount
            for e in ledger.entries()
            if e.transfer.reason is Reason.WITHDRAWAL and e.transfer.debit.owner in owners
        ]
    finally:
        engine.dispose()
    assert sorted(stored) == sorted(withdrawn)


def test_an_operator_closing_a_table_racing_joins_and_rebuys_there(api: Api) -> None:
    # The close cancels the hand and cashes everyone out; a join or rebuy queued behind it
    # is refused no_such_table. Whichever order, every chip ends in its account.
    with operator_client(api.base, api.database_url, fresh_alias("boss")) as boss:
        for _ in range(3):
            (table,) = _open(api, 1)

            async def storm(table: str) -> tuple[list[Account], list[dict[str, Any]], int]:
                accounts = [await _account(api, 1) for _ in range(ACCOUNTS)]
                for n, a in enumerate(accounts[:2]):
                    seated = await a.ask(0, "join", table=table, seat=n, amount=3000)
                    assert seated["type"] == "ok", seated
                url = f"/api/operator/tables/{table}/close"
                close = asyncio.ensure_future(asyncio.to_thread(boss.post, url))
                asks = [
                    a.ask(0, "rebuy", table=table, amount=1000)
                    if n < 2
                    else a.ask(0, "join", table=table, seat=n, amount=2000)
                    for n, a in enumerate(accounts)
                ]
                said = await asyncio.gather(*asks)
                closed = await close
                for a in accounts:
                    await a.close()
                return accounts, said, closed.status_code

            accounts, said, status = asyncio.run(storm(table))
            assert status == 200
            for s in said:
                allowed = {"no_such_table", "hand_in_progress"}
                assert s["type"] == "ok" or s["code"] in allowed, s
            balances = _check(api)
            for a in accounts:
                assert _stacks(balances, a.player) == {}
                assert _play(api, a) == SIGNUP
