"""Showdown (RULEBOOK §7): who shows first, who may muck, and how each pot is paid.

Cards speak: every live hand is evaluated; a pot goes to the best high hand
(split on ties), or, in hi-lo games when some eligible hand qualifies for low,
half to the best high and half to the best low with the odd chip to the high
half (101 -> 51/50). Indivisible chips of a tie go one each to the tied
winners in order clockwise from the button's left.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cardroom.cards import Card
from cardroom.evaluation import HandValue, get_evaluator
from cardroom.games import events as ev
from cardroom.games.config import TableConfig
from cardroom.games.pots import Pot, build_pots, split

HIGH = "high"
LOW = "low"
ALL = "all"


@dataclass(frozen=True, slots=True)
class Award:
    """Chips of one pot paid to ``seat`` for ``share`` (all, high or low) with ``hand``."""

    seat: int
    amount: int
    share: str
    hand: str
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class PotResult:
    """One settled pot: chips before rake, the rake taken from it, who could win, the awards."""

    index: int
    amount: int
    rake: int
    eligible: tuple[int, ...]
    awards: tuple[Award, ...]

    @property
    def scoop(self) -> int | None:
        """The seat that won both halves of a split pot alone, if any."""
        shares = {a.share for a in self.awards}
        seats = {a.seat for a in self.awards}
        return next(iter(seats)) if shares == {HIGH, LOW} and len(seats) == 1 else None


def show_order(live: Sequence[int], aggressor: int | None) -> list[int]:
    """Live seats in showing order: the last aggressor of the final round first, else
    the first live seat left of the button (``live`` is in that clockwise order)."""
    if aggressor is None or aggressor not in live:
        return list(live)
    i = live.index(aggressor)
    return [*live[i:], *live[:i]]


def choose_shows(
    order: Sequence[int],
    pots: Sequence[tuple[int, ...]],
    high: Mapping[int, HandValue | None],
    low: Mapping[int, HandValue | None],
    must_show: Sequence[int],
    auto_muck: Mapping[int, bool],
) -> list[tuple[int, bool]]:
    """For each seat in showing order, whether it shows (True) or mucks.

    A seat shows when it is first, when it must (a called all-in), when it
    turned auto-muck off, or when for some pot it is eligible for its high or
    low hand is at least as good as every hand shown there so far (or nobody
    has shown there yet). Mucking therefore never gives away a share: cards speak.
    """
    best_high: dict[int, int] = {}
    best_low: dict[int, int] = {}
    out: list[tuple[int, bool]] = []
    for i, seat in enumerate(order):
        show = i == 0 or seat in must_show or not auto_muck.get(seat, True)
        if not show:
            show = _contends(seat, pots, high, low, best_high, best_low)
        if show:
            for p, eligible in enumerate(pots):
                if seat in eligible:
                    _raise_best(best_high, p, high.get(seat))
                    _raise_best(best_low, p, low.get(seat))
        out.append((seat, show))
    return out


def _contends(
    seat: int,
    pots: Sequence[tuple[int, ...]],
    high: Mapping[int, HandValue | None],
    low: Mapping[int, HandValue | None],
    best_high: dict[int, int],
    best_low: dict[int, int],
) -> bool:
    h, lo = high.get(seat), low.get(seat)
    for p, eligible in enumerate(pots):
        if seat not in eligible:
            continue
        if p not in best_high or (h is not None and h.strength >= best_high[p]):
            return True
        if lo is not None and (p not in best_low or lo.strength >= best_low[p]):
            return True
    return False


def _raise_best(best: dict[int, int], p: int, value: HandValue | None) -> None:
    if value is not None and (p not in best or value.strength > best[p]):
        best[p] = value.strength


def award_pot(
    amount: int,
    eligible: Sequence[int],
    high: Mapping[int, HandValue | None],
    low: Mapping[int, HandValue | None] | None,
) -> list[Award]:
    """Pay ``amount`` (after rake) among ``eligible`` (clockwise from the button's left).

    ``low`` is None in high-only games; in hi-lo games a pot with no qualifying
    low goes to the high hand whole.
    """
    lows = {s: v for s in eligible if low is not None and (v := low.get(s)) is not None}
    if not lows:
        return _best(amount, eligible, high, ALL)
    low_half = amount // 2
    return [
        *_best(amount - low_half, eligible, high, HIGH),
        *_best(low_half, list(lows), lows, LOW),
    ]


def _best(
    amount: int, seats: Sequence[int], values: Mapping[int, HandValue | None], share: str
) -> list[Award]:
    rated = [(s, v) for s in seats if (v := values.get(s)) is not None]
    top = max(v.strength for _, v in rated)
    winners = [(s, v) for s, v in rated if v.strength == top]
    by_seat = dict(winners)
    return [
        Award(seat, chips, share, by_seat[seat].name, by_seat[seat].cards)
        for seat, chips in split(amount, [s for s, _ in winners])
    ]


@dataclass(frozen=True, slots=True)
class HandResult:
    """A finished hand: every pot with its awards, the total rake, finishing stacks by seat."""

    pots: tuple[PotResult, ...]
    rake: int
    stacks: tuple[int | None, ...]

    def winnings(self) -> dict[int, int]:
        """Chips won by each seat over all pots (net of rake, before subtracting what it put in)."""
        won: dict[int, int] = {}
        for pot in self.pots:
            for a in pot.awards:
                won[a.seat] = won.get(a.seat, 0) + a.amount
        return won


@dataclass(frozen=True, slots=True)
class Contender:
    """A live hand at showdown: its cards, the player's auto-muck setting, all-in or not."""

    cards: tuple[Card, ...]
    auto_muck: bool
    all_in: bool


@dataclass(frozen=True, slots=True)
class Table:
    """What settling needs of the table: seats dealt in (clockwise from the button's
    left), who is live, each seat's chips in, and the button."""

    order: tuple[int, ...]
    live: tuple[bool, ...]
    totals: tuple[int, ...]
    button: int


@dataclass(frozen=True, slots=True)
class Settlement:
    """The outcome of settling: events in order, pot results, rake."""

    events: tuple[ev.Event, ...]
    pots: tuple[PotResult, ...]
    rake: int

    def awards(self) -> list[Award]:
        """Every award of every pot."""
        return [a for p in self.pots for a in p.awards]


def settle(
    config: TableConfig,
    table: Table,
    hands: Mapping[int, Contender],
    board: tuple[Card, ...],
    aggressor: int | None,
    *,
    raked: bool,
    showdown: bool,
) -> Settlement:
    """Take the rake, show or muck in order, and award the pots (last side pot first).

    ``hands`` maps each live seat to its cards and showdown settings;
    ``raked`` says the hand reached the rake street (no flop, no drop).
    """
    pots = build_pots(table.totals, table.live, table.order)
    out: list[ev.Event] = []
    rakes = _take_rake(config, pots, len(table.order), raked)
    for i, r in enumerate(rakes):
        if r:
            out.append(ev.RakeTaken(i, r))
    live = [s for s in table.order if table.live[s]]
    high: dict[int, HandValue | None] = {}
    low: dict[int, HandValue | None] | None = None
    if showdown:
        high, low = _evaluate(config, hands, board)
        all_in = [s for s in live if hands[s].all_in]
        shows = choose_shows(
            show_order(live, aggressor),
            [p.eligible for p in pots],
            high,
            low or {},
            all_in,
            {s: hands[s].auto_muck for s in live},
        )
        for seat, shown in shows:
            out.append(ev.Shown(seat, hands[seat].cards) if shown else ev.Mucked(seat))
    results: list[PotResult] = []
    for i in range(len(pots) - 1, -1, -1):
        pot = pots[i]
        amount = pot.amount - rakes[i]
        if showdown:
            awards = [a for a in award_pot(amount, pot.eligible, high, low) if a.amount]
        else:
            awards = [Award(pot.eligible[0], amount, ALL, "", ())] if amount else []
        for a in awards:
            out.append(ev.PotAwarded(i, a.seat, a.amount, a.share, a.hand, a.cards))
        results.append(PotResult(i, pot.amount, rakes[i], pot.eligible, tuple(awards)))
    results.reverse()
    return Settlement(tuple(out), tuple(results), sum(rakes))


def _take_rake(config: TableConfig, pots: list[Pot], players: int, raked: bool) -> list[int]:
    """Rake per pot: the schedule's amount on the whole pot, taken from the main pot first."""
    rakes = [0] * len(pots)
    if config.rake is None or not raked:
        return rakes
    due = config.rake.rake(sum(p.amount for p in pots), players)
    for i, p in enumerate(pots):
        take = min(due, p.amount)
        rakes[i] = take
        due -= take
    return rakes


def _evaluate(
    config: TableConfig, hands: Mapping[int, Contender], board: tuple[Card, ...]
) -> tuple[dict[int, HandValue | None], dict[int, HandValue | None] | None]:
    evaluate = get_evaluator(config.high_evaluator)
    high = {s: evaluate(h.cards, board) for s, h in hands.items()}
    low_name = config.low_evaluator
    if low_name is None:
        return high, None
    evaluate_low = get_evaluator(low_name)
    return high, {s: evaluate_low(h.cards, board) for s, h in hands.items()}
