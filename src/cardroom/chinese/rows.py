"""A set hand's three rows: ranking them, fouls, royalties and Fantasyland qualification.

Rows are ranked by :mod:`cardroom.evaluation`: the top row by ``front3``
(whose strength is on the five-card high scale, so a top compares directly
with a middle), five-card rows by ``high``, and the Pineapple 2-7 middle by
``low_27`` (larger is better: a better low).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from cardroom.cards import CARDS, RANKS, Card, CardError, parse_cards
from cardroom.chinese.errors import ChineseError
from cardroom.chinese.royalties import FIVE_CARD_CLASSES, RoyaltyTable, five_card_class, top_class
from cardroom.chinese.variants import HAND_SIZE, ROW_SIZES, ROWS, ChineseVariant
from cardroom.evaluation import HandValue, front3, high, low_27


@dataclass(frozen=True)
class Arrangement:
    """Thirteen cards set as top (3), middle (5) and bottom (5), each row left to right."""

    top: tuple[Card, ...]
    middle: tuple[Card, ...]
    bottom: tuple[Card, ...]

    def __post_init__(self) -> None:
        for row in ROWS:
            cards = getattr(self, row)
            if len(cards) != ROW_SIZES[row]:
                raise ChineseError(f"the {row} row needs {ROW_SIZES[row]} cards, got {len(cards)}")
            for c in cards:
                if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < 52:
                    raise ChineseError(f"{c!r} in the {row} row is not a card")
        if len(set(self.cards)) != HAND_SIZE:
            raise ChineseError("an arrangement may not hold the same card twice")

    @classmethod
    def of(
        cls, top: Iterable[int | str], middle: Iterable[int | str], bottom: Iterable[int | str]
    ) -> Arrangement:
        """Build from cards or card names (``["Qh", "Qd", "2c"]``); raises :class:`ChineseError`."""
        return cls(_row(top, "top"), _row(middle, "middle"), _row(bottom, "bottom"))

    @property
    def cards(self) -> tuple[Card, ...]:
        """All thirteen cards, top then middle then bottom."""
        return self.top + self.middle + self.bottom

    def to_dict(self) -> dict[str, list[str]]:
        """The rows in card notation."""
        return {row: [str(c) for c in getattr(self, row)] for row in ROWS}


def _row(cards: Iterable[int | str], row: str) -> tuple[Card, ...]:
    out: list[Card] = []
    for c in cards:
        if isinstance(c, str):
            try:
                out.extend(parse_cards([c]))
            except CardError as exc:
                raise ChineseError(f"{row} row: {exc}") from None
        elif isinstance(c, int) and not isinstance(c, bool) and 0 <= c < 52:
            out.append(CARDS[c])
        else:
            raise ChineseError(f"{c!r} in the {row} row is not a card")
    return tuple(out)


@dataclass(frozen=True)
class RowValues:
    """The evaluated rows of one arrangement (the middle is a 2-7 low in Pineapple 2-7)."""

    top: HandValue
    middle: HandValue
    bottom: HandValue

    def row(self, name: str) -> HandValue:
        """The value of row ``"top"``, ``"middle"`` or ``"bottom"``."""
        value: HandValue = getattr(self, name)
        return value


def evaluate_rows(variant: ChineseVariant, arrangement: Arrangement) -> RowValues:
    """Rank the three rows of ``arrangement`` under ``variant``."""
    middle = low_27 if variant.middle == "low27" else high
    return RowValues(front3(arrangement.top), middle(arrangement.middle), high(arrangement.bottom))


@lru_cache(maxsize=64)
def low_threshold(ranks: str) -> int:
    """2-7 strength of five different ranks dealt in two suits (so never a flush)."""
    cards = [CARDS[RANKS.index(r) * 4 + i % 2] for i, r in enumerate(ranks)]
    return low_27(cards).strength


def is_fouled(variant: ChineseVariant, values: RowValues) -> bool:
    """True when the rows break the variant's order.

    High middle: bottom >= middle >= top. Pineapple 2-7: the middle must be a
    2-7 low at least as good as ``middle_low_limit`` (10-high) and the bottom
    must beat the top.
    """
    if variant.middle == "low27":
        limit = variant.middle_low_limit
        low_ok = limit is None or values.middle.strength >= low_threshold(limit)
        return not (low_ok and values.bottom.strength > values.top.strength)
    return not (values.bottom.strength >= values.middle.strength >= values.top.strength)


def top_ranks(values: RowValues) -> tuple[int, int, int]:
    """Rank indexes of the top row's cards."""
    a, b, c = (card >> 2 for card in values.top.cards)
    return (a, b, c)


def row_royalties(
    table: RoyaltyTable, variant: ChineseVariant, values: RowValues
) -> dict[str, int]:
    """Royalty units of each row, ignoring fouls (the caller zeroes a fouled hand)."""
    key = top_class(top_ranks(values))
    top = table.top.get(key, 0) if key else 0
    if variant.middle == "low27":
        middle = next(
            (u for r, u in table.middle_low if values.middle.strength >= low_threshold(r)), 0
        )
    else:
        middle = _five_card_royalty(table.middle, values.middle.strength)
    bottom = _five_card_royalty(table.bottom, values.bottom.strength)
    return {"top": top, "middle": middle, "bottom": bottom}


def _five_card_royalty(row: Mapping[str, int], strength: int) -> int:
    key = five_card_class(strength)
    return row.get(key, 0) if key else 0


def top_at_least(ranks: Sequence[int], threshold: str) -> bool:
    """True when a top row of ``ranks`` is at least the pair or trips ``threshold`` ("QQ")."""
    counts = {r: ranks.count(r) for r in ranks}
    best = max(counts, key=lambda r: (counts[r], r))
    return (counts[best], best) >= (len(threshold), RANKS.index(threshold[0]))


def bottom_at_least(strength: int, cls: str) -> bool:
    """True when a five-card high row of ``strength`` is of royalty class ``cls`` or better."""
    key = five_card_class(strength)
    return key is not None and FIVE_CARD_CLASSES.index(key) >= FIVE_CARD_CLASSES.index(cls)


def fantasyland_next(
    variant: ChineseVariant, values: RowValues, fouled: bool, in_fantasyland: bool
) -> int:
    """Cards dealt to this player in Fantasyland next hand, 0 for none.

    A player already in Fantasyland stays only by the stay rule (trips on top
    or quads or better on the bottom) and then gets ``stay_cards``; otherwise
    they leave, whatever the top row. A fouled hand never qualifies.
    """
    rules = variant.fantasyland
    if rules is None or fouled:
        return 0
    ranks = top_ranks(values)
    if in_fantasyland:
        stays = top_at_least(ranks, rules.stay_top) or bottom_at_least(
            values.bottom.strength, rules.stay_bottom
        )
        return rules.stay_cards if stays else 0
    by_top = max((n for t, n in rules.entry_top if top_at_least(ranks, t)), default=0)
    if rules.entry_middle_low is not None:
        low, n = rules.entry_middle_low
        if values.middle.strength >= low_threshold(low):
            return rules.both_cards if by_top else n
    return by_top
