"""Transfers (what should move) and entries (what did move).

A transfer moves a positive integer amount out of one account (the *debit*
side: the chips leave it) into another (the *credit* side: they arrive), in a
single currency, for a stated reason, under an idempotency key: posting the
same key again is a no-op, so a retried request never moves money twice.
Which account kinds each reason may connect is data (:data:`ROUTES`), so a
bug cannot, say, rake a player's balance or deposit straight into a pot.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime

from cardroom.ledger.accounts import AccountKind, AccountRef, Currency
from cardroom.ledger.errors import (
    BalanceOutOfRange,
    IdempotencyConflict,
    InsufficientFunds,
    LedgerError,
)
from cardroom.values import value

MAX_AMOUNT = 2**62
"""Largest single amount (keeps every sum inside a signed 64-bit column)."""

MAX_BALANCE = 2**63 - 1
"""Largest balance any account may hold: the largest signed 64-bit integer, what a
``BIGINT`` column (PostgreSQL) or an ``INTEGER`` (SQLite) stores exactly."""

MIN_BALANCE = -MAX_BALANCE
"""Lowest balance the cashier (the only account allowed below zero) may reach."""

MAX_KEY_LENGTH = 200

MAX_ENTRY_ID = 2**63 - 1
"""Entry ids are signed 64-bit integers, as in the databases."""


class Reason(enum.StrEnum):
    """Why chips moved."""

    DEPOSIT = "deposit"
    WITHDRAWAL = "withdrawal"
    PLAYER_TRANSFER = "player_transfer"
    BUY_IN = "buy_in"
    CASH_OUT = "cash_out"
    BET = "bet"
    POT_AWARD = "pot_award"
    RAKE = "rake"
    TOURNAMENT_BUY_IN = "tournament_buy_in"
    TOURNAMENT_FEE = "tournament_fee"
    PRIZE = "prize"
    TOURNAMENT_REFUND = "tournament_refund"
    OVERLAY = "overlay"
    REVERSAL = "reversal"


_K = AccountKind
ROUTES: dict[Reason, frozenset[tuple[AccountKind, AccountKind]]] = {
    Reason.DEPOSIT: frozenset({(_K.CASHIER, _K.PLAYER)}),
    Reason.WITHDRAWAL: frozenset({(_K.PLAYER, _K.CASHIER)}),
    Reason.PLAYER_TRANSFER: frozenset({(_K.PLAYER, _K.PLAYER)}),
    Reason.BUY_IN: frozenset({(_K.PLAYER, _K.TABLE_STACK)}),
    Reason.CASH_OUT: frozenset({(_K.TABLE_STACK, _K.PLAYER)}),
    Reason.BET: frozenset({(_K.TABLE_STACK, _K.POT)}),
    # Winners, uncalled bets and a cancelled hand's refunds all go pot -> stack.
    Reason.POT_AWARD: frozenset({(_K.POT, _K.TABLE_STACK)}),
    Reason.RAKE: frozenset({(_K.POT, _K.RAKE)}),
    Reason.TOURNAMENT_BUY_IN: frozenset({(_K.PLAYER, _K.PRIZE_POOL)}),
    Reason.TOURNAMENT_FEE: frozenset({(_K.PLAYER, _K.TOURNAMENT_FEE)}),
    Reason.PRIZE: frozenset({(_K.PRIZE_POOL, _K.PLAYER)}),
    Reason.TOURNAMENT_REFUND: frozenset(
        {(_K.PRIZE_POOL, _K.PLAYER), (_K.TOURNAMENT_FEE, _K.PLAYER)}
    ),
    # A guarantee the entrants did not cover is paid by the house.
    Reason.OVERLAY: frozenset({(_K.TOURNAMENT_FEE, _K.PRIZE_POOL), (_K.RAKE, _K.PRIZE_POOL)}),
}
"""For each reason, the (debit kind, credit kind) pairs it may connect.

