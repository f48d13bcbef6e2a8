"""The three-card front (top) row of Chinese poker: trips > pair > high card.

Straights and flushes do not count. The strength is on the same scale as
:func:`cardroom.evaluation.high.high` (missing ranks count as 0), so a front
row compares directly with a five-card row when checking for a foul.
"""

from __future__ import annotations

from collections.abc import Iterable

from cardroom.evaluation.hand_value import HandValue, checked_cards
from cardroom.evaluation.high import encode
from cardroom.evaluation.naming import HIGH_CATEGORIES, high_name


def front3(cards: Iterable[int]) -> HandValue:
    """Rank three cards as a Chinese poker front row."""
    hand = checked_cards(cards, 3, 3, what="front row")
    ordered = sorted(
        hand, key=lambda c: (sum(1 for d in hand if d >> 2 == c >> 2), c), reverse=True
    )
    ranks = [c >> 2 for c in ordered]
    distinct = len(set(ranks))
    category_number = {3: 0, 2: 1, 1: 3}[distinct]  # high card, pair, three of a kind
    category = HIGH_CATEGORIES[category_number]
    return HandValue(
        encode(category_number, ranks), category, high_name(category, ranks), tuple(ordered)
    )
