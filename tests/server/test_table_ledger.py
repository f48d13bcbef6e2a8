"""The served table's money port: it collects a step's transfers for the commit, and
refuses at once only what it alone can answer (a buy-in above the known balance)."""

from __future__ import annotations

import pytest

from cardroom.ledger import AccountRef, Currency, InsufficientFunds, Reason, Transfer
from cardroom.server.table_ledger import StepLedger

ANN = AccountRef.player("ann", Currency.PLAY)
STACK = AccountRef.stack("t1", "ann", Currency.PLAY)
POT = AccountRef.pot("t1", Currency.PLAY)


def _buy_in(key: str, amount: int) -> Transfer:
    return Transfer(key, Reason.BUY_IN, ANN, STACK, amount)


def test_a_buy_in_above_the_known_balance_is_refused_and_nothing_is_collected() -> None:
    port = StepLedger()
    port.know(ANN, 100)
    port.post(_buy_in("b1", 60))
    with pytest.raises(InsufficientFunds):
        port.post(_buy_in("b2", 41))  # 60 already pending: 40 left
    assert [t.key for t in port.take()] == ["b1"]
    assert port.take() == []


def test_a_settled_hand_is_collected_in_order_and_balances_read_through_it() -> None:
    port = StepLedger()
    port.know(ANN, 100)
    port.post(_buy_in("b1", 100))
    hand = [Transfer("h1:in", Reason.BET, STACK, POT, 30)]
    port.post_all(hand)
    assert port.balance(ANN) == 0 and port.balance(STACK) == 70 and port.balance(POT) == 30
    assert [t.key for t in port.take()] == ["b1", "h1:in"]


def test_a_known_balance_is_forgotten_with_the_step_it_was_read_for() -> None:
    port = StepLedger()
    port.know(ANN, 100)
    port.post(_buy_in("b1", 60))
    port.take()  # committed: the 100 read before it is stale now
    assert port.known == {}
    with pytest.raises(InsufficientFunds):  # not bought in against a stale balance
        port.post(_buy_in("b2", 40))
    port.know(ANN, 40)  # as the actor reads it again before the next buy-in
    port.post(_buy_in("b3", 40))
    assert [t.key for t in port.take()] == ["b3"]
