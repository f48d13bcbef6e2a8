"""Main and side pots (RULEBOOK §5 all-in, §7): built from what each seat put in.

Every all-in level of a player still in the hand closes a pot; each pot lists
the seats eligible to win it, in order clockwise from the button's left (the
order odd chips follow). Chips of folded players count in every pot they reach.
Dead money (a big-blind ante) belongs to no level: it goes to the main pot.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardroom.values import value


@value
class Pot:
    """One pot: its chips and the seats that can win it (clockwise from the button's left)."""

    amount: int
    eligible: tuple[int, ...]


def build_pots(
    totals: Sequence[int],
    live: Sequence[bool],
    order: Sequence[int],
    dead: Sequence[int] = (),
) -> list[Pot]:
    """The main pot then the side pots, from each seat's chips in (``totals``) and who is live.

    ``order`` lists the seats dealt in, clockwise from the button's left.
    ``dead`` (by seat, included in ``totals``) is dead money such as a big-blind
    ante: it counts toward no seat's level and goes to the main pot, which every
    live seat can win (PokerKit with ``ante_trimming_status = false``). Equal
    antes are not dead here: they count in the side pots like any chip.

    >>> build_pots([50, 100, 100], [True, True, True], [0, 1, 2])
    [Pot(amount=150, eligible=(0, 1, 2)), Pot(amount=100, eligible=(1, 2))]
    >>> build_pots([100, 60, 100], [True, True, True], [0, 1, 2], dead=[0, 60, 0])
    [Pot(amount=60, eligible=(0, 1, 2)), Pot(amount=200, eligible=(0, 2))]
    """
    money = sum(dead)
    if money:
        levelled = build_pots([t - d for t, d in zip(totals, dead, strict=True)], live, order)
        everyone = tuple(s for s in order if live[s])
        if levelled and levelled[0].eligible == everyone:
            return [Pot(levelled[0].amount + money, everyone), *levelled[1:]]
        return [Pot(money, everyone), *levelled]
    levels = sorted({totals[s] for s in order if live[s] and totals[s] > 0})
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = 0
        for s in order:
            t = totals[s]
            if t > previous:
                amount += (t if t < level else level) - previous
        eligible = tuple(s for s in order if live[s] and totals[s] >= level)
        if pots and pots[-1].eligible == eligible:
            pots[-1] = Pot(pots[-1].amount + amount, eligible)
        else:
            pots.append(Pot(amount, eligible))
        previous = level
    excess = sum(totals[s] - previous for s in order if totals[s] > previous)
    if excess:
        if pots:
            pots[-1] = Pot(pots[-1].amount + excess, pots[-1].eligible)
        else:
            pots.append(Pot(excess, tuple(s for s in order if live[s])))
    return pots


def split(amount: int, winners: Sequence[int]) -> list[tuple[int, int]]:
    """Share ``amount`` among ``winners`` (already in clockwise order from the button's left):
    equal parts, the indivisible chips one each to the first winners (RULEBOOK §7).

    >>> split(101, [4, 2])
    [(4, 51), (2, 50)]
    """
    n = len(winners)
    part, odd = divmod(amount, n)
    return [(seat, part + (1 if i < odd else 0)) for i, seat in enumerate(winners)]
