"""Crash recovery on the database ledger matches the in-memory ledger (RULEBOOK §10.10)."""

from __future__ import annotations

from typing import Any

from cardroom.ledger import (
    AccountKind,
    AccountRef,
    Currency,
    MemoryLedger,
    Reason,
    Transfer,
    recover,
)
from cardroom.store.ledger_sql import SqlLedger

REAL = Currency.REAL


def script() -> list[Transfer]:
    cash, pot, rake = AccountRef.cashier(REAL), AccountRef.pot("t1", REAL), AccountRef.rake()
    moves: list[Transfer] = []
    for p in ("ann", "bob"):
        player, stack = AccountRef.player(p, REAL), AccountRef.stack("t1", p, REAL)
        moves += [
            Transfer(f"d-{p}", Reason.DEPOSIT, cash, player, 500),
            Transfer(f"b-{p}", Reason.BUY_IN, player, stack, 400),
            Transfer(f"h1-{p}", Reason.BET, stack, pot, 100),
        ]
    ann, bob = AccountRef.stack("t1", "ann", REAL), AccountRef.stack("t1", "bob", REAL)
    moves += [
        Transfer("h1-win", Reason.POT_AWARD, pot, bob, 195),
        Transfer("h1-rake", Reason.RAKE, pot, rake, 5),
        Transfer("h2-a", Reason.BET, ann, pot, 60),
        Transfer("h2-b", Reason.BET, bob, pot, 200),
        Transfer("h2-back", Reason.POT_AWARD, pot, bob, 140),
    ]
    return moves


def test_recovery_voids_the_open_hand_and_returns_stacks(db: Any) -> None:
    sql, memory = SqlLedger(db.engine), MemoryLedger()
    for t in script():
        sql.post(t)
        memory.post(t)
    report = recover(sql, run="boot-1")
    assert report.voided == recover(memory, run="boot-1").voided
    assert sql.balances() == memory.balances()
    assert sql.balance(AccountRef.player("ann", REAL)) == 100 + 300
    assert sql.balance(AccountRef.player("bob", REAL)) == 100 + 495
    assert sql.balance(AccountRef.rake()) == 5
    held = [
        v for r, v in sql.balances().items() if r.kind in (AccountKind.POT, AccountKind.TABLE_STACK)
    ]
    assert held and not any(held)
    assert sql.check() == []
    assert recover(sql, run="boot-2").voided == {}
