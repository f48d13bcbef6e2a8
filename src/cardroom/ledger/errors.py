"""The one error family of the ledger: every rejection says why and changes nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # accounts.py imports this module
    from cardroom.ledger.accounts import AccountRef


class LedgerError(ValueError):
    """A money movement or account operation was refused; the message says why."""


class InsufficientFunds(LedgerError):
    """The debited account does not hold enough to cover the amount: ``account`` (an
    :class:`~cardroom.ledger.AccountRef`) holds ``held`` and the posting takes ``needed``
    (so a caller can say it in a player's words, not the ledger's)."""

    def __init__(self, account: AccountRef, held: int, needed: int) -> None:
        super().__init__(f"{account} holds {held}, needs {needed}")
        self.account, self.held, self.needed = account, held, needed


class BalanceOutOfRange(LedgerError):
    """A posting would take a balance beyond what the ledger can hold (see ``MAX_BALANCE``)."""


class IdempotencyConflict(LedgerError):
    """An idempotency key was reused for a different movement."""


class AliasError(LedgerError):
    """An alias breaks the alias rules (RULEBOOK §10.1)."""
