"""Issue 14: client ids that acted and disconnect all-ins per day live in the database,
written in the table step's own transaction (both databases)."""

from __future__ import annotations

import pytest
from tests.store.conftest import Database, ManualClock

from cardroom.room.clock import day_of
from cardroom.store import read_only
from cardroom.store.allowances import AllowanceBook, AllowanceChange, AllowanceRefused
from cardroom.store.client_ids import KEEP_SECONDS, Answered, ClientIds
from cardroom.store.tables import TableRecords


def test_client_ids_newest_kept_oldest_first_replaced_not_refused_pruned_after_a_day(
    db: Database, clock: ManualClock
) -> None:
    ids = ClientIds(db.engine, clock)
    for i in range(5):
        ids.remember([Answered("7", f"m{i}", "holdem", 10 + i)])
        clock.advance(seconds=1)
    ids.remember([Answered("8", "m0", "stud", 3)])  # ids are per account
    assert [a.client_id for a in ids.recent("7", 3)] == ["m2", "m3", "m4"]
    assert ids.recent("8", 10) == [Answered("8", "m0", "stud", 3)]
    # An id sent again after the server forgot it: its row is replaced, the step not refused.
    ids.remember([Answered("7", "m0", "draw", 99)])
    assert ids.recent("7", 1) == [Answered("7", "m0", "draw", 99)]
    clock.advance(seconds=KEEP_SECONDS)
    assert ids.prune() == 4  # m1..m4 are now older than a day; m0 (written again) is not
    assert [a.client_id for a in ids.recent("7", 10)] == ["m0"]
    assert len(ids.recent("8", 10)) == 1


def test_one_client_id_is_found_by_account_and_id_for_a_day(
    db: Database, clock: ManualClock
) -> None:
    ids = ClientIds(db.engine, clock)
    ids.remember([Answered("7", "JOIN-1", "holdem", 12), Answered("8", "JOIN-2", "stud", 3)])
    reader = ClientIds(read_only(db.engine), clock)  # as the server looks ids up
    assert reader.find("7", "JOIN-1") == Answered("7", "JOIN-1", "holdem", 12)
    assert reader.find("8", "JOIN-1") is None  # ids are per account
    assert reader.find("7", "nope") is None
    clock.advance(seconds=KEEP_SECONDS + 1)
    assert reader.find("7", "JOIN-1") is None  # forgotten after a day, pruned or not


def test_disconnect_all_ins_are_guarded_by_the_limit_they_were_granted_under(
    db: Database, clock: ManualClock
) -> None:
    book = AllowanceBook(db.engine, clock)
    day = day_of(clock().timestamp())
    use = AllowanceChange("7", day, False, 2)
    reset = AllowanceChange("7", day, True, 1)
    assert book.of("7", day) == (0, 0)
    book.spend([use])
    book.spend([use])
    assert book.of("7", day) == (2, 0)
    with pytest.raises(AllowanceRefused):
        book.spend([use])  # another table granted the day's last one first
    book.spend([reset])
    assert book.of("7", day) == (0, 1)
    with pytest.raises(AllowanceRefused):
        book.spend([reset])  # one reset a day
    with pytest.raises(AllowanceRefused):
        book.spend([AllowanceChange("8", day, False, 0)])  # none allowed at all
    book.spend([AllowanceChange("8", day, True, 1)])  # a reset before any use
    assert book.day(day) == {"7": (0, 1), "8": (0, 1)}
    assert book.day(day, ["8"]) == {"8": (0, 1)} and book.day(day, []) == {}
    book.spend([AllowanceChange("7", day - 7, False, 2)])
    assert book.prune(day) == 1 and book.of("7", day - 7) == (0, 0)


def test_a_step_refused_for_its_allowance_stores_nothing_not_even_its_client_ids(
    db: Database, clock: ManualClock
) -> None:
    records, book, ids = (
        TableRecords(db.engine, clock),
        AllowanceBook(db.engine),
        ClientIds(db.engine, clock),
    )
    day = day_of(clock().timestamp())
    records.open("t-ids-allowances", {"any": "settings"})
    used = AllowanceChange("7", day, False, 1)
    entry = {"type": "DisconnectAllInUsed", "player": "7", "day": day}
    records.commit(
        "t-ids-allowances",
        1,
        [entry],
        allowances=[used],
        answered=[Answered("7", "a", "t-ids-allowances", 1)],
    )
    assert book.of("7", day) == (1, 0) and ids.recent("7", 5) == [
        Answered("7", "a", "t-ids-allowances", 1)
    ]
    with pytest.raises(AllowanceRefused):
        records.commit(
            "t-ids-allowances",
            2,
            [entry],
            allowances=[used],
            answered=[Answered("9", "b", "t-ids-allowances", 2)],
        )
    assert records.load("t-ids-allowances").last_seq == 1  # type: ignore[union-attr]
    assert ids.recent("9", 5) == [] and book.of("7", day) == (1, 0)
