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
