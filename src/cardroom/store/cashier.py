"""The cashier: deposits, withdrawals, player transfers, reversals, integrity review.

Operator API only (no payment provider): an operator records a deposit or a
withdrawal the outside world has made. Player-to-player transfers are real
money only, between accounts that have both deposited, and are logged. A
frozen or banned account sends and receives no transfers and withdraws
nothing; a banned one also takes no deposits (a frozen one may, at the
operator's word). An operator undoes a flagged movement with a reversing
entry, never by deleting (RULEBOOK §10.9).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from sqlalchemy import Engine, Select, select
from sqlalchemy.orm import Session, aliased

from cardroom.games.checks import MAX_CHIPS
from cardroom.ledger import (
    AccountKind,
    AccountRef,
    ChipDumpFlag,
    ChipDumpPolicy,
    Currency,
    Entry,
    Flow,
    LedgerError,
    Reason,
    SharedAccessFlag,
    Sighting,
    Transfer,
    chip_dump_flags,
    reversal_of,
    shared_access_flags,
)
from cardroom.ledger.transfers import check_not_reversed
from cardroom.store.audit import audit
from cardroom.store.database import Clock, system_clock
from cardroom.store.errors import storage_errors
from cardroom.store.ledger_sql import (
    SqlLedger,
    account_balance,
    entry_for_key,
    in_transaction,
    post_fresh,
)
from cardroom.store.models import LedgerAccount, LedgerEntry, LoginAttempt, Player
from cardroom.store.players import (
    HOUSE_ROLE,
    AccountError,
    PlayerInfo,
    SanctionKind,
    active_sanctions,
    find_player,
)
from cardroom.store.sanction_rows import money_stopped


def signup_deposit(
    session: Session,
    clock: Clock,
    player: PlayerInfo,
    amount: int,
    currency: Currency,
    operator: str,
) -> None:
    """Inside a registration's transaction (``Players.register(then=...)``): the chips a
    new account starts with, as a deposit keyed ``signup:<player>`` (audited)."""
    t = Transfer(
        f"signup:{player.id}",
        Reason.DEPOSIT,
        AccountRef.cashier(currency),
        AccountRef.player(player.owner, currency),
        amount,
    )
    if post_fresh(session, [t], clock, operator):
        entry = entry_for_key(session, t.key)
        assert entry is not None
        detail = {"entry": entry.id, "amount": amount, "currency": currency}
        audit(session, clock, operator, "deposit", player.alias, **detail)


@dataclass(frozen=True, slots=True)
class IntegrityReport:
    """Accounts sharing an IP/device, and chip-dumping suspects, by alias."""

    shared_access: list[SharedAccessFlag]
    chip_dumping: list[ChipDumpFlag]


class Cashier:
    """Money in, out and between players, over the database behind ``engine``."""

    def __init__(self, engine: Engine, clock: Clock = system_clock) -> None:
        self.engine = engine
        self.clock = clock
        self.ledger = SqlLedger(engine, clock)

    def _post(
        self,
        session: Session,
        transfer: Transfer,
        actor: str,
        action: str,
        subject: str,
        **more: str,
    ) -> Entry:
        fresh = post_fresh(session, [transfer], self.clock, actor)
        entry = entry_for_key(session, transfer.key)
        assert entry is not None  # posted now or by an earlier (or concurrent) request
        if fresh:
            detail = {"entry": entry.id, "amount": transfer.amount, "currency": transfer.currency}
            audit(session, self.clock, actor, action, subject, **detail, **more)
        return entry

    @staticmethod
    def _shown_exactly(session: Session, player: Player, transfer: Transfer) -> None:
        """Refuse money that would take ``player``'s balance past :data:`MAX_CHIPS`: a
        balance reaches the API and the browser as a JSON number, exact only that far. A
        retry of money posted already is answered with its entry, as before."""
        if entry_for_key(session, transfer.key) is not None:
            return
        after = account_balance(session, transfer.credit) + transfer.amount
        if after > MAX_CHIPS:
            raise AccountError(
                f"{player.alias} would hold {after}: a player's balance is at most "
                f"2**53 - 1 ({MAX_CHIPS}), what the API and the browser show exactly"
            )

    def _blocked(self, session: Session, player: Player, what: str) -> None:
        if money_stopped(session, player.id, self.clock()):
            raise AccountError(f"{player.alias} is frozen or banned: no {what}")

    @storage_errors("deposit")
    def deposit(
        self,
        alias: str,
        amount: int,
        currency: Currency = Currency.REAL,
        *,
        operator: str,
        key: str | None = None,
    ) -> Entry:
        """Record money (or play chips) the player paid in; ``key`` makes a retry safe."""
        key = key or f"deposit:{uuid.uuid4()}"

        def work(session: Session) -> Entry:
            player = find_player(session, alias)
            if SanctionKind.BAN in active_sanctions(session, player.id, self.clock()):
                raise AccountError(f"{player.alias} is banned: no deposits")
            t = Transfer(
                key,
                Reason.DEPOSIT,
                AccountRef.cashier(currency),
                AccountRef.player(str(player.id), currency),
                amount,
            )
            self._shown_exactly(session, player, t)
            return self._post(session, t, operator, "deposit", player.alias)

        return in_transaction(self.engine, work)

    @storage_errors("withdrawal")
    def withdraw(
        self,
        alias: str,
        amount: int,
        *,
        operator: str,
        key: str | None = None,
        despite_sanction: str = "",
    ) -> Entry:
        """Record real money paid out to the player (play money cannot be cashed out).

        A frozen or banned account's money is stopped (RULEBOOK §10.9) until an operator
        decides: ``despite_sanction`` (why, kept in the audit trail) pays it out anyway, the
        sanction staying in force. Without it the only way was to lift the ban, pay out
        and ban again, the player free to log in and play in between."""
        key = key or f"withdrawal:{uuid.uuid4()}"
        why = despite_sanction.strip()

        def work(session: Session) -> Entry:
            player = find_player(session, alias)
            if not why:
                self._blocked(session, player, "withdrawals")
            t = Transfer(
                key,
                Reason.WITHDRAWAL,
                AccountRef.player(str(player.id), Currency.REAL),
                AccountRef.cashier(Currency.REAL),
                amount,
            )
            said = {"despite_sanction": why} if why else {}
            return self._post(session, t, operator, "withdraw", player.alias, **said)

        return in_transaction(self.engine, work)

    @storage_errors("transfer")
    def transfer(
        self, sender: str, receiver: str, amount: int, *, actor: str, key: str | None = None
    ) -> Entry:
        """Move real money between two players who have both deposited."""
        key = key or f"transfer:{uuid.uuid4()}"

        def work(session: Session) -> Entry:
            a, b = find_player(session, sender), find_player(session, receiver)
            if a.id == b.id:
                raise AccountError("cannot transfer to oneself")
            for p in (a, b):
                self._blocked(session, p, "transfers")
                if not _has_deposited(session, p):
                    raise AccountError(f"{p.alias} has never deposited real money: no transfers")
            t = Transfer(
                key,
                Reason.PLAYER_TRANSFER,
                AccountRef.player(str(a.id), Currency.REAL),
                AccountRef.player(str(b.id), Currency.REAL),
                amount,
            )
            self._shown_exactly(session, b, t)
            return self._post(session, t, actor, "transfer", f"{a.alias}->{b.alias}")

        return in_transaction(self.engine, work)

    @storage_errors("reversal")
    def reverse(self, entry_id: int, *, operator: str, reason: str) -> Entry:
        """Undo a (flagged) entry with a mirror-image entry; the original stays."""
        if not reason:
            raise AccountError("say why the entry is reversed")
        original = self.ledger.entry(entry_id)
        if original is None:
            raise LedgerError(f"there is no entry {entry_id} to reverse")
        table_money = (AccountKind.TABLE_STACK, AccountKind.POT)
        if original.debit.kind in table_money or original.credit.kind in table_money:
            # A table's chips are what its record says: undone here, the record and the
            # ledger would disagree (the player could not stand up, nor the room start).
            raise AccountError(
                f"entry {entry_id} moved a table's chips: they move only with the table "
                "(close the table, or 'ledger recover' after a crash), never by a reversal"
            )
        t = reversal_of(original, memo=reason)
        check_not_reversed(self.ledger.entry_for_key(t.key), t)
        subject = f"entry {entry_id}"
        return in_transaction(
            self.engine, lambda session: self._post(session, t, operator, "reverse", subject)
        )

    @storage_errors("reading balances")
    def balances(self, alias: str) -> dict[Currency, int]:
        """The player's real and play balances, in minor units."""
        with Session(self.engine) as session:
            owner = str(find_player(session, alias).id)
            return {c: account_balance(session, AccountRef.player(owner, c)) for c in Currency}

    @storage_errors("the integrity report")
    def integrity_report(self, policy: ChipDumpPolicy | None = None) -> IntegrityReport:
        """Flags for review: shared IPs/devices, and repeated one-way player transfers.
        The house's bots are left out: they all log in from the server's address."""
        with Session(self.engine) as session:
            people = select(Player.id, Player.alias).where(Player.role != HOUSE_ROLE)
            aliases = {pid: alias for pid, alias in session.execute(people)}
            sightings = [
                Sighting(aliases[pid], ip, device)
                for pid, ip, device in session.execute(
                    select(Player.id, Player.registration_ip, Player.registration_device)
                )
                if pid in aliases
            ]
            logins = select(LoginAttempt.player_id, LoginAttempt.ip, LoginAttempt.device).where(
                LoginAttempt.success.is_(True)
            )
            for pid, ip, device in session.execute(logins):
                if pid in aliases:
                    sightings.append(Sighting(aliases[pid], ip, device))
            flows = [
                Flow(aliases[int(s)], aliases[int(r)], amount, eid)
                for eid, s, r, amount in session.execute(_player_flows())
                if int(s) in aliases and int(r) in aliases
            ]
        return IntegrityReport(shared_access_flags(sightings), chip_dump_flags(flows, policy))

    @storage_errors("reading the house's accounts")
    def house_accounts(self) -> frozenset[str]:
        """The house's bots, by id as the tables' records name players (their table
        flags are not for review either)."""
        with Session(self.engine) as session:
            ids = session.scalars(select(Player.id).where(Player.role == HOUSE_ROLE))
            return frozenset(str(pid) for pid in ids)


