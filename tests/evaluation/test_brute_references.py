"""Differential tests against plain brute-force references written here, independently.

Each reference ranks five cards by a key tuple built straight from the rule's
words (ranks 2..14, categories in their printed order) and takes the best over
every five-card subset; the evaluator must order random hands exactly as the
reference does, ties included. This covers the families PokerKit lacks (Soko,
three-card fronts, Short Deck with trips over straights) and re-checks the
others. eval7 (an independent C evaluator) checks standard high at volume.

Size: ``CARDROOM_DIFF_HANDS`` (hands per family = 4x that, the references are quick).
"""

from __future__ import annotations

import itertools
import os
import random
import warnings
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from cardroom.cards import CARDS, SHORT_DECK_CARDS, Card
from cardroom.evaluation import front3, high, short_deck, soko

with warnings.catch_warnings():  # eval7's range parser uses deprecated pyparsing names
    warnings.simplefilter("ignore", DeprecationWarning)
    import eval7

HANDS = 4 * int(os.environ.get("CARDROOM_DIFF_HANDS", "2500"))

Key = tuple[Any, ...]

STANDARD_ORDER = [
    "high card", "pair", "two pair", "trips", "straight", "flush",
    "full house", "quads", "straight flush",
]  # fmt: skip
SHORT_ORDER = [
    "high card", "pair", "two pair", "trips", "straight", "full house",
    "flush", "quads", "straight flush",
]  # fmt: skip
SHORT_TRIPS_ORDER = [
    "high card", "pair", "two pair", "straight", "trips", "full house",
    "flush", "quads", "straight flush",
]  # fmt: skip
SOKO_ORDER = [
    "high card", "pair", "4-straight", "4-flush", "two pair", "trips", "straight",
    "flush", "full house", "quads", "straight flush",
]  # fmt: skip


def value(card: Card) -> int:
    """2..14, the ace high."""
    return card.rank + 2


def straight_top(values: set[int], low_ace_straight: set[int], length: int = 5) -> int | None:
    """Top card of the highest run of ``length`` consecutive values, ace low in one run only."""
    for top in range(14, length, -1):
        if all(v in values for v in range(top - length + 1, top + 1)):
            return top
    if low_ace_straight <= values:
        return max(low_ace_straight - {14})
    return None


def classify(five: Sequence[Card], short: bool) -> tuple[str, tuple[int, ...]]:
    """Category name and tie-break values of five cards in standard or Short Deck terms."""
    values = sorted((value(c) for c in five), reverse=True)
    counts = Counter(values)
    by_count = tuple(sorted(values, key=lambda v: (counts[v], v), reverse=True))
    flush = len({c.suit for c in five}) == 1
    wheel = {14, 6, 7, 8, 9} if short else {14, 2, 3, 4, 5}
    top = straight_top(set(values), wheel) if len(counts) == 5 else None
    if top and flush:
        return "straight flush", (top,)
    shape = sorted(counts.values(), reverse=True)
    if shape[0] == 4:
        return "quads", by_count
    if shape == [3, 2]:
        return "full house", by_count
    if flush:
        return "flush", tuple(values)
    if top:
        return "straight", (top,)
    if shape[0] == 3:
        return "trips", by_count
    if shape == [2, 2, 1]:
        return "two pair", by_count
    return ("pair" if shape[0] == 2 else "high card"), by_count


def ref_high(cards: Sequence[Card], order: list[str], short: bool = False) -> Key:
    best: Key = ()
    for five in itertools.combinations(cards, 5):
        category, tie = classify(five, short)
        best = max(best, (order.index(category), tie))
    return best


def ref_soko(five: Sequence[Card]) -> Key:
    """Soko per RULEBOOK §2, read as documented in cardroom.evaluation.soko."""
    category, tie = classify(five, short=False)
    if category not in ("pair", "high card"):
        return SOKO_ORDER.index(category), tie
    suits = Counter(c.suit for c in five)
    suit, n = suits.most_common(1)[0]
    if n == 4:
        four = sorted((value(c) for c in five if c.suit == suit), reverse=True)
        odd = [value(c) for c in five if c.suit != suit]
        return SOKO_ORDER.index("4-flush"), (*four, *odd)
    values = {value(c) for c in five}
    top = straight_top(values, {14, 2, 3, 4}, length=4)
    if top is not None:
        run = set(range(top - 3, top + 1)) if top != 4 else {14, 2, 3, 4}
        odd = [value(c) for c in five if value(c) not in run]
        if len(odd) == 0:  # a pair inside the run: the odd card is the paired one
            odd = [v for v, k in Counter(value(c) for c in five).items() if k == 2]
        return SOKO_ORDER.index("4-straight"), (top, *odd)
    return SOKO_ORDER.index(category), tie


