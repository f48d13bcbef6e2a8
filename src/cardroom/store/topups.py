"""Play-money top-ups: chips up to a ceiling, at most one per key (one per period).

A top-up is one ledger deposit of play chips under an idempotency key the
caller derives from the player and the period (``topup:<player>:<period>``).
The balance (read under the account's lock), the check of the key, the ceiling
and the posting happen in one transaction that retries when a concurrent writer
took the key first, so however many requests race, one top-up per key moves
chips, each caller learns truthfully whether it was theirs, and top-ups of two
periods racing still stop at the ceiling.
"""

from __future__ import annotations

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from cardroom.ledger import AccountRef, Currency, Reason, Transfer
from cardroom.store.audit import audit
from cardroom.store.database import Clock, system_clock
from cardroom.store.errors import storage_errors
from cardroom.store.ledger_sql import entry_for_key, in_transaction, locked_balances, post_fresh
from cardroom.store.players import AccountError, find_player
from cardroom.store.sanction_rows import money_stopped


class PlayTopUps:
    """Play-money top-ups over the database behind ``engine``."""

    def __init__(self, engine: Engine, clock: Clock = system_clock) -> None:
        self.engine = engine
        self.clock = clock

    @storage_errors("the play-money top-up")
    def top_up(
        self,
        alias: str,
        *,
        key: str,
        ceiling: int,
        amount: int | None = None,
        actor: str = "server:topup",
    ) -> int | None:
        """Add play chips (``amount``, None: up to ``ceiling``), never past ``ceiling``.

        Returns the chips added: 0 when the balance is at the ceiling already,
        None when ``key`` was used (this period's top-up is taken). A frozen or
        banned player gets :class:`AccountError`.
        """

        def work(session: Session) -> int | None:
            player = find_player(session, alias)
            if money_stopped(session, player.id, self.clock()):
                raise AccountError(f"{player.alias} is frozen or banned: no top-up")
            account = AccountRef.player(str(player.id), Currency.PLAY)
            cashier = AccountRef.cashier(Currency.PLAY)
            # Read under the accounts' lock: read before it (PostgreSQL does not queue
            # readers), two top-ups of two periods in flight at once each added up to
            # the ceiling from the same balance.
            room = ceiling - locked_balances(session, [cashier, account])[account]
            # The key is looked at after the balance: a balance that already holds a
            # concurrent top-up is read with its key (PostgreSQL reads each statement
            # afresh), so that caller hears "too soon", not "at the ceiling".
            if entry_for_key(session, key) is not None:
                return None
            if room <= 0:
                return 0
            chips = room if amount is None else min(amount, room)
            deposit = Transfer(key, Reason.DEPOSIT, cashier, account, chips)
            if not post_fresh(session, [deposit], self.clock, actor):
                return None
            audit(session, self.clock, actor, "topup", player.alias, amount=chips)
            return chips

        return in_transaction(self.engine, work)
