"""The stored reports read back for the report cooldown (RULEBOOK §10.7), on SQLite and
PostgreSQL: the latest report of a pair at a table, within the time asked."""

from __future__ import annotations

from typing import Any

from cardroom.store.client_ids import Answered
from cardroom.store.reports import REPORT, Reports
from cardroom.store.tables import TableRecords


def test_the_last_report_of_a_pair_at_a_table_is_read_back(db: Any, clock: Any) -> None:
    records, reports = TableRecords(db.engine, clock), Reports(db.engine)
    start = clock().timestamp()
    assert reports.last("ann", "bob", "t1", start - 600) is None
    records.note("ann", REPORT, "bob", Answered("1", "r1", "t1", 0), table="t1", reason="other")
    clock.advance(seconds=30)
    records.note("ann", REPORT, "bob", None, table="t2", reason="other")  # another table
    records.note("cat", REPORT, "bob", None, table="t1", reason="other")  # another reporter
    records.note("ann", "chat_ban", "bob", None, table="t1")  # not a report
    assert reports.last("ann", "bob", "t1", start - 600) == start
    assert reports.last("ann", "bob", "t2", start - 600) == start + 30
    assert reports.last("ann", "dan", "t1", start - 600) is None
    assert reports.last("ann", "bob", "t1", start + 1) is None  # older than asked
