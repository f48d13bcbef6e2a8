"""Setting a hand automatically: the classic timeout fill and the best arrangement.

:func:`fill_in_dealt_order` is the room's timeout rule for classic Chinese
poker (and for an OFC street): cards go to the back row first, left to right,
in the order they were dealt, then the middle, then the top.

:func:`best_arrangement` sets 13 to 17 cards (Fantasyland, or a hint) for the
best expected score: royalties, a Fantasyland bonus, and a row-strength
heuristic (each row's strength scaled to less than one unit, standing in for
its chance of winning the row). It never fouls when a standing arrangement
exists. The search is branch and bound: every 5-card and 3-card subset is
ranked once, rows are tried best score first, and a branch stops as soon as
its score bound cannot beat the best arrangement found, starting from the
greedy arrangement (best five at the back, best five of the rest in the
middle), which never fouls.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate, combinations

from cardroom.cards import CARDS, RANKS, Card
from cardroom.chinese.errors import ChineseError
from cardroom.chinese.rows import (
    Arrangement,
    bottom_at_least,
    low_threshold,
    top_at_least,
)
from cardroom.chinese.royalties import RoyaltyTable, five_card_class, top_class
from cardroom.chinese.variants import HAND_SIZE, ChineseVariant
from cardroom.evaluation import front3, low_27
from cardroom.evaluation.high import five_card_strength

SCALE = 1 << 20
"""Score units: one royalty unit is SCALE; each row's heuristic is below SCALE."""
_MAX_HIGH = 9 << 20  # above every five-card high strength
_MAX_TOP = 4 << 20  # above every front-row strength


def fill_in_dealt_order(
    cards: Sequence[Card], room: dict[str, int] | None = None, discard: int = 0
) -> tuple[dict[str, tuple[Card, ...]], tuple[Card, ...]]:
    """Place ``cards`` back row first, left to right, in dealt order.

    ``room`` is the free slots per row (a fresh hand: bottom 5, middle 5,
    top 3). The last ``discard`` cards dealt are discarded (Pineapple, an
    oversized Fantasyland deal). Returns the cards per row and the discards.
    """
    free = dict(room) if room is not None else {"top": 3, "middle": 5, "bottom": 5}
    keep = list(cards[: len(cards) - discard])
    if len(keep) > sum(free.values()):
        raise ChineseError(f"{len(keep)} cards do not fit in {sum(free.values())} free slots")
    rows: dict[str, tuple[Card, ...]] = {}
    for row in ("bottom", "middle", "top"):
        take = min(free.get(row, 0), len(keep))
        rows[row], keep = tuple(keep[:take]), keep[take:]
    return rows, tuple(cards[len(cards) - discard :])


@dataclass(frozen=True)
class BestArrangement:
    """The arrangement chosen, the cards it discards, and its score in units (heuristic)."""

    arrangement: Arrangement
    discards: tuple[Card, ...]
    fouled: bool
    score: float


@dataclass(frozen=True, slots=True)
class _Row:
    mask: int
    cards: tuple[Card, ...]
    strength: int
    base: int  # royalty * SCALE + heuristic
    fl: int  # the Fantasyland bonus when this row alone qualifies, else 0

    @property
    def score(self) -> int:
        return self.base + self.fl


