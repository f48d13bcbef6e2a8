"""Bet sizing by structure (RULEBOOK §5): the structures as data, the sizes of a
street, the bounds of a bet or raise, and what counts as a full raise (the
incomplete-raise rules).

Each structure is one :class:`BettingStructure` of :data:`STRUCTURE_RULES`: the
hand, the rake schedule and the table checks read what a structure does from
there (one bet size per street and a cap, a pot ceiling, spread tiers, the half
rule), never from its name.

All amounts are totals for the current betting round ("raise TO"), in chips.
The bet to match starts at the full amount of the largest forced bet, even one
posted all-in for less (RULEBOOK §4: a short big blind is still called in full,
and a raise adds at least the minimum bet on top of the full big blind).
In NL/PL a short all-in reopens the betting to a player who already acted only
when, with earlier short all-ins, it adds up to a full raise since that player
acted (the TDA rule); a first bet all-in for less than the minimum bet is such
a short all-in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from cardroom.games.options import Structure
from cardroom.games.variants import (
    FIXED_LIMIT,
    HALF_POT_LIMIT,
    NO_LIMIT,
    POT_LIMIT,
    SPREAD_LIMIT,
    Street,
)


@dataclass(frozen=True, slots=True)
class BettingStructure:
    """What a betting structure does, as data.

    ``limit``: a limit game (the half rule: an all-in of at least half a full raise
    reopens the betting; rake tiers by the small bet; no straddles). ``fixed``: every
    bet or raise is the street's one size, the small or the big bet, and a raise cap
    applies. ``pot_share``: the most a raise may add is this share (numerator,
    denominator) of a pot-sized raise. ``spread``: each street has a maximum bet (its
    tier), and no raise goes past three of them. Otherwise the ceiling is the stack.
    """

    name: Structure
    label: str
    title: str
    limit: bool = False
    fixed: bool = False
    pot_share: tuple[int, int] | None = None
    spread: bool = False


STRUCTURE_RULES: Final[dict[str, BettingStructure]] = {
    s.name: s
    for s in (
        BettingStructure(NO_LIMIT, "NL", "No Limit"),
        BettingStructure(POT_LIMIT, "PL", "Pot Limit", pot_share=(1, 1)),
        BettingStructure(HALF_POT_LIMIT, "½PL", "Half-Pot Limit", pot_share=(1, 2)),
        BettingStructure(FIXED_LIMIT, "FL", "Fixed Limit", limit=True, fixed=True),
        BettingStructure(SPREAD_LIMIT, "SL", "Spread Limit", limit=True, spread=True),
    )
}
"""Every betting structure by name (the names of :data:`~cardroom.games.options.Structure`)."""


def street_sizes(
    small_bet: int, big_bet: int, spread: tuple[int, ...], street: Street
) -> tuple[int, int]:
    """The sizes of ``street``: its fixed-limit bet (the small or the big bet, as the
    street says) and its spread-limit maximum (the street's tier; 0 when not set).

    >>> from cardroom.games.variants import HOLDEM
    >>> [street_sizes(2, 4, (2, 4, 6), st) for st in HOLDEM.streets]
    [(2, 2), (2, 2), (4, 4), (4, 6)]
    """
    tier = street.spread_tier
    return (big_bet if street.big_bet else small_bet), (spread[tier] if tier < len(spread) else 0)


def raise_bounds(
    structure: BettingStructure,
    current: int,
    own_bet: int,
    stack: int,
    pot: int,
    basis: int,
    street_max: int,
) -> tuple[int, int] | None:
    """The smallest and largest total a bet or raise may reach, or None if none is possible.

    ``current`` is the bet to match, ``own_bet`` what the player has in this
    round, ``pot`` every chip in the middle including all bets of this round,
    ``basis`` the size of a full raise (the last full bet or raise, at least
    the minimum bet; the fixed-limit bet), ``street_max`` the spread-limit
    maximum of this street. A player short of the minimum may still go all-in.

    >>> pot_limit = STRUCTURE_RULES["pot_limit"]
    >>> raise_bounds(pot_limit, 50, 0, 1000, 100, 50, 0)  # seed 004: 100 in, 50 to call
    (100, 200)
    """
    all_in = own_bet + stack
    if all_in <= current:
        return None
    low = current + basis
    if structure.fixed:
        high = low
    elif structure.pot_share is not None:
        # A pot-sized raise: call first, then raise by the whole pot (the call included).
        share, of = structure.pot_share
        high = current + (pot + current - own_bet) * share // of
    elif structure.spread:
        high = min(current + street_max, 3 * street_max)
        if high <= current or low > high:
            return None
    else:
        high = all_in
    high = max(high, low)
    if all_in < low:
        return all_in, all_in
    return low, min(high, all_in)


def is_full_raise(size: int, basis: int, half_rule: bool) -> bool:
    """Whether raising by ``size`` is a full raise (reopens the betting).

    Under the half rule (fixed and spread limit; ``incomplete_raise_rule="half"``)
    an all-in of at least half a full raise counts as one (seed 001's "under-raise").

    >>> is_full_raise(5, 10, half_rule=True), is_full_raise(4, 10, half_rule=True)
    (True, False)
    >>> is_full_raise(5, 10, half_rule=False)
    False
    """
    return size >= basis or (half_rule and 2 * size >= basis)
