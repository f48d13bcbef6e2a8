"""Scoring a showdown (RULEBOOK section 8): pairwise units, fouls, royalties, chips.

Each pair of players settles on its own. Two standing (non-fouled) hands
score 1 unit per row won and ``scoop_bonus`` (3) more for winning all three,
plus the difference of their royalties. A fouled hand scores no royalties and
loses the full scoop (6) plus the opponent's royalties to each standing hand;
two fouled hands score 0 against each other. Each pair's units sum to zero, so
a hand's settlement does too. Units become chips at the table's
``point_value`` (an integer amount per unit).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cardroom.cards import CARDS
from cardroom.chinese.errors import ChineseError
from cardroom.chinese.rows import (
    Arrangement,
    RowValues,
    evaluate_rows,
    fantasyland_next,
    is_fouled,
    row_royalties,
)
from cardroom.chinese.royalties import RoyaltyTable
from cardroom.chinese.variants import ROWS, ChineseVariant

_NO_ROYALTIES = {"top": 0, "middle": 0, "bottom": 0}


@dataclass(frozen=True)
class PlayerScore:
    """One player's result: fouled or not, royalties per row, net units and chips."""

    arrangement: Arrangement
    rows: RowValues
    fouled: bool
    royalties: dict[str, int]
    points: int
    chips: int
    fantasyland_next: int

    @property
    def royalty_total(self) -> int:
        """Sum of the row royalties (0 for a fouled hand)."""
        return sum(self.royalties.values())

    def to_dict(self) -> dict[str, object]:
        """The result as JSON-shaped data (the ``chinese score`` output per player)."""
        return {
            "fouled": self.fouled,
            "royalties": dict(self.royalties),
            "points": self.points,
            "chips": self.chips,
            "fantasyland_next": self.fantasyland_next,
            "rows": {row: self.rows.row(row).name for row in ROWS},
        }


@dataclass(frozen=True)
class _Standing:
    rows: RowValues
    fouled: bool
    royalties: dict[str, int]


def pairwise_units(a: _Standing, b: _Standing, scoop_bonus: int) -> int:
    """Units ``a`` wins from ``b`` (negative when it loses); ``pairwise(b, a)`` is the negation."""
    if a.fouled and b.fouled:
        return 0
    full = len(ROWS) + scoop_bonus
    if a.fouled:
        return -(full + sum(b.royalties.values()))
    if b.fouled:
        return full + sum(a.royalties.values())
    rows = 0
    for row in ROWS:
        mine, theirs = a.rows.row(row).strength, b.rows.row(row).strength
        rows += (mine > theirs) - (mine < theirs)
    if abs(rows) == len(ROWS):
        rows += scoop_bonus if rows > 0 else -scoop_bonus
    return rows + sum(a.royalties.values()) - sum(b.royalties.values())


def _standings(
    variant: ChineseVariant, arrangements: Sequence[Arrangement], royalties: RoyaltyTable | None
) -> list[_Standing]:
    """Each set hand evaluated: its rows, foul and royalties (checked: 2 to 4 hands that
    share no card)."""
    if not 2 <= len(arrangements) <= 4:
        raise ChineseError(f"a showdown needs 2 to 4 players, got {len(arrangements)}")
    seen: set[int] = set()
    for arrangement in arrangements:
        shared = seen & set(arrangement.cards)
        if shared:
            raise ChineseError(f"card {CARDS[min(shared)]} is in two hands")
        seen |= set(arrangement.cards)
    table = royalties if royalties is not None else variant.royalties
    standings = []
    for arrangement in arrangements:
        values = evaluate_rows(variant, arrangement)
        fouled = is_fouled(variant, values)
        roy = dict(_NO_ROYALTIES) if fouled else row_royalties(table, variant, values)
        standings.append(_Standing(values, fouled, roy))
    return standings


def _matrix(standings: Sequence[_Standing], scoop_bonus: int) -> tuple[tuple[int, ...], ...]:
    return tuple(
        tuple(0 if i == j else pairwise_units(a, b, scoop_bonus) for j, b in enumerate(standings))
        for i, a in enumerate(standings)
    )


def pairwise_points(
    variant: ChineseVariant,
    arrangements: Sequence[Arrangement],
    *,
    royalties: RoyaltyTable | None = None,
) -> tuple[tuple[int, ...], ...]:
    """Units each player wins from each other one, pair by pair: ``m[i][j]`` is what
    player ``i`` wins from player ``j`` (negative when it loses; ``m[j][i] == -m[i][j]``,
    ``m[i][i] == 0``). A row of the matrix sums to that player's
    :attr:`PlayerScore.points`; a room settling money pair by pair needs the pairs.
    Raises :class:`ChineseError` as :func:`score_hands` does."""
    return _matrix(_standings(variant, arrangements, royalties), variant.scoop_bonus)


def score_hands(
    variant: ChineseVariant,
    arrangements: Sequence[Arrangement],
    *,
    in_fantasyland: Sequence[bool] | None = None,
    point_value: int = 1,
    royalties: RoyaltyTable | None = None,
) -> tuple[PlayerScore, ...]:
    """Score a showdown between 2 or more set hands; results in the given order.

    ``royalties`` overrides the variant's table (a room's own table);
    ``in_fantasyland`` says who played this hand in Fantasyland (stay rules).
    Raises :class:`ChineseError` for a card held by two players, a bad count
    or a non-integer point value.
    """
    if isinstance(point_value, bool) or not isinstance(point_value, int) or point_value < 0:
        raise ChineseError(f"point_value must be a non-negative integer, got {point_value!r}")
    flags = list(in_fantasyland) if in_fantasyland is not None else [False] * len(arrangements)
    if len(flags) != len(arrangements):
        raise ChineseError(f"in_fantasyland has {len(flags)} entries, players {len(arrangements)}")
    standings = _standings(variant, arrangements, royalties)
    matrix = _matrix(standings, variant.scoop_bonus)
    out = []
    for i, (arrangement, me) in enumerate(zip(arrangements, standings, strict=True)):
        units = sum(matrix[i])
        out.append(
            PlayerScore(
                arrangement=arrangement,
                rows=me.rows,
                fouled=me.fouled,
                royalties=me.royalties,
                points=units,
                chips=units * point_value,
                fantasyland_next=fantasyland_next(variant, me.rows, me.fouled, bool(flags[i])),
            )
        )
    return tuple(out)
