"""What a room's process keeps over a restart (migration 0009): kept while the server
runs and when it stops, each value replacing the last, read when it starts, on SQLite
and PostgreSQL."""

from __future__ import annotations

from typing import Any

from cardroom.room.integrity import HandObservation, IntegrityMonitor
from cardroom.room.integrity import RaiseResponse as Faced
from cardroom.room.integrity_rules import FoldPattern
from cardroom.store.room_memory import RoomMemories


def test_a_new_memory_replaces_the_one_kept_and_reading_it_leaves_it(db: Any) -> None:
    memories = RoomMemories(db.engine)
    assert memories.read("integrity") is None
    memories.keep("integrity", {"v": 1, "n": [1, 2, 3]})
    memories.keep("integrity", {"v": 1, "n": [4]})  # the last kept
    memories.keep("other", {"x": "y"})
    assert memories.read("integrity") == {"v": 1, "n": [4]}
    # Still there: a start that crashes before it keeps anything loses nothing more.
    assert memories.read("integrity") == {"v": 1, "n": [4]}
    assert memories.read("other") == {"x": "y"}


def test_two_keeps_at_once_both_succeed_and_one_wins(db: Any) -> None:
    # The room keeps its counts as it runs and as it stops: the two may meet.
    import threading

    memories = RoomMemories(db.engine)
    memories.keep("integrity", {"v": 1, "n": [0]})
    errors: list[BaseException] = []

    def keep(n: int) -> None:
        try:
            for _ in range(20):
                memories.keep("integrity", {"v": 1, "n": [n]})
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=keep, args=(n,)) for n in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert memories.read("integrity") in ({"v": 1, "n": [1]}, {"v": 1, "n": [2]})


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
    taken = RoomMemories(db.engine).read("integrity")
    assert taken == memory
    again = IntegrityMonitor([rule])
    assert again.recall(taken) == [rule.name]
    assert again.tracked_pairs == monitor.tracked_pairs > 500
