"""Soko (Canadian stud): five cards, standard high order with two extra hands.

Order, lowest first: high card, pair, 4-straight, 4-flush, two pair, three of a
kind, straight, flush, full house, four of a kind, straight flush.

How this module reads the rule (RULEBOOK §2 says only "4-flush above
4-straight, both above one pair and below two pair"):

* a 4-flush is four cards of one suit; a 4-straight is four cards of
  consecutive ranks (no gaps). The ace plays high (J-Q-K-A) or low (A-2-3-4),
  never both at once, so Q-K-A-2 is not a 4-straight; A-2-3-4 is the lowest.
* a hand that holds both a 4-flush and a 4-straight is a 4-flush (the higher),
  and either beats a pair held in the same five cards.
* ties: a 4-flush compares its four suited cards from the top down, then the
  fifth card; a 4-straight compares its top card, then the fifth card.

Strength uses the high layout ``category << 20 | r1 << 16 | ... | r5`` with the
eleven Soko categories numbered 0..10 as above; r1..r4 are the four-card
holding in reading order and r5 the odd card.
"""

from __future__ import annotations

from collections.abc import Iterable

from cardroom.cards import Card
from cardroom.evaluation.hand_value import HandValue, checked_cards
from cardroom.evaluation.high import encode, evaluate_high
from cardroom.evaluation.naming import rank_name

SOKO_ORDER = (
    "High Card",
    "Pair",
    "Four Straight",
    "Four Flush",
    "Two Pair",
    "Three of a Kind",
    "Straight",
    "Flush",
    "Full House",
    "Four of a Kind",
    "Straight Flush",
)
# Four-card runs, top card first, best first; A-2-3-4 reads 4-3-2-A.
_RUNS = (*(tuple(range(top, top - 4, -1)) for top in range(12, 2, -1)), (2, 1, 0, 12))


def _four_flush(hand: tuple[Card, ...]) -> list[Card] | None:
    for suit in range(4):
        suited = sorted((c for c in hand if c & 3 == suit), reverse=True)
        if len(suited) == 4:
            return suited + [c for c in hand if c & 3 != suit]
    return None


def _four_straight(hand: tuple[Card, ...]) -> list[Card] | None:
    by_rank: dict[int, Card] = {}
    for c in sorted(hand, reverse=True):
        by_rank.setdefault(c >> 2, c)
    for run in _RUNS:
        if all(r in by_rank for r in run):
            used = [by_rank[r] for r in run]
            return used + [c for c in hand if c not in used]
    return None


def soko(cards: Iterable[int]) -> HandValue:
    """Rank five cards by Soko rules."""
    hand = checked_cards(cards, 5, 5, what="Soko hand")
    standard = evaluate_high(hand)
    if standard.category not in ("High Card", "Pair"):
        number = SOKO_ORDER.index(standard.category)
        ranks = [c >> 2 for c in standard.cards]
        return HandValue(encode(number, ranks), standard.category, standard.name, standard.cards)
    for category, finder in (("Four Flush", _four_flush), ("Four Straight", _four_straight)):
        used = finder(hand)
        if used is not None:
            ranks = [c >> 2 for c in used]
            word = "4-flush" if category == "Four Flush" else "4-straight"
            name = f"{rank_name(ranks[0])}-high {word}"
            number = SOKO_ORDER.index(category)
            return HandValue(encode(number, ranks), category, name, tuple(used))
    number = SOKO_ORDER.index(standard.category)
    ranks = [c >> 2 for c in standard.cards]
    return HandValue(encode(number, ranks), standard.category, standard.name, standard.cards)


__all__ = ["SOKO_ORDER", "soko"]
