"""An in-memory ledger: the reference implementation, for the room and the tests."""

from __future__ import annotations

from collections.abc import Sequence

from cardroom.ledger.accounts import AccountRef
from cardroom.ledger.errors import LedgerError
from cardroom.ledger.invariants import Violation, find_violations
from cardroom.ledger.transfers import (
    Entry,
    Transfer,
    balances_after,
    check_not_reversed,
    check_reversal,
    net_change,
    pending_transfers,
    reversal_of,
)


class MemoryLedger:
    """Double-entry ledger held in memory; same behaviour as the database ledger.

    Posting is all-or-nothing: a batch that would overdraw any account (other
    than the cashier), or take a balance beyond ``MAX_BALANCE``, is refused
    whole and changes nothing.
    """

    def __init__(self) -> None:
        self._balances: dict[AccountRef, int] = {}
        self._entries: list[Entry] = []
        self._by_key: dict[str, Entry] = {}
        self._reversed: set[int] = set()

    def post(self, transfer: Transfer) -> Entry:
        """Post one transfer; a replayed key returns the original entry and moves nothing."""
        return self.post_all([transfer])[0]

    def post_all(self, transfers: Sequence[Transfer]) -> list[Entry]:
        """Post transfers atomically, in order; replayed keys are skipped."""
        fresh = pending_transfers(transfers, self._by_key.get)
        for t in fresh:
            if t.reverses is not None:
                self._check_reversible(t)
        self._balances.update(balances_after(net_change(fresh), self.balance))
        for t in fresh:
            entry = Entry(len(self._entries) + 1, t)
            self._entries.append(entry)
            self._by_key[t.key] = entry
            if t.reverses is not None:
                self._reversed.add(t.reverses)
        return [self._by_key[t.key] for t in transfers]

    def _check_reversible(self, t: Transfer) -> None:
        assert t.reverses is not None
        if not 0 < t.reverses <= len(self._entries):
            raise LedgerError(f"there is no entry {t.reverses} to reverse")
        if t.reverses in self._reversed:
            raise LedgerError(f"entry {t.reverses} was already reversed")
        check_reversal(self._entries[t.reverses - 1], t)

    def reverse(self, entry_id: int, key: str | None = None, memo: str = "") -> Entry:
        """Undo an entry by posting its mirror image (the original stays on record)."""
        if not 0 < entry_id <= len(self._entries):
            raise LedgerError(f"there is no entry {entry_id} to reverse")
        transfer = reversal_of(self._entries[entry_id - 1], key, memo)
        check_not_reversed(self.entry_for_key(transfer.key), transfer)
        return self.post(transfer)

    def balance(self, account: AccountRef) -> int:
        """The account's balance (zero for an account never used)."""
        return self._balances.get(account, 0)

    def balances(self) -> dict[AccountRef, int]:
        """Every account ever touched, with its balance."""
        return dict(self._balances)

    def entries(self) -> list[Entry]:
        """Every entry, in posting order."""
        return list(self._entries)

    def account_entries(self, account: AccountRef) -> list[Entry]:
        """Entries touching ``account``, in posting order."""
        return [e for e in self._entries if account in (e.debit, e.credit)]

    def entry_for_key(self, key: str) -> Entry | None:
        """The entry posted under an idempotency key, if any."""
        return self._by_key.get(key)

    def check(self) -> list[Violation]:
        """Every broken invariant (an empty list when all hold)."""
        return find_violations(self._balances, self._entries)
