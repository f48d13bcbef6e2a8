"""The ledger's invariants, checked from recorded data alone (RULEBOOK §10.9).

1. *total*: within each currency every balance sums to zero (the cashier's
   negative balance is exactly what the outside world has paid in), so the
   chips in player balances, stacks, pots, rake, pools and fees are the
   deposits minus the withdrawals;
2. *negative*: no balance is below zero except the cashier's;
3. *drift*: every stored balance equals the sum of the entries touching it;
4. *entry*: every entry is a valid transfer (positive, one currency, an
   allowed route) and a reversal mirrors the entry it reverses, at most once;
5. *type*: every stored balance is an integer (a database that turned one into
   a float has lost exactness, even where the float compares equal);
6. *range*: every balance lies within ``MIN_BALANCE..MAX_BALANCE``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from cardroom.ledger.accounts import AccountRef, Currency
from cardroom.ledger.errors import LedgerError
from cardroom.ledger.transfers import MAX_BALANCE, MIN_BALANCE, Entry, check_reversal


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken invariant: which rule, and what exactly is wrong."""

    rule: str
    detail: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.detail}"


class FlowTally:
    """Accumulates entries one at a time (so a database can stream them)."""

    def __init__(self) -> None:
        self.net: dict[AccountRef, int] = {}
        self.violations: list[Violation] = []
        self._by_id: dict[int, Entry] = {}
        self._reversed: set[int] = set()

    def add(self, entry: Entry) -> None:
        """Count one entry's movement and check the entry itself."""
        t = entry.transfer
        try:
            t.validate()
        except LedgerError as exc:
            self.violations.append(Violation("entry", f"entry {entry.id}: {exc}"))
        if t.reverses is not None:
            self._check_reversal(entry, t.reverses)
        self._by_id[entry.id] = entry
        self.net[t.debit] = self.net.get(t.debit, 0) - t.amount
        self.net[t.credit] = self.net.get(t.credit, 0) + t.amount

    def _check_reversal(self, entry: Entry, target: int) -> None:
        original = self._by_id.get(target)
        if original is None:
            # Entries arrive in posting order, so the original must come first.
            self.violations.append(
                Violation("entry", f"entry {entry.id} reverses unknown entry {target}")
            )
            return
        if target in self._reversed:
            self.violations.append(Violation("entry", f"entry {target} is reversed twice"))
        self._reversed.add(target)
        try:
            check_reversal(original, entry.transfer)
        except LedgerError as exc:
            self.violations.append(Violation("entry", f"entry {entry.id}: {exc}"))


def find_violations(
    balances: Mapping[AccountRef, int], entries: Iterable[Entry]
) -> list[Violation]:
    """Every broken invariant of a ledger given its balances and all its entries."""
    tally = FlowTally()
    for entry in entries:
        tally.add(entry)
    return tally.violations + balance_violations(balances, tally.net)


def balance_violations(
    balances: Mapping[AccountRef, int], net: Mapping[AccountRef, int]
) -> list[Violation]:
    """The total, negative, drift, type and range rules for stored balances against entry
    flows."""
    found: list[Violation] = []
    totals: dict[Currency, int] = {}
    for ref, bal in balances.items():
        if type(bal) is not int:
            # Not counted in the sums: a float is not exact, so the total rule fails too.
            found.append(Violation("type", f"{ref} holds {bal!r}, a {type(bal).__name__}"))
            continue
        if not MIN_BALANCE <= bal <= MAX_BALANCE:
            found.append(
                Violation("range", f"{ref} holds {bal}, outside {MIN_BALANCE}..{MAX_BALANCE}")
            )
        totals[ref.currency] = totals.get(ref.currency, 0) + bal
        if bal < 0 and not ref.may_go_negative:
            found.append(Violation("negative", f"{ref} holds {bal}"))
        if bal != net.get(ref, 0):
            found.append(Violation("drift", f"{ref} holds {bal}, entries sum to {net.get(ref, 0)}"))
    for ref, flow in net.items():
        if ref not in balances and flow != 0:
            found.append(Violation("drift", f"{ref} has entries summing to {flow} but no balance"))
    for currency, total in sorted(totals.items()):
        if total != 0:
            found.append(Violation("total", f"{currency} balances sum to {total}, not 0"))
    return found
