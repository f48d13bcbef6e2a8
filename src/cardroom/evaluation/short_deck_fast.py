"""Short Deck high strength of 5 to 7 cards by table lookup (both ranking orders).

The showdown needs only the strength integer to decide who wins; this gives
the same number as :func:`cardroom.evaluation.high.short_deck` (the
table-free reference the tests hold it to) at a fraction of the cost. It
reuses the card keys of :mod:`cardroom.evaluation.tables`: a key sum tells
whether five cards share a suit and, when none do, names the rank multiset.
With five or more cards of one suit among at most seven, the flush suit alone
decides: neither four of a kind nor a full house can beat a Short Deck flush.

>>> from cardroom.cards import parse_cards
>>> hand = parse_cards("Ah 6h 7c 8d 9s Ts Tc")
>>> short_deck_strength(hand) == short_deck_strength(hand, trips_beat_straight=True)
False
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache

from cardroom.evaluation.hand_value import EvaluationError
from cardroom.evaluation.high import SHORT_DECK, SHORT_DECK_TRIPS, HighRules, encode
from cardroom.evaluation.tables import (
    CARD_KEYS,
    FLUSH_BITS,
    FLUSH_SUIT,
    RANK_KEYS,
    RANK_SUM_BITS,
    SUIT_OFFSET,
    SUIT_SHIFT,
)

__all__ = ["short_deck_strength"]

_LOWEST = 4  # the six
_SHAPES = {
    (4, 1): "Four of a Kind",
    (3, 2): "Full House",
    (3, 1, 1): "Three of a Kind",
    (2, 2, 1): "Two Pair",
    (2, 1, 1, 1): "Pair",
}
_K = list(CARD_KEYS)


def _five(ranks: tuple[int, ...], flush: bool, rules: HighRules) -> int:
    """Strength of exactly five cards of these ranks (suited or not) under ``rules``."""
    counts = Counter(ranks)
    if len(counts) == 5:
        present = set(ranks)
        for run in rules.straights:
            if present == set(run):
                category = "Straight Flush" if flush else "Straight"
                return encode(rules.category_number(category), run)
        category = "Flush" if flush else "High Card"
        return encode(rules.category_number(category), sorted(ranks, reverse=True))
    # Reading order: by multiplicity, then rank, both descending.
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    reading = [r for r in order for _ in range(counts[r])]
    shape = tuple(sorted(counts.values(), reverse=True))
    return encode(rules.category_number(_SHAPES[shape]), reading)


def _multisets(size: int) -> list[tuple[int, ...]]:
    """Sorted rank multisets of ``size`` Short Deck ranks, no rank more than four times."""
    grown: list[tuple[int, ...]] = [()]
    for _ in range(size):
        grown = [
            (*ms, r)
            for ms in grown
            for r in range(ms[-1] if ms else _LOWEST, 13)
            if ms.count(r) < 4
        ]
    return grown


@cache
def _tables(trips_beat_straight: bool) -> tuple[dict[int, dict[int, int]], dict[int, int]]:
    """(rank-key sum -> strength by card count, flush-suit rank mask -> strength)."""
    rules = SHORT_DECK_TRIPS if trips_beat_straight else SHORT_DECK
    non_flush: dict[int, dict[int, int]] = {}
    for size in (5, 6, 7):
        table: dict[int, int] = {}
        for ranks in _multisets(size):
            total = sum(RANK_KEYS[r] for r in ranks)
            if size == 5:
                table[total] = _five(ranks, False, rules)
            else:  # the best five of n: the best over dropping each card
                smaller = non_flush[size - 1]
                table[total] = max(smaller[total - RANK_KEYS[r]] for r in set(ranks))
        non_flush[size] = table
    flush: dict[int, int] = {}
    for mask in sorted(range(1 << 13), key=int.bit_count):
        ranks = tuple(r for r in range(13) if mask >> r & 1)
        if len(ranks) < 5 or ranks[0] < _LOWEST:
            continue
        if len(ranks) == 5:
            flush[mask] = _five(ranks, True, rules)
        else:
            flush[mask] = max(flush[mask & ~(1 << r)] for r in ranks)
    return non_flush, flush


def short_deck_strength(cards: Sequence[int], trips_beat_straight: bool = False) -> int:
    """Strength of the best Short Deck hand of 5 to 7 distinct cards (sixes and up).

    Equal to ``short_deck(cards, trips_beat_straight).strength``. Cards are not
    checked on the fast path (the engine deals them): pass distinct Short Deck
    cards. A count or a card the tables do not know goes to the reference, which
    raises its :class:`EvaluationError`.
    """
    non_flush, flush = _tables(trips_beat_straight)
    key = SUIT_OFFSET
    for c in cards:
        key += _K[c]
    try:
        if key & FLUSH_BITS:
            suit = FLUSH_SUIT[(key >> SUIT_SHIFT) & 0x8888]
            mask = 0
            for c in cards:
                if c & 3 == suit:
                    mask |= 1 << (c >> 2)
            return flush[mask]
        return non_flush[len(cards)][key & RANK_SUM_BITS]
    except KeyError:
        pass
    from cardroom.evaluation.high import short_deck

    short_deck(cards, trips_beat_straight)  # raises the reference's error
    raise EvaluationError(f"cannot rank {list(cards)} as Short Deck")  # pragma: no cover
