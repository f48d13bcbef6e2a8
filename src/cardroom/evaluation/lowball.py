"""Low hands: ace-to-five (Razz, Hi-Lo lows, A-5 draw) and deuce-to-seven (2-7 draws).

Both encode a low as a strength where larger is better, like every family:
``LOW_TOP - code`` where ``code`` is the hand's badness in the high layout
(``category << 20 | r1 << 16 | ... | r5``, the worst part first). For A-5 the
ranks count the ace as the lowest card and the categories are 0 no pair, 1
pair, 2 two pair, 3 three of a kind, 4 full house, 5 four of a kind
(straights and flushes do not exist). For 2-7 the code is the standard high
code without the wheel (A-2-3-4-5 is ace high), straights and flushes counting.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import cache
from itertools import combinations

from cardroom.cards import RANKS, Card
from cardroom.evaluation.hand_value import EvaluationError, HandValue, checked_cards
from cardroom.evaluation.high import encode, value_of_strength
from cardroom.evaluation.naming import low_ranks_text, rank_plural

LOW_TOP = (1 << 24) - 1
A5_CATEGORIES = ("", "Pair", "Two Pair", "Three of a Kind", "Full House", "Four of a Kind")
_A5_SHAPES = {  # multiplicities, largest first -> A-5 category number
    (1, 1, 1, 1, 1): 0,
    (2, 1, 1, 1): 1,
    (2, 2, 1): 2,
    (3, 1, 1): 3,
    (3, 2): 4,
    (4, 1): 5,
}


def _ace_low(card: int) -> int:
    """Rank with the ace lowest: A = 0, 2 = 1, ..., K = 12."""
    return ((card >> 2) + 1) % 13


def _a5_code(five: Sequence[Card]) -> tuple[int, tuple[Card, ...]]:
    """Badness code of five cards as an A-5 low, and the cards in reading order."""
    groups: dict[int, list[Card]] = {}
    for c in five:
        groups.setdefault(_ace_low(c), []).append(c)
    ordered = sorted(groups.items(), key=lambda item: (len(item[1]), item[0]), reverse=True)
    shape = tuple(len(cs) for _, cs in ordered)
    code = _A5_SHAPES[shape]
    cards: list[Card] = []
    for rank, cs in ordered:
        for c in sorted(cs, reverse=True):
            code = code << 4 | rank
            cards.append(c)
    return code, tuple(cards)


def _best_a5(hand: Sequence[Card]) -> tuple[int, tuple[Card, ...]]:
    by_rank: dict[int, Card] = {}
    for c in sorted(hand, reverse=True):
        by_rank.setdefault(_ace_low(c), c)
    if len(by_rank) >= 5:  # five different ranks: the five lowest are best
        return _a5_code([by_rank[r] for r in sorted(by_rank)[:5]])
    return min(_a5_code(five) for five in combinations(hand, 5))


def low_a5(cards: Iterable[int], qualifier: int | None = None) -> HandValue | None:
    """Best ace-to-five low of five to seven cards.

    ``qualifier=8`` is the 8-or-better rule of Hi-Lo games: the low needs five
    different ranks, all 8 or lower (ace = 1), else the result is None. Without
    a qualifier (Razz, A-5 draw) every hand has a low, pairs ranking worst.
    """
    require_qualifier(qualifier)
    hand = checked_cards(cards, 5, 7)
    code, used = _best_a5(hand)
    category_number = code >> 20
    top = _ace_low(used[0]) + 1  # 1 for an ace .. 13 for a king
    if qualifier is not None and (category_number != 0 or top > qualifier):
        return None
    ranks = [c >> 2 for c in used]
    if category_number == 0:
        category = f"{RANKS[ranks[0]]} low"
        name = f"{low_ranks_text(ranks)} low"
    else:
        category = A5_CATEGORIES[category_number]
        name = _paired_low_name(category, ranks)
    return HandValue(LOW_TOP - code, category, name, used)


def _paired_low_name(category: str, ranks: Sequence[int]) -> str:
    """ "Pair of Kings, 7-4-2" for a paired low; groups first, then the other cards."""
    if category == "Pair":
        return f"Pair of {rank_plural(ranks[0])}, {low_ranks_text(ranks[2:])}"
    if category == "Two Pair":
        return f"Two Pair, {rank_plural(ranks[0])} and {rank_plural(ranks[2])}, {RANKS[ranks[4]]}"
    if category == "Full House":
        return f"Full House, {rank_plural(ranks[0])} over {rank_plural(ranks[3])}"
    if category == "Three of a Kind":
        return f"Three of a Kind, {rank_plural(ranks[0])}, {low_ranks_text(ranks[3:])}"
    return f"Four of a Kind, {rank_plural(ranks[0])}, {RANKS[ranks[4]]}"


def low_27(cards: Iterable[int]) -> HandValue:
    """Best deuce-to-seven low of five cards (or best five of up to seven).

    Aces are high only, straights and flushes count against the hand, and
    A-2-3-4-5 is an ace-high hand, not a straight; the best hand is 7-5-4-3-2
    in at least two suits.
    """
    high5 = _high5()
    hand = checked_cards(cards, 5, 7)
    code, five = min((_no_wheel(high5(*five)), five) for five in combinations(hand, 5))
    return _named_27(code, five)


def low_27_value(strength: int, cards: Sequence[Card]) -> HandValue:
    """``low_27(cards)`` when its strength is already known (``low_27_strength``): five
    cards are named without being evaluated again (the showdown names its winners so)."""
    if len(cards) != 5:
        return low_27(cards)
    return _named_27(LOW_TOP - strength, tuple(cards))


_NO_PAIR_NAMES: dict[int, tuple[str, str]] = {}
"""(category, name) of each no-pair deuce-to-seven code met so far (at most 1,287)."""


def _named_27(code: int, five: tuple[Card, ...]) -> HandValue:
    """The deuce-to-seven value of the five cards ``five`` whose high code is ``code``."""
    if code >> 20 == 0:  # no pair (most winning lows): five ranks, read from the top
        cards = tuple(sorted(five, reverse=True))
        names = _NO_PAIR_NAMES.get(code)
        if names is None:
            ranks = [c >> 2 for c in cards]
            names = _NO_PAIR_NAMES[code] = (
                f"{RANKS[ranks[0]]} low",
                f"{low_ranks_text(ranks)} low",
            )
        return HandValue(LOW_TOP - code, names[0], names[1], cards)
    best = value_of_strength(code, five)
    ranks = [c >> 2 for c in best.cards]
    if best.category == "High Card":
        category = f"{RANKS[ranks[0]]} low"
        name = f"{low_ranks_text(ranks)} low"
    else:
        category, name = best.category, best.name
    return HandValue(LOW_TOP - best.strength, category, name, best.cards)


def low_27_strength(cards: Sequence[int]) -> int:
    """The strength of :func:`low_27` alone, without checking or naming (the showdown's
    hot path): ``low_27(cards).strength`` for distinct cards, five to seven of them."""
    high5 = _high5()
    if len(cards) == 5:
        a, b, c, d, e = cards
        return LOW_TOP - _no_wheel(high5(a, b, c, d, e))
    if not 5 <= len(cards) <= 7:
        return low_27(cards).strength  # raises the reference's error
    return LOW_TOP - min(_no_wheel(high5(*five)) for five in combinations(cards, 5))


@cache  # one import, not one a showdown hand (an import statement costs about 2 µs)
def _high5() -> Callable[[int, int, int, int, int], int]:
    """The five-card table lookup of :mod:`cardroom.evaluation.fast` (its tables load on
    first use, not when this module is imported)."""
    from cardroom.evaluation.fast import high5

    return high5


_WHEEL_RANKS = encode(0, (3, 2, 1, 0, 12))  # 5-4-3-2-A as a straight reads it
_ACE_HIGH_RANKS = encode(0, (12, 3, 2, 1, 0))  # and as deuce-to-seven reads it


def _no_wheel(strength: int) -> int:
    """Deuce-to-seven's reading of a high strength: A-2-3-4-5 is ace high, not a straight."""
    category = strength >> 20
    if strength & 0xFFFFF == _WHEEL_RANKS and category in (4, 8):
        return (0 if category == 4 else 5) << 20 | _ACE_HIGH_RANKS  # high card, or a flush
    return strength


def require_qualifier(qualifier: int | None) -> None:
    """Refuse a qualifier that no five different ranks could meet."""
    if qualifier is not None and not 5 <= qualifier <= 13:
        raise EvaluationError(f"a low qualifier must be 5..13 (8 for 8-or-better), got {qualifier}")
