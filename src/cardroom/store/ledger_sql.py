"""The durable ledger: the same behaviour as ``MemoryLedger``, in SQLite or PostgreSQL.

Never overdraws under concurrency: a posting locks every account it touches
(``SELECT ... FOR UPDATE`` in id order on PostgreSQL, so two postings cannot
deadlock; ``BEGIN IMMEDIATE`` on SQLite serialises writers), checks the
balances, then updates them; a CHECK constraint refuses any negative balance
as a backstop. Idempotency keys are a UNIQUE column: if two requests race
with one key, the loser's transaction rolls back and it returns the winner's
entry, so money never moves twice.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar, cast

from sqlalchemy import (
    ColumnElement,
    Engine,
    Select,
    Table,
    and_,
    bindparam,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session, aliased

from cardroom.ledger import (
    AccountKind,
    AccountRef,
    Currency,
    Entry,
    FlowTally,
    LedgerError,
    Reason,
    Transfer,
    Violation,
    balance_violations,
    reversal_of,
)
from cardroom.ledger.transfers import (
    check_balances,
    check_not_reversed,
    check_reversal,
    net_change,
    pending_transfers,
)
from cardroom.store.database import Clock, one_moment, system_clock
from cardroom.store.errors import LARGEST_ID, storage_errors, valid_id
from cardroom.store.models import LedgerAccount, LedgerEntry

RETRIES = 5
T = TypeVar("T")
_RETRY_SQLSTATES = {"40001", "40P01"}  # serialization failure, deadlock detected


class SqlLedger:
    """Double-entry ledger stored in the database behind ``engine``."""

    def __init__(self, engine: Engine, clock: Clock = system_clock) -> None:
        self.engine = engine
        self.clock = clock

    @storage_errors("posting to the ledger")
    def post(self, transfer: Transfer, actor: str = "") -> Entry:
        """Post one transfer; a replayed key returns the original entry and moves nothing."""
        return self.post_all([transfer], actor)[0]

    @storage_errors("posting to the ledger")
    def post_all(self, transfers: Sequence[Transfer], actor: str = "") -> list[Entry]:
        """Post transfers atomically, in order; replayed keys are skipped."""
        return in_transaction(
            self.engine, lambda session: post_in(session, transfers, self.clock, actor)
        )

    @storage_errors("reversing a ledger entry")
    def reverse(
        self, entry_id: int, key: str | None = None, memo: str = "", actor: str = ""
    ) -> Entry:
        """Undo an entry by posting its mirror image (the original stays on record)."""
        original = self.entry(entry_id)
        if original is None:
            raise LedgerError(f"there is no entry {entry_id} to reverse")
        transfer = reversal_of(original, key, memo)
        check_not_reversed(self.entry_for_key(transfer.key), transfer)
        return self.post(transfer, actor)

    @storage_errors("reading a balance")
    def balance(self, account: AccountRef) -> int:
        """The account's balance (zero for an account never used)."""
        with Session(self.engine) as session:
            return account_balance(session, account)

    @storage_errors("reading balances")
    def balances(self) -> dict[AccountRef, int]:
        """Every account ever touched, with its balance."""
        with Session(self.engine) as session:
            return balances_in(session)

    @storage_errors("reading a ledger entry")
    def entry(self, entry_id: int) -> Entry | None:
        """One entry by id."""
        if not valid_id(entry_id):
            return None
        with Session(self.engine) as session:
            return _one(session, _entries_query().where(LedgerEntry.id == entry_id))

    @storage_errors("reading a ledger entry")
    def entry_for_key(self, key: str) -> Entry | None:
        """The entry posted under an idempotency key, if any."""
        with Session(self.engine) as session:
            return entry_for_key(session, key)

    @storage_errors("reading ledger entries")
    def entries(self, after: int = 0, limit: int | None = None) -> list[Entry]:
        """Entries in posting order, from id ``after + 1``."""
        after = max(after, 0)
        if after >= LARGEST_ID:  # no such id; the driver could not even send it
            return []
        query = _entries_query().where(LedgerEntry.id > after).order_by(LedgerEntry.id)
        if limit is not None:
            query = query.limit(min(max(limit, 0), LARGEST_ID))
        with Session(self.engine) as session:
            return [_entry(*row) for row in session.execute(query)]

    @storage_errors("reading ledger entries")
    def account_entries(self, account: AccountRef) -> list[Entry]:
        """Entries touching ``account``, in posting order."""
        with Session(self.engine) as session:
            found = session.scalar(_account_id_query(account))
            if found is None:
                return []
            query = (
                _entries_query()
                .where(
                    (LedgerEntry.debit_account_id == found)
                    | (LedgerEntry.credit_account_id == found)
                )
                .order_by(LedgerEntry.id)
            )
            return [_entry(*row) for row in session.execute(query)]

    @storage_errors("checking the ledger")
    def check(self) -> list[Violation]:
        """Every broken invariant (an empty list when all hold); reads entries in batches.
        The balances and the entries are read at one moment: a room settling hands while
        the check reads would otherwise look like drift."""
        with Session(one_moment(self.engine)) as session, session.begin():
            return check_in(session)


