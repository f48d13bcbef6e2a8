"""Bet sizing by structure (RULEBOOK §5): bounds of a bet or raise, and what
counts as a full raise (the incomplete-raise rules).

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

from cardroom.games.variants import (
    FIXED_LIMIT,
    HALF_POT_LIMIT,
    NO_LIMIT,
    POT_LIMIT,
    SPREAD_LIMIT,
)


def raise_bounds(
    structure: str,
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

    >>> raise_bounds("pot_limit", 50, 0, 1000, 100, 50, 0)  # seed 004: 100 in, 50 to call
    (100, 200)
    """
    all_in = own_bet + stack
    if all_in <= current:
        return None
    low = current + basis
    if structure == NO_LIMIT:
        high = all_in
    elif structure == POT_LIMIT:
        high = current + pot + (current - own_bet)
    elif structure == HALF_POT_LIMIT:
        high = current + (pot + current - own_bet) // 2
    elif structure == FIXED_LIMIT:
        high = low
    elif structure == SPREAD_LIMIT:
        high = min(current + street_max, 3 * street_max)
        if high <= current or low > high:
            return None
    else:
        raise ValueError(f"unknown betting structure {structure!r}")
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
