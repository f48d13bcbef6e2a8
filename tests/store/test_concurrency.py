"""Many threads moving money at once on SQLite and PostgreSQL: nothing lost, no overdraft."""

from __future__ import annotations

import os
import random
import threading
from collections import defaultdict
from typing import Any

import pytest

from cardroom.ledger import (
    AccountKind,
    AccountRef,
    Currency,
    InsufficientFunds,
    Reason,
    Transfer,
)
from cardroom.store import Cashier, Players, audit_trail
from cardroom.store.ledger_sql import SqlLedger

REAL = Currency.REAL
THREADS = int(os.environ.get("CARDROOM_CONCURRENCY_THREADS", "8"))
PER_THREAD = int(os.environ.get("CARDROOM_CONCURRENCY_TRANSFERS", "30"))
PLAYERS = [AccountRef.player(f"p{i}", REAL) for i in range(4)]
START = 100


def run_threads(count: int, work: Any) -> list[Any]:
    """Run ``work(i)`` on ``count`` threads started together; re-raise any error."""
    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count
    errors: list[BaseException] = []

    def body(i: int) -> None:
        barrier.wait()
        try:
            results[i] = work(i)
        except BaseException as exc:  # surfaced in the main thread below
            errors.append(exc)

    threads = [threading.Thread(target=body, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    return results


def random_transfer(key: str, rng: random.Random) -> Transfer:
    """A player transfer, buy-in or cash-out that may or may not be affordable."""
    a, b = rng.sample(PLAYERS, 2)
    amount = rng.randint(1, 60)
    kind = rng.randrange(3)
    if kind == 0:
        return Transfer(key, Reason.PLAYER_TRANSFER, a, b, amount)
    stack = AccountRef.stack("t1", a.owner, REAL)
    if kind == 1:
        return Transfer(key, Reason.BUY_IN, a, stack, amount)
    return Transfer(key, Reason.CASH_OUT, stack, a, amount)


def test_concurrent_transfers_lose_nothing_and_never_overdraw(db: Any) -> None:
    led = SqlLedger(db.engine)
    for p in PLAYERS:
        led.post(Transfer(f"seed-{p.owner}", Reason.DEPOSIT, AccountRef.cashier(REAL), p, START))

    def work(w: int) -> list[tuple[str, int | None]]:
        rng = random.Random(w)
        done: list[tuple[str, int | None]] = []
        for k in range(PER_THREAD):
            # Three in ten keys are shared by all threads: the same request retried in a race.
            shared = rng.random() < 0.3
            key = f"shared-{k}" if shared else f"w{w}-{k}"
            transfer = random_transfer(key, random.Random(key) if shared else rng)
            try:
                done.append((key, led.post(transfer).id))
            except InsufficientFunds:
                done.append((key, None))
        return done

    outcomes = [pair for per_thread in run_threads(THREADS, work) for pair in per_thread]
    ids_by_key: dict[str, set[int]] = defaultdict(set)
    for key, entry_id in outcomes:
        if entry_id is not None:
            ids_by_key[key].add(entry_id)
    refused = sum(1 for _, entry_id in outcomes if entry_id is None)

    entries = led.entries()
    assert len(entries) == len(PLAYERS) + len(ids_by_key)
    assert all(len(ids) == 1 for ids in ids_by_key.values()), "a key moved money twice"
    assert {e.key for e in entries[len(PLAYERS) :]} == set(ids_by_key)
    assert led.check() == []
    balances = led.balances()
    assert all(v >= 0 for ref, v in balances.items() if ref.kind is not AccountKind.CASHIER)
    held = sum(v for ref, v in balances.items() if ref.kind is not AccountKind.CASHIER)
    assert held == START * len(PLAYERS)
    assert refused > 0 and len(ids_by_key) > THREADS  # both outcomes happened under contention


def test_racing_withdrawals_only_one_fits(db: Any) -> None:
    led = SqlLedger(db.engine)
    alice = PLAYERS[0]
    cash = AccountRef.cashier(REAL)
    led.post(Transfer("seed", Reason.DEPOSIT, cash, alice, 100))

    def work(i: int) -> bool:
        try:
            led.post(Transfer(f"w{i}", Reason.WITHDRAWAL, alice, cash, 60))
        except InsufficientFunds:
            return False
        return True

    assert sum(run_threads(THREADS, work)) == 1
    assert led.balance(alice) == 40 and led.check() == []


def test_racing_replays_of_one_key_move_money_once(db: Any) -> None:
    led = SqlLedger(db.engine)
    deposit = Transfer("same", Reason.DEPOSIT, AccountRef.cashier(REAL), PLAYERS[0], 25)
    ids = run_threads(THREADS, lambda i: led.post(deposit).id)
    assert len(set(ids)) == 1 and led.balance(PLAYERS[0]) == 25 and len(led.entries()) == 1


def test_racing_cashier_retries_record_one_deposit(db: Any, cheap_passwords: Any) -> None:
    Players(db.engine, passwords=cheap_passwords).register(
        "Racer", "long enough", age_confirmed=True
    )
    cashier = Cashier(db.engine)
    ids = run_threads(
        THREADS, lambda i: cashier.deposit("Racer", 70, operator="op", key="ref-1").id
    )
    assert len(set(ids)) == 1 and cashier.balances("Racer")[REAL] == 70
    assert [r.action for r in audit_trail(db.engine, "Racer")] == ["register", "deposit"]


def test_a_key_committed_by_another_writer_mid_transaction_is_a_replay(db: Any) -> None:
    # The interleaving behind a double audit line: this transaction starts before
    # another writer commits the same key, then posts it. Nothing may be posted twice,
    # and post_fresh must say so, since callers audit on its answer.
    from sqlalchemy.orm import Session

    from cardroom.store.database import system_clock
    from cardroom.store.ledger_sql import post_fresh

    if db.kind == "sqlite":
        pytest.skip("SQLite's BEGIN IMMEDIATE queues writers: this interleaving cannot happen")
    deposit = Transfer("late", Reason.DEPOSIT, AccountRef.cashier(REAL), PLAYERS[0], 30)
    led = SqlLedger(db.engine)
    with Session(db.engine) as session, session.begin():
        session.connection()  # the transaction is open before the other writer commits
        led.post(deposit)
        assert post_fresh(session, [deposit], system_clock) == []
    assert led.balance(PLAYERS[0]) == 30 and len(led.entries()) == 1


def test_a_group_commit_and_a_transfer_locking_two_accounts_in_opposite_orders_both_land(
    db: Any,
) -> None:
    # A group commit locks each table step's accounts in turn (here bob's, then ann's
    # with ids in the other order) while a transfer from ann to bob locks both at once
    # in id order: on PostgreSQL each waits for the other, the database aborts one
    # (deadlock detected) and the ledger writes it again; nothing half-done, both land.
    from sqlalchemy import event, text

    if db.kind == "sqlite":
        pytest.skip("SQLite's writers queue for its one write lock: they take turns")
    deadlocks = text("SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()")

    from cardroom.store import make_engine
    from cardroom.store.tables import TableRecords, TableStep

    ann, bob = PLAYERS[0], PLAYERS[1]
    ledger = SqlLedger(db.engine)
    cashier = AccountRef.cashier(REAL)
    for p in (ann, bob):  # ann's account is made first: her id is the lower
        ledger.post(Transfer(f"dep:{p.owner}", Reason.DEPOSIT, cashier, p, START))
    group_engine, other_engine = make_engine(db.url), make_engine(db.url)
    first_lock_held, go_on = threading.Event(), threading.Event()
    locks: list[str] = []

    @event.listens_for(group_engine, "after_cursor_execute")
    def pause(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if "FOR UPDATE" in statement:
            locks.append(statement)
            if len(locks) == 1:  # bob's step locked: let the transfer take ann first
                first_lock_held.set()
                go_on.wait(10)

    def buy_in(table: str, p: AccountRef) -> TableStep:
        stack = AccountRef.stack(table, p.owner, REAL)
        return TableStep(
            table, 1, [], transfers=[Transfer(f"{table}:b", Reason.BUY_IN, p, stack, 30)]
        )

    def group() -> None:
        TableRecords(group_engine).commit_all([buy_in("tb", bob), buy_in("ta", ann)])

    def transfer() -> None:
        SqlLedger(other_engine).post(Transfer("t1", Reason.PLAYER_TRANSFER, ann, bob, 10))

    errors: list[BaseException] = []

    def guarded(work: Any) -> None:
        try:
            work()
        except BaseException as exc:
            errors.append(exc)

    with db.engine.connect() as conn:
        before = conn.execute(deadlocks).scalar_one()
    try:
        writer = threading.Thread(target=guarded, args=(group,))
        writer.start()
        assert first_lock_held.wait(10)
        other = threading.Thread(target=guarded, args=(transfer,))
        other.start()
        with db.engine.connect() as watch:  # the transfer holds ann and waits for bob
            query = text(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND wait_event_type = 'Lock'"
            )
            for _ in range(500):
                if watch.execute(query).scalar_one():
                    break
                threading.Event().wait(0.01)
        go_on.set()
        writer.join(30)
        other.join(30)
    finally:
        go_on.set()
        group_engine.dispose()
        other_engine.dispose()
    assert errors == []
    for _ in range(100):  # the statistics arrive a moment after
        with db.engine.connect() as conn:
            if conn.execute(deadlocks).scalar_one() > before:
                break
        threading.Event().wait(0.05)
    else:
        raise AssertionError("no deadlock happened: the test did not test it")
    assert ledger.balance(ann) == START - 30 - 10 and ledger.balance(bob) == START - 30 + 10
    assert ledger.check() == []
