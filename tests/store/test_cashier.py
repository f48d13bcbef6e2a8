"""The operator's money API: deposits, withdrawals, transfers, freezes, reversals, flags."""

from __future__ import annotations

from typing import Any

import pytest

from cardroom.ledger import (
    AccountRef,
    ChipDumpPolicy,
    Currency,
    IdempotencyConflict,
    InsufficientFunds,
    LedgerError,
    Reason,
    Transfer,
)
from cardroom.store import AccountError, Cashier, Players, SanctionKind, audit_trail

REAL, PLAY = Currency.REAL, Currency.PLAY
PW = "correct horse"


@pytest.fixture
def room(db: Any, clock: Any, cheap_passwords: Any) -> tuple[Players, Cashier]:
    players = Players(db.engine, clock=clock, passwords=cheap_passwords)
    for alias, ip in [("ann", "1.1.1.1"), ("bob", "2.2.2.2"), ("cat", "1.1.1.1")]:
        players.register(alias, PW, age_confirmed=True, ip=ip)
    return players, Cashier(db.engine, clock=clock)


def test_deposits_keep_real_and_play_apart(room: Any) -> None:
    _, cashier = room
    cashier.deposit("ann", 5000, operator="op")
    cashier.deposit("ANN", 100_000, PLAY, operator="op")
    assert cashier.balances("ann") == {REAL: 5000, PLAY: 100_000}
    assert cashier.ledger.check() == []


def test_deposit_key_makes_a_retry_safe(room: Any) -> None:
    _, cashier = room
    first = cashier.deposit("ann", 700, operator="op", key="bank-ref-1")
    assert cashier.deposit("ann", 700, operator="op", key="bank-ref-1") == first
    with pytest.raises(IdempotencyConflict):
        cashier.deposit("ann", 701, operator="op", key="bank-ref-1")
    assert cashier.balances("ann")[REAL] == 700
    assert len([r for r in audit_trail(cashier.engine, "ann") if r.action == "deposit"]) == 1


def test_withdrawal_cannot_overdraw_and_bad_amounts_change_nothing(room: Any) -> None:
    _, cashier = room
    cashier.deposit("ann", 1000, operator="op")
    cashier.withdraw("ann", 400, operator="op")
    with pytest.raises(InsufficientFunds):
        cashier.withdraw("ann", 601, operator="op")
    for bad in (0, -5):
        with pytest.raises(LedgerError, match="amount"):
            cashier.withdraw("ann", bad, operator="op")
    assert cashier.balances("ann")[REAL] == 600
    with pytest.raises(AccountError, match="no player"):
        cashier.deposit("zed", 1, operator="op")


def test_transfers_need_both_players_to_have_deposited_real_money(room: Any) -> None:
    _, cashier = room
    cashier.deposit("ann", 1000, operator="op")
    with pytest.raises(AccountError, match="bob has never deposited"):
        cashier.transfer("ann", "bob", 100, actor="ann")
    cashier.deposit("bob", 50_000, PLAY, operator="op")  # play chips do not count
    with pytest.raises(AccountError, match="bob has never deposited"):
        cashier.transfer("ann", "bob", 100, actor="ann")
    cashier.deposit("bob", 1, operator="op")
    entry = cashier.transfer("ann", "bob", 100, actor="ann")
    assert entry.reason is Reason.PLAYER_TRANSFER
    assert cashier.balances("ann")[REAL] == 900 and cashier.balances("bob")[REAL] == 101
    assert [r.action for r in audit_trail(cashier.engine, "ann->bob")] == ["transfer"]
    with pytest.raises(AccountError, match="oneself"):
        cashier.transfer("ann", "ANN", 1, actor="ann")
    with pytest.raises(InsufficientFunds):
        cashier.transfer("ann", "bob", 901, actor="ann")


def test_frozen_and_banned_accounts_move_nothing(room: Any) -> None:
    players, cashier = room
    for alias in ("ann", "bob"):
        cashier.deposit(alias, 1000, operator="op")
    sid = players.sanction("bob", SanctionKind.FREEZE, operator="op", reason="review")
    with pytest.raises(AccountError, match="frozen"):
        cashier.transfer("ann", "bob", 10, actor="ann")
    with pytest.raises(AccountError, match="frozen"):
        cashier.withdraw("bob", 10, operator="op")
    players.lift(sid, operator="op")
    cashier.transfer("ann", "bob", 10, actor="ann")
    players.sanction("ann", SanctionKind.BAN, operator="op")
    with pytest.raises(AccountError, match="banned"):
        cashier.deposit("ann", 10, operator="op")
    assert cashier.balances("bob")[REAL] == 1010


def test_a_table_s_chips_are_never_moved_by_a_reversal(room: Any) -> None:
    """A buy-in reversed under a live table left its record and the ledger disagreeing:
    the player could not stand up, and the room could not start."""
    _, cashier = room
    cashier.deposit("ann", 1000, operator="op")
    player = AccountRef.player("1", REAL)
    buy_in = cashier.ledger.post(
        Transfer("sit", Reason.BUY_IN, player, AccountRef.stack("t1", "1", REAL), 400)
    )
    with pytest.raises(AccountError, match="table's chips"):
        cashier.reverse(buy_in.id, operator="op", reason="operator mistake")
    assert cashier.ledger.balance(AccountRef.stack("t1", "1", REAL)) == 400


def test_operator_reverses_a_flagged_transfer(room: Any) -> None:
    _, cashier = room
    cashier.deposit("ann", 1000, operator="op")
    cashier.deposit("bob", 1, operator="op")
    dumps = [cashier.transfer("ann", "bob", 200, actor="ann") for _ in range(3)]
    report = cashier.integrity_report()
    assert [(f.sender, f.receiver, f.sent) for f in report.chip_dumping] == [("ann", "bob", 600)]
    assert report.chip_dumping[0].entry_ids == tuple(e.id for e in dumps)
    rev = cashier.reverse(dumps[0].id, operator="op", reason="chip dumping")
    assert rev.transfer.reverses == dumps[0].id
    assert cashier.balances("ann")[REAL] == 600 and cashier.balances("bob")[REAL] == 401
    assert cashier.ledger.entry(dumps[0].id) == dumps[0]  # never deleted
    with pytest.raises(LedgerError, match="already reversed"):
        cashier.ledger.reverse(dumps[0].id, key="again")
    with pytest.raises(AccountError, match="why"):
        cashier.reverse(dumps[1].id, operator="op", reason="")
    # Two un-reversed transfers are under the "repeated" threshold.
    assert cashier.integrity_report().chip_dumping == []
    loose = ChipDumpPolicy(min_transfers=2)
    assert len(cashier.integrity_report(loose).chip_dumping) == 1
    assert cashier.ledger.check() == []


def test_accounts_sharing_an_ip_are_flagged(room: Any) -> None:
    players, cashier = room
    players.login("bob", PW, ip="9.9.9.9", device="phone-1")
    players.login("cat", PW, ip="8.8.8.8", device="phone-1")
    flags = {(f.via, f.value, f.players) for f in cashier.integrity_report().shared_access}
    assert flags == {("ip", "1.1.1.1", ("ann", "cat")), ("device", "phone-1", ("bob", "cat"))}
