"""Accounts and the double-entry ledger: every chip accounted for (RULEBOOK §10.1, §10.9).

Standard library only. :class:`MemoryLedger` is the in-memory implementation;
``cardroom.store.SqlLedger`` is the durable one with the same methods
(:class:`Ledger` names them for the layers above).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from cardroom.ledger.accounts import HOUSE, AccountKind, AccountRef, Currency
from cardroom.ledger.aliases import (
    MASKS,
    WordList,
    alias_key,
    alias_shaped,
    canonical_alias,
    digits_as_letters,
    masked_match,
    offensive_match,
    reserved_match,
    reserved_names,
    validate_alias,
)
from cardroom.ledger.errors import (
    AliasError,
    BalanceOutOfRange,
    IdempotencyConflict,
    InsufficientFunds,
    LedgerError,
)
from cardroom.ledger.integrity import (
    ChipDumpFlag,
    ChipDumpPolicy,
    Flow,
    SharedAccessFlag,
    Sighting,
    chip_dump_flags,
    shared_access_flags,
)
from cardroom.ledger.invariants import FlowTally, Violation, balance_violations, find_violations
from cardroom.ledger.logins import ThrottlePolicy, retry_after
from cardroom.ledger.memory import MemoryLedger
from cardroom.ledger.recovery import RecoveryReport, open_hand_entries, recover
from cardroom.ledger.transfers import (
    MAX_BALANCE,
    MIN_BALANCE,
    ROUTES,
    Entry,
    Reason,
    Transfer,
    reversal_of,
)


class Ledger(Protocol):
    """What the room needs from a ledger (memory or database)."""

    def post(self, transfer: Transfer) -> Entry:
        """Post one transfer; a replayed key returns the original entry."""
        ...

    def post_all(self, transfers: Sequence[Transfer]) -> object:
        """Post transfers atomically; replayed keys are skipped. (What it returns is the
        ledger's own: the room reads nothing back.)"""
        ...

    def balance(self, account: AccountRef) -> int:
        """The account's balance in minor units."""
        ...


__all__ = [
    "HOUSE",
    "MASKS",
    "MAX_BALANCE",
    "MIN_BALANCE",
    "ROUTES",
    "AccountKind",
    "AccountRef",
    "AliasError",
    "BalanceOutOfRange",
    "ChipDumpFlag",
    "ChipDumpPolicy",
    "Currency",
    "Entry",
    "Flow",
    "FlowTally",
    "IdempotencyConflict",
    "InsufficientFunds",
    "Ledger",
    "LedgerError",
    "MemoryLedger",
    "Reason",
    "RecoveryReport",
    "SharedAccessFlag",
    "Sighting",
    "ThrottlePolicy",
    "Transfer",
    "Violation",
    "WordList",
    "alias_key",
    "alias_shaped",
    "balance_violations",
    "canonical_alias",
    "chip_dump_flags",
    "digits_as_letters",
    "find_violations",
    "masked_match",
    "offensive_match",
    "open_hand_entries",
    "recover",
    "reserved_match",
    "reserved_names",
    "retry_after",
    "reversal_of",
    "shared_access_flags",
    "validate_alias",
]
