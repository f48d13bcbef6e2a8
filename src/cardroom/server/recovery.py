"""Recovery from a table's record, for the server's start and the operator's command.

After a crash a table's record says who sat where with how many chips, and which hand
was cut short; the ledger's table-stack accounts hold the same chips. Recovering a
table rebuilds it from its record, cancels the unfinished hand (RULEBOOK §10.10:
every stack back to its start-of-hand value), stands everyone up and returns their
chips to their accounts, and stores those events and cash-outs together, like any
step. The server does it for every open table when it starts (``server/room.py``);
``cardroom ledger recover`` does the same with the server stopped, so the record and
the ledger never disagree (a recovery through the ledger alone paid the stacks out
behind the records' back, and the next start could not pay them again).
"""

from __future__ import annotations

from typing import NamedTuple

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from cardroom.ledger import AccountKind, AccountRef
from cardroom.room.allowances import Allowances
from cardroom.room.codec import decode_entry, encode_entry
from cardroom.room.events import HandVoided
from cardroom.room.kinds import table_type
from cardroom.room.settings import settings_from_dict
from cardroom.room.state import TableState, state_to_dict
from cardroom.room.table import Table
from cardroom.server.table_ledger import StepLedger
from cardroom.store.database import one_moment
from cardroom.store.ledger_sql import balances_in
from cardroom.store.tables import StoredRecord, TableRecords, load_in, open_tables_in


class Recovered(NamedTuple):
    """A table recovered: the table (everyone stood up), its last sequence number, the
    chips each player got back (the start-of-hand stacks of a hand cut short), and the
    hand it voided, if one was cut short."""

    table: Table
    seq: int
    returned: dict[str, int]
    voided: int | None = None

    def summary(self, table_id: str) -> str | None:
        """What the recovery did, in a line for the operator (None: nothing)."""
        if self.voided is None and not self.returned:
            return None
        hand = f"hand #{self.voided} voided, " if self.voided is not None else ""
        chips = sum(self.returned.values())
        return (
            f"table {table_id} recovered: {hand}{len(self.returned)} player(s) stood up,"
            f" {chips} chips back to their accounts"
        )


def recover_record(
    records: TableRecords,
    record: StoredRecord,
    ledger: StepLedger,
    allowances: Allowances | None = None,
) -> Recovered:
    """Rebuild a table from its record, cancel its unfinished hand, stand everyone up
    with their chips returned; store all that in one step."""
    settings = settings_from_dict(record.settings)
    snapshot = record.snapshot or state_to_dict(TableState([None] * settings.seat_count))
    events = [decode_entry(e) for _, e in record.entries]
    kind = table_type(settings)
    table = kind.recover(settings, snapshot, events, ledger, allowances=allowances)
    returned = {player: chips for player, chips in table.stacks().items() if chips}
    table.close()
    new = table.log[len(events) :]
    seq = record.last_seq
    if new or ledger.pending:
        entries = [encode_entry(e) for e in new]
        records.commit(record.table_id, seq + 1, entries, transfers=ledger.take())
    voided = [e.hand_no for e in new if isinstance(e, HandVoided)]
    return Recovered(table, seq + len(new), returned, voided[-1] if voided else None)


def recover_open_tables(engine: Engine) -> dict[str, dict[AccountRef, int]]:
    """Recover every table the store says is open (the server stopped): by table, the
    chips each player's account got back. The tables stay open: a server that starts
    reopens those it lists, empty, continuing their records."""
    records = TableRecords(engine)
    returned: dict[str, dict[AccountRef, int]] = {}
    for table_id in records.open_tables():
        record = records.load(table_id)
        if record is None:
            continue
        currency = settings_from_dict(record.settings).currency
        back = recover_record(records, record, StepLedger()).returned
        returned[table_id] = {AccountRef.player(p, currency): n for p, n in back.items()}
    return returned


def record_problems(engine: Engine) -> list[str]:
    """Each open table's stacks as its record says against the ledger's table-stack
    accounts, and its pot: what they must agree on, between steps.

    The records and the balances are read in one transaction that sees the database at one
    moment (``one_moment``), however the room writes meanwhile: a step stores its entries
    and its money together, so they agree there. Read at different moments, a table whose
    record moved at every read was compared with balances of another moment, and a busy
    room's check reported chips that had not drifted ("badugi-1:27 holds 62, the table's
    record says 90", exit 1; the nineteenth session's soak)."""
    found: list[str] = []
    with Session(one_moment(engine)) as session, session.begin():
        balances = balances_in(session)  # the first read: the moment every later one sees
        for table_id in open_tables_in(session):
            record = load_in(session, table_id)
            if record is not None:
                found += _stack_problems(table_id, record, balances)
    return found


def _stack_problems(
    table_id: str, record: StoredRecord, balances: dict[AccountRef, int]
) -> list[str]:
    """Where ``balances`` disagree with the stacks of ``record`` (and its pot is not empty)."""
    if record.snapshot is None:  # no hand dealt, no stack to compare
        return []
    settings = settings_from_dict(record.settings)
    events = [decode_entry(e) for _, e in record.entries]
    table = table_type(settings).restore(settings, record.snapshot, events, StepLedger())
    stacks = table.stacks()
    found: list[str] = []
    for ref, held in balances.items():
        if ref.kind is AccountKind.POT and ref.owner == table_id and held:
            found.append(f"pot of {table_id} holds {held}")
        if ref.kind is AccountKind.TABLE_STACK and ref.owner.startswith(f"{table_id}:"):
            # A table reopened for the other money left its old stacks empty: only
            # the stacks in the money it plays for now hold its players' chips.
            mine = ref.currency is settings.currency
            says = stacks.get(ref.owner.partition(":")[2], 0) if mine else 0
            if held != says:
                found.append(f"{ref} holds {held}, the table's record says {says}")
    for player, says in stacks.items():  # a stack the ledger never had an account for
        ref = AccountRef.stack(table_id, player, settings.currency)
        if ref not in balances and says:
            found.append(f"{ref} holds 0, the table's record says {says}")
    return found
