"""The one-call table evaluator (``evaluation.fast``) against an independent brute force.

The reference below ranks five cards by explicit category logic and takes the
best of the 21 five-card subsets of seven; it shares no code with the tables.
Every five-card rank multiset and every flush is checked exhaustively; random
six- and seven-card hands are checked in bulk. Size: ``CARDROOM_FAST_HANDS``
random hands (CI default below; the full run used 200000).
"""

from __future__ import annotations

import os
import random
from collections import Counter
from itertools import combinations, combinations_with_replacement

import pytest

from cardroom.cards import parse_cards
from cardroom.evaluation import fast, high
from cardroom.evaluation.tables import CARD_KEYS, FLUSH, NON_FLUSH, RANK_KEYS

HANDS = int(os.environ.get("CARDROOM_FAST_HANDS", "10000"))


def reference5(cards: tuple[int, ...]) -> int:
    """Five cards -> contract strength, by the rulebook's category definitions."""
    ranks = sorted((c >> 2 for c in cards), reverse=True)
    flush = len({c & 3 for c in cards}) == 1
    distinct = sorted(set(ranks), reverse=True)
    straight_top = None
    if len(distinct) == 5:
        if distinct[0] - distinct[4] == 4:
            straight_top = distinct[0]
        elif distinct == [12, 3, 2, 1, 0]:
            straight_top = 3  # the wheel plays as five-high
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = [n for _, n in groups]
    reading = [r for r, n in groups for _ in range(n)]
    if straight_top is not None:
        reading = [straight_top - i for i in range(4)] + [
            straight_top - 4 if straight_top > 3 else 12
        ]
        category = 8 if flush else 4
    elif flush:
        category = 5
    elif shape == [4, 1]:
        category = 7
    elif shape == [3, 2]:
        category = 6
    elif shape == [3, 1, 1]:
        category = 3
    elif shape == [2, 2, 1]:
        category = 2
    elif shape == [2, 1, 1, 1]:
        category = 1
    else:
        category = 0
    value = category
    for r in reading:
        value = value << 4 | r
    return value


def reference(cards: tuple[int, ...]) -> int:
    """Best five of five to seven cards: the maximum over every five-card subset."""
    return max(reference5(five) for five in combinations(cards, 5))


def deal(rng: random.Random, n: int) -> tuple[int, ...]:
    return tuple(rng.sample(range(52), n))


def test_known_strengths() -> None:
    cases = {
        "As Ks Qs Js Ts 2c 2d": (8, (12, 11, 10, 9, 8)),
        "Ah 2h 3h 4h 5h Kd Kc": (8, (3, 2, 1, 0, 12)),  # steel wheel
        "Kh Kd Kc 7s 7h 2c 3d": (6, (11, 11, 11, 5, 5)),
        "Kh Kd Kc 7s 7h 7c 3d": (6, (11, 11, 11, 5, 5)),  # two sets: kings full of sevens
        "Qh Qd 5s 5c Kd 2c 2h": (2, (10, 10, 3, 3, 11)),  # third pair plays no part
        "Ah 2d 3c 4s 5h 9c Td": (4, (3, 2, 1, 0, 12)),  # wheel
        "Ah 2d 3c 4s 5h 6c Td": (4, (4, 3, 2, 1, 0)),  # six-high beats the wheel
        "9s 9h 9d 9c Ah Kd Kc": (7, (7, 7, 7, 7, 12)),
        "2h 7h 9h Jh Kh Ah 3h": (5, (12, 11, 9, 7, 5)),  # seven of a suit: best five
        "As Kd Qh Jc 9s 8d 6c": (0, (12, 11, 10, 9, 7)),
    }
    for text, (category, ranks) in cases.items():
        r1, r2, r3, r4, r5 = ranks
        want = category << 20 | r1 << 16 | r2 << 12 | r3 << 8 | r4 << 4 | r5
        assert fast.high_strength(parse_cards(text)) == want, text