def in_transaction(engine: Engine, work: Callable[[Session], T]) -> T:
    """Run ``work`` in one transaction, retrying when a concurrent writer got there first.

    A unique-key clash (the same idempotency key or a new account created at
    the same moment) or a PostgreSQL serialization failure rolls everything
    back; the retry then sees the other writer's rows (a replay, not a double move).
    """
    for attempt in range(RETRIES):
        try:
            with Session(engine) as session, session.begin():
                return work(session)
        except IntegrityError:
            if attempt == RETRIES - 1:
                raise
        except DBAPIError as exc:
            if getattr(exc.orig, "sqlstate", None) not in _RETRY_SQLSTATES:
                raise
            if attempt == RETRIES - 1:
                raise
    raise AssertionError("unreachable")


def post_in(
    session: Session, transfers: Sequence[Transfer], clock: Clock, actor: str = ""
) -> list[Entry]:
    """Post ``transfers`` inside the caller's transaction (see :class:`SqlLedger`)."""
    post_fresh(session, transfers, clock, actor)
    found = [entry_for_key(session, t.key) for t in transfers]
    return [e for e in found if e is not None]


def post_fresh(
    session: Session, transfers: Sequence[Transfer], clock: Clock, actor: str = ""
) -> list[Transfer]:
    """Post the transfers whose keys are new; return them (replays move nothing).

    Callers that record something beside a posting (an audit line) must key it
    on this result, not on a look-up made earlier: a concurrent writer may
    commit the same key in between.

    A handful of statements whatever the number of transfers (the keys looked up
    at once, the accounts locked and read at once, one executemany each for the
    balances and the entries): a table's hand settles in one transaction beside
    its events, and that transaction is on every table's path.
    """
    posted = _entries_for_keys(session, [t.key for t in transfers])
    fresh = pending_transfers(transfers, posted.get)
    for t in fresh:
        if t.reverses is not None:
            _check_reversible(session, t)
    if fresh:
        delta = net_change(fresh)
        ids, balances = _lock_accounts(session, sorted(delta))
        check_balances(delta, lambda ref: balances[ids[ref]])
        changes = [{"a_id": ids[ref], "a_change": c} for ref, c in delta.items() if c]
        if changes:
            session.execute(_ADD_TO_BALANCE, changes)
        now = clock()
        rows = [
            {
                "idempotency_key": t.key,
                "reason": t.reason.value,
                "currency": t.currency.value,
                "debit_account_id": ids[t.debit],
                "credit_account_id": ids[t.credit],
                "amount": t.amount,
                "memo": t.memo,
                "reverses_entry_id": t.reverses,
                "actor": actor[:64],  # the column's width, as the audit line's actor
                "created_at": now,
            }
            for t in fresh
        ]
        session.execute(insert(_ENTRIES), rows)
    return fresh


