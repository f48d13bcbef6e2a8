"""Ledger accounts: who or what holds chips, and in which currency.

Every chip sits in exactly one account. Players hold real-money and
play-money balances (two currencies that never mix); chips at a table are a
*table stack*, chips bet in a hand are a *live pot*; the house keeps *rake*
and *tournament fees*; tournaments hold a *prize pool*. The *cashier* is the
outside world: a deposit moves money from the cashier to a player, a
withdrawal moves it back. The cashier is the only account allowed below zero,
so within each currency every balance sums to exactly zero.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from cardroom.ledger.errors import LedgerError


class Currency(enum.StrEnum):
    """Real money (minor units, cents) or play money (chips)."""

    REAL = "real"
    PLAY = "play"


class AccountKind(enum.StrEnum):
    """What an account is for; decides which movements may touch it."""

    PLAYER = "player"
    TABLE_STACK = "table_stack"
    POT = "pot"
    RAKE = "rake"
    PRIZE_POOL = "prize_pool"
    TOURNAMENT_FEE = "tournament_fee"
    CASHIER = "cashier"


HOUSE = "house"
"""Owner name of the house-wide accounts (rake, tournament fees, cashier)."""

_SEPARATOR = "/"


@dataclass(frozen=True, order=True, slots=True)
class AccountRef:
    """Names one account: its kind, currency and owner.

    The owner is free text chosen by the layer that opens the account: a
    player id, ``"<table>:<player>"`` for a stack, a table id for a pot, a
    tournament id for a prize pool, :data:`HOUSE` for house accounts.
    """

    kind: AccountKind
    currency: Currency
    owner: str
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.owner or _SEPARATOR in self.owner or self.owner.strip() != self.owner:
            raise LedgerError(f"account owner {self.owner!r} must be non-empty, trimmed, no '/'")
        if len(self.owner) > 120:
            raise LedgerError("account owner is longer than 120 characters")
        # Every posting looks its accounts up by hash several times: an account never
        # changes, so its hash is computed once.
        object.__setattr__(self, "_hash", hash((self.kind, self.currency, self.owner)))

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[AccountRef], tuple[AccountKind, Currency, str]]:
        # Rebuilt from its fields, never copied with the hash (str hashes vary by process).
        return (AccountRef, (self.kind, self.currency, self.owner))

    @property
    def key(self) -> str:
        """A stable text key, e.g. ``player/real/42``; parsed back by :meth:`parse`."""
        return _SEPARATOR.join((self.kind.value, self.currency.value, self.owner))

    @classmethod
    def parse(cls, key: str) -> AccountRef:
        """The account named by a :attr:`key`."""
        parts = key.split(_SEPARATOR)
        if len(parts) != 3:
            raise LedgerError(f"account key {key!r} is not kind/currency/owner")
        try:
            return cls(AccountKind(parts[0]), Currency(parts[1]), parts[2])
        except ValueError as exc:
            raise LedgerError(f"account key {key!r}: {exc}") from None

    @property
    def may_go_negative(self) -> bool:
        """Only the cashier (the outside world) may hold a negative balance."""
        return self.kind is AccountKind.CASHIER

    def __str__(self) -> str:
        return self.key

    @classmethod
    def player(cls, player: str, currency: Currency) -> AccountRef:
        """A player's balance in one currency."""
        return cls(AccountKind.PLAYER, currency, player)

    @classmethod
    def stack(cls, table: str, player: str, currency: Currency) -> AccountRef:
        """A player's chips in play at one table."""
        return cls(AccountKind.TABLE_STACK, currency, f"{table}:{player}")

    @classmethod
    def pot(cls, table: str, currency: Currency) -> AccountRef:
        """The live pot of the hand in progress at one table."""
        return cls(AccountKind.POT, currency, table)

    @classmethod
    def rake(cls, currency: Currency = Currency.REAL) -> AccountRef:
        """The house's rake."""
        return cls(AccountKind.RAKE, currency, HOUSE)

    @classmethod
    def prize_pool(cls, tournament: str, currency: Currency) -> AccountRef:
        """A tournament's prize pool."""
        return cls(AccountKind.PRIZE_POOL, currency, tournament)

    @classmethod
    def tournament_fees(cls, currency: Currency) -> AccountRef:
        """The house's tournament entry fees."""
        return cls(AccountKind.TOURNAMENT_FEE, currency, HOUSE)

    @classmethod
    def cashier(cls, currency: Currency) -> AccountRef:
        """The outside world: source of deposits, sink of withdrawals."""
        return cls(AccountKind.CASHIER, currency, HOUSE)