def _has_deposited(session: Session, player: Player) -> bool:
    """Whether ``player`` holds a real-money deposit that was not reversed (one undone,
    recorded by mistake, makes no depositor)."""
    credit = aliased(LedgerAccount)
    query = (
        select(LedgerEntry.id)
        .join(credit, LedgerEntry.credit_account_id == credit.id)
        .where(
            LedgerEntry.reason == Reason.DEPOSIT.value,
            credit.kind == "player",
            credit.currency == Currency.REAL.value,
            credit.owner == str(player.id),
            LedgerEntry.id.not_in(_reversed_ids()),
        )
        .limit(1)
    )
    return session.scalar(query) is not None


def _reversed_ids() -> Select[int | None]:
    """The entries reversed since (a reversal names the entry it undoes)."""
    return select(LedgerEntry.reverses_entry_id).where(LedgerEntry.reverses_entry_id.is_not(None))


def _player_flows() -> Select[int, str, str, int]:
    """Player-to-player transfers not reversed since: the chip-dumping evidence."""
    debit, credit = aliased(LedgerAccount), aliased(LedgerAccount)
    return (
        select(LedgerEntry.id, debit.owner, credit.owner, LedgerEntry.amount)
        .join(debit, LedgerEntry.debit_account_id == debit.id)
        .join(credit, LedgerEntry.credit_account_id == credit.id)
        .where(LedgerEntry.reason == Reason.PLAYER_TRANSFER.value)
        .where(LedgerEntry.id.not_in(_reversed_ids()))
        .order_by(LedgerEntry.id)
    )