def _entries_for_keys(session: Session, keys: list[str]) -> dict[str, Entry]:
    """The entries already posted under any of ``keys`` (one query when none was, the
    usual case)."""
    if not keys:
        return {}
    found = list(session.scalars(_POSTED_KEYS, {"keys": keys}))
    if not found:
        return {}
    query = _entries_query().where(LedgerEntry.idempotency_key.in_(found))
    return {e.transfer.key: e for e in (_entry(*row) for row in session.execute(query))}


def _check_reversible(session: Session, t: Transfer) -> None:
    assert t.reverses is not None
    original = _one(session, _entries_query().where(LedgerEntry.id == t.reverses))
    if original is None:
        raise LedgerError(f"there is no entry {t.reverses} to reverse")
    taken = session.scalar(
        select(LedgerEntry.id).where(LedgerEntry.reverses_entry_id == t.reverses)
    )
    if taken is not None:
        raise LedgerError(f"entry {t.reverses} was already reversed")
    check_reversal(original, t)


def locked_balances(session: Session, refs: list[AccountRef]) -> dict[AccountRef, int]:
    """The balances of ``refs`` (accounts created when missing), read under the lock a
    posting takes, held to the end of the caller's transaction: a decision made on them
    (how much a top-up may add) stands until that transaction posts."""
    ids, balances = _lock_accounts(session, sorted(refs))
    return {ref: balances[ids[ref]] for ref in refs}


def _lock_accounts(
    session: Session, refs: list[AccountRef]
) -> tuple[dict[AccountRef, int], dict[int, int]]:
    """Create missing accounts (in key order), then lock all rows in id order; their ids
    and balances (read under the lock)."""
    ids = _account_ids(session, refs)
    missing = [ref for ref in refs if ref not in ids]
    if missing:
        values = [
            {"kind": r.kind.value, "currency": r.currency.value, "owner": r.owner, "balance": 0}
            for r in missing
        ]
        session.execute(dialect_insert(session)(_ACCOUNTS).values(values).on_conflict_do_nothing())
        ids.update(_account_ids(session, missing))
    locked = session.execute(_LOCK_ACCOUNTS, {"ids": list(ids.values())})
    return ids, dict(locked.all())


def _account_ids(session: Session, refs: list[AccountRef]) -> dict[AccountRef, int]:
    """The ids of those of ``refs`` that exist (one query; each term an index look-up)."""
    params: dict[str, str] = {}
    for i, r in enumerate(refs):
        params[f"k{i}"], params[f"c{i}"], params[f"o{i}"] = r.kind.value, r.currency.value, r.owner
    wanted = {(r.kind.value, r.currency.value, r.owner): r for r in refs}
    rows = session.execute(_accounts_query(len(refs)), params)
    return {wanted[(k, c, o)]: i for i, k, c, o in rows}


@functools.lru_cache(maxsize=64)
def _accounts_query(count: int) -> Select[int, str, str, str]:
    """Finds ``count`` accounts by key (built once per count: building a statement costs
    more than running it)."""
    terms = (
        and_(
            LedgerAccount.kind == bindparam(f"k{i}"),
            LedgerAccount.currency == bindparam(f"c{i}"),
            LedgerAccount.owner == bindparam(f"o{i}"),
        )
        for i in range(count)
    )
    columns = (LedgerAccount.id, LedgerAccount.kind, LedgerAccount.currency, LedgerAccount.owner)
    return select(*columns).where(or_(*terms))


def _is_account(ref: AccountRef) -> ColumnElement[bool]:
    return and_(
        LedgerAccount.kind == ref.kind.value,
        LedgerAccount.currency == ref.currency.value,
        LedgerAccount.owner == ref.owner,
    )


def dialect_insert(session: Session) -> Callable[..., Any]:
    """The session's dialect's ``insert`` (for ``on_conflict_do_...``, which both have)."""
    return pg_insert if session.get_bind().dialect.name == "postgresql" else sqlite_insert


