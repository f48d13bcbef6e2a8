"""The one error family of the ledger: every rejection says why and changes nothing."""

from __future__ import annotations


class LedgerError(ValueError):
    """A money movement or account operation was refused; the message says why."""


class InsufficientFunds(LedgerError):
    """The debited account does not hold enough to cover the amount."""


class BalanceOutOfRange(LedgerError):
    """A posting would take a balance beyond what the ledger can hold (see ``MAX_BALANCE``)."""


class IdempotencyConflict(LedgerError):
    """An idempotency key was reused for a different movement."""


class AliasError(LedgerError):
    """An alias breaks the alias rules (RULEBOOK §10.1)."""
