"""Transfer validation: routes, currencies, amounts and reversals (RULEBOOK §10.9)."""

from __future__ import annotations

import copy
import pickle

import pytest

from cardroom.ledger import (
    ROUTES,
    AccountKind,
    AccountRef,
    Currency,
    Entry,
    LedgerError,
    Reason,
    Transfer,
    reversal_of,
)

REAL, PLAY = Currency.REAL, Currency.PLAY
ALICE = AccountRef.player("alice", REAL)
BOB = AccountRef.player("bob", REAL)


def transfer(**kw: object) -> Transfer:
    base: dict[str, object] = {
        "key": "k1",
        "reason": Reason.PLAYER_TRANSFER,
        "debit": ALICE,
        "credit": BOB,
        "amount": 100,
    }
    base.update(kw)
    return Transfer(**base)  # type: ignore[arg-type]


def test_a_valid_transfer_passes() -> None:
    transfer().validate()


@pytest.mark.parametrize("amount", [0, -5, 2**62 + 1, 1.5, True, "10"])
def test_amount_must_be_a_positive_integer(amount: object) -> None:
    with pytest.raises(LedgerError, match="amount"):
        transfer(amount=amount).validate()


def test_key_is_required_and_bounded() -> None:
    with pytest.raises(LedgerError, match="key"):
        transfer(key="").validate()
    with pytest.raises(LedgerError, match="key"):
        transfer(key="x" * 201).validate()


def test_currencies_never_mix() -> None:
    with pytest.raises(LedgerError, match="currencies never mix"):
        transfer(credit=AccountRef.player("bob", PLAY)).validate()


def test_no_transfer_to_self() -> None:
    with pytest.raises(LedgerError, match="itself"):
        transfer(credit=ALICE).validate()


@pytest.mark.parametrize("reason", [Reason.RAKE, Reason.PLAYER_TRANSFER, Reason.WITHDRAWAL])
def test_play_money_is_never_raked_sent_or_cashed_out(reason: Reason) -> None:
    debit, credit = sorted(ROUTES[reason])[0]
    t = Transfer("k", reason, AccountRef(debit, PLAY, "a"), AccountRef(credit, PLAY, "b"), 5)
    with pytest.raises(LedgerError, match="real money only"):
        t.validate()
    Transfer("k", reason, AccountRef(debit, REAL, "a"), AccountRef(credit, REAL, "b"), 5).validate()


def test_every_reason_accepts_exactly_its_routes() -> None:
    kinds = list(AccountKind)
    for reason, routes in ROUTES.items():
        for d in kinds:
            for c in kinds:
                t = Transfer("k", reason, AccountRef(d, REAL, "a"), AccountRef(c, REAL, "b"), 1)
                if (d, c) in routes:
                    t.validate()
                else:
                    with pytest.raises(LedgerError, match="cannot move chips"):
                        t.validate()
    assert set(ROUTES) == set(Reason) - {Reason.REVERSAL}


def test_deposit_goes_cashier_to_player_and_rake_pot_to_house() -> None:
    assert ROUTES[Reason.DEPOSIT] == {(AccountKind.CASHIER, AccountKind.PLAYER)}
    assert ROUTES[Reason.RAKE] == {(AccountKind.POT, AccountKind.RAKE)}
    assert ROUTES[Reason.BUY_IN] == {(AccountKind.PLAYER, AccountKind.TABLE_STACK)}


def test_reversal_mirrors_the_entry() -> None:
    entry = Entry(7, transfer())
    rev = reversal_of(entry)
    assert (rev.debit, rev.credit, rev.amount, rev.reverses) == (BOB, ALICE, 100, 7)
    assert rev.key == "reverse:7" and rev.reason is Reason.REVERSAL
    rev.validate()
    with pytest.raises(LedgerError, match="itself a reversal"):
        reversal_of(Entry(8, rev))


def test_only_reversals_name_a_reversed_entry() -> None:
    with pytest.raises(LedgerError, match="only a reversal"):
        transfer(reverses=3).validate()
    with pytest.raises(LedgerError, match="must name"):
        transfer(reason=Reason.REVERSAL).validate()


