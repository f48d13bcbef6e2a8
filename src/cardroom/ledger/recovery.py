"""Server failure (RULEBOOK §10.10): void unfinished hands, then return table chips.

A hand moves chips only through its table's pot (stack → pot bets, pot →
stack awards and refunds, pot → rake), and the pot is empty between hands.
So the movements of the hand in progress are exactly the pot's entries since
its balance was last zero; reversing them, newest first, puts every stack
back to its state at the start of the hand. Then every table stack goes
back to its player's balance. Nothing is deleted and nothing is lost.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from cardroom.ledger.accounts import AccountKind, AccountRef
from cardroom.ledger.transfers import Entry, Reason, Transfer, reversal_of


class RecoverableLedger(Protocol):
    """What recovery needs from a ledger (memory or database)."""

    def balances(self) -> dict[AccountRef, int]:
        """Every account's balance."""
        ...

    def account_entries(self, account: AccountRef) -> list[Entry]:
        """Entries touching ``account``, in posting order."""
        ...

    def post_all(self, transfers: Sequence[Transfer]) -> list[Entry]:
        """Post atomically."""
        ...


@dataclass
class RecoveryReport:
    """What recovery did: entries voided per pot, chips returned per stack."""

    voided: dict[AccountRef, list[int]] = field(default_factory=dict)
    returned: dict[AccountRef, int] = field(default_factory=dict)


def open_hand_entries(pot: AccountRef, entries: Sequence[Entry]) -> list[Entry]:
    """The pot's entries since its balance was last zero (the unfinished hand's)."""
    running, start = 0, 0
    for i, e in enumerate(entries):
        running += e.amount if e.credit == pot else -e.amount
        if running == 0:
            start = i + 1
    return list(entries[start:])


def void_transfers(entries: Sequence[Entry]) -> list[Transfer]:
    """Reversals undoing ``entries``, newest first; pairs already reversed are skipped."""
    undone = {e.transfer.reverses for e in entries if e.transfer.reverses is not None}
    keep = [e for e in entries if e.reason is not Reason.REVERSAL and e.id not in undone]
    return [reversal_of(e, key=f"void:{e.id}", memo="hand voided") for e in reversed(keep)]


def return_transfers(balances: Mapping[AccountRef, int], run: str) -> list[Transfer]:
    """Cash-outs moving every table stack back to its player's balance."""
    moves = []
    for ref, held in sorted(balances.items()):
        if ref.kind is AccountKind.TABLE_STACK and held > 0:
            player = ref.owner.partition(":")[2]
            key = f"crash-return:{run}:{ref.key}"
            credit = AccountRef.player(player, ref.currency)
            moves.append(Transfer(key, Reason.CASH_OUT, ref, credit, held, "server failure"))
    return moves


def recover(ledger: RecoverableLedger, run: str) -> RecoveryReport:
    """Void every unfinished hand, then return all table chips (``run`` names this recovery)."""
    report = RecoveryReport()
    for ref, held in sorted(ledger.balances().items()):
        if ref.kind is AccountKind.POT and held != 0:
            hand = open_hand_entries(ref, ledger.account_entries(ref))
            voids = void_transfers(hand)
            if voids:
                ledger.post_all(voids)
            report.voided[ref] = [e.id for e in hand]
    returns = return_transfers(ledger.balances(), run)
    if returns:
        ledger.post_all(returns)
    report.returned = {t.debit: t.amount for t in returns}
    return report
