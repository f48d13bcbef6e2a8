"""A served table's port collects a settled hand without validating it (server/
table_ledger.py): the commit is where every transfer is checked. This proves it: a
transfer that breaks a ledger rule fails the whole step, and nothing of it is stored."""

from __future__ import annotations

from typing import Any

import pytest

from cardroom.ledger import AccountRef, Currency, LedgerError, Reason, Transfer
from cardroom.store import SqlLedger
from cardroom.store.tables import TableRecords


def test_the_commit_refuses_an_invalid_transfer_and_stores_nothing_of_the_step(db: Any) -> None:
    records, ledger = TableRecords(db.engine), SqlLedger(db.engine)
    records.open("t1", {})
    stack = AccountRef.stack("t1", "ann", Currency.PLAY)
    pot = AccountRef.pot("t1", Currency.PLAY)
    bad = Transfer("t1:h1:in:ann", Reason.RAKE, stack, pot, 5)  # rake never leaves a stack
    with pytest.raises(LedgerError):
        records.commit("t1", 1, [{"v": 1, "type": "x"}], transfers=[bad])
    loaded = records.load("t1")
    assert loaded is not None and list(loaded.entries) == []
    assert ledger.balance(stack) == 0 and ledger.balance(pot) == 0