def test_every_five_card_rank_multiset_and_flush() -> None:
    rng = random.Random(5)
    checked = 0
    for ranks in combinations_with_replacement(range(13), 5):
        if max(Counter(ranks).values()) > 4:
            continue
        # Suits with no flush: a rank's copies take different suits.
        seen: Counter[int] = Counter()
        cards = []
        for i, r in enumerate(ranks):
            cards.append(r * 4 + (seen[r] + i) % 4)
            seen[r] += 1
        if len({c & 3 for c in cards}) == 1:
            cards[0] ^= 1
        rng.shuffle(cards)
        assert fast.high5(*cards) == reference5(tuple(cards)), cards
        checked += 1
        if len(set(ranks)) == 5:
            suit = rng.randrange(4)
            suited = tuple(r * 4 + suit for r in ranks)
            assert fast.high5(*suited) == reference5(suited), suited
    assert checked == len(NON_FLUSH[5]) == 6175


def test_every_seven_card_rank_multiset_without_flush() -> None:
    """All 49,205 rank multisets of seven cards against the best of 21 five-card hands."""
    for ranks in combinations_with_replacement(range(13), 7):
        counts = Counter(ranks)
        if max(counts.values()) > 4:
            continue
        cards, used = [], Counter[int]()
        for r in ranks:  # spread suits: at most 2 + 2 + 2 + 1, never a flush
            cards.append(r * 4 + used[r])
            used[r] += 1
        suits = Counter(c & 3 for c in cards)
        if max(suits.values()) >= 5:
            continue  # only when four ranks are single: covered by the random test
        hand = tuple(cards)
        want = max(fast.high5(*five) for five in combinations(hand, 5))
        assert fast.high7(*hand) == want, hand


def test_every_flush_mask() -> None:
    for size in (5, 6, 7):
        for ranks in combinations(range(13), size):
            mask = sum(1 << r for r in ranks)
            cards = tuple(r * 4 + 2 for r in ranks)
            assert FLUSH[mask] == reference(cards), ranks


def test_random_hands_against_reference() -> None:
    rng = random.Random(7)
    for n, count in ((7, HANDS), (6, HANDS // 4), (5, HANDS // 4)):
        for _ in range(count):
            cards = deal(rng, n)
            assert fast.high_strength(cards) == reference(cards), cards


def test_flush_heavy_hands_against_reference() -> None:
    """Hands dealt from two suits: flushes beside pairs, straights and straight flushes."""
    rng = random.Random(8)
    pool = [c for c in range(52) if c & 3 in (0, 3)]
    for _ in range(HANDS // 4):
        cards = tuple(rng.sample(pool, 7))
        assert fast.high7(*cards) == reference(cards), cards


def test_agrees_with_the_family_evaluator() -> None:
    rng = random.Random(9)
    for _ in range(HANDS // 4):
        cards = deal(rng, rng.choice((5, 6, 7)))
        assert fast.high_strength(cards) == high(cards).strength, cards


def test_key_sum_helpers() -> None:
    rng = random.Random(10)
    for _ in range(2000):
        hole, board = deal(rng, 7)[:2], deal(rng, 7)[2:]
        if set(hole) & set(board):
            continue
        key = fast.hand_key(hole) + fast.hand_key(board)
        assert fast.strength_from_key(key, hole + board) == reference(hole + board)


def test_rank_keys_separate_every_multiset() -> None:
    for size in (5, 6, 7):
        sums = {
            sum(RANK_KEYS[r] for r in ranks)
            for ranks in combinations_with_replacement(range(13), size)
            if max(Counter(ranks).values()) <= 4
        }
        assert len(sums) == len(NON_FLUSH[size])


@pytest.mark.parametrize("count", [0, 4, 8])
def test_wrong_card_count(count: int) -> None:
    with pytest.raises(ValueError, match="5 to 7 cards"):
        fast.high_strength(tuple(range(count)))
    with pytest.raises(ValueError, match="5 to 7 cards"):
        fast.strength_from_key(0, tuple(range(count)))


def test_card_key_calling_convention() -> None:
    """``high7_keys``/``high5_keys`` take card keys and agree with the card-int functions."""
    rng = random.Random(11)
    two_suits = [c for c in range(52) if c & 3 in (1, 2)]
    for i in range(HANDS // 2):
        cards = tuple(rng.sample(two_suits if i % 2 else range(52), 7))
        keys = [CARD_KEYS[c] for c in cards]
        assert fast.high7_keys(*keys) == fast.high7(*cards), cards
        assert fast.high5_keys(*keys[:5]) == fast.high5(*cards[:5]), cards
