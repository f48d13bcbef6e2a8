"""Showdown (RULEBOOK §7): who shows first, who may muck, and how each pot is paid.

Cards speak: every live hand is evaluated; a pot goes to the best high hand
(split on ties), or, in hi-lo games when some eligible hand qualifies for low,
half to the best high and half to the best low with the odd chip to the high
half (101 -> 51/50). Indivisible chips of a tie go one each to the tied
winners in order clockwise from the button's left.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache

from cardroom.cards import Card
from cardroom.evaluation import HandValue, get_evaluator
from cardroom.evaluation.high import value_of_strength
from cardroom.evaluation.lowball import low_27_value
from cardroom.games import events as ev
from cardroom.games.config import TableConfig
from cardroom.games.pots import Pot, build_pots, split
from cardroom.values import value

HIGH = "high"
LOW = "low"
ALL = "all"


@value
class Award:
    """Chips of one pot paid to ``seat`` for ``share`` (all, high or low) with ``hand``."""

    seat: int
    amount: int
    share: str
    hand: str
    cards: tuple[Card, ...]


@value
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


Strengths = Mapping[int, int | None]
"""Hand strength by seat (larger is better; None: no qualifying hand)."""


def choose_shows(
    order: Sequence[int],
    pots: Sequence[tuple[int, ...]],
    high: Strengths,
    low: Strengths,
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
            show = _contends(seat, pots, high.get(seat), low.get(seat), best_high, best_low)
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
    h: int | None,
    lo: int | None,
    best_high: dict[int, int],
    best_low: dict[int, int],
) -> bool:
    for p, eligible in enumerate(pots):
        if seat not in eligible:
            continue
        if p not in best_high or (h is not None and h >= best_high[p]):
            return True
        if lo is not None and (p not in best_low or lo >= best_low[p]):
            return True
    return False


def _raise_best(best: dict[int, int], p: int, value: int | None) -> None:
    if value is not None and (p not in best or value > best[p]):
        best[p] = value


def award_pot(
    amount: int,
    eligible: Sequence[int],
    high: Strengths,
    low: Strengths | None,
) -> list[tuple[int, int, str]]:
    """Pay ``amount`` (after rake) among ``eligible`` (clockwise from the button's left):
    ``(seat, chips, share)`` for each winner.

    ``low`` is None in high-only games; in hi-lo games a pot with no qualifying
    low goes to the high hand whole; otherwise the high half takes the odd chip.

    >>> award_pot(101, [0, 2], {0: 9, 2: 5}, {0: None, 2: 3})
    [(0, 51, 'high'), (2, 50, 'low')]
    """
    lows = [s for s in eligible if low is not None and low.get(s) is not None]
    if not lows:
        return _best(amount, eligible, high, ALL)
    low_half = amount // 2
    assert low is not None
    return [
        *_best(amount - low_half, eligible, high, HIGH),
        *_best(low_half, lows, low, LOW),
    ]


def _best(
    amount: int, seats: Sequence[int], values: Strengths, share: str
) -> list[tuple[int, int, str]]:
    rated = [(s, v) for s in seats if (v := values.get(s)) is not None]
    top = max(v for _, v in rated)
    winners = [s for s, v in rated if v == top]
    return [(seat, chips, share) for seat, chips in split(amount, winners)]


@value
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


@value
class Contender:
    """A live hand at showdown: its cards, the player's auto-muck setting, all-in or not."""

    cards: tuple[Card, ...]
    auto_muck: bool
    all_in: bool


@value
class Table:
    """What settling needs of the table: seats dealt in (clockwise from the button's
    left), who is live, each seat's chips in, the button, and the dead money
    by seat (part of ``totals``; a big-blind ante, for the main pot)."""

    order: tuple[int, ...]
    live: tuple[bool, ...]
    totals: tuple[int, ...]
    button: int
    dead: Sequence[int] = ()


@value
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
    pots = build_pots(table.totals, table.live, table.order, table.dead)
    out: list[ev.Event] = []
    rakes = _take_rake(config, pots, len(table.order), raked)
    for i, r in enumerate(rakes):
        if r:
            out.append(ev.RakeTaken(i, r))
    live = [s for s in table.order if table.live[s]]
    high: dict[int, int | None] = {}
    low: dict[int, int | None] | None = None
    if showdown:
        low_name = config.low_evaluator
        rankers = (
            _Ranker(config.high_evaluator, board),
            None if low_name is None else _Ranker(low_name, board),
        )
        high, low = _strengths(rankers, hands)
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
            awards = [
                _named(rankers, hands, seat, chips, share)
                for seat, chips, share in award_pot(amount, pot.eligible, high, low)
                if chips
            ]
        else:
            awards = [Award(pot.eligible[0], amount, ALL, "", ())] if amount else []
        for a in awards:
            out.append(ev.PotAwarded(i, a.seat, a.amount, a.share, a.hand, a.cards))
        results.append(PotResult(i, pot.amount, rakes[i], pot.eligible, tuple(awards)))
    results.reverse()
    return Settlement(tuple(out), tuple(results), sum(rakes))


def _take_rake(config: TableConfig, pots: list[Pot], players: int, raked: bool) -> list[int]:
    """Rake per pot: the schedule's amount on the whole pot (§10.8), shared by the pots
    (:func:`rake_shares`)."""
    if config.rake is None or not raked:
        return [0] * len(pots)
    amounts = [p.amount for p in pots]
    return rake_shares(config.rake.rake(sum(amounts), players), amounts)


def rake_shares(due: int, pots: list[int]) -> list[int]:
    """``due`` chips of rake shared by pots of these sizes in proportion to them, the odd
    chips to the largest remainders (the main pot first among equals).

    Taken from the main pot first, a short all-in player paid the rake that side pots he
    could not win had earned: all in for 100 beside a side pot of 9,800, his main pot of
    300 paid all of a cap of 200. In proportion it pays 6.

    >>> rake_shares(200, [300, 9800])
    [6, 194]
    """
    total = sum(pots)
    if not due:
        return [0] * len(pots)
    exact = [due * amount for amount in pots]
    shares = [e // total for e in exact]  # never above a pot: due <= total
    by_remainder = sorted(range(len(pots)), key=lambda i: (-(exact[i] % total), i))
    for i in by_remainder[: due - sum(shares)]:
        shares[i] += 1
    return shares


@cache  # one lookup per evaluator name, not one import per showdown
def _fast_strength(name: str) -> Callable[[tuple[Card, ...]], int] | None:
    """A strength-only evaluator of pooled cards from the fast tables, where there is one."""
    if name == "high":
        from cardroom.evaluation.fast import high_strength

        return high_strength
    if name == "27_low":
        from cardroom.evaluation.lowball import low_27_strength

        return low_27_strength
    if name in ("short_deck", "short_deck_trips"):
        from cardroom.evaluation.short_deck_fast import short_deck_strength

        trips = name == "short_deck_trips"
        return lambda cards: short_deck_strength(cards, trips)
    return None


_NAMED_FROM_STRENGTH: dict[str, Callable[[int, tuple[Card, ...]], HandValue]] = {
    "high": value_of_strength,
    "27_low": low_27_value,
}
"""The full value of pooled cards from their fast strength, by evaluator name."""


class _Ranker:
    """Rates the live hands of one showdown for one half (high or low): strengths to decide,
    full named values for the winners; no hand is evaluated twice."""

    def __init__(self, name: str, board: tuple[Card, ...]) -> None:
        self.board = board
        self.evaluate = get_evaluator(name)
        self.fast = _fast_strength(name)
        # A winner is named from the strength already found, not evaluated again.
        self.name_of = _NAMED_FROM_STRENGTH.get(name)
        self.found: dict[int, tuple[int, tuple[Card, ...]]] = {}
        self.values: dict[int, HandValue | None] = {}

    def strength(self, seat: int, cards: tuple[Card, ...]) -> int | None:
        if self.fast is not None:
            pool = (*cards, *self.board)
            strength = self.fast(pool)
            self.found[seat] = strength, pool
            return strength
        value = self.values[seat] = self.evaluate(cards, self.board)
        return None if value is None else value.strength

    def value(self, seat: int, cards: tuple[Card, ...]) -> HandValue | None:
        if seat not in self.values:
            if self.name_of is not None and seat in self.found:
                self.values[seat] = self.name_of(*self.found[seat])
            else:
                self.values[seat] = self.evaluate(cards, self.board)
        return self.values[seat]


def _strengths(
    rankers: tuple[_Ranker, _Ranker | None], hands: Mapping[int, Contender]
) -> tuple[dict[int, int | None], dict[int, int | None] | None]:
    high_ranker, low_ranker = rankers
    high = {s: high_ranker.strength(s, h.cards) for s, h in hands.items()}
    if low_ranker is None:
        return high, None
    return high, {s: low_ranker.strength(s, h.cards) for s, h in hands.items()}


def _named(
    rankers: tuple[_Ranker, _Ranker | None],
    hands: Mapping[int, Contender],
    seat: int,
    chips: int,
    share: str,
) -> Award:
    """The award with the winning hand named in words and cards (winners only are named)."""
    ranker = rankers[1] if share == LOW else rankers[0]
    assert ranker is not None
    value = ranker.value(seat, hands[seat].cards)
    assert value is not None
    return Award(seat, chips, share, value.name, value.cards)
