"""The store's table records: a table step (entries, snapshot, money) is one transaction."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import DBAPIError

from cardroom.ledger import AccountRef, Currency, InsufficientFunds, Reason, Transfer
from cardroom.store import RecordError, SqlLedger, StoreError, make_engine, upgrade
from cardroom.store.tables import TableRecords, TableStep


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    made = make_engine(database_url)
    upgrade(made)
    yield made
    made.dispose()


def _buy_in(player: str, amount: int, key: str) -> Transfer:
    return Transfer(
        key,
        Reason.BUY_IN,
        AccountRef.player(player, Currency.PLAY),
        AccountRef.stack("t1", player, Currency.PLAY),
        amount,
    )


def test_a_step_stores_entries_snapshot_and_money_together_or_not_at_all(engine: Engine) -> None:
    records, ledger = TableRecords(engine), SqlLedger(engine)
    records.open("t1", {"games": []})
    ledger.post(
        Transfer("d1", Reason.DEPOSIT, AccountRef.cashier(Currency.PLAY),
                 AccountRef.player("7", Currency.PLAY), 100)
    )  # fmt: skip
    seated = {"v": 1, "type": "PlayerSeated", "player": "7", "seat": 0}
    records.commit(
        "t1", 1, [seated], snapshot=(0, {"seats": [None]}), transfers=[_buy_in("7", 60, "b1")]
    )
    # A step whose money is refused stores nothing of itself.
    with pytest.raises(InsufficientFunds):
        records.commit("t1", 2, [seated], transfers=[_buy_in("7", 60, "b2")])
    record = records.load("t1")
    assert record is not None and record.snapshot == {"seats": [None]}
    assert record.entries == [(1, seated)] and record.last_seq == 1
    assert ledger.balance(AccountRef.player("7", Currency.PLAY)) == 40
    # The record continues exactly where it is, never with a gap or twice.
    for first in (1, 3):
        with pytest.raises(RecordError, match="continues at 2"):
            records.commit("t1", first, [seated])
    assert records.open_tables() == ["t1"]
    records.close("t1")
    assert records.open_tables() == []


def test_table_entries_are_append_only(engine: Engine) -> None:
    records = TableRecords(engine)
    records.open("t1", {})
    records.commit("t1", 1, [{"v": 1, "type": "HandDealt", "hand_no": 1}])
    assert records.hands("t1")["t1"].dealt == [1]
    for statement in ("DELETE FROM table_entries", "UPDATE table_entries SET seq = 5"):
        with pytest.raises(DBAPIError, match="append-only"), engine.begin() as conn:
            conn.execute(text(statement))
    with pytest.raises((RecordError, StoreError)):
        records.commit("t1", 2, [{"v": 1, "type": "X", "bad": float("nan")}])


@pytest.mark.parametrize("bad", [float("nan"), object(), {1, 2}])
def test_only_plain_json_is_stored(engine: Engine, bad: object) -> None:
    records = TableRecords(engine)
    records.open("t1", {})
    with pytest.raises(RecordError, match="plain JSON"):
        records.commit("t1", 1, [{"v": 1, "type": "HandDealt"}, {"v": 1, "type": "X", "x": bad}])
    record = records.load("t1")
    assert record is not None and record.entries == []


def test_a_group_commit_stores_every_step_or_none_money_included(engine: Engine) -> None:
    """Mutation audit (docs/money_audit.md, B3, B4): a group commit may hold two steps of
    one table (the second continues where the first ends), and a group one of whose steps
    is refused stores nothing, not even the money another step moved."""
    records, ledger = TableRecords(engine), SqlLedger(engine)
    for table in ("t1", "t2"):
        records.open(table, {"games": []})
    ledger.post(
        Transfer("d1", Reason.DEPOSIT, AccountRef.cashier(Currency.PLAY),
                 AccountRef.player("7", Currency.PLAY), 100)
    )  # fmt: skip
    seated = {"v": 1, "type": "PlayerSeated", "player": "7", "seat": 0}
    records.commit_all(
        [TableStep("t1", 1, [seated, seated]), TableStep("t1", 3, [seated]),
         TableStep("t2", 1, [seated])]
    )  # fmt: skip
    record = records.load("t1")
    assert record is not None and [seq for seq, _ in record.entries] == [1, 2, 3]
    with pytest.raises(RecordError, match="t2 continues at 2"):
        records.commit_all(
            [TableStep("t1", 4, [seated], transfers=[_buy_in("7", 60, "b1")]),
             TableStep("t2", 5, [seated])]
        )  # fmt: skip
    assert ledger.balance(AccountRef.player("7", Currency.PLAY)) == 100
    assert ledger.entry_for_key("b1") is None
    record = records.load("t1")
    assert record is not None and record.last_seq == 3
