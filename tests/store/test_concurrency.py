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
