"""Chinese poker tables (RULEBOOK §8; issue 13 item 12): the configuration and the settlement.

A Chinese poker table is a room table (:class:`~cardroom.room.chinese_room.ChineseRoomTable`,
with seating, clocks, money and record shared with the poker tables); this module holds
what is its own: :class:`ChineseTableConfig` (game, chips per point, seats, times) and
:func:`settle`, turning a hand's points into chips.

**Settlement (each player's loss limited to the chips on the table).** The
engine scores each seat's net result in chips (points times ``point_value``;
the results sum to zero). Settlement works on these net results:

1. each loser pays ``min(loss, stack)``: never more than the chips on the table;
2. if the losers paid everything owed, each winner gets what it is owed;
3. otherwise each winner gets ``owed * collected // owed_total`` (pro rata to
   what it is owed, rounded down), and the chips left by rounding go one each
   to the winners in seat order clockwise from the button's left (the hand's
   play order), starting again from the first while chips remain.

The chips paid equal the chips collected, so the sum of the stacks never
changes, and amounts stay integers. A winner's gain is not capped by its own
stack (only losses are limited).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cardroom.chinese import get_variant


@dataclass(frozen=True, slots=True)
class ChineseTableConfig:
    """A Chinese poker table: the game (a key of ``cardroom.chinese.VARIANTS``),
    chips per point, seats, the points' worth of chips a player needs to be dealt in,
    and the time to set a full hand (a street's is the table's ``action_seconds``).

    ``set_seconds``: time to set 13 or more cards (classic, Fantasyland); None
    takes the game's ``arrange_seconds`` (classic: 120) or else 90.
    """

    variant: str
    point_value: int
    max_seats: int | None = None
    min_points: int = 1
    set_seconds: float | None = None

    def __post_init__(self) -> None:
        v = get_variant(self.variant)
        if isinstance(self.point_value, bool) or not isinstance(self.point_value, int):
            raise ValueError("point_value is a whole number of chips")
        if self.point_value < 1 or self.min_points < 0:
            raise ValueError("point_value is at least 1 and min_points at least 0")
        if self.max_seats is not None and not 2 <= self.max_seats <= v.max_players:
            raise ValueError(f"{v.name} seats 2 to {v.max_players} players")

    @property
    def seat_count(self) -> int:
        """Seats at the table."""
        return self.max_seats or get_variant(self.variant).max_players


@dataclass(frozen=True, slots=True)
class Settlement:
    """One hand's money: what each seat was owed by the scoring (``owed``) and the
    change made to its stack (``paid``); both by seat."""

    owed: Mapping[int, int]
    paid: Mapping[int, int]

    @property
    def shortfall(self) -> int:
        """Chips the winners were owed but the losers could not cover."""
        return sum(v for v in self.owed.values() if v > 0) - sum(
            v for v in self.paid.values() if v > 0
        )


def settle(owed: Mapping[int, int], stacks: Mapping[int, int], order: Sequence[int]) -> Settlement:
    """Stack changes for net results ``owed`` (summing to zero) when each loss is
    limited to the loser's stack (module docstring); ``order``: seats from the
    button's left."""
    if sum(owed.values()) != 0:
        raise ValueError("a hand's results sum to zero")
    if set(order) != set(owed):
        raise ValueError("the seat order must list exactly the seats settled")
    paid = {s: -min(-v, stacks[s]) for s, v in owed.items() if v < 0}
    collected = -sum(paid.values())
    winners = [s for s in order if owed[s] > 0]
    total = sum(owed[s] for s in winners)
    for s in winners:
        paid[s] = owed[s] * collected // total if total else 0
    left = collected - sum(paid[s] for s in winners)
    for i in range(left):
        paid[winners[i % len(winners)]] += 1
    return Settlement(dict(owed), {s: paid.get(s, 0) for s in order})
