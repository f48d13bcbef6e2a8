"""Random but plausible money flows, for the ledger's property tests (memory and SQL).

A :class:`Move` is a small, shrinkable description ("buy in with the second
funded player, 40% of the balance"); :func:`move_transfer` turns it into a
concrete transfer given the current balances, so random sequences reach deep
states (pots that get raked and awarded) instead of mostly bouncing off empty
accounts. ``size`` over 100 asks for more than the balance: an overdraft try.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cardroom.ledger.accounts import AccountKind, AccountRef, Currency
from cardroom.ledger.transfers import REAL_MONEY_ONLY, ROUTES, Reason, Transfer

PLAYERS = ("p0", "p1", "p2")
TABLES = ("t0", "t1")
MOVE_REASONS = (
    Reason.DEPOSIT,
    Reason.WITHDRAWAL,
    Reason.PLAYER_TRANSFER,
    Reason.BUY_IN,
    Reason.BET,
    Reason.POT_AWARD,
    Reason.RAKE,
    Reason.CASH_OUT,
)
# The account kind each reason debits, read from the ledger's own routes (each of these
# reasons has exactly one), so the workload cannot drift from what the ledger accepts.
_DEBIT_KIND = {reason: debit for reason in MOVE_REASONS for debit, _ in ROUTES[reason]}
assert all(len(ROUTES[reason]) == 1 for reason in MOVE_REASONS)


@dataclass(frozen=True, slots=True)
class Move:
    """One random movement, resolved against current balances by :func:`move_transfer`."""

    reason: Reason
    pick: int
    other: int
    currency: Currency
    size: int


def _funded(
    balances: Mapping[AccountRef, int], kind: AccountKind, currency: Currency
) -> list[AccountRef]:
    return sorted(
        ref
        for ref, held in balances.items()
        if ref.kind is kind and ref.currency is currency and held > 0
    )


def move_transfer(
    move: Move,
    key: str,
    balances: Mapping[AccountRef, int],
    players: Sequence[str] = PLAYERS,
    tables: Sequence[str] = TABLES,
) -> Transfer:
    """The concrete transfer ``move`` asks for, given the current ``balances``."""
    cur = Currency.REAL if move.reason in REAL_MONEY_ONLY else move.currency
    other_player = players[move.other % len(players)]
    table = tables[move.other % len(tables)]
    if move.reason is Reason.DEPOSIT:
        who = AccountRef.player(players[move.pick % len(players)], cur)
        return Transfer(key, move.reason, AccountRef.cashier(cur), who, move.size * 10)
    funded = _funded(balances, _DEBIT_KIND[move.reason], cur)
    if not funded and move.reason not in REAL_MONEY_ONLY:
        cur = Currency.PLAY if cur is Currency.REAL else Currency.REAL
        funded = _funded(balances, _DEBIT_KIND[move.reason], cur)
    if funded:
        debit = funded[move.pick % len(funded)]
    else:  # nothing funded: an empty account of the right kind (the move is refused)
        fallback = {
            AccountKind.PLAYER: AccountRef.player(players[0], cur),
            AccountKind.TABLE_STACK: AccountRef.stack(table, players[0], cur),
            AccountKind.POT: AccountRef.pot(table, cur),
        }
        debit = fallback[_DEBIT_KIND[move.reason]]
    amount = max(1, balances.get(debit, 0) * move.size // 100)
    if other_player == debit.owner:  # mostly avoid the (refused) transfer to oneself
        other_player = players[(move.other + move.pick) % len(players)]
    credit = _credit(move.reason, debit, other_player, table)
    return Transfer(key, move.reason, debit, credit, amount)


def _credit(reason: Reason, debit: AccountRef, other_player: str, table: str) -> AccountRef:
    cur = debit.currency
    table_of, _, player_of = debit.owner.partition(":")
    if reason is Reason.WITHDRAWAL:
        return AccountRef.cashier(cur)
    if reason is Reason.PLAYER_TRANSFER:
        return AccountRef.player(other_player, cur)
    if reason is Reason.BUY_IN:
        return AccountRef.stack(table, debit.owner, cur)
    if reason is Reason.BET:
        return AccountRef.pot(table_of, cur)
    if reason is Reason.POT_AWARD:
        return AccountRef.stack(debit.owner, other_player, cur)
    if reason is Reason.RAKE:
        return AccountRef.rake(cur)
    return AccountRef.player(player_of, cur)  # cash-out
