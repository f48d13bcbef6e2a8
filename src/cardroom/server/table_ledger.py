"""The room's money port at a server table: postings wait for the step's commit.

A table step (a command or a tick) runs in memory; the transfers it makes are
kept here and written by the table's actor in the same database transaction
as the step's events (:meth:`cardroom.store.tables.TableRecords.commit`), so
money and history are stored together or not at all.

The commit is where transfers are checked and posted (the SQL ledger validates
every transfer before anything moves), so this port checks only what it alone
can answer at once: only a buy-in can be refused by the ledger (a player's
balance is shared with other tables and the cashier). Before running a buy-in
the actor loads that player's balance (:meth:`StepLedger.know`); a buy-in above
it is refused here at once, with the ledger's own error. Should another table
take the same chips first, the commit fails and the actor rebuilds the table
from its record. A settled hand (stacks, pot and rake, never a player's
balance) is only collected: validating it here would do the commit's work
twice on every hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardroom.ledger import AccountKind, AccountRef, Entry, InsufficientFunds, Transfer
from cardroom.ledger.transfers import net_change


class StepLedger:
    """A :class:`cardroom.ledger.Ledger` whose postings are collected, not posted."""

    def __init__(self) -> None:
        self.pending: list[Transfer] = []
        self.known: dict[AccountRef, int] = {}

    def know(self, account: AccountRef, balance: int) -> None:
        """The balance ``account`` holds in the database now (before pending postings)."""
        self.known[account] = balance

    def post(self, transfer: Transfer) -> Entry:
        """Collect one transfer (see :meth:`post_all`)."""
        self.post_all([transfer])
        return Entry(0, transfer)

    def post_all(self, transfers: Sequence[Transfer]) -> None:
        """Collect transfers; a player's balance may not go below zero."""
        if any(t.debit.kind is AccountKind.PLAYER for t in transfers):
            for ref, change in net_change([*self.pending, *transfers]).items():
                if ref.kind is AccountKind.PLAYER and change < 0:
                    held = self.known.get(ref, 0)
                    if held + change < 0:
                        raise InsufficientFunds(ref, held, -change)
        self.pending.extend(transfers)

    def balance(self, account: AccountRef) -> int:
        """The known balance with the pending postings applied (0 when unknown)."""
        change = net_change(self.pending).get(account, 0) if self.pending else 0
        return self.known.get(account, 0) + change

    def take(self) -> list[Transfer]:
        """The collected transfers, handed to the commit (and forgotten here, with the
        balances known before them: once committed those are stale, and the actor reads
        a balance again before each buy-in; kept, they would pile up one an account
        that ever bought in at the table)."""
        out, self.pending = self.pending, []
        self.known.clear()
        return out