Reversals are absent: a reversal may connect any pair, as the mirror image of
the entry it reverses (checked by :func:`check_reversal`).
"""

REAL_MONEY_ONLY = frozenset({Reason.RAKE, Reason.PLAYER_TRANSFER, Reason.WITHDRAWAL})
"""Play money is free (no rake), cannot be sent to other players or cashed out."""


@value
class Transfer:
    """A movement to post: ``amount`` leaves ``debit`` and arrives in ``credit``."""

    key: str
    reason: Reason
    debit: AccountRef
    credit: AccountRef
    amount: int
    memo: str = ""
    reverses: int | None = None

    @property
    def currency(self) -> Currency:
        """The currency moved (both accounts share it)."""
        return self.debit.currency

    def validate(self) -> None:
        """Raise :class:`LedgerError` if this transfer breaks a ledger rule."""
        if not self.key or len(self.key) > MAX_KEY_LENGTH:
            raise LedgerError(f"idempotency key must be 1..{MAX_KEY_LENGTH} characters")
        if type(self.amount) is not int:
            raise LedgerError(f"amount must be an integer of minor units, not {self.amount!r}")
        if not 0 < self.amount <= MAX_AMOUNT:
            raise LedgerError(f"amount must be in 1..{MAX_AMOUNT}, not {self.amount}")
        debit, credit = self.debit, self.credit
        # Accounts of different kinds differ: the full comparison only when the kinds match.
        if debit.kind == credit.kind and debit == credit:
            raise LedgerError(f"cannot move chips from {debit} to itself")
        if debit.currency is not credit.currency:
            raise LedgerError(
                f"currencies never mix: {debit} is {debit.currency}, {credit} is {credit.currency}"
            )
        if self.reason in REAL_MONEY_ONLY and debit.currency is not Currency.REAL:
            raise LedgerError(f"{self.reason} is for real money only")
        if len(self.memo) > 500:
            raise LedgerError("memo is longer than 500 characters")
        if self.reason is Reason.REVERSAL:
            if self.reverses is None:
                raise LedgerError("a reversal must name the entry it reverses")
            if type(self.reverses) is not int or not 0 < self.reverses <= MAX_ENTRY_ID:
                raise LedgerError(f"there is no entry {self.reverses!r} to reverse")
            return
        if self.reverses is not None:
            raise LedgerError("only a reversal may name an entry it reverses")
        if (debit.kind, credit.kind) not in ROUTES[self.reason]:
            raise LedgerError(
                f"{self.reason} cannot move chips from a {debit.kind} account "
                f"to a {credit.kind} account"
            )


@value
class Entry:
    """A posted transfer: numbered in posting order, never changed or deleted."""

    id: int
    transfer: Transfer
    at: datetime | None = None

    @property
    def key(self) -> str:
        """The idempotency key it was posted under."""
        return self.transfer.key

    @property
    def reason(self) -> Reason:
        """Why the chips moved."""
        return self.transfer.reason

    @property
    def debit(self) -> AccountRef:
        """The account the chips left."""
        return self.transfer.debit

    @property
    def credit(self) -> AccountRef:
        """The account the chips arrived in."""
        return self.transfer.credit

    @property
    def amount(self) -> int:
        """How much moved, in minor units."""
        return self.transfer.amount


def reversal_of(entry: Entry, key: str | None = None, memo: str = "") -> Transfer:
    """The transfer that undoes ``entry`` (its mirror image); entries are never deleted."""
    if entry.reason is Reason.REVERSAL:
        raise LedgerError(f"entry {entry.id} is itself a reversal; post the movement again instead")
    return Transfer(
        key=key or f"reverse:{entry.id}",
        reason=Reason.REVERSAL,
        debit=entry.credit,
        credit=entry.debit,
        amount=entry.amount,
        memo=memo or f"reversal of entry {entry.id}",
        reverses=entry.id,
    )


def check_reversal(original: Entry, transfer: Transfer) -> None:
    """Raise unless ``transfer`` is exactly the mirror image of ``original``."""
    if original.reason is Reason.REVERSAL:
        raise LedgerError(f"entry {original.id} is itself a reversal and cannot be reversed")
    mirror = (original.credit, original.debit, original.amount)
    if (transfer.debit, transfer.credit, transfer.amount) != mirror:
        raise LedgerError(f"a reversal must move {original.amount} back from {original.credit}")


def check_not_reversed(existing: Entry | None, reversal: Transfer) -> None:
    """Refuse a second, different reversal posted under the first one's key.

    ``existing`` is the entry already under ``reversal.key``; an identical
    reversal is a harmless replay, anything else means "already reversed".
    """
    if (
        existing is not None
        and existing.transfer != reversal
        and existing.transfer.reverses == reversal.reverses
    ):
        raise LedgerError(f"entry {reversal.reverses} was already reversed")


def net_change(transfers: list[Transfer]) -> dict[AccountRef, int]:
    """How much each account's balance changes if all ``transfers`` are posted."""
    delta: dict[AccountRef, int] = {}
    for t in transfers:
        delta[t.debit] = delta.get(t.debit, 0) - t.amount
        delta[t.credit] = delta.get(t.credit, 0) + t.amount
    return delta


