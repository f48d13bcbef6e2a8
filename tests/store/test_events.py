"""The hand event log: ordered, append-only, plain JSON."""

from __future__ import annotations

from typing import Any

import pytest

from cardroom.store import EventLogError, HandEventLog


def test_events_come_back_in_order(db: Any, clock: Any) -> None:
    log = HandEventLog(db.engine, clock)
    assert log.append("h1", [{"type": "post", "seat": 1, "amount": 5}]) == [1]
    assert log.append("h1", [{"type": "deal"}, {"type": "fold", "seat": 2}]) == [2, 3]
    log.append("h2", [{"type": "post", "cards": ["As", "Kd"], "nested": {"a": [1, None]}}])
    assert [e["type"] for e in log.read("h1")] == ["post", "deal", "fold"]
    assert log.read("h2") == [{"type": "post", "cards": ["As", "Kd"], "nested": {"a": [1, None]}}]
    assert log.read("nope") == []


def test_a_writer_that_lost_track_cannot_skip_or_repeat(db: Any) -> None:
    log = HandEventLog(db.engine)
    log.append("h1", [{"n": 1}, {"n": 2}], first_seq=1)
    with pytest.raises(EventLogError, match="continues at 3, not 2"):
        log.append("h1", [{"n": 2}], first_seq=2)
    with pytest.raises(EventLogError, match="continues at 3, not 4"):
        log.append("h1", [{"n": 4}], first_seq=4)
    assert log.append("h1", [{"n": 3}], first_seq=3) == [3]
    assert [e["n"] for e in log.read("h1")] == [1, 2, 3]


@pytest.mark.parametrize("event", [{"x": float("nan")}, {"x": object()}, {"x": {1, 2}}])
def test_only_plain_json_is_stored(db: Any, event: dict[str, Any]) -> None:
    log = HandEventLog(db.engine)
    with pytest.raises(EventLogError, match="plain JSON"):
        log.append("h1", [{"ok": 1}, event])
    assert log.read("h1") == []
    with pytest.raises(EventLogError, match="hand id"):
        log.append("", [{"ok": 1}])
