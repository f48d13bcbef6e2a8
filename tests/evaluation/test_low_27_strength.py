"""``low_27_strength`` (the showdown's strength-only 2-7 path) against ``low_27()``.

Size: ``CARDROOM_LOW27_HANDS`` random hands (CI default below; the full run used 300000).
"""

from __future__ import annotations

import os
import random

import pytest

from cardroom.cards import parse_cards
from cardroom.evaluation.hand_value import EvaluationError
from cardroom.evaluation.lowball import low_27, low_27_strength, low_27_value

HANDS = int(os.environ.get("CARDROOM_LOW27_HANDS", "20000"))


def test_random_hands_match_the_reference() -> None:
    rng = random.Random(27)
    for _ in range(HANDS):
        cards = rng.sample(range(52), rng.choice((5, 5, 5, 6, 7)))
        assert low_27_strength(cards) == low_27(cards).strength, cards


def test_naming_from_the_strength_gives_the_reference_value() -> None:
    rng = random.Random(72)
    for _ in range(HANDS // 4):
        cards = rng.sample(range(52), rng.choice((5, 6, 7)))
        assert low_27_value(low_27_strength(cards), cards) == low_27(cards), cards


def test_wheel_is_ace_high_and_straights_count_against() -> None:
    best = low_27_strength(parse_cards("7h 5d 4c 3s 2h"))
    wheel = low_27_strength(parse_cards("Ah 5d 4c 3s 2h"))
    straight = low_27_strength(parse_cards("6h 5d 4c 3s 2h"))
    assert best > wheel and best > straight
    assert wheel > low_27_strength(parse_cards("Ah Kd 4c 3s 2h"))


def test_wrong_count_raises_the_reference_error() -> None:
    with pytest.raises(EvaluationError):
        low_27_strength(parse_cards("7h 5d 4c 3s"))


def test_no_pair_lows_are_named_as_the_high_reading_names_them() -> None:
    # The no-pair fast path of the naming (cached names, cards high to low) against
    # the general path: the standard high value of the same five cards, read as a low.
    from cardroom.cards import RANKS, Card
    from cardroom.evaluation.high import value_of_strength
    from cardroom.evaluation.lowball import LOW_TOP
    from cardroom.evaluation.naming import low_ranks_text

    rng = random.Random(2727)
    checked = 0
    for _ in range(HANDS // 4):
        five = tuple(Card(c) for c in rng.sample(range(52), 5))
        value = low_27(five)
        code = LOW_TOP - value.strength
        if code >> 20:
            continue  # a pair or worse: named by the general path
        high = value_of_strength(code, five)
        ranks = [c >> 2 for c in high.cards]
        assert value.cards == high.cards, five
        assert (value.category, value.name) == (
            f"{RANKS[ranks[0]]} low",
            f"{low_ranks_text(ranks)} low",
        ), five
        checked += 1
    assert checked > HANDS // 20  # most random five-card hands have no pair
    wheel = low_27(parse_cards("Ah 5d 4c 3s 2h"))
    assert wheel.name == "A-5-4-3-2 low" and wheel.category == "A low"
