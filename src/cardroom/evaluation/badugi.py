"""Badugi: four cards, ace low; the largest set of different ranks and suits plays.

More cards beat fewer; among equal counts the lower top card wins, then the
next, and so on; suits never rank. Strength: ``size << 16 | (0xFFFF - packed)``
where ``packed`` holds the used ranks (ace = 0 .. king = 12) highest first,
four bits each, left-aligned, so larger is better.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

from cardroom.cards import Card
from cardroom.evaluation.hand_value import HandValue, checked_cards
from cardroom.evaluation.naming import low_ranks_text

_SIZE_WORDS = ("", "one-card", "two-card", "three-card", "four-card")


def _ace_low(card: int) -> int:
    return ((card >> 2) + 1) % 13


def _is_badugi(cards: Sequence[Card]) -> bool:
    return len({c >> 2 for c in cards}) == len(cards) == len({c & 3 for c in cards})


def _strength(cards: Sequence[Card]) -> int:
    packed = 0
    for c in cards:
        packed = packed << 4 | _ace_low(c)
    packed <<= 4 * (4 - len(cards))
    return len(cards) << 16 | (0xFFFF - packed)


def badugi(cards: Iterable[int]) -> HandValue:
    """Rank four cards as a Badugi hand."""
    hand = checked_cards(cards, 4, 4, what="badugi hand")
    best: tuple[int, tuple[Card, ...]] | None = None
    for size in range(4, 0, -1):
        for subset in combinations(hand, size):
            if _is_badugi(subset):
                ordered = tuple(sorted(subset, key=_ace_low, reverse=True))
                candidate = (_strength(ordered), ordered)
                if best is None or candidate[0] > best[0]:
                    best = candidate
        if best is not None:
            break
    assert best is not None  # any single card is a one-card badugi
    strength, used = best
    text = low_ranks_text([c >> 2 for c in used])
    if len(used) == 4:
        return HandValue(strength, "Badugi", f"badugi {text}", used)
    words = _SIZE_WORDS[len(used)]
    return HandValue(strength, words.capitalize() + " badugi", f"{words} badugi {text}", used)