def _account_id_query(ref: AccountRef) -> Select[int]:
    return select(LedgerAccount.id).where(_is_account(ref))


def balances_in(session: Session) -> dict[AccountRef, int]:
    """:meth:`SqlLedger.balances` in ``session`` (a check reading at one moment)."""
    rows = session.execute(select(LedgerAccount)).scalars()
    return {_ref(a): a.balance for a in rows}


def account_balance(session: Session, ref: AccountRef) -> int:
    """An account's balance within the caller's session (0 if never used)."""
    return session.scalar(select(LedgerAccount.balance).where(_is_account(ref))) or 0


def entry_for_key(session: Session, key: str) -> Entry | None:
    """The entry posted under ``key`` within the caller's session."""
    return _one(session, _entries_query().where(LedgerEntry.idempotency_key == key))


_ACCOUNTS = cast(Table, LedgerAccount.__table__)
_ENTRIES = cast(Table, LedgerEntry.__table__)
_POSTED_KEYS = select(LedgerEntry.idempotency_key).where(
    LedgerEntry.idempotency_key.in_(bindparam("keys", expanding=True))
)
_LOCK_ACCOUNTS = (
    select(LedgerAccount.id, LedgerAccount.balance)
    .where(LedgerAccount.id.in_(bindparam("ids", expanding=True)))
    .order_by(LedgerAccount.id)
    .with_for_update()
)
_ADD_TO_BALANCE = (
    update(_ACCOUNTS)
    .where(_ACCOUNTS.c.id == bindparam("a_id"))
    .values(balance=_ACCOUNTS.c.balance + bindparam("a_change"))
)

if TYPE_CHECKING:  # SQLAlchemy 2.1 generics; only for the type checker
    _EntrySelect = Select[LedgerEntry, LedgerAccount, LedgerAccount]
_Debit = aliased(LedgerAccount, name="debit_account")
_Credit = aliased(LedgerAccount, name="credit_account")


def _entries_query() -> _EntrySelect:
    return (
        select(LedgerEntry, _Debit, _Credit)
        .join(_Debit, LedgerEntry.debit_account_id == _Debit.id)
        .join(_Credit, LedgerEntry.credit_account_id == _Credit.id)
    )


def _one(session: Session, query: _EntrySelect) -> Entry | None:
    row = session.execute(query).first()
    return None if row is None else _entry(*row)


def _ref(account: LedgerAccount) -> AccountRef:
    return AccountRef(AccountKind(account.kind), Currency(account.currency), account.owner)


def _entry(row: LedgerEntry, debit: LedgerAccount, credit: LedgerAccount) -> Entry:
    transfer = Transfer(
        key=row.idempotency_key,
        reason=Reason(row.reason),
        debit=_ref(debit),
        credit=_ref(credit),
        amount=row.amount,
        memo=row.memo,
        reverses=row.reverses_entry_id,
    )
    return Entry(row.id, transfer, row.created_at)


def _stream(session: Session, batch: int = 2000) -> Iterator[tuple[Entry, str]]:
    after = 0
    while True:
        query = _entries_query().where(LedgerEntry.id > after).order_by(LedgerEntry.id)
        rows = session.execute(query.limit(batch)).all()
        for row in rows:
            yield _entry(*row), row[0].currency
        if len(rows) < batch:
            return
        after = rows[-1][0].id


def check_in(session: Session) -> list[Violation]:
    """Every broken ledger invariant, read within the caller's session."""
    found: list[Violation] = []
    try:
        balances = {_ref(a): a.balance for a in session.execute(select(LedgerAccount)).scalars()}
        tally = FlowTally()
        for entry, currency in _stream(session):
            tally.add(entry)
            if currency != entry.transfer.currency.value:
                found.append(Violation("entry", f"entry {entry.id} says {currency}"))
    except ValueError as exc:  # an unknown kind, currency or reason stored
        return [Violation("account", f"unreadable ledger data: {exc}")]
    return found + tally.violations + balance_violations(balances, tally.net)
