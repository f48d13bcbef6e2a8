"""The database ledger on SQLite and PostgreSQL, against the in-memory ledger as oracle.

The in-memory ledger is itself checked against a naive model in tests/ledger;
here every random operation must give the same outcome on both, and the
stored ledger must pass its own invariant check.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import text
from tests.ledger.workload import MOVE_REASONS, Move, move_transfer

from cardroom.ledger import (
    AccountRef,
    Currency,
    IdempotencyConflict,
    InsufficientFunds,
    LedgerError,
    MemoryLedger,
    Reason,
    Transfer,
)
from cardroom.store import ledger_sql
from cardroom.store.ledger_sql import SqlLedger

REAL, PLAY = Currency.REAL, Currency.PLAY
CASH = AccountRef.cashier(REAL)
ALICE = AccountRef.player("alice", REAL)
BOB = AccountRef.player("bob", REAL)
STACK = AccountRef.stack("t1", "alice", REAL)
POT = AccountRef.pot("t1", REAL)
EXAMPLES = int(os.environ.get("CARDROOM_SQL_LEDGER_EXAMPLES", "25"))


def deposit(key: str, who: AccountRef, amount: int) -> Transfer:
    return Transfer(key, Reason.DEPOSIT, AccountRef.cashier(who.currency), who, amount)


def test_post_replay_conflict_and_overdraft(db: Any) -> None:
    led = SqlLedger(db.engine)
    first = led.post(deposit("d1", ALICE, 500), actor="op")
    assert first.id == 1 and first.at is not None
    assert led.post(deposit("d1", ALICE, 500)) == first
    with pytest.raises(IdempotencyConflict):
        led.post(deposit("d1", ALICE, 501))
    with pytest.raises(InsufficientFunds, match="holds 500"):
        led.post(Transfer("t", Reason.PLAYER_TRANSFER, ALICE, BOB, 501))
    assert led.balances() == {CASH: -500, ALICE: 500}
    assert len(led.entries()) == 1 and led.check() == []


def test_batch_is_atomic(db: Any) -> None:
    led = SqlLedger(db.engine)
    led.post_all([deposit("d", ALICE, 100), Transfer("b", Reason.BUY_IN, ALICE, STACK, 100)])
    hand = [
        Transfer("bet", Reason.BET, STACK, POT, 100),
        Transfer("win", Reason.POT_AWARD, POT, STACK, 95),
        Transfer("rake", Reason.RAKE, POT, AccountRef.rake(), 6),
    ]
    with pytest.raises(InsufficientFunds):
        led.post_all(hand)
    assert led.balance(STACK) == 100 and led.balance(POT) == 0 and len(led.entries()) == 2
    hand[2] = Transfer("rake", Reason.RAKE, POT, AccountRef.rake(), 5)
    entries = led.post_all(hand)
    assert [e.key for e in entries] == ["bet", "win", "rake"]
    assert led.balance(AccountRef.rake()) == 5 and led.check() == []


def test_reversal_once_and_never_deleting(db: Any) -> None:
    led = SqlLedger(db.engine)
    led.post(deposit("d", ALICE, 100))
    sent = led.post(Transfer("t", Reason.PLAYER_TRANSFER, ALICE, BOB, 70))
    rev = led.reverse(sent.id, memo="flagged")
    assert (led.balance(ALICE), led.balance(BOB)) == (100, 0)
    assert led.entry(sent.id) == sent and rev.transfer.reverses == sent.id
    with pytest.raises(LedgerError, match="already reversed"):
        led.reverse(sent.id, key="again")
    with pytest.raises(LedgerError, match="itself a reversal"):
        led.reverse(rev.id)
    with pytest.raises(LedgerError, match="no entry"):
        led.reverse(999)
    assert led.check() == []


def test_checker_finds_tampering(db: Any) -> None:
    led = SqlLedger(db.engine)
    led.post(deposit("d", ALICE, 100))
    with db.engine.begin() as conn:
        conn.execute(text("UPDATE ledger_accounts SET balance = 90 WHERE kind = 'player'"))
    assert {v.rule for v in led.check()} == {"drift", "total"}


def test_entries_page_in_order(db: Any) -> None:
    led = SqlLedger(db.engine)
    for i in range(5):
        led.post(deposit(f"d{i}", ALICE, i + 1))
    assert [e.amount for e in led.entries(after=2, limit=2)] == [3, 4]
    assert led.entry_for_key("d4") == led.entries()[-1]


# --- differential property test -----------------------------------------------

sizes = st.builds(
    lambda pct, over: pct + 50 if over == 0 else pct, st.integers(1, 100), st.integers(0, 5)
)
moves = st.builds(
    Move,
    st.sampled_from(MOVE_REASONS),
    st.integers(0, 5),
    st.integers(0, 5),
    st.sampled_from([REAL, REAL, PLAY]),
    sizes,
)


def _op(roll: int, batch: list[Move], replay: int) -> Any:
    return ("replay", replay) if roll < 10 else batch


# An op is a batch of 1-2 moves, or ("replay", i) of an earlier batch.
ops = st.builds(_op, st.integers(0, 99), st.lists(moves, min_size=1, max_size=2), st.integers())


def _outcome(ledger: Any, batch: list[Transfer]) -> Any:
    try:
        return [(e.id, e.transfer) for e in ledger.post_all(batch)]
    except LedgerError as exc:
        return type(exc)


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.lists(ops, min_size=5, max_size=30))
def test_random_sequences_match_the_memory_ledger(db: Any, sequence: list[Any]) -> None:
    db.reset()
    sql, memory = SqlLedger(db.engine), MemoryLedger()
    batches: list[list[Transfer]] = []
    for i, op in enumerate(sequence):
        if isinstance(op, tuple):
            if not batches:
                continue
            batch = batches[op[1] % len(batches)]
        else:
            held = memory.balances()
            batch = [move_transfer(m, f"op{i}.{j}", held) for j, m in enumerate(op)]
            batches.append(batch)
        assert _outcome(sql, batch) == _outcome(memory, batch)
    assert sql.balances() == memory.balances()
    assert [e.transfer for e in sql.entries()] == [e.transfer for e in memory.entries()]
    assert sql.check() == [] and memory.check() == []


def test_10_9_a_forged_reversal_must_mirror_its_entry_and_reverse_a_movement(db: Any) -> None:
    """Mutation audit (docs/money_audit.md, S4): a reversal posted by hand (not made by
    ``reverse``) is checked against the stored entry: the mirror image, never a reversal."""
    led = SqlLedger(db.engine)
    led.post(deposit("d", ALICE, 100))
    sent = led.post(Transfer("t", Reason.PLAYER_TRANSFER, ALICE, BOB, 60))
    with pytest.raises(LedgerError, match="must move 60"):
        led.post(Transfer("r", Reason.REVERSAL, BOB, ALICE, 30, reverses=sent.id))
    back = led.reverse(sent.id)
    with pytest.raises(LedgerError, match="itself a reversal"):
        led.post(Transfer("r2", Reason.REVERSAL, ALICE, BOB, 60, reverses=back.id))
    assert (led.balance(ALICE), led.balance(BOB)) == (100, 0) and led.check() == []


def test_10_9_checker_reports_an_entry_whose_stored_currency_is_not_its_accounts(
    db: Any,
) -> None:
    """Mutation audit (docs/money_audit.md, S11): an entry row whose currency column
    disagrees with its accounts' (written behind the ledger's back, balances made to
    match) is reported: play and real never mix."""
    led = SqlLedger(db.engine)
    first = led.post(deposit("d", ALICE, 100))
    with db.engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO ledger_entries (idempotency_key, reason, currency, debit_account_id,"
                " credit_account_id, amount, memo, actor, created_at) SELECT 'forged', reason,"
                " 'play', debit_account_id, credit_account_id, 5, '', '', created_at"
                " FROM ledger_entries WHERE id = :id"
            ),
            {"id": first.id},
        )
        conn.execute(text("UPDATE ledger_accounts SET balance = balance * 105 / 100"))
    assert led.balances() == {CASH: -105, ALICE: 105}
    assert [str(v) for v in led.check()] == [f"entry: entry {first.id + 1} says play"]


def test_10_9_reversing_again_with_another_memo_says_already_reversed(db: Any) -> None:
    """Mutation audit (docs/money_audit.md, S10): as in memory, a second reversal under
    the first one's key but another memo is "already reversed", not a key conflict."""
    led = SqlLedger(db.engine)
    led.post(deposit("d", ALICE, 100))
    sent = led.post(Transfer("t", Reason.PLAYER_TRANSFER, ALICE, BOB, 70))
    first = led.reverse(sent.id, memo="flagged")
    assert led.reverse(sent.id, memo="flagged") == first
    with pytest.raises(LedgerError, match=f"entry {sent.id} was already reversed"):
        led.reverse(sent.id, memo="flagged again")
    assert (led.balance(ALICE), led.balance(BOB)) == (100, 0) and len(led.entries()) == 3


def test_10_9_a_check_beside_a_live_room_reads_one_moment(
    db: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`cardroom ledger check` is run beside a serving room: a hand settled while the
    check reads must not look like drift (both databases read the balances and the
    entries at two moments: "cashier/real/house holds -100, entries sum to -105")."""
    led = SqlLedger(db.engine)
    led.post(deposit("d1", ALICE, 100))
    streamed = ledger_sql._stream

    def a_hand_settles_meanwhile(session: Any) -> Any:
        # The room (its own connection) posts once the check has read the balances.
        SqlLedger(db.engine).post(deposit("d2", ALICE, 5))
        yield from streamed(session)

    monkeypatch.setattr(ledger_sql, "_stream", a_hand_settles_meanwhile)
    assert led.check() == []
    monkeypatch.undo()
    assert led.check() == [] and led.balances()[ALICE] == 105  # the post did happen
