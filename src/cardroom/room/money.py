"""The table's port to the ledger (RULEBOOK §10.2, §10.9): every chip moves through it.

Buy-in: player account -> table stack. Cash-out: table stack -> player account.
A settled hand is ONE ledger transaction: each loser's stack -> the table's pot,
the pot -> each winner's stack, the pot -> the house's rake; nothing is posted
per bet, and a cancelled hand posts nothing (its chips never left the stacks in
the ledger). The port needs only :class:`cardroom.ledger.Ledger` (post, post_all,
balance), so the server backs it with the SQL ledger. Idempotency keys are made
from the table id and the event number, so a command replayed after a crash
never moves money twice.
"""

from __future__ import annotations

from collections.abc import Mapping
from operator import itemgetter

from cardroom.ledger import (
    AccountKind,
    AccountRef,
    Currency,
    InsufficientFunds,
    Ledger,
    LedgerError,
    MemoryLedger,
    Reason,
    Transfer,
)
from cardroom.room.errors import INSUFFICIENT_FUNDS, TableError


class TableBank:
    """Money movements of one table, in one currency (play and real never mix)."""

    def __init__(self, ledger: Ledger, table_id: str, currency: Currency) -> None:
        self.ledger = ledger
        self.table_id = table_id
        self.currency = currency
        self.pot = AccountRef.pot(table_id, currency)
        self.house = AccountRef.rake(currency)
        # Account names are checked when built: made once per player, reused every hand.
        self._stacks: dict[str, AccountRef] = {}
        self._accounts: dict[str, AccountRef] = {}

    def stack(self, player: str) -> AccountRef:
        """The player's table-stack account at this table."""
        ref = self._stacks.get(player)
        if ref is None:
            ref = self._stacks[player] = AccountRef.stack(self.table_id, player, self.currency)
        return ref

    def account(self, player: str) -> AccountRef:
        """The player's balance in this table's currency."""
        ref = self._accounts.get(player)
        if ref is None:
            ref = self._accounts[player] = AccountRef.player(player, self.currency)
        return ref

    def balance(self, player: str) -> int:
        """What the player holds off the table, in this table's currency."""
        return self.ledger.balance(self.account(player))

    def buy_in(self, player: str, amount: int, key: str) -> None:
        """Move ``amount`` from the player's account onto the table."""
        self._post(
            Transfer(
                f"{self.table_id}:{key}",
                Reason.BUY_IN,
                self.account(player),
                self.stack(player),
                amount,
                "buy-in",
            ),
        )

    def cash_out(self, player: str, amount: int, key: str) -> None:
        """Move ``amount`` from the table back to the player's account, as the player
        leaves: the account names made for the player are dropped (a table open for
        months would otherwise keep two for everyone who ever sat there)."""
        if amount > 0:
            self._post(
                Transfer(
                    f"{self.table_id}:{key}",
                    Reason.CASH_OUT,
                    self.stack(player),
                    self.account(player),
                    amount,
                    "cash-out",
                ),
            )
        self._stacks.pop(player, None)
        self._accounts.pop(player, None)

    @property
    def players_named(self) -> int:
        """How many players' account names are kept (those seated, in effect)."""
        return len(self._stacks.keys() | self._accounts.keys())

    def settle(self, hand_no: int, deltas: Mapping[str, int], rake: int) -> None:
        """Post a finished hand as one transaction: ``deltas`` is each player's change of
        stack (losers negative), ``rake`` the house's share; they sum to zero."""
        if sum(deltas.values()) + rake != 0:
            raise TableError("unbalanced", f"hand {hand_no}: deltas and rake do not balance")
        base, memo = f"{self.table_id}:h{hand_no}", f"hand {hand_no}"
        moves: list[Transfer] = []
        for player, delta in sorted(deltas.items(), key=itemgetter(1)):  # losers first
            if delta < 0:
                moves.append(
                    Transfer(
                        f"{base}:in:{player}",
                        Reason.BET,
                        self.stack(player),
                        self.pot,
                        -delta,
                        memo,
                    )
                )
            elif delta > 0:
                moves.append(
                    Transfer(
                        f"{base}:won:{player}",
                        Reason.POT_AWARD,
                        self.pot,
                        self.stack(player),
                        delta,
                        memo,
                    )
                )
        if rake:
            moves.append(Transfer(f"{base}:rake", Reason.RAKE, self.pot, self.house, rake, memo))
        if moves:
            self._post_all(moves)

    def _post(self, transfer: Transfer) -> None:
        self._post_all([transfer])

    def _post_all(self, transfers: list[Transfer]) -> None:
        try:
            self.ledger.post_all(transfers)
        except InsufficientFunds as exc:  # the ledger names accounts ("player/play/7")
            raise TableError(INSUFFICIENT_FUNDS, short_of(exc)) from exc
        except LedgerError as exc:
            raise TableError(INSUFFICIENT_FUNDS, str(exc)) from exc


def short_of(exc: InsufficientFunds) -> str:
    """What a player is told when his account cannot pay chips onto a table (another
    account short is the ledger's own words: a fault, not the player's)."""
    held, needed = exc.held, exc.needed
    if exc.account.kind is not AccountKind.PLAYER:
        return str(exc)
    if exc.account.currency is Currency.PLAY:
        return f"your play-money account holds {held}, not {needed}: top it up from your account"
    return f"your real-money account holds {held}, not {needed}"


def money_violations(
    ledger: MemoryLedger,
    table_id: str,
    currency: Currency,
    stacks: Mapping[str, int],
    *,
    full: bool = True,
) -> list[str]:
    """What is wrong with a table's money (empty when all holds): the ledger's invariants
    (accounts + tables + house = deposits - withdrawals, nothing negative, no drift), the
    table's pot empty between commands, and each player's table-stack account equal to
    the table's settled stack (``stacks``: player -> chips), no chips left for others.
    ``full=False`` skips replaying every entry (the drift check): balances still sum to
    zero per currency and none is negative."""
    found = [str(v) for v in ledger.check()] if full else _quick_check(ledger)
    pot = AccountRef.pot(table_id, currency)
    if ledger.balance(pot):
        found.append(f"pot {pot} holds {ledger.balance(pot)} between commands")
    prefix = f"{table_id}:"
    for ref, held in ledger.balances().items():
        if ref.kind is not AccountKind.TABLE_STACK or not ref.owner.startswith(prefix):
            continue
        if ref.currency is not currency:
            found.append(f"{ref} is in the wrong currency")
        player = ref.owner[len(prefix) :]
        if held != stacks.get(player, 0):
            found.append(f"{ref} holds {held}, the table says {stacks.get(player, 0)}")
    for player, stack in stacks.items():
        if stack and ledger.balance(AccountRef.stack(table_id, player, currency)) != stack:
            found.append(f"{player} has {stack} at the table but not in the ledger")
    return found


def _quick_check(ledger: MemoryLedger) -> list[str]:
    totals: dict[Currency, int] = {}
    found = []
    for ref, held in ledger.balances().items():
        totals[ref.currency] = totals.get(ref.currency, 0) + held
        if held < 0 and not ref.may_go_negative:
            found.append(f"{ref} holds {held}")
    found += [f"{c} balances sum to {t}, not 0" for c, t in totals.items() if t]
    return found
