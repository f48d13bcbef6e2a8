"""``cardroom bench room``: both sides play the game and the rates are measured."""

from __future__ import annotations

import pytest

from cardroom.bench.room_bench import GAMES, engine_player, measure, room_player


def test_room_bench_measures_the_engine_and_the_room_on_the_same_game() -> None:
    rates = measure("stud", 0.05, seed=3)
    engine, room = rates["engine_hands_per_s"], rates["room_hands_per_s"]
    assert engine > 0 and room > 0
    assert abs(rates["overhead"] - (engine / room - 1)) < 0.01
    # What the room adds to a hand, as a share of the bare engine's time per hand.
    added = rates["room_us_per_hand"] - rates["engine_us_per_hand"]
    assert abs(rates["added_us_per_hand"] - added) < 0.2
    assert abs(rates["overhead"] - added / rates["engine_us_per_hand"]) < 0.01
    # The room is the table's step and the integrity review after it, timed apart.
    parts = rates["table_us_per_hand"] + rates["review_us_per_hand"]
    assert rates["review_us_per_hand"] > 0 and abs(rates["room_us_per_hand"] - parts) < 0.2
    both = rates["table_overhead"] + rates["review_overhead"]
    assert abs(rates["overhead"] - both) < 0.01


@pytest.mark.parametrize(("game", "review"), [(g, True) for g in GAMES] + [("holdem", False)])
def test_room_bench_both_sides_play_the_same_hands(game: str, review: bool) -> None:
    # Like with like: hand n is dealt from the same deck, with the same button, stacks
    # and decisions on the bare engine and at the table (the table names its blind seats),
    # with or without the room's integrity review after each hand.
    engine, room = engine_player(game, 5), room_player(game, 5, review=review)
    for _ in range(12):
        bare, tabled = engine(), room()
        assert bare.events[0].seats == tabled.events[0].seats  # type: ignore[union-attr]
        assert bare.events[1:] == tabled.events[1:]
        assert bare.stacks == tabled.stacks
