"""High hands: standard (Hold'em, Stud, Draw) and Short Deck, best five of five to seven.

Strength encoding (fixed; the lookup tables of ``fast`` produce the same
numbers): ``category << 20 | r1 << 16 | r2 << 12 | r3 << 8 | r4 << 4 | r5``
where r1..r5 are rank indexes (0 = deuce .. 12 = ace) of the five cards used,
by multiplicity then rank, and a straight reads from its top card down (the
wheel A-2-3-4-5 is 5-4-3-2-A, so it ranks below the six-high straight).
Standard categories are 0 high card .. 8 straight flush (see ``HIGH_CATEGORIES``).
Short Deck uses the same layout with its own category numbers: the position of
the category in its ranking order, lowest first.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from cardroom.cards import Card
from cardroom.evaluation.hand_value import EvaluationError, HandValue, checked_cards
from cardroom.evaluation.naming import HIGH_CATEGORIES, high_name

ACE = 12


def _windows(lowest_top: int, low_straight: tuple[int, ...] | None) -> tuple[tuple[int, ...], ...]:
    """Straights as rank tuples from top card down, best first; the ace-low one last."""
    runs = [tuple(range(top, top - 5, -1)) for top in range(ACE, lowest_top - 1, -1)]
    return (*runs, low_straight) if low_straight else tuple(runs)


@dataclass(frozen=True, slots=True)
class HighRules:
    """A high ranking as data: its straights and the order of its categories."""

    straights: tuple[tuple[int, ...], ...]
    order: tuple[str, ...]  # categories lowest first; the index is the category number
    lowest_rank: int = 0  # Short Deck: no card below a six

    def category_number(self, category: str) -> int:
        """The category's number in this ranking (its place, lowest first)."""
        return self.order.index(category)


STANDARD = HighRules(straights=_windows(3, (3, 2, 1, 0, ACE)), order=HIGH_CATEGORIES)
# Deuce-to-seven counts hands as standard high, except that the ace is only high.
NO_WHEEL = HighRules(straights=_windows(3, None), order=HIGH_CATEGORIES)
SHORT_DECK = HighRules(
    straights=_windows(8, (7, 6, 5, 4, ACE)),
    order=(
        "High Card",
        "Pair",
        "Two Pair",
        "Three of a Kind",
        "Straight",
        "Full House",
        "Flush",
        "Four of a Kind",
        "Straight Flush",
    ),
    lowest_rank=4,
)
SHORT_DECK_TRIPS = HighRules(
    straights=SHORT_DECK.straights,
    order=(
        "High Card",
        "Pair",
        "Two Pair",
        "Straight",
        "Three of a Kind",
        "Full House",
        "Flush",
        "Four of a Kind",
        "Straight Flush",
    ),
    lowest_rank=4,
)


def encode(category_number: int, ranks: Sequence[int]) -> int:
    """Pack a category number and five ranks (missing ranks count as 0) into a strength."""
    value = category_number
    for i in range(5):
        value = value << 4 | (ranks[i] if i < len(ranks) else 0)
    return value


# Category number of each multiplicity pattern (counts, largest first) with no straight or flush.
_PATTERNS = {(1, 1, 1, 1, 1): 0, (2, 1, 1, 1): 1, (2, 2, 1): 2, (3, 1, 1): 3, (3, 2): 6, (4, 1): 7}


def five_card_strength(five: Iterable[int], wheel: bool = True) -> int:
    """Standard high strength of exactly five cards, without naming (for enumerations).

    ``wheel=False`` is deuce-to-seven's reading: A-2-3-4-5 is ace high, not a straight.
    """
    five = tuple(five)
    ranks = sorted((c >> 2 for c in five), reverse=True)
    flush = len({c & 3 for c in five}) == 1
    if len(set(ranks)) == 5:
        if ranks[0] - ranks[4] == 4:
            category = 8 if flush else 4
        elif wheel and ranks == [12, 3, 2, 1, 0]:
            category, ranks = (8 if flush else 4), [3, 2, 1, 0, 12]
        else:
            category = 5 if flush else 0
        return encode(category, ranks)
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
    ordered = [r for r, n in groups for _ in range(n)]
    return encode(_PATTERNS[tuple(n for _, n in groups)], ordered)


class _Counts:
    """The cards of a hand grouped by rank and by suit, highest first."""

    __slots__ = ("by_rank", "by_suit", "cards")

    def __init__(self, cards: Sequence[Card]) -> None:
        self.cards = cards
        self.by_rank: list[list[Card]] = [[] for _ in range(13)]
        self.by_suit: list[list[Card]] = [[] for _ in range(4)]
        for c in sorted(cards, reverse=True):
            self.by_rank[c >> 2].append(c)
            self.by_suit[c & 3].append(c)

    def ranks_with(self, n: int, exclude: Iterable[int] = ()) -> list[int]:
        """Ranks held at least ``n`` times, highest first."""
        skip = set(exclude)
        return [r for r in range(12, -1, -1) if len(self.by_rank[r]) >= n and r not in skip]


