"""What a room's process keeps over a restart (migration 0009): kept when the server
stops, taken once when it starts, on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

from cardroom.room.integrity import FoldPattern, HandObservation, IntegrityMonitor
from cardroom.room.integrity import RaiseResponse as Faced
from cardroom.store.room_memory import RoomMemories


def test_a_kept_memory_is_taken_once_and_a_new_one_replaces_it(db: Any) -> None:
    memories = RoomMemories(db.engine)
    assert memories.take("integrity") is None
    memories.keep("integrity", {"v": 1, "n": [1, 2, 3]})
    memories.keep("integrity", {"v": 1, "n": [4]})  # the last stop's
    memories.keep("other", {"x": "y"})
    assert memories.take("integrity") == {"v": 1, "n": [4]}
    assert memories.take("integrity") is None  # taken: a later start finds none
    assert memories.take("other") == {"x": "y"}


def test_an_integrity_monitor_s_memory_reads_back_from_the_database(db: Any) -> None:
    # Hundreds of pairs with 300-hand windows (a fold window is a 300-bit number,
    # written in hex): what a stopped room keeps, read back the same.
    rule = FoldPattern(window=300, threshold=12, min_share_percent=90)
    monitor = IntegrityMonitor([rule])
    for n in range(400):
        faced = tuple(Faced(f"p{n % 60}", f"p{(n * 7 + k) % 60}", k % 2 == 0) for k in range(12))
        monitor.observe_hand(HandObservation(f"t{n % 9}#{n}", faced, at=1_000.0 + n))
    memory = monitor.memory()
    RoomMemories(db.engine).keep("integrity", memory)
    taken = RoomMemories(db.engine).take("integrity")
    assert taken == memory
    again = IntegrityMonitor([rule])
    assert again.recall(taken) == [rule.name]
    assert again.tracked_pairs == monitor.tracked_pairs > 500
