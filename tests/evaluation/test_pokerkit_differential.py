"""Differential tests against PokerKit, an independent evaluator, for every family it has.

For each family: deal random hands, rank them with cardroom and with PokerKit,
sort by cardroom's strength and check every neighbouring pair is ordered the
same way by PokerKit (same "better" and the same ties). Both orders are total
preorders, so agreement on neighbours in the sorted list means agreement on
every pair; random pairs are compared directly as well.

Size: ``CARDROOM_DIFF_HANDS`` hands per family (CI default below); the full run
is ``CARDROOM_DIFF_HANDS=100000 python3 -m pytest tests/evaluation/test_pokerkit_differential.py``.
"""

from __future__ import annotations

import itertools
import os
import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from pokerkit import (
    BadugiHand,
    EightOrBetterLowHand,
    OmahaEightOrBetterLowHand,
    OmahaHoldemHand,
    RegularLowHand,
    ShortDeckHoldemHand,
    StandardHighHand,
    StandardLowHand,
)

from cardroom.cards import CARDS, SHORT_DECK_CARDS, Card, format_cards
from cardroom.evaluation import (
    HandValue,
    badugi,
    get_evaluator,
    high,
    low_27,
    low_a5,
    omaha_high,
    omaha_low,
    short_deck,
)

HANDS = int(os.environ.get("CARDROOM_DIFF_HANDS", "2500"))

Ours = Callable[[Sequence[Card], Sequence[Card]], HandValue | None]


def _text(cards: Sequence[Card]) -> str:
    return format_cards(cards).replace(" ", "")


def _deal(rng: random.Random, deck: Sequence[Card], hole: int, board: int) -> tuple[Any, ...]:
    cards = rng.sample(list(deck), hole + board)
    return tuple(cards[:hole]), tuple(cards[hole:])


# family: (our evaluator, PokerKit class, deck, hole count(s), board count)
FAMILIES: dict[str, tuple[Ours, Any, Sequence[Card], tuple[int, ...], int]] = {
    "high5": (lambda h, b: high(h), StandardHighHand, CARDS, (5,), 0),
    "high6": (lambda h, b: high(h), StandardHighHand, CARDS, (6,), 0),
    "high7": (lambda h, b: high([*h, *b]), StandardHighHand, CARDS, (2,), 5),
    "short_deck": (
        lambda h, b: short_deck([*h, *b]),
        ShortDeckHoldemHand,
        SHORT_DECK_CARDS,
        (2,),
        5,
    ),
    "short_deck5": (lambda h, b: short_deck(h), ShortDeckHoldemHand, SHORT_DECK_CARDS, (5,), 0),
    "a5_low5": (lambda h, b: low_a5(h), RegularLowHand, CARDS, (5,), 0),
    "a5_low7": (lambda h, b: low_a5(h), RegularLowHand, CARDS, (7,), 0),
    "a5_low8": (lambda h, b: low_a5(h, 8), EightOrBetterLowHand, CARDS, (7,), 0),
    "27_low5": (lambda h, b: low_27(h), StandardLowHand, CARDS, (5,), 0),
    "27_low7": (lambda h, b: low_27(h), StandardLowHand, CARDS, (7,), 0),
    "badugi": (lambda h, b: badugi(h), BadugiHand, CARDS, (4,), 0),
    "omaha_high": (omaha_high, OmahaHoldemHand, CARDS, (4, 5), 5),
    "omaha_high_flop": (omaha_high, OmahaHoldemHand, CARDS, (4,), 3),
    "omaha_low8": (omaha_low, OmahaEightOrBetterLowHand, CARDS, (4, 5), 5),
    "registry_omaha_low8": (get_evaluator("omaha_low8"), OmahaEightOrBetterLowHand, CARDS, (4,), 4),
}

# Dense decks make the rare classes common: straight flushes and wheels (two suits of
# A-6 and T-A), quads and full houses (six ranks in all suits).
SUITED = tuple(c for c in CARDS if c & 3 < 2 and c >> 2 not in (5, 6, 7))
FEW_RANKS = tuple(c for c in CARDS if c >> 2 in (0, 1, 2, 3, 11, 12))
SHORT_SUITED = tuple(c for c in SHORT_DECK_CARDS if c & 3 < 2)
FAMILIES.update(
    {
        "high7_suited": (lambda h, b: high(h), StandardHighHand, SUITED, (7,), 0),
        "high7_few_ranks": (lambda h, b: high(h), StandardHighHand, FEW_RANKS, (7,), 0),
        "short_deck_suited": (
            lambda h, b: short_deck(h),
            ShortDeckHoldemHand,
            SHORT_SUITED,
            (7,),
            0,
        ),
        "a5_low8_few_ranks": (lambda h, b: low_a5(h, 8), EightOrBetterLowHand, FEW_RANKS, (7,), 0),
        "a5_low_few_ranks": (lambda h, b: low_a5(h), RegularLowHand, FEW_RANKS, (7,), 0),
        "27_low_suited": (lambda h, b: low_27(h), StandardLowHand, SUITED, (5, 6, 7), 0),
        "badugi_few_ranks": (lambda h, b: badugi(h), BadugiHand, FEW_RANKS, (4,), 0),
        "omaha_high_suited": (omaha_high, OmahaHoldemHand, SUITED, (4,), 5),
        "omaha_low8_few_ranks": (omaha_low, OmahaEightOrBetterLowHand, FEW_RANKS, (4, 5), 5),
    }
)

# Omaha enumerates 60-100 combinations per hand on both sides: fewer hands keep CI modest.
SLOW = {
    "omaha_high": 4,
    "omaha_low8": 4,
    "registry_omaha_low8": 4,
    "omaha_high_suited": 4,
    "omaha_low8_few_ranks": 4,
    "27_low7": 2,
    "27_low_suited": 2,
}


def _pair_relation(a: Any, b: Any) -> int:
    """-1, 0, 1 for a worse than, tied with, better than b; None (no low) is worst."""
    if a is None or b is None:
        return (a is not None) - (b is not None)
    if isinstance(a, HandValue):
        return (a.strength > b.strength) - (a.strength < b.strength)
    return (a > b) - (a < b)


@pytest.mark.slow
@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_same_order_and_ties_as_pokerkit(family: str) -> None:
    ours, theirs, deck, hole_counts, board_count = FAMILIES[family]
    rng = random.Random(f"pokerkit-{family}")
    n = max(50, HANDS // SLOW.get(family, 1))
    rows = []
    for i in range(n):
        hole, board = _deal(rng, deck, hole_counts[i % len(hole_counts)], board_count)
        mine = ours(hole, board)
        pk = theirs.from_game_or_none(_text(hole), _text(board))
        assert (mine is None) == (pk is None), (family, hole, board, mine, pk)
        rows.append((mine, pk, hole, board))
    # Sort by our strength; every neighbour pair must relate the same way in PokerKit.
    rows.sort(key=lambda row: -1 if row[0] is None else row[0].strength)
    for (m1, p1, h1, b1), (m2, p2, h2, b2) in itertools.pairwise(rows):
        assert _pair_relation(m1, m2) == _pair_relation(p1, p2), (family, h1, b1, m1, h2, b2, m2)
    # And random pairs directly.
    for _ in range(n):
        (m1, p1, *_a), (m2, p2, *_b) = rng.sample(rows, 2)
        assert _pair_relation(m1, m2) == _pair_relation(p1, p2)
    assert len(rows) == n