class _Scorer:
    """Row scores; a whole arrangement scores the sum, with the bonus counted once."""

    def __init__(
        self, variant: ChineseVariant, table: RoyaltyTable, in_fl: bool, fl_value: int
    ) -> None:
        self.variant, self.table, self.in_fl = variant, table, in_fl
        self.bonus = fl_value * SCALE if variant.fantasyland else 0
        self.low = variant.middle == "low27"
        limit = variant.middle_low_limit or "AKQJ9"  # only 2-7 variants use it; they have one
        self.low_floor = low_threshold(limit)
        self.low_top_rank = max(RANKS.index(r) for r in limit)
        self.low_span = max(1, low_threshold("75432") - self.low_floor)

    def fives(self, cards: tuple[Card, ...], mask: int) -> tuple[_Row, _Row | None]:
        """The same five cards as a bottom and as a middle (None: a 2-7 middle that fouls)."""
        strength = five_card_strength(cards)  # the same number as high(), without naming
        key = five_card_class(strength)
        heur = strength * SCALE // _MAX_HIGH
        bottom_royalty = self.table.bottom.get(key, 0) if key else 0
        bottom = _Row(
            mask, cards, strength, bottom_royalty * SCALE + heur, self._fl_bottom(strength)
        )
        if self.low:
            return bottom, self._low_middle(cards, mask)
        middle_royalty = self.table.middle.get(key, 0) if key else 0
        return bottom, _Row(mask, cards, strength, middle_royalty * SCALE + heur, 0)

    def _low_middle(self, cards: tuple[Card, ...], mask: int) -> _Row | None:
        ranks = {c >> 2 for c in cards}
        if len(ranks) < 5 or max(ranks) > self.low_top_rank:
            return None  # a pair, or a card above the limit's top card, always fouls
        strength = low_27(cards).strength
        if strength < self.low_floor:
            return None
        royalty = next((u for r, u in self.table.middle_low if strength >= low_threshold(r)), 0)
        heur = (strength - self.low_floor) * (SCALE - 1) // self.low_span
        return _Row(mask, cards, strength, royalty * SCALE + heur, self._fl_middle(strength))

    def three(self, cards: tuple[Card, ...], mask: int) -> _Row:
        """A top row."""
        strength = front3(cards).strength
        ranks = (cards[0] >> 2, cards[1] >> 2, cards[2] >> 2)
        key = top_class(ranks)
        royalty = self.table.top.get(key, 0) if key else 0
        base = royalty * SCALE + strength * SCALE // _MAX_TOP
        return _Row(mask, cards, strength, base, self._fl_top(ranks))

    def _fl_top(self, ranks: Sequence[int]) -> int:
        rules = self.variant.fantasyland
        if rules is None:
            return 0
        if self.in_fl:
            return self.bonus if top_at_least(ranks, rules.stay_top) else 0
        return self.bonus if any(top_at_least(ranks, t) for t, _ in rules.entry_top) else 0

    def _fl_bottom(self, strength: int) -> int:
        rules = self.variant.fantasyland
        if rules is None or not self.in_fl:
            return 0
        return self.bonus if bottom_at_least(strength, rules.stay_bottom) else 0

    def _fl_middle(self, strength: int) -> int:
        rules = self.variant.fantasyland
        if rules is None or self.in_fl or rules.entry_middle_low is None:
            return 0
        return self.bonus if strength >= low_threshold(rules.entry_middle_low[0]) else 0

    def exact(self, b: _Row, m: _Row, t: _Row) -> int:
        """Score of a standing arrangement. Every Fantasyland rule is an "or" of one-row
        conditions, so the bonus is earned exactly when some row carries it."""
        return b.base + m.base + t.base + max(b.fl, m.fl, t.fl)


def best_arrangement(
    variant: ChineseVariant,
    cards: Sequence[int],
    *,
    in_fantasyland: bool = False,
    fantasyland_value: int = 8,
    royalties: RoyaltyTable | None = None,
) -> BestArrangement:
    """The best standing arrangement of 13 to 17 cards; the extra cards are discarded.

    ``fantasyland_value`` is what (re)entering Fantasyland is worth in units
    (0 to ignore it). Only when no arrangement stands (a Pineapple 2-7 hand
    without a ten-low middle) is the result fouled: then the cards are set
    in dealt order.
    """
    hand = _checked(cards)
    scorer = _Scorer(variant, royalties or variant.royalties, in_fantasyland, fantasyland_value)
    bottoms, mids, tops = _candidates(scorer, hand)
    found = _search(scorer, bottoms, mids, tops, (1 << len(hand)) - 1)
    if found is None:
        rows, discards = fill_in_dealt_order(hand, discard=len(hand) - HAND_SIZE)
        arrangement = Arrangement(rows["top"], rows["middle"], rows["bottom"])
        return BestArrangement(arrangement, discards, True, 0.0)
    b, m, t = found
    used = b.mask | m.mask | t.mask
    discards = tuple(c for i, c in enumerate(hand) if not used >> i & 1)
    score = scorer.exact(b, m, t) / SCALE
    return BestArrangement(Arrangement(t.cards, m.cards, b.cards), discards, False, score)


def _checked(cards: Sequence[int]) -> tuple[Card, ...]:
    hand: list[Card] = []
    for c in cards:
        if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < 52:
            raise ChineseError(f"{c!r} is not a card")
        hand.append(CARDS[c])
    if len(set(hand)) != len(hand):
        raise ChineseError("the cards to arrange hold the same card twice")
    if not HAND_SIZE <= len(hand) <= 17:
        raise ChineseError(f"an arrangement takes 13 to 17 cards, got {len(hand)}")
    return tuple(hand)


