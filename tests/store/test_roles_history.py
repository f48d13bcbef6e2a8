"""Player roles (migration 0005), sanction details, and reading the tables' records back
(a player's hands, logs by kind, notes), on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import event

from cardroom.cli import main
from cardroom.store import AccountError, Players, SanctionKind, audit_trail, migrate
from cardroom.store.database import make_engine
from cardroom.store.history import TableHistory
from cardroom.store.models import TableEntry
from cardroom.store.tables import TableRecords


def _player(db: Any, cheap_passwords: Any, alias: str) -> Players:
    players = Players(db.engine, passwords=cheap_passwords)
    players.register(alias, "a fine password", age_confirmed=True)
    return players


def test_roles_default_to_player_and_grants_are_audited(db: Any, cheap_passwords: Any) -> None:
    players = _player(db, cheap_passwords, "Robin1")
    info = players.get("Robin1")
    assert players.role(info.id) == "player"
    players.set_role("robin1", "operator", operator="root")
    assert players.role(info.id) == "operator"
    assert [r.action for r in audit_trail(db.engine, "Robin1")][-1] == "set_role"
    with pytest.raises(AccountError, match="no role"):
        players.set_role("Robin1", "king", operator="root")
    assert players.role(999_999) == "player" and players.role(-1) == "player"


def test_the_cli_grants_the_operator_role(db: Any, cheap_passwords: Any, capsys: Any) -> None:
    players = _player(db, cheap_passwords, "Boss7")
    assert main(["account", "role", "Boss7", "operator", "--db", db.url]) == 0
    assert "operator" in capsys.readouterr().out
    assert players.role(players.get("Boss7").id) == "operator"


def test_sanctions_in_force_list_kind_reason_and_end(db: Any, cheap_passwords: Any) -> None:
    players = _player(db, cheap_passwords, "Rowdy")
    first = players.sanction("Rowdy", SanctionKind.FREEZE, operator="op", reason="chargeback")
    players.sanction("Rowdy", SanctionKind.CHAT_BAN, operator="op", duration=timedelta(hours=2))
    found = players.sanctions_in_force("Rowdy")
    assert [(s.kind, s.reason) for s in found] == [
        (SanctionKind.FREEZE, "chargeback"),
        (SanctionKind.CHAT_BAN, ""),
    ]
    assert found[0].ends_at is None and found[1].ends_at is not None
    players.lift(first, operator="op")
    assert [s.kind for s in players.sanctions_in_force("Rowdy")] == [SanctionKind.CHAT_BAN]


def _entry(kind: str, **fields: Any) -> dict[str, Any]:
    return {"v": 1, "type": kind, **fields}


def test_a_player_s_hands_are_found_from_the_seating_and_the_deals(db: Any) -> None:
    records = TableRecords(db.engine)
    entries = [
        _entry("PlayerSeated", player="7", seat=1),  # 1
        _entry("HandDealt", hand_no=1, dealt=[0, 1]),  # 2
        _entry("HandFinished", hand_no=1),  # 3
        _entry("HandDealt", hand_no=2, dealt=[0, 2]),  # 4: seat 1 sat out
        _entry("HandFinished", hand_no=2),  # 5
        _entry("HandDealt", hand_no=3, dealt=[0, 1]),  # 6
        _entry("HandVoided", hand_no=3),  # 7
        _entry("PlayerLeft", player="7", seat=1),  # 8
        _entry("PlayerSeated", player="8", seat=1),  # 9: someone else in the seat
        _entry("HandDealt", hand_no=4, dealt=[0, 1]),  # 10
    ]
    records.commit("t1", 1, entries)
    history = TableHistory(db.engine)
    hands = history.hands_of("7")
    assert [(h.hand_no, h.seat, h.first_seq, h.last_seq) for h in hands] == [
        (3, 1, 6, 7),
        (1, 1, 2, 3),
    ]
    assert [(h.hand_no, h.last_seq) for h in history.hands_of("8")] == [(4, None)]
    assert history.hands_of("9") == []
    assert [e["type"] for e in history.span("t1", 2, 3)] == ["HandDealt", "HandFinished"]


def test_logs_by_kind_page_by_row_id_and_filter_by_table(db: Any) -> None:
    records = TableRecords(db.engine)
    records.commit("a", 1, [_entry("Disconnected", seat=0), _entry("ChatSaid", text="hi")])
    records.commit("b", 1, [_entry("Disconnected", seat=3), _entry("Reconnected", seat=3)])
    history = TableHistory(db.engine)
    every = history.by_kind(["Disconnected", "Reconnected"])
    assert [(r.table_id, r.kind) for r in every] == [
        ("a", "Disconnected"),
        ("b", "Disconnected"),
        ("b", "Reconnected"),
    ]
    after = history.by_kind(["Disconnected", "Reconnected"], after_id=every[0].id, limit=1)
    assert [(r.table_id, r.kind) for r in after] == [("b", "Disconnected")]
    assert [r.entry["seat"] for r in history.by_kind(["Disconnected"], table_id="b")] == [3]
    assert history.by_kind(["Disconnected"], after_id=2**70) == []  # no overflow


def test_notes_are_the_audit_records_of_some_actions(db: Any) -> None:
    records = TableRecords(db.engine)
    records.note("server:chat", "chat_offence", "Rude1", table="t", code="advertising")
    records.note("Kind2", "report", "Rude1", table="t", reason="chat_abuse")
    history = TableHistory(db.engine)
    notes = history.notes(["chat_offence", "report"])
    assert [(n.action, n.subject) for n in notes] == [
        ("chat_offence", "Rude1"),
        ("report", "Rude1"),
    ]
    assert notes[1].detail["reason"] == "chat_abuse"
    assert history.notes(["report"], after_id=notes[1].id) == []


def test_play_topups_stop_at_the_ceiling_once_per_key(db: Any, cheap_passwords: Any) -> None:
    from cardroom.ledger import Currency
    from cardroom.store import Cashier
    from cardroom.store.topups import PlayTopUps

    players = _player(db, cheap_passwords, "Topper")
    topups, cashier = PlayTopUps(db.engine), Cashier(db.engine)
    assert topups.top_up("Topper", key="k1", ceiling=500, amount=200) == 200
    assert topups.top_up("Topper", key="k1", ceiling=500) is None  # this key is spent
    assert topups.top_up("Topper", key="k2", ceiling=500) == 300  # up to the ceiling
    assert topups.top_up("Topper", key="k3", ceiling=500) == 0
    assert cashier.balances("Topper")[Currency.PLAY] == 500
    players.sanction("Topper", SanctionKind.FREEZE, operator="op")
    with pytest.raises(AccountError, match="frozen"):
        topups.top_up("Topper", key="k4", ceiling=900)


def test_a_player_s_hands_over_many_stints_are_read_in_a_few_queries(db: Any) -> None:
    """Each stint cost two queries, after one that read every seating of the room: a
    regular with hundreds of sit-downs (each restart stands everyone up) waited seconds
    for one hand of his history. His own seatings are now indexed (migration 0013), and
    a table's deals and ends are read for all his stints there at once."""
    records = TableRecords(db.engine)
    entries: list[dict[str, Any]] = []
    expected = []
    for n in range(1, 151):  # 150 stints at one table, more than one query's worth
        seat = n % 3
        entries.append(_entry("PlayerSeated", player="7", seat=seat))
        entries.append(_entry("PlayerSeated", player="8", seat=seat + 3))
        entries.append(_entry("HandDealt", hand_no=2 * n - 1, dealt=[seat, seat + 3]))
        entries.append(_entry("HandFinished", hand_no=2 * n - 1))
        expected.append((2 * n - 1, seat, len(entries) - 1, len(entries)))
        entries.append(_entry("PlayerLeft", player="7", seat=seat))
        entries.append(_entry("HandDealt", hand_no=2 * n, dealt=[seat + 3]))  # without him
        entries.append(_entry("HandFinished", hand_no=2 * n))
        entries.append(_entry("PlayerLeft", player="8", seat=seat + 3))
    records.commit("long", 1, entries)
    records.commit("other", 1, [_entry("PlayerSeated", player="7", seat=0)])
    history = TableHistory(db.engine)
    statements: list[str] = []

    def count(*args: Any) -> None:
        statements.append(str(args[2]))

    event.listen(db.engine, "before_cursor_execute", count)
    try:
        hands = history.hands_of("7")
    finally:
        event.remove(db.engine, "before_cursor_execute", count)
    found = sorted((h.hand_no, h.seat, h.first_seq, h.last_seq) for h in hands)
    assert found == expected
    assert [h.table_id for h in history.hands_of("7", "other")] == []
    assert len(history.hands_of("8", "long")) == 300
    # His seatings (1); at "long" the deals of 150 stints (2 queries of 100) and their
    # ends (1); at "other" its deals (1, none). It was 302: 1, then 2 a stint with a hand.
    selects = [s for s in statements if s.lstrip().upper().startswith("SELECT")]
    assert len(selects) == 5, selects


