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
from cardroom.store.topups import PlayTopUps

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


def test_10_9_an_operator_pays_out_a_banned_account_with_a_reason_kept(db: Any, room: Any) -> None:
    """A banned player's real money was stuck: an operator had to lift the ban, pay out
    and ban again, the player free to log in between. ``despite_sanction`` pays out with
    the ban left in force and the reason in the audit trail; a blank reason is none."""
    players, cashier = room
    cashier.deposit("bob", 1000, operator="op")
    players.sanction("bob", SanctionKind.BAN, operator="op", reason="collusion")
    with pytest.raises(AccountError, match="banned"):
        cashier.withdraw("bob", 10, operator="op", despite_sanction="  ")
    cashier.withdraw("bob", 1000, operator="op", despite_sanction="closing, ticket 7")
    assert cashier.balances("bob")[REAL] == 0
    assert SanctionKind.BAN in players.sanctions("bob")
    (paid,) = [r for r in audit_trail(db.engine, "bob") if r.action == "withdraw"]
    assert paid.actor == "op" and paid.detail["despite_sanction"] == "closing, ticket 7"
    assert cashier.ledger.check() == []


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


def test_10_9_only_a_real_money_deposit_makes_an_account_a_depositor(room: Any) -> None:
    """Mutation audit (docs/money_audit.md, C8): real money that reached an account some
    other way (here a prize) does not open player-to-player transfers (§10.9: "only
    between depositing real-money accounts")."""
    _, cashier = room
    cashier.deposit("ann", 1000, operator="op")
    ann, bob = AccountRef.player("1", REAL), AccountRef.player("2", REAL)
    pool = AccountRef.prize_pool("sng", REAL)
    cashier.ledger.post(Transfer("entry", Reason.TOURNAMENT_BUY_IN, ann, pool, 300))
    cashier.ledger.post(Transfer("prize", Reason.PRIZE, pool, bob, 300))
    assert cashier.balances("bob")[REAL] == 300
    with pytest.raises(AccountError, match="bob has never deposited"):
        cashier.transfer("bob", "ann", 100, actor="bob")
    with pytest.raises(AccountError, match="bob has never deposited"):
        cashier.transfer("ann", "bob", 100, actor="ann")
    assert cashier.balances("bob")[REAL] == 300 and cashier.balances("ann")[REAL] == 700


def test_10_9_the_house_bots_are_left_out_of_the_integrity_report(room: Any) -> None:
    """Mutation audit (docs/money_audit.md, C14): the house's bots all log in from the
    server's address, so they are never flagged as sharing one with a player."""
    players, cashier = room
    players.register("bot1", PW, age_confirmed=True, ip="2.2.2.2")
    players.set_role("bot1", "house", operator="op")
    flags = {(f.via, f.value, f.players) for f in cashier.integrity_report().shared_access}
    assert flags == {("ip", "1.1.1.1", ("ann", "cat"))}


def test_10_9_an_operator_reversing_again_hears_already_reversed(room: Any) -> None:
    """Mutation audit (docs/money_audit.md, C11): a second reversal of the same entry,
    with another reason, is refused as "already reversed" and moves nothing."""
    _, cashier = room
    cashier.deposit("ann", 1000, operator="op")
    cashier.deposit("bob", 1, operator="op")
    sent = cashier.transfer("ann", "bob", 200, actor="ann")
    cashier.reverse(sent.id, operator="op", reason="chip dumping")
    with pytest.raises(LedgerError, match=f"entry {sent.id} was already reversed"):
        cashier.reverse(sent.id, operator="op", reason="chip dumping, again")
    assert cashier.balances("ann")[REAL] == 1000 and cashier.balances("bob")[REAL] == 1
    assert [r.action for r in audit_trail(cashier.engine, f"entry {sent.id}")] == ["reverse"]


def test_10_9_a_frozen_account_gets_no_play_money_top_up(room: Any) -> None:
    """Mutation audit (docs/money_audit.md, U1): a freeze stops every movement into the
    account the player asks for, the play-money top-up too; lifted, the top-up is paid."""
    players, cashier = room
    topups = PlayTopUps(cashier.engine, clock=cashier.clock)
    sid = players.sanction("ann", SanctionKind.FREEZE, operator="op", reason="review")
    with pytest.raises(AccountError, match="frozen or banned: no top-up"):
        topups.top_up("ann", key="topup:ann:1", ceiling=1000)
    assert cashier.balances("ann")[PLAY] == 0
    players.lift(sid, operator="op")
    assert topups.top_up("ann", key="topup:ann:1", ceiling=1000) == 1000


def test_10_9_a_deposit_reversed_does_not_make_a_depositor(room: Any) -> None:
    """A deposit the operator undid (recorded by mistake) left its account a
    "depositing real-money account" for good: transfers went both ways to an account
    that had never put real money in (§10.9: only between depositing accounts)."""
    _, cashier = room
    cashier.deposit("ann", 1000, operator="op")
    mistaken = cashier.deposit("bob", 300, operator="op")
    cashier.reverse(mistaken.id, operator="op", reason="recorded by mistake")
    with pytest.raises(AccountError, match="bob has never deposited"):
        cashier.transfer("ann", "bob", 100, actor="ann")
    cashier.deposit("bob", 5, operator="op")  # a deposit that stands
    cashier.transfer("ann", "bob", 100, actor="ann")
    assert cashier.balances("bob")[REAL] == 105


def test_an_operator_s_long_name_is_kept_alike_on_every_database(room: Any) -> None:
    """``cardroom account deposit ... --operator NAME`` of 300 characters was refused on
    PostgreSQL ("value too long for type character varying(64)") and kept whole on
    SQLite. The entry keeps its first 64 characters, as the audit line beside it does."""
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    from cardroom.store.models import LedgerEntry

    _, cashier = room
    entry = cashier.deposit("ann", 500, PLAY, operator="é" * 300)
    assert cashier.balances("ann")[PLAY] == 500
    with Session(cashier.engine) as s:
        actor = s.scalar(select(LedgerEntry.actor).where(LedgerEntry.id == entry.id))
    assert actor == "é" * 64
    assert [a.actor for a in audit_trail(cashier.engine, "ann") if a.action == "deposit"] == [
        "é" * 64
    ]