def ref_front(three: Sequence[Card]) -> Key:
    values = [value(c) for c in three]
    counts = Counter(values)
    shape = max(counts.values())
    return shape, tuple(sorted(values, key=lambda v: (counts[v], v), reverse=True))


def assert_same_order(
    ours: Callable[[Sequence[Card]], int], reference: Callable[[Sequence[Card]], Any], hands: Any
) -> None:
    """Sorted by ours, every neighbour pair must be ordered (or tied) the same by the reference."""
    rows = sorted(((ours(h), reference(h), h) for h in hands), key=lambda row: row[0])
    for (s1, k1, h1), (s2, k2, h2) in itertools.pairwise(rows):
        assert (s1 == s2) == (k1 == k2) and (s1 < s2) == (k1 < k2), (h1, h2, k1, k2)


def deal(deck: Sequence[Card], size: int, n: int, seed: str) -> list[tuple[Card, ...]]:
    rng = random.Random(seed)
    return [tuple(rng.sample(list(deck), size)) for _ in range(n)]


SUITED = tuple(c for c in CARDS if c.suit < 2 and c.rank not in (5, 6, 7))
SHORT_SUITED = tuple(c for c in SHORT_DECK_CARDS if c.suit < 2)
FEW_RANKS = tuple(c for c in CARDS if c.rank in (0, 1, 2, 3, 11, 12))
SOKO_DENSE = tuple(c for c in CARDS if c.rank in (0, 1, 2, 3, 8, 9, 10, 11, 12))


@pytest.mark.slow
@pytest.mark.parametrize(("deck", "size"), [(CARDS, 5), (CARDS, 7), (SUITED, 7), (FEW_RANKS, 6)])
def test_high_matches_reference(deck: Sequence[Card], size: int) -> None:
    hands = deal(deck, size, HANDS // 4, f"high-{size}-{len(deck)}")
    assert_same_order(lambda h: high(h).strength, lambda h: ref_high(h, STANDARD_ORDER), hands)


@pytest.mark.slow
@pytest.mark.parametrize("trips", [False, True])
@pytest.mark.parametrize("deck", [SHORT_DECK_CARDS, SHORT_SUITED])
def test_short_deck_matches_reference(trips: bool, deck: Sequence[Card]) -> None:
    order = SHORT_TRIPS_ORDER if trips else SHORT_ORDER
    hands = deal(deck, 7, HANDS // 4, f"short-{trips}-{len(deck)}")
    assert_same_order(
        lambda h: short_deck(h, trips_beat_straight=trips).strength,
        lambda h: ref_high(h, order, short=True),
        hands,
    )


@pytest.mark.slow
@pytest.mark.parametrize("deck", [CARDS, SUITED, SOKO_DENSE, FEW_RANKS])
def test_soko_matches_reference(deck: Sequence[Card]) -> None:
    hands = deal(deck, 5, HANDS, f"soko-{len(deck)}")
    assert_same_order(lambda h: soko(h).strength, ref_soko, hands)


def test_front3_matches_reference_on_every_rank_pattern() -> None:
    hands = deal(CARDS, 3, HANDS, "front") + deal(FEW_RANKS, 3, HANDS // 4, "front-few")
    assert_same_order(lambda h: front3(h).strength, ref_front, hands)


@pytest.mark.slow
def test_high_matches_eval7_at_volume() -> None:
    """eval7 is a C evaluator: cheap enough to check many more seven-card hands."""
    deck = [eval7.Card(str(c)) for c in CARDS]
    hands = deal(CARDS, 7, HANDS * 2, "eval7")
    assert_same_order(
        lambda h: high(h).strength, lambda h: eval7.evaluate([deck[c] for c in h]), hands
    )