def _candidates(
    scorer: _Scorer, hand: tuple[Card, ...]
) -> tuple[list[_Row], list[_Row], list[_Row]]:
    """Every 5-card bottom, standing middle and 3-card top, best score first."""
    bottoms: list[_Row] = []
    mids: list[_Row] = []
    for idx in combinations(range(len(hand)), 5):
        mask = sum(1 << i for i in idx)
        bottom, middle = scorer.fives(tuple(hand[i] for i in idx), mask)
        bottoms.append(bottom)
        if middle is not None:
            mids.append(middle)
    tops = [
        scorer.three(tuple(hand[i] for i in idx), sum(1 << i for i in idx))
        for idx in combinations(range(len(hand)), 3)
    ]
    for rows in (bottoms, mids, tops):
        rows.sort(key=lambda r: r.score, reverse=True)
    return bottoms, mids, tops


class _Caps:
    """The best row score among rows no stronger than a limit (a bound for any table)."""

    def __init__(self, rows: list[_Row]) -> None:
        self.rows = sorted(rows, key=lambda r: r.strength)
        self.strengths = [r.strength for r in self.rows]
        self.caps = list(accumulate((r.score for r in self.rows), max))

    def index(self, limit: int) -> int:
        """How many rows are no stronger than ``limit``."""
        return bisect_right(self.strengths, limit)

    def upto(self, limit: int) -> int:
        """Best score among rows no stronger than ``limit`` (very negative when none)."""
        i = self.index(limit)
        return self.caps[i - 1] if i else _NONE


_NONE = -(1 << 60)


def _search(
    scorer: _Scorer, bottoms: list[_Row], mids: list[_Row], tops: list[_Row], full: int
) -> tuple[_Row, _Row, _Row] | None:
    """Branch and bound over bottom, then middle, then the best top of what is left."""
    if not mids:
        return None
    low = scorer.low
    top_of = {t.mask: t for t in tops}
    mid_caps, top_caps = _Caps(mids), _Caps(tops)
    max_top, max_mid = tops[0].score, mids[0].score
    best = None if low else _greedy(bottoms, mids, top_of, full)
    best_score = _NONE if best is None else scorer.exact(*best)
    for b in bottoms:
        if b.score + max_mid + max_top <= best_score:
            break
        # A 2-7 middle only has to stand on its own; a high middle must not beat the bottom.
        top_cap = _first_free(tops, b.mask, b.strength - 1 if low else b.strength)
        if top_cap is None:
            continue
        order = mids if low else mid_caps.rows
        indexes = range(len(mids)) if low else range(mid_caps.index(b.strength) - 1, -1, -1)
        for j in indexes:
            m = order[j]
            bound = m.score if low else mid_caps.caps[j]  # the best of this and every later middle
            if b.score + bound + top_cap <= best_score:
                break
            if m.mask & b.mask:
                continue
            limit = b.strength - 1 if low else m.strength
            if b.score + m.score + top_caps.upto(limit) <= best_score:
                continue
            t = _best_top(top_of, full ^ b.mask ^ m.mask, limit)
            if t is not None and b.score + m.score + t.score > best_score:
                score = scorer.exact(b, m, t)
                if score > best_score:
                    best, best_score = (b, m, t), score
    return best


def _first_free(tops: list[_Row], used: int, limit: int) -> int | None:
    """Score of the best top (``tops``: best first) clear of ``used``, at most ``limit``."""
    for t in tops:
        if not t.mask & used and t.strength <= limit:
            return t.score
    return None


def _best_top(top_of: dict[int, _Row], rest: int, limit: int) -> _Row | None:
    """The best-scoring top row of the ``rest`` cards no stronger than ``limit``."""
    bits = [i for i in range(rest.bit_length()) if rest >> i & 1]
    best: _Row | None = None
    for idx in combinations(bits, 3):
        t = top_of[(1 << idx[0]) | (1 << idx[1]) | (1 << idx[2])]
        if t.strength <= limit and (best is None or t.score > best.score):
            best = t
    return best


def _greedy(
    bottoms: list[_Row], mids: list[_Row], top_of: dict[int, _Row], full: int
) -> tuple[_Row, _Row, _Row]:
    """Strongest five at the back, strongest five of the rest in the middle: never fouls."""
    b = max(bottoms, key=lambda r: r.strength)
    m = max((r for r in mids if not r.mask & b.mask), key=lambda r: r.strength)
    rest = full ^ b.mask ^ m.mask
    t = max((r for mask, r in top_of.items() if not mask & ~rest), key=lambda r: r.strength)
    return b, m, t
