"""``cardroom bench room``: both sides play the game and the rates are measured."""

from __future__ import annotations

from cardroom.bench.room_bench import measure


def test_room_bench_measures_the_engine_and_the_room_on_the_same_game() -> None:
    rates = measure("stud", 0.05, seed=3)
    engine, room = rates["engine_hands_per_s"], rates["room_hands_per_s"]
    assert engine > 0 and room > 0
    assert abs(rates["overhead"] - (engine / room - 1)) < 0.01
