"""The Short Deck table strength (``evaluation.short_deck_fast``) against ``short_deck()``.

The reference is the table-free category search of :mod:`cardroom.evaluation.high`;
both ranking orders (straight over trips by default, trips over straight as the
table option) are checked on random hands, on flush-heavy hands and on hands
built to hold a straight beside three of a kind. Size: ``CARDROOM_SHORT_DECK_HANDS``
random hands per order (CI default below; the full run used 300000).
"""

from __future__ import annotations

import os
import random

import pytest

from cardroom.cards import SHORT_DECK_CARDS, parse_cards
from cardroom.evaluation.hand_value import EvaluationError
from cardroom.evaluation.high import short_deck
from cardroom.evaluation.short_deck_fast import short_deck_strength

HANDS = int(os.environ.get("CARDROOM_SHORT_DECK_HANDS", "20000"))
DECK = [int(c) for c in SHORT_DECK_CARDS]


@pytest.mark.parametrize("trips", [False, True])
def test_random_hands_match_the_reference(trips: bool) -> None:
    rng = random.Random(31 + trips)
    for _ in range(HANDS):
        cards = rng.sample(DECK, rng.choice((5, 6, 7, 7)))
        assert short_deck_strength(cards, trips) == short_deck(cards, trips).strength, cards


@pytest.mark.parametrize("trips", [False, True])
def test_flush_heavy_hands_match_the_reference(trips: bool) -> None:
    rng = random.Random(41 + trips)
    pool = [c for c in DECK if c & 3 in (1, 2)]
    for _ in range(HANDS // 4):
        cards = rng.sample(pool, 7)
        assert short_deck_strength(cards, trips) == short_deck(cards, trips).strength, cards


def test_the_ranking_option_swaps_straight_and_trips() -> None:
    straight = parse_cards("Ah 6h 7c 8d 9s Ts Tc")  # A-6-7-8-9 beside a pair of tens
    trips = parse_cards("Kh Kd Kc 6s 8h 9c Jd")
    assert short_deck_strength(straight) > short_deck_strength(trips)
    assert short_deck_strength(straight, True) < short_deck_strength(trips, True)
    flush = parse_cards("Ah Jh 9h 8h 6h 6c 6d")
    full_house = parse_cards("Ah Ad Ac Kh Kd 6c 7d")
    assert short_deck_strength(flush) > short_deck_strength(full_house)


def test_bad_input_raises_the_reference_error() -> None:
    with pytest.raises(EvaluationError):
        short_deck_strength(parse_cards("2h 6h 7c 8d 9s"))
    with pytest.raises(EvaluationError):
        short_deck_strength(parse_cards("Ah 6h 7c 8d"))


def test_a_flush_holding_a_card_below_six_is_refused_too() -> None:
    # §1 the Short Deck has no deuce to five: the flush table must not know such a suit.
    with pytest.raises(EvaluationError):
        short_deck_strength(parse_cards("5h 7h 8h 9h Jh"))