def check_balances(delta: Mapping[AccountRef, int], held: Callable[[AccountRef], int]) -> None:
    """Refuse a net change that overdraws an account or leaves a balance out of range
    (:func:`balances_after` without its result)."""
    balances_after(delta, held)


def balances_after(
    delta: Mapping[AccountRef, int], held: Callable[[AccountRef], int]
) -> dict[AccountRef, int]:
    """Each changed account's balance once ``delta`` is applied, if every one is allowed.

    ``held`` gives each account's balance before the change, read once. Every balance
    must stay within ``0..MAX_BALANCE`` (the cashier within ``MIN_BALANCE..MAX_BALANCE``),
    so a database can always store it as an exact 64-bit integer. When several break a
    rule, the first in account order is reported (sorting only then: a valid batch, the
    usual case, is checked in one pass).
    """
    after = {ref: held(ref) + change for ref, change in delta.items()}
    for ref in sorted(ref for ref, balance in after.items() if not 0 <= balance <= MAX_BALANCE):
        _check_balance(ref, after[ref] - delta[ref], delta[ref])
    return after


def _check_balance(ref: AccountRef, before: int, change: int) -> None:
    after = before + change
    if change < 0 and not ref.may_go_negative and after < 0:
        raise InsufficientFunds(ref, before, -change)
    low = MIN_BALANCE if ref.may_go_negative else 0
    if not low <= after <= MAX_BALANCE:
        raise BalanceOutOfRange(
            f"{ref} would hold {after}, outside the ledger's range {low}..{MAX_BALANCE}"
        )


def pending_transfers(
    transfers: Sequence[Transfer], lookup: Callable[[str], Entry | None]
) -> list[Transfer]:
    """Validate a batch; return the transfers not posted before (replays dropped).

    A key already posted with the same transfer is a replay; with a different
    transfer it is a conflict. A key may appear only once in a batch.
    """
    if not transfers:
        raise LedgerError("nothing to post")
    seen: set[str] = set()
    reversing: set[int] = set()
    fresh: list[Transfer] = []
    for t in transfers:
        t.validate()
        if t.key in seen:
            raise LedgerError(f"idempotency key {t.key!r} appears twice in one batch")
        seen.add(t.key)
        if t.reverses is not None:
            if t.reverses in reversing:
                raise LedgerError(f"entry {t.reverses} is reversed twice in one batch")
            reversing.add(t.reverses)
        existing = lookup(t.key)
        if existing is None:
            fresh.append(t)
        elif existing.transfer != t:
            raise IdempotencyConflict(f"key {t.key!r} was already used for a different transfer")
    return fresh
