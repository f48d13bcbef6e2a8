"""The in-memory ledger: posting, idempotency, atomic batches, reversals, invariants.

The property test drives random sequences of deposits, withdrawals, player
transfers, buy-ins, bets, pot awards, rake, cash-outs and replayed keys against
a naive model (a dict of balances), then checks the invariants.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.ledger.workload import MOVE_REASONS, Move, move_transfer

from cardroom.ledger import (
    AccountRef,
    Currency,
    Entry,
    IdempotencyConflict,
    InsufficientFunds,
    LedgerError,
    MemoryLedger,
    Reason,
    Transfer,
    Violation,
    balance_violations,
    find_violations,
)

REAL, PLAY = Currency.REAL, Currency.PLAY
CASH = AccountRef.cashier(REAL)
ALICE = AccountRef.player("alice", REAL)
BOB = AccountRef.player("bob", REAL)
STACK = AccountRef.stack("t1", "alice", REAL)
POT = AccountRef.pot("t1", REAL)
EXAMPLES = int(os.environ.get("CARDROOM_LEDGER_EXAMPLES", "300"))


def deposit(key: str, who: AccountRef, amount: int) -> Transfer:
    return Transfer(key, Reason.DEPOSIT, AccountRef.cashier(who.currency), who, amount)


def test_deposit_moves_money_from_the_cashier() -> None:
    led = MemoryLedger()
    entry = led.post(deposit("d1", ALICE, 500))
    assert entry.id == 1 and led.balance(ALICE) == 500 and led.balance(CASH) == -500
    assert led.check() == []


def test_overdraft_is_refused_and_changes_nothing() -> None:
    led = MemoryLedger()
    led.post(deposit("d1", ALICE, 100))
    with pytest.raises(InsufficientFunds, match="holds 100"):
        led.post(Transfer("t1", Reason.PLAYER_TRANSFER, ALICE, BOB, 101))
    assert led.balance(ALICE) == 100 and led.balance(BOB) == 0 and len(led.entries()) == 1
    # The refused key is still free for a valid transfer.
    led.post(Transfer("t1", Reason.PLAYER_TRANSFER, ALICE, BOB, 100))
    assert led.balance(BOB) == 100 and led.balance(ALICE) == 0


def test_replayed_key_moves_nothing_and_returns_the_original() -> None:
    led = MemoryLedger()
    first = led.post(deposit("d1", ALICE, 100))
    again = led.post(deposit("d1", ALICE, 100))
    assert again == first and led.balance(ALICE) == 100 and len(led.entries()) == 1


def test_reused_key_for_another_transfer_is_a_conflict() -> None:
    led = MemoryLedger()
    led.post(deposit("d1", ALICE, 100))
    with pytest.raises(IdempotencyConflict):
        led.post(deposit("d1", ALICE, 200))
    assert led.balance(ALICE) == 100


def test_batch_is_all_or_nothing() -> None:
    led = MemoryLedger()
    led.post_all([deposit("d1", ALICE, 100), Transfer("b1", Reason.BUY_IN, ALICE, STACK, 100)])
    hand = [
        Transfer("bet", Reason.BET, STACK, POT, 100),
        Transfer("award", Reason.POT_AWARD, POT, STACK, 95),
        Transfer("rake", Reason.RAKE, POT, AccountRef.rake(), 6),  # one chip too many
    ]
    with pytest.raises(InsufficientFunds):
        led.post_all(hand)
    assert led.balance(STACK) == 100 and led.balance(POT) == 0 and len(led.entries()) == 2
    hand[2] = Transfer("rake", Reason.RAKE, POT, AccountRef.rake(), 5)
    led.post_all(hand)
    assert (led.balance(STACK), led.balance(POT), led.balance(AccountRef.rake())) == (95, 0, 5)
    assert led.check() == []


def test_batch_may_spend_what_it_received_earlier_in_the_batch() -> None:
    led = MemoryLedger()
    led.post_all([deposit("d", ALICE, 50), Transfer("b", Reason.BUY_IN, ALICE, STACK, 50)])
    assert led.balance(STACK) == 50 and led.balance(ALICE) == 0


def test_duplicate_key_inside_one_batch_is_refused() -> None:
    led = MemoryLedger()
    with pytest.raises(LedgerError, match="twice"):
        led.post_all([deposit("d", ALICE, 1), deposit("d", ALICE, 1)])
    with pytest.raises(LedgerError, match="nothing"):
        led.post_all([])
    assert led.entries() == []


def test_reversal_restores_balances_once_and_keeps_the_original() -> None:
    led = MemoryLedger()
    led.post(deposit("d1", ALICE, 100))
    sent = led.post(Transfer("t1", Reason.PLAYER_TRANSFER, ALICE, BOB, 60))
    rev = led.reverse(sent.id, memo="chip dumping")
    assert rev.transfer.reverses == sent.id and rev.reason is Reason.REVERSAL
    assert (led.balance(ALICE), led.balance(BOB)) == (100, 0)
    assert led.entries()[1] == sent and len(led.entries()) == 3
    assert led.reverse(sent.id, memo="chip dumping") == rev  # same key and content: a replay
    with pytest.raises(LedgerError, match="already reversed"):
        led.reverse(sent.id, key="another key")
    with pytest.raises(LedgerError, match="no entry"):
        led.reverse(99)
    assert led.check() == []


def test_one_batch_cannot_reverse_an_entry_twice() -> None:
    led = MemoryLedger()
    first = led.post(deposit("d1", ALICE, 100))
    twice = [
        Transfer(k, Reason.REVERSAL, ALICE, CASH, 100, reverses=first.id) for k in ("r1", "r2")
    ]
    with pytest.raises(LedgerError, match="reversed twice"):
        led.post_all(twice)
    assert led.balance(ALICE) == 100


def test_reversal_cannot_overdraw_the_receiver() -> None:
    led = MemoryLedger()
    led.post(deposit("d1", ALICE, 100))
    sent = led.post(Transfer("t1", Reason.PLAYER_TRANSFER, ALICE, BOB, 100))
    led.post(Transfer("w", Reason.WITHDRAWAL, BOB, CASH, 100))
    with pytest.raises(InsufficientFunds):
        led.reverse(sent.id)


def test_forged_reversal_must_mirror_the_original() -> None:
    led = MemoryLedger()
    led.post(deposit("d1", ALICE, 100))
    sent = led.post(Transfer("t1", Reason.PLAYER_TRANSFER, ALICE, BOB, 60))
    forged = Transfer("r", Reason.REVERSAL, BOB, ALICE, 30, reverses=sent.id)
    with pytest.raises(LedgerError, match="must move 60"):
        led.post(forged)


def test_checker_catches_each_broken_invariant() -> None:
    good = Transfer("d", Reason.DEPOSIT, CASH, ALICE, 100)
    entries = [Entry(1, good)]
    assert find_violations({CASH: -100, ALICE: 100}, entries) == []
    rules = {v.rule for v in find_violations({CASH: -100, ALICE: 90}, entries)}
    assert rules == {"drift", "total"}
    neg = find_violations({CASH: -100, ALICE: 100, BOB: -5, STACK: 5}, entries)
    assert Violation("negative", f"{BOB} holds -5") in neg
    bad_entry = Entry(2, Transfer("x", Reason.RAKE, ALICE, BOB, 1))
    assert any(v.rule == "entry" for v in find_violations({}, [bad_entry]))
    twice = [Entry(1, good)] + [
        Entry(i, Transfer(f"r{i}", Reason.REVERSAL, ALICE, CASH, 100, reverses=1)) for i in (2, 3)
    ]
    assert any("reversed twice" in v.detail for v in find_violations({CASH: 100}, twice))


# --- property test --------------------------------------------------------------

# A deposit's size, else a percentage of the debited balance; one in six asks for
# up to half as much again as the balance (an overdraft try).
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


def _op(roll: int, move: Move, replay: int) -> Any:
    return ("replay", replay) if roll < 10 else move


operations = st.builds(_op, st.integers(0, 99), moves, st.integers(0, 10_000))


def run_against_model(ledger: Any, ops: list[Any]) -> dict[AccountRef, int]:
    """Apply ``ops`` to ``ledger`` and to a dict model; assert they agree at every step."""
    model: dict[AccountRef, int] = {}
    posted: list[tuple[Transfer, Entry]] = []
    for i, op in enumerate(ops):
        if isinstance(op, tuple):
            if not posted:
                continue
            t, original = posted[int(op[1]) % len(posted)]
            assert ledger.post(t) == original
            continue
        t = move_transfer(op, f"op{i}", model)
        refused = t.debit == t.credit or (
            not t.debit.may_go_negative and model.get(t.debit, 0) < t.amount
        )
        try:
            entry = ledger.post(t)
        except LedgerError:
            assert refused, f"{t} was refused with funds available"
            continue
        assert not refused, f"{t} was accepted but overdraws"
        posted.append((t, entry))
        model[t.debit] = model.get(t.debit, 0) - t.amount
        model[t.credit] = model.get(t.credit, 0) + t.amount
        assert ledger.balance(t.debit) == model[t.debit]
        assert ledger.balance(t.credit) == model[t.credit]
    return model


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.lists(operations, min_size=10, max_size=80))
def test_random_sequences_keep_every_invariant(ops: list[Any]) -> None:
    led = MemoryLedger()
    model = run_against_model(led, ops)
    assert led.check() == []
    assert {k: v for k, v in led.balances().items() if v} == {k: v for k, v in model.items() if v}
    for currency in (REAL, PLAY):
        assert sum(v for k, v in led.balances().items() if k.currency is currency) == 0
    assert all(v >= 0 for k, v in led.balances().items() if not k.may_go_negative)
    assert len({e.key for e in led.entries()}) == len(led.entries())


def test_10_9_a_reversal_is_never_itself_reversed_even_by_a_forged_transfer() -> None:
    """Mutation audit (docs/money_audit.md, T17): ``reversal_of`` refuses to reverse a
    reversal, and the posting and the checker must refuse a hand-built one too (undone
    twice, the original movement would come back under the name of a reversal)."""
    led = MemoryLedger()
    led.post(deposit("d1", ALICE, 100))
    sent = led.post(Transfer("t1", Reason.PLAYER_TRANSFER, ALICE, BOB, 60))
    back = led.reverse(sent.id)
    forged = Transfer("again", Reason.REVERSAL, ALICE, BOB, 60, reverses=back.id)
    with pytest.raises(LedgerError, match="itself a reversal"):
        led.post(forged)
    assert led.balance(ALICE) == 100 and led.balance(BOB) == 0 and led.check() == []
    entries = [*led.entries(), Entry(back.id + 1, forged)]
    found = find_violations({CASH: -100, ALICE: 40, BOB: 60}, entries)
    assert any("itself a reversal" in v.detail for v in found)


def test_10_9_reversing_again_with_another_memo_says_already_reversed() -> None:
    """Mutation audit (docs/money_audit.md, T19, M5): a second reversal under the first
    one's key but another memo is "already reversed" (a clear error), not a key conflict;
    the same reversal again is a harmless replay."""
    led = MemoryLedger()
    led.post(deposit("d1", ALICE, 100))
    sent = led.post(Transfer("t1", Reason.PLAYER_TRANSFER, ALICE, BOB, 60))
    first = led.reverse(sent.id, memo="flagged")
    assert led.reverse(sent.id, memo="flagged") == first
    with pytest.raises(LedgerError, match=f"entry {sent.id} was already reversed"):
        led.reverse(sent.id, memo="flagged again")
    assert led.balance(ALICE) == 100 and led.balance(BOB) == 0 and len(led.entries()) == 3


def test_10_9_the_total_holds_in_each_currency_apart() -> None:
    """Mutation audit (docs/money_audit.md, I1): five real cents made from nothing are not
    hidden by five play chips lost; each currency must sum to zero on its own."""
    play_cash, play_bob = AccountRef.cashier(PLAY), AccountRef.player("bob", PLAY)
    balances = {CASH: -100, ALICE: 105, play_cash: -105, play_bob: 100}
    found = balance_violations(balances, balances)
    assert [str(v) for v in found] == [
        "total: play balances sum to -5, not 0",
        "total: real balances sum to 5, not 0",
    ]


def test_10_9_entries_into_an_account_without_a_balance_are_drift() -> None:
    """Mutation audit (docs/money_audit.md, I4): an account the entries move chips into
    but whose balance row is missing is reported, not skipped."""
    entries = [Entry(1, Transfer("d", Reason.DEPOSIT, CASH, ALICE, 100))]
    assert [str(v) for v in find_violations({CASH: -100}, entries)] == [
        f"drift: {ALICE} has entries summing to 100 but no balance",
        "total: real balances sum to -100, not 0",
    ]
