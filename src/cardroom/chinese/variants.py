"""The Chinese poker family as data (RULEBOOK section 8).

A :class:`ChineseVariant` says how cards arrive (streets: how many dealt, how
many placed, the rest discarded face down), whether placements are face up,
how the middle row ranks (high, or a 2-7 low that must qualify), which royalty
table scores the rows, and the Fantasyland rules. Adding a game means adding
an entry to :data:`VARIANTS`, not a class.

Readings of RULEBOOK section 8 where it leaves room:

- Classic Chinese poker scores royalties: the section's family rule says
  "royalties are added" and no other table is given, so classic uses the
  standard table (a room may load an empty one). It has no Fantasyland.
- Pineapple 2-7: a middle "not stronger than 10-high" is read in the plain
  high-hand sense, which is the only reading under which its 9-, 8- and
  7-high royalties can be earned: no pair, straight or flush and no card
  above a ten, i.e. a 2-7 low of ten-high or better. A jack-high middle, a
  pair, 6-5-4-3-2 or a flush fouls. "The bottom must beat the top" compares
  them on the one high scale (a five-card row never ties a three-card one);
  there is no bottom-over-middle order in this game.
- OFC Turbo has no Fantasyland rules of its own: it plays plain OFC's (13).
- A player in Fantasyland stays only by the stay rule, even with QQ-AA on
  top; Progressive and 2-7 repeats are always 14 cards.
- A Fantasyland player is dealt the whole hand on the first street and sets
  it at their turn of that street; later streets skip them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from cardroom.chinese.errors import ChineseError
from cardroom.chinese.royalties import PINEAPPLE_27_ROYALTIES, STANDARD_ROYALTIES, RoyaltyTable

ROW_SIZES = {"top": 3, "middle": 5, "bottom": 5}
"""Cards in each row of a complete hand."""
ROWS = ("top", "middle", "bottom")
HAND_SIZE = 13


@dataclass(frozen=True)
class Street:
    """One dealing round: each player is dealt ``deal`` cards and places ``place`` of them."""

    deal: int
    place: int

    @property
    def discard(self) -> int:
        """Cards discarded face down this street (Pineapple: 1 of 3)."""
        return self.deal - self.place


@dataclass(frozen=True)
class FantasylandRules:
    """Who goes to Fantasyland, with how many cards, and who stays.

    Top-row thresholds are written as the weakest qualifying pair or trips:
    ``"QQ"`` means a pair of queens or better, ``"222"`` any trips. Entry takes
    the largest deal whose threshold the top row meets; ``entry_middle_low``
    (Pineapple 2-7) is a second way in: that 2-7 low in the middle row gives
    its cards, and meeting both a top threshold and the low gives
    ``both_cards``. Staying needs ``stay_top`` on top or a bottom row of class
    ``stay_bottom`` or better, and deals ``stay_cards``. A fouled hand never
    enters nor stays.
    """

    entry_top: tuple[tuple[str, int], ...]
    stay_top: str = "222"
    stay_bottom: str = "quads"
    stay_cards: int = 13
    entry_middle_low: tuple[str, int] | None = None
    both_cards: int = 0

    @property
    def deal_sizes(self) -> frozenset[int]:
        """Every number of cards a Fantasyland hand of this game may be dealt."""
        sizes = {n for _, n in self.entry_top} | {self.stay_cards}
        if self.entry_middle_low is not None:
            sizes |= {self.entry_middle_low[1], self.both_cards}
        return frozenset(sizes)


MiddleFamily = Literal["high", "low27"]


@dataclass(frozen=True)
class ChineseVariant:
    """One game of the Chinese poker family, as data."""

    key: str
    name: str
    streets: tuple[Street, ...]
    open_face: bool
    max_players: int
    table_seats: int = 0
    """A table's seats unless it says (RULEBOOK §3's default); 0: ``max_players``."""
    royalties: RoyaltyTable = STANDARD_ROYALTIES
    fantasyland: FantasylandRules | None = None
    middle: MiddleFamily = "high"
    # Pineapple 2-7: the weakest middle that does not foul, as five ranks (offsuit).
    middle_low_limit: str | None = None
    min_players: int = 2
    scoop_bonus: int = 3
    # Table option `arrange_seconds` (classic: 90-120 s to press Play, then auto-arrange).
    arrange_seconds: int | None = None

    def __post_init__(self) -> None:
        if self.middle == "low27" and self.middle_low_limit is None:
            raise ChineseError(f"{self.name}: a 2-7 middle needs middle_low_limit (e.g. 'T9875')")
        if sum(s.place for s in self.streets) != HAND_SIZE:
            raise ChineseError(f"{self.name}: the streets must place exactly {HAND_SIZE} cards")

    @property
    def simultaneous(self) -> bool:
        """True when every player arranges at once (classic); else turns go left of the button."""
        return len(self.streets) == 1

    @property
    def cards_per_player(self) -> int:
        """Cards a player outside Fantasyland receives in the whole hand."""
        return sum(s.deal for s in self.streets)


_OFC_STAY = FantasylandRules(entry_top=(("QQ", 13),), stay_cards=13)
_PINEAPPLE_STREETS = (Street(5, 5), *(Street(3, 2) for _ in range(4)))

VARIANTS: dict[str, ChineseVariant] = {
    v.key: v
    for v in (
        ChineseVariant(
            key="classic",
            name="Chinese Poker",
            streets=(Street(13, 13),),
            open_face=False,
            max_players=4,
            arrange_seconds=120,
        ),
        ChineseVariant(
            key="ofc",
            name="Open Face Chinese",
            streets=(Street(5, 5), *(Street(1, 1) for _ in range(8))),
            open_face=True,
            max_players=4,
            table_seats=3,  # §3: "OFC family 3 (4 allowed for plain OFC)"
            fantasyland=_OFC_STAY,
        ),
        ChineseVariant(
            key="pineapple",
            name="Pineapple OFC",
            streets=_PINEAPPLE_STREETS,
            open_face=True,
            max_players=3,
            fantasyland=FantasylandRules(entry_top=(("QQ", 14),), stay_cards=14),
        ),
        ChineseVariant(
            key="turbo",
            name="OFC Turbo",
            streets=(Street(5, 5), Street(4, 4), Street(4, 4)),
            open_face=True,
            max_players=3,
            # The rulebook gives Turbo no Fantasyland of its own: it plays plain OFC's.
            fantasyland=_OFC_STAY,
        ),
        ChineseVariant(
            key="progressive",
            name="Progressive Pineapple OFC",
            streets=_PINEAPPLE_STREETS,
            open_face=True,
            max_players=3,
            fantasyland=FantasylandRules(
                entry_top=(("QQ", 14), ("KK", 15), ("AA", 16), ("222", 17)), stay_cards=14
            ),
        ),
        ChineseVariant(
            key="pineapple27",
            name="Pineapple 2-7 OFC",
            streets=_PINEAPPLE_STREETS,
            open_face=True,
            max_players=3,
            royalties=PINEAPPLE_27_ROYALTIES,
            fantasyland=FantasylandRules(
                entry_top=(("KK", 14),),
                entry_middle_low=("75432", 14),
                both_cards=15,
                stay_cards=14,
            ),
            middle="low27",
            middle_low_limit="T9875",
        ),
    )
}
"""Every Chinese poker game by key: classic, ofc, pineapple, turbo, progressive, pineapple27."""


class UnknownVariantError(ChineseError):
    """Raised for a variant key that is not in :data:`VARIANTS`."""


def get_variant(key: str) -> ChineseVariant:
    """The variant called ``key``; raises :class:`UnknownVariantError` naming the known ones."""
    try:
        return VARIANTS[key]
    except KeyError:
        raise UnknownVariantError(
            f"unknown Chinese poker variant {key!r}; known: {', '.join(VARIANTS)}"
        ) from None