def test_account_keys_round_trip_and_reject_garbage() -> None:
    refs = [
        ALICE,
        AccountRef.stack("t1", "alice", PLAY),
        AccountRef.pot("t1", REAL),
        AccountRef.rake(),
        AccountRef.prize_pool("mtt9", REAL),
        AccountRef.tournament_fees(REAL),
        AccountRef.cashier(PLAY),
    ]
    for ref in refs:
        assert AccountRef.parse(ref.key) == ref
    for bad in ["player/real", "bogus/real/x", "player/gold/x"]:
        with pytest.raises(LedgerError):
            AccountRef.parse(bad)
    with pytest.raises(LedgerError):
        AccountRef.player("a/b", REAL)
    with pytest.raises(LedgerError):
        AccountRef.player("", REAL)
    assert AccountRef.cashier(REAL).may_go_negative and not ALICE.may_go_negative


def test_no_transfer_to_self_with_an_equal_account_built_apart() -> None:
    twin = AccountRef.player("alice", REAL)
    assert twin is not ALICE
    with pytest.raises(LedgerError, match="itself"):
        transfer(credit=twin).validate()


def test_equal_accounts_hash_alike_and_survive_a_copy_or_a_pickle() -> None:
    twin = AccountRef.player("alice", REAL)
    assert twin == ALICE and hash(twin) == hash(ALICE)
    assert len({ALICE, twin, AccountRef.player("alice", PLAY)}) == 2
    for copied in (copy.deepcopy(ALICE), pickle.loads(pickle.dumps(ALICE))):
        assert copied == ALICE and {ALICE: 1}[copied] == 1
    assert "_hash" not in repr(ALICE)


def test_10_8_the_house_rake_account_is_per_currency() -> None:
    """Mutation audit (docs/money_audit.md, A2): the house keeps rake in each currency
    apart, so raking a play-money pot is refused because play money is free (§10.8),
    not merely because the accounts' currencies differ."""
    assert AccountRef.rake(Currency.PLAY).currency is Currency.PLAY
    pot = AccountRef.pot("t1", Currency.PLAY)
    with pytest.raises(LedgerError, match="real money only"):
        Transfer("r", Reason.RAKE, pot, AccountRef.rake(Currency.PLAY), 1).validate()


def test_10_9_every_route_written_out() -> None:
    """Mutation audit (docs/money_audit.md, T14): the routes test above checks each reason
    against ``ROUTES`` itself, so the table is written out here: only table chips are bet
    (§10.2), rake only leaves a pot (§10.8), money enters and leaves only through the
    cashier and a player's account."""
    k = AccountKind
    written = {
        Reason.DEPOSIT: {(k.CASHIER, k.PLAYER)},
        Reason.WITHDRAWAL: {(k.PLAYER, k.CASHIER)},
        Reason.PLAYER_TRANSFER: {(k.PLAYER, k.PLAYER)},
        Reason.BUY_IN: {(k.PLAYER, k.TABLE_STACK)},
        Reason.CASH_OUT: {(k.TABLE_STACK, k.PLAYER)},
        Reason.BET: {(k.TABLE_STACK, k.POT)},
        Reason.POT_AWARD: {(k.POT, k.TABLE_STACK)},
        Reason.RAKE: {(k.POT, k.RAKE)},
        Reason.TOURNAMENT_BUY_IN: {(k.PLAYER, k.PRIZE_POOL)},
        Reason.TOURNAMENT_FEE: {(k.PLAYER, k.TOURNAMENT_FEE)},
        Reason.PRIZE: {(k.PRIZE_POOL, k.PLAYER)},
        Reason.TOURNAMENT_REFUND: {(k.PRIZE_POOL, k.PLAYER), (k.TOURNAMENT_FEE, k.PLAYER)},
        Reason.OVERLAY: {(k.TOURNAMENT_FEE, k.PRIZE_POOL), (k.RAKE, k.PRIZE_POOL)},
    }
    assert written == ROUTES