def test_migration_0013_indexes_the_seatings_already_stored(fresh_url: str) -> None:
    """A database written before migration 0013 finds its players' hands after it: the
    seatings of the stored entries are indexed by the migration (malformed ones skipped)."""
    engine = make_engine(fresh_url)
    try:
        migrate.upgrade(engine, "0012")
        now = datetime.now(UTC)
        rows = [
            ("t", 1, "PlayerSeated", {"type": "PlayerSeated", "player": "7", "seat": 2}),
            ("t", 2, "HandDealt", {"type": "HandDealt", "hand_no": 1, "dealt": [2, 4]}),
            ("t", 3, "HandFinished", {"type": "HandFinished", "hand_no": 1}),
            ("t", 4, "PlayerLeft", {"type": "PlayerLeft", "player": "7", "seat": 2}),
            ("t", 5, "PlayerSeated", {"type": "PlayerSeated", "player": 7, "seat": "x"}),
        ]
        with engine.begin() as conn:
            for table_id, seq, kind, entry in rows:
                conn.execute(
                    TableEntry.__table__.insert().values(
                        table_id=table_id, seq=seq, kind=kind, entry=entry, created_at=now,
                        hand_no=entry.get("hand_no"),
                    )
                )  # fmt: skip
        migrate.upgrade(engine)
        hands = TableHistory(engine).hands_of("7")
        assert [(h.table_id, h.hand_no, h.seat, h.first_seq, h.last_seq) for h in hands] == [
            ("t", 1, 2, 2, 3)
        ]
    finally:
        migrate.downgrade(engine, "base")
        engine.dispose()
