"""Draw rules as pure functions: discards, draw order, the muck reshuffle."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.cards import CARDS, Card, parse_cards
from cardroom.games.draw import (
    DrawError,
    check_discards,
    draw_order,
    recorded_shuffle,
    replace_cards,
)


def reverse(cards: Sequence[Card]) -> list[Card]:
    return list(reversed(cards))


def test_check_discards_accepts_zero_to_all() -> None:
    hole = parse_cards("As Kd 7c 5h 2s")
    check_discards(hole, ())
    check_discards(hole, hole)


def test_check_discards_rejects_foreign_and_repeated_cards() -> None:
    hole = parse_cards("As Kd 7c 5h 2s")
    with pytest.raises(DrawError, match="not in this hand"):
        check_discards(hole, parse_cards("Qs"))
    with pytest.raises(DrawError, match="only once"):
        check_discards(hole, parse_cards("As As", allow_duplicates=True))


def test_draw_order_from_left_of_the_button_skipping_folded() -> None:
    assert draw_order([3, 4, 5, 0, 1, 2], [0, 2, 4]) == [4, 0, 2]


def test_replacements_come_from_the_stub_top() -> None:
    r = replace_cards(parse_cards("2c 3c 4c"), parse_cards("5c"), parse_cards("Ah Kh"), reverse)
    assert r.dealt == parse_cards("2c 3c")
    assert r.stub == parse_cards("4c")
    assert r.muck == parse_cards("5c Ah Kh")
    assert r.reshuffled is None


def test_reshuffle_uses_the_stub_first_and_never_the_own_discards() -> None:
    stub = parse_cards("2c")
    muck = parse_cards("3c 4c 5c")
    own = parse_cards("Ah Kh Qh")
    r = replace_cards(stub, muck, own, reverse)
    assert r.dealt == parse_cards("2c 5c 4c")
    assert r.reshuffled == parse_cards("5c 4c 3c")
    assert r.stub == parse_cards("3c")
    assert r.muck == own  # the player's discards are the new muck, for later players
    assert not set(r.dealt) & set(own)


def test_reshuffle_short_of_cards_is_an_error() -> None:
    with pytest.raises(DrawError, match="cannot deal"):
        replace_cards(parse_cards("2c"), parse_cards("3c"), parse_cards("Ah Kh Qh"), reverse)


def test_recorded_shuffle_replays_and_checks() -> None:
    muck = parse_cards("3c 4c 5c")
    r = replace_cards((), muck, parse_cards("Ah"), recorded_shuffle(parse_cards("4c 3c 5c")))
    assert r.dealt == parse_cards("4c")
    with pytest.raises(DrawError, match="recorded"):
        replace_cards((), muck, parse_cards("Ah"), recorded_shuffle(parse_cards("4c 3c 6c")))
    with pytest.raises(DrawError, match="recorded"):
        replace_cards((), muck, parse_cards("Ah"), recorded_shuffle(parse_cards("Ah")))


def test_a_recorded_top_of_the_stub_is_followed_by_the_rest_of_the_muck() -> None:
    muck = parse_cards("3c 4c 5c 6c")
    r = replace_cards((), muck, parse_cards("Ah Kh"), recorded_shuffle(parse_cards("5c")))
    assert r.dealt == parse_cards("5c 3c")
    assert r.stub == parse_cards("4c 6c")


def test_a_shuffle_that_loses_cards_is_rejected() -> None:
    with pytest.raises(DrawError, match="exactly"):
        replace_cards((), parse_cards("3c 4c"), parse_cards("Ah"), lambda cards: [cards[0]])


@settings(deadline=None)  # a loaded machine may pause one example past 200 ms
@given(st.integers(0, 2**32), st.integers(0, 20), st.integers(0, 5))
def test_cards_are_conserved_and_own_discards_never_return(seed: int, stub_n: int, n: int) -> None:
    rng = random.Random(seed)
    deck = list(CARDS)
    rng.shuffle(deck)
    own, stub, muck = deck[:n], deck[n : n + stub_n], deck[n + stub_n : n + stub_n + 10]
    r = replace_cards(stub, muck, own, lambda cards: rng.sample(list(cards), len(cards)))
    assert len(r.dealt) == n
    assert not set(r.dealt) & set(own)
    assert sorted([*r.dealt, *r.stub, *r.muck]) == sorted([*stub, *muck, *own])
