"""Chinese poker tables (RULEBOOK §8; issue 13 item 12): the configuration and the settlement.

A Chinese poker table is a room table (:class:`~cardroom.room.chinese_room.ChineseRoomTable`,
with seating, clocks, money and record shared with the poker tables); this module holds
what is its own: :class:`ChineseTableConfig` (game, chips per point, seats, times) and
:func:`settle`, turning a hand's points into chips.

**Settlement (each player's loss limited to the chips on the table).** §8 scores
each pair of players apart and seed 000 has "each player settles with their
opponents", so money is settled pair by pair too: :func:`hand_debts` gives, for
each pair, the chips the loser owes the winner (its points times ``point_value``).

1. Every debt is paid in full when every player can pay what it owes out of its
   stack plus what it is paid.
2. A player who cannot (an *insolvent* loser) pays out its stack plus what it is
   paid, no more, so it ends with no chips: its creditors are paid **in seat order
   clockwise from the button's left** (the hand's play order), each in full before
   the next gets anything. This is who is paid first.
3. A creditor paid less may in turn be unable to pay its own debts: step 2 is
   repeated until every player pays what it can (payments only ever go down, so
   this ends, and in the same place whatever the order of the repetitions).

No chip is created or lost (each payment goes from one stack to another), amounts
stay integers, nobody loses more than the chips on the table, and nobody is paid by
a player who did not lose to him: a solvent player pays each winner in full even
when a third player cannot pay him. A winner's gain is not capped by its own stack
(only losses are limited). Netting the results first would not do: a player whose
winnings from a short loser offset his loss to another would pass the short loser's
shortfall on to that other. Shares pro rata were not chosen: rounded to chips, a
creditor's share can go up when the debtor has less to pay, so the repetition of
step 3 would not be well defined.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cardroom.chinese import Arrangement, ChineseHand, get_variant, pairwise_points
from cardroom.games.checks import MAX_CHIPS


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
        # Checked here: a table built from JSON must not fail later, at a deal (and all
        # money is integers, so the points' worth a player needs is too).
        for name in ("point_value", "min_points", "max_seats"):
            value = getattr(self, name)
            if not (type(value) is int or (value is None and name == "max_seats")):
                raise ValueError(f"{name} is a whole number, not {value!r}")
        if not 1 <= self.point_value <= MAX_CHIPS or self.min_points < 0:
            raise ValueError("point_value is 1 to 2**53 - 1 chips and min_points at least 0")
        if self.max_seats is not None and not 2 <= self.max_seats <= v.max_players:
            raise ValueError(f"{v.name} seats 2 to {v.max_players} players")
        seconds = self.set_seconds
        if seconds is not None and not (
            type(seconds) in (int, float) and 0 < seconds < float("inf")
        ):
            raise ValueError(f"set_seconds is a number of seconds above 0, not {seconds!r}")

    @property
    def chips_needed(self) -> int:
        """Chips a seat needs to be dealt in: ``min_points`` points' worth, at least 1
        (no blinds here: the same for every seat)."""
        return max(1, self.min_points * self.point_value)

    @property
    def seat_count(self) -> int:
        """Seats at the table: ``max_seats``, else the game's default (§3: OFC 3, though
        plain OFC allows 4; every other game its most)."""
        v = get_variant(self.variant)
        return self.max_seats or v.table_seats or v.max_players


@dataclass(frozen=True, slots=True)
class Settlement:
    """One hand's money, by seat: each seat's net result as scored (``owed``), the
    change made to its stack (``paid``), and each debt as paid (``payments``: (debtor,
    creditor) -> chips)."""

    owed: Mapping[int, int]
    paid: Mapping[int, int]
    payments: Mapping[tuple[int, int], int]
    debts: Mapping[tuple[int, int], int]

    @property
    def shortfall(self) -> int:
        """Chips the losers owed but could not pay."""
        return sum(self.debts.values()) - sum(self.payments.values())


def hand_debts(game: ChineseHand) -> dict[tuple[int, int], int]:
    """The chips each loser owes each winner in the settled hand ``game``, pair by pair:
    (debtor seat, creditor seat) -> chips (only pairs with a debt)."""
    results = game.results
    if results is None:
        raise ValueError("the hand is not settled")
    rows = [Arrangement(r.top, r.middle, r.bottom) for r in results]
    units = pairwise_points(game.variant, rows, royalties=game.royalties)
    return {
        (results[i].seat, results[j].seat): -u * game.point_value
        for i, row in enumerate(units)
        for j, u in enumerate(row)
        if u < 0 and game.point_value
    }


def settle(
    debts: Mapping[tuple[int, int], int], stacks: Mapping[int, int], order: Sequence[int]
) -> Settlement:
    """Stack changes for the pairwise ``debts`` ((debtor, creditor) -> chips) when each
    loss is limited to the loser's stack (module docstring); ``order``: the seats from
    the button's left, the order in which a short loser's creditors are paid."""
    rank = {s: i for i, s in enumerate(order)}
    if len(rank) != len(order):
        raise ValueError("a seat appears twice in the order")
    for (debtor, creditor), chips in debts.items():
        if debtor not in rank or creditor not in rank or debtor == creditor:
            raise ValueError(f"a debt between seats {debtor} and {creditor} of the order")
        if type(chips) is not int or chips < 0:
            raise ValueError("a debt is a whole number of chips")
    creditors = {s: sorted((c for d, c in debts if d == s), key=rank.__getitem__) for s in order}
    payments = dict(debts)
    changed = True
    while changed:  # step 3: until every player pays what it can
        changed = False
        for s in order:
            left = stacks[s] + sum(v for (_, c), v in payments.items() if c == s)
            for c in creditors[s]:  # step 2: in order, each in full before the next
                pay = min(debts[s, c], left)
                left -= pay
                if payments[s, c] != pay:
                    payments[s, c], changed = pay, True
    return Settlement(_net(debts, order), _net(payments, order), payments, dict(debts))


def _net(moves: Mapping[tuple[int, int], int], order: Sequence[int]) -> dict[int, int]:
    """Each seat's net of ``moves`` ((from, to) -> chips)."""
    net = dict.fromkeys(order, 0)
    for (debtor, creditor), chips in moves.items():
        net[debtor] -= chips
        net[creditor] += chips
    return net
