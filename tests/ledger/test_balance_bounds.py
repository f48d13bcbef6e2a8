"""Balances have a bound (RULEBOOK §10.9): no posting takes one beyond a signed 64-bit
integer, and the checker reports a balance that is not an exact integer."""

from __future__ import annotations

import pytest

from cardroom.ledger import (
    MAX_BALANCE,
    MIN_BALANCE,
    AccountRef,
    BalanceOutOfRange,
    Currency,
    InsufficientFunds,
    LedgerError,
    MemoryLedger,
    Reason,
    Transfer,
    balance_violations,
)
from cardroom.ledger.transfers import MAX_AMOUNT

REAL = Currency.REAL
CASH = AccountRef.cashier(REAL)
ALICE = AccountRef.player("alice", REAL)
BOB = AccountRef.player("bob", REAL)
STACK = AccountRef.stack("t1", "alice", REAL)


def deposit(key: str, who: AccountRef, amount: int) -> Transfer:
    return Transfer(key, Reason.DEPOSIT, CASH, who, amount)


def test_the_bound_is_the_largest_signed_64_bit_integer() -> None:
    assert MAX_BALANCE == 2**63 - 1 and MIN_BALANCE == -MAX_BALANCE
    assert MAX_AMOUNT < MAX_BALANCE


def test_10_9_four_deposits_of_2_62_stop_at_the_bound() -> None:
    led = MemoryLedger()
    led.post(deposit("d0", ALICE, 2**62))
    for i in range(1, 4):
        with pytest.raises(BalanceOutOfRange, match="outside the ledger's range"):
            led.post(deposit(f"d{i}", ALICE, 2**62))
    assert led.balance(ALICE) == 2**62 and len(led.entries()) == 1
    assert led.check() == []
    led.post(deposit("top", ALICE, 2**62 - 1))  # exactly the bound is fine
    assert led.balance(ALICE) == MAX_BALANCE and led.check() == []
    with pytest.raises(BalanceOutOfRange):
        led.post(deposit("one more", ALICE, 1))


def test_10_9_the_cashier_bound_limits_deposits_over_all_players() -> None:
    led = MemoryLedger()
    led.post(deposit("a", ALICE, 2**62))
    led.post(deposit("b", BOB, 2**62 - 1))
    assert led.balance(CASH) == MIN_BALANCE
    carol = AccountRef.player("carol", REAL)
    with pytest.raises(BalanceOutOfRange, match="cashier"):
        led.post(deposit("c", carol, 1))
    assert led.balance(carol) == 0 and led.check() == []


def test_10_9_a_batch_past_the_bound_is_refused_whole() -> None:
    led = MemoryLedger()
    carol = AccountRef.player("carol", REAL)
    batch = [deposit("a", ALICE, 1), deposit("b", BOB, 2**62), deposit("c", carol, 2**62)]
    with pytest.raises(BalanceOutOfRange, match="cashier"):
        led.post_all(batch)
    assert led.balances() == {} and led.entries() == []
    led.post_all(batch[:2])
    assert led.balance(BOB) == 2**62 and led.check() == []


def test_no_player_can_pass_the_bound_by_moves_between_accounts() -> None:
    # The cashier's floor caps what all players hold together, so moves inside
    # the room can never take one account past MAX_BALANCE.
    led = MemoryLedger()
    led.post(deposit("a", ALICE, 2**62))
    led.post(deposit("b", BOB, 2**62 - 1))
    led.post(Transfer("t", Reason.PLAYER_TRANSFER, BOB, ALICE, 2**62 - 1))
    led.post(Transfer("in", Reason.BUY_IN, ALICE, STACK, 2**62))
    led.post(Transfer("in2", Reason.BUY_IN, ALICE, STACK, 2**62 - 1))
    assert led.balance(STACK) == MAX_BALANCE and led.balance(ALICE) == 0
    with pytest.raises(LedgerError):
        led.post(Transfer("in3", Reason.BUY_IN, ALICE, STACK, 1))
    assert led.check() == []


def test_reversal_of_an_id_beyond_64_bits_is_refused() -> None:
    with pytest.raises(LedgerError, match="no entry"):
        Transfer("r", Reason.REVERSAL, BOB, ALICE, 1, reverses=2**63).validate()


def test_10_9_checker_reports_a_float_balance_even_when_it_compares_equal() -> None:
    # What SQLite did: 2**64 stored as a float equals the int sum of the entries.
    net = {CASH: -(2**64), ALICE: 2**64}
    stored: dict[AccountRef, object] = {CASH: float(-(2**64)), ALICE: float(2**64)}
    found = balance_violations(stored, net)  # type: ignore[arg-type]
    assert {v.rule for v in found} == {"type"} and len(found) == 2
    assert "float" in str(found[0])


def test_10_9_checker_reports_a_balance_out_of_range() -> None:
    found = balance_violations({CASH: -(2**63), ALICE: 2**63}, {CASH: -(2**63), ALICE: 2**63})
    assert sorted(v.rule for v in found) == ["range", "range"]


def test_10_9_of_several_refused_balances_the_first_account_in_order_is_reported() -> None:
    led = MemoryLedger()
    led.post(deposit("d", BOB, 10))
    carol = AccountRef.player("carol", REAL)
    # Both bob and alice would go below zero; the batch names bob's account first.
    moves = [
        Transfer("b", Reason.PLAYER_TRANSFER, BOB, carol, 50),
        Transfer("a", Reason.PLAYER_TRANSFER, ALICE, carol, 100),
    ]
    with pytest.raises(InsufficientFunds, match="player/real/alice holds 0, needs 100"):
        led.post_all(moves)
    assert led.balance(BOB) == 10 and len(led.entries()) == 1


def test_10_9_only_the_cashier_goes_below_zero_not_the_house_rake() -> None:
    """Mutation audit (docs/money_audit.md, A1): the house's rake pays an overlay only out
    of what it holds; only the cashier (the outside world) may go below zero, and the
    checker flags any other account that does."""
    led = MemoryLedger()
    led.post(deposit("d", ALICE, 100))
    pot = AccountRef.pot("t1", REAL)
    house = AccountRef.rake(REAL)
    led.post_all(
        [
            Transfer("in", Reason.BUY_IN, ALICE, STACK, 100),
            Transfer("bet", Reason.BET, STACK, pot, 100),
            Transfer("rake", Reason.RAKE, pot, house, 5),
            Transfer("won", Reason.POT_AWARD, pot, STACK, 95),
        ]
    )
    pool = AccountRef.prize_pool("sng", REAL)
    with pytest.raises(InsufficientFunds, match="holds 5, needs 6"):
        led.post(Transfer("overlay", Reason.OVERLAY, house, pool, 6))
    assert led.balance(house) == 5 and led.check() == []
    rules = {v.rule for v in balance_violations({house: -1, pool: 1}, {house: -1, pool: 1})}
    assert rules == {"negative"}