def _straight(cards: Sequence[Card], rules: HighRules) -> list[Card] | None:
    """The highest straight among ``cards``, one card per rank, top card first."""
    by_rank: dict[int, Card] = {}
    for c in sorted(cards, reverse=True):
        by_rank.setdefault(c >> 2, c)
    for run in rules.straights:
        if all(r in by_rank for r in run):
            return [by_rank[r] for r in run]
    return None


def _flush_cards(k: _Counts) -> list[Card] | None:
    for suited in k.by_suit:
        if len(suited) >= 5:
            return suited
    return None


def _groups(k: _Counts, sizes: Sequence[int]) -> list[Card] | None:
    """Take groups of the given sizes from distinct ranks, highest rank first, then kickers."""
    used: list[int] = []
    out: list[Card] = []
    for size in sizes:
        ranks = k.ranks_with(size, used)
        if not ranks:
            return None
        used.append(ranks[0])
        out.extend(k.by_rank[ranks[0]][:size])
    kickers = [c for r in range(12, -1, -1) if r not in used for c in k.by_rank[r]]
    return out + kickers[: 5 - len(out)]


def _find(category: str, k: _Counts, rules: HighRules) -> list[Card] | None:
    """The best five cards making ``category``, or None when the cards cannot make it."""
    if category == "Straight Flush":
        suited = _flush_cards(k)
        return _straight(suited, rules) if suited else None
    if category == "Flush":
        suited = _flush_cards(k)
        return suited[:5] if suited else None
    if category == "Straight":
        return _straight(k.cards, rules)
    sizes = {
        "Four of a Kind": (4,),
        "Full House": (3, 2),
        "Three of a Kind": (3,),
        "Two Pair": (2, 2),
        "Pair": (2,),
        "High Card": (),
    }[category]
    return _groups(k, sizes)


def evaluate_high(cards: Iterable[int], rules: HighRules = STANDARD) -> HandValue:
    """Best five-card high hand of five to seven cards under ``rules``."""
    hand = checked_cards(cards, 5, 7)
    if any(c >> 2 < rules.lowest_rank for c in hand):
        low = min(hand)
        raise EvaluationError(f"card {low} is not in this deck (lowest rank is a six)")
    k = _Counts(hand)
    for number in range(len(rules.order) - 1, -1, -1):
        category = rules.order[number]
        used = _find(category, k, rules)
        if used is not None:
            ranks = [c >> 2 for c in used]
            return HandValue(
                encode(number, ranks), category, high_name(category, ranks), tuple(used)
            )
    raise AssertionError("every five cards make at least a high card")  # pragma: no cover


def high(cards: Iterable[int]) -> HandValue:
    """Best standard high hand of five to seven cards (Hold'em, Stud, Five-card Draw).

    The strength comes from the lookup tables of :mod:`cardroom.evaluation.fast`
    (loaded on first use); :func:`evaluate_high` is the table-free reference the
    tests hold it to.
    """
    hand = checked_cards(cards, 5, 7)
    return value_of_strength(_fast_strength(hand), hand)


def _fast_strength(hand: Sequence[Card]) -> int:
    # Imported here: building the tables takes a moment, and only high() needs them.
    from cardroom.evaluation.fast import high_strength

    return high_strength(hand)


def value_of_strength(strength: int, hand: Sequence[Card]) -> HandValue:
    """The full hand value (category, name, cards used) of a standard ``strength`` of ``hand``.

    The strength lists the five ranks used; the cards are those ranks' highest
    suits, taken from the flush suit for a flush or straight flush.
    """
    number = strength >> 20
    ranks = [(strength >> shift) & 0xF for shift in (16, 12, 8, 4, 0)]
    pool = sorted(hand, reverse=True)
    if number in (5, 8):  # the flush suit holds five or more of the cards
        suit = max(range(4), key=lambda s: sum(1 for c in hand if c & 3 == s))
        pool = [c for c in pool if c & 3 == suit]
    used: list[Card] = []
    for rank in ranks:
        card = next(c for c in pool if c >> 2 == rank and c not in used)
        used.append(card)
    category = HIGH_CATEGORIES[number]
    return HandValue(strength, category, high_name(category, ranks), tuple(used))


def short_deck(cards: Iterable[int], trips_beat_straight: bool = False) -> HandValue:
    """Best Short Deck high hand: flush beats full house, A-6-7-8-9 is the lowest straight.

    By default a straight beats three of a kind (seed 004); the table option
    ``short_deck_trips_beat_straight`` gives seed 000's order.
    """
    return evaluate_high(cards, SHORT_DECK_TRIPS if trips_beat_straight else SHORT_DECK)


__all__ = [
    "NO_WHEEL",
    "SHORT_DECK",
    "SHORT_DECK_TRIPS",
    "STANDARD",
    "HighRules",
    "encode",
    "evaluate_high",
    "five_card_strength",
    "high",
    "short_deck",
    "value_of_strength",
]
