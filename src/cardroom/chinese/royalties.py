"""Royalty tables (RULEBOOK section 8) as data a room may replace.

A table gives the bonus units each row earns. Five-card rows are keyed by
hand class (``"trips"``, ``"straight"``, ... ``"royal_flush"``); the top row by
its pair or trips (``"66"``, ``"AAA"``); the Pineapple 2-7 low middle by
thresholds: ``("98764", 1)`` means "this 2-7 low or better earns 1", the first
threshold met (best first) wins. :data:`STANDARD_ROYALTIES` is the rulebook's
table; ``RoyaltyTable.from_dict`` loads another from JSON-shaped data.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cardroom.cards import RANKS
from cardroom.chinese.errors import ChineseError

FIVE_CARD_CLASSES = (
    "trips",
    "straight",
    "flush",
    "full_house",
    "quads",
    "straight_flush",
    "royal_flush",
)
"""Royalty keys of five-card rows, weakest first (two pair and less never score)."""

# Category number of the standard high encoding (strength >> 20) -> royalty key.
_CLASS_OF_CATEGORY = {
    3: "trips",
    4: "straight",
    5: "flush",
    6: "full_house",
    7: "quads",
    8: "straight_flush",
}
_ACE = 12


class RoyaltyTableError(ChineseError):
    """Raised for royalty data that is not a valid table; says which entry is wrong."""


def five_card_class(strength: int) -> str | None:
    """The royalty key of a five-card high hand from its standard strength, or None."""
    category = strength >> 20
    key = _CLASS_OF_CATEGORY.get(category)
    if key == "straight_flush" and (strength >> 16) & 0xF == _ACE:
        return "royal_flush"
    return key


def top_class(ranks: tuple[int, int, int]) -> str | None:
    """The royalty key of a top row from its three rank indexes: ``"QQ"``, ``"777"`` or None."""
    counts = {r: ranks.count(r) for r in ranks}
    best = max(counts, key=lambda r: (counts[r], r))
    if counts[best] == 1:
        return None
    return RANKS[best] * counts[best]


def _standard_top() -> dict[str, int]:
    pairs = {RANKS[r] * 2: r - 3 for r in range(4, 13)}  # 66 = 1 ... AA = 9
    trips = {RANKS[r] * 3: 10 + r for r in range(13)}  # 222 = 10 ... AAA = 22
    return pairs | trips


@dataclass(frozen=True)
class RoyaltyTable:
    """Bonus units per row. Missing keys earn nothing.

    ``middle_low`` is only used by variants whose middle row is a 2-7 low:
    pairs of (five ranks of the worst qualifying hand, units), best first.
    """

    top: Mapping[str, int] = field(default_factory=dict)
    middle: Mapping[str, int] = field(default_factory=dict)
    bottom: Mapping[str, int] = field(default_factory=dict)
    middle_low: tuple[tuple[str, int], ...] = ()

    def __post_init__(self) -> None:
        for row in (self.middle, self.bottom):
            for key, units in row.items():
                if key not in FIVE_CARD_CLASSES:
                    raise RoyaltyTableError(f"unknown five-card royalty key {key!r}")
                _check_units(key, units)
        for key, units in self.top.items():
            if len(key) not in (2, 3) or len(set(key)) != 1 or key[0] not in RANKS:
                raise RoyaltyTableError(f"top royalty key {key!r} is not a pair or trips like 'QQ'")
            _check_units(key, units)
        for ranks, units in self.middle_low:
            if len(ranks) != 5 or any(r not in RANKS for r in ranks) or len(set(ranks)) != 5:
                raise RoyaltyTableError(f"2-7 threshold {ranks!r} is not five different ranks")
            _check_units(ranks, units)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RoyaltyTable:
        """Load a table from JSON-shaped data with keys top, middle, bottom and middle_low."""
        unknown = set(data) - {"top", "middle", "bottom", "middle_low"}
        if unknown:
            raise RoyaltyTableError(f"unknown royalty rows {sorted(unknown)}")
        try:
            return cls(
                top=dict(data.get("top", {})),
                middle=dict(data.get("middle", {})),
                bottom=dict(data.get("bottom", {})),
                middle_low=tuple((str(r), u) for r, u in data.get("middle_low", ())),
            )
        except (TypeError, ValueError) as exc:
            if isinstance(exc, RoyaltyTableError):
                raise
            raise RoyaltyTableError(f"royalty data is malformed: {exc}") from exc

    def to_dict(self) -> dict[str, Any]:
        """The table as JSON-shaped data (the inverse of :meth:`from_dict`)."""
        return {
            "top": dict(self.top),
            "middle": dict(self.middle),
            "bottom": dict(self.bottom),
            "middle_low": [[r, u] for r, u in self.middle_low],
        }


def _check_units(key: str, units: object) -> None:
    if isinstance(units, bool) or not isinstance(units, int) or units < 0:
        raise RoyaltyTableError(f"royalty for {key!r} must be an integer >= 0, got {units!r}")


STANDARD_ROYALTIES = RoyaltyTable(
    top=_standard_top(),
    middle={
        "trips": 2,
        "straight": 4,
        "flush": 8,
        "full_house": 12,
        "quads": 20,
        "straight_flush": 30,
        "royal_flush": 50,
    },
    bottom={
        "straight": 2,
        "flush": 4,
        "full_house": 6,
        "quads": 10,
        "straight_flush": 15,
        "royal_flush": 25,
    },
)
"""The rulebook's standard table (OFC, Pineapple, Turbo, Progressive; classic too)."""

PINEAPPLE_27_ROYALTIES = RoyaltyTable(
    top=STANDARD_ROYALTIES.top,
    middle={},
    bottom=STANDARD_ROYALTIES.bottom,
    # Each threshold is the worst 2-7 low of its class: 7-5-4-3-2 is the nut low,
    # 7-6-5-4-2 the worst other seven-high (7-6-5-4-3 is a straight), and so on.
    middle_low=(("75432", 8), ("76542", 4), ("87653", 2), ("98764", 1)),
)
"""Pineapple 2-7: standard top and bottom; middle 75432 8, 7-high 4, 8-high 2, 9-high 1."""
