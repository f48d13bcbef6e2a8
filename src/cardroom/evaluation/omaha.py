"""The Omaha rule: exactly two hole cards and exactly three board cards.

High and low are chosen separately, so a player's high and low may use
different hole cards. Works for four (Omaha) or five (PLO5, Courchevel) hole
cards, and any board of three to five cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from cardroom.cards import Card
from cardroom.evaluation.hand_value import HandValue, checked_hole_board
from cardroom.evaluation.high import value_of_strength
from cardroom.evaluation.lowball import low_a5, require_qualifier

HOLE_RANGE = (2, 6)
BOARD_RANGE = (3, 5)


def omaha_high(hole: Sequence[int], board: Sequence[int]) -> HandValue:
    """Best standard high hand of exactly two hole cards and three board cards."""
    from cardroom.evaluation.fast import high5  # the tables load on first use

    h, b = checked_hole_board(hole, board, HOLE_RANGE, BOARD_RANGE)
    best, five = max(
        (high5(*two, *three), two + three)
        for two in combinations(h, 2)
        for three in combinations(b, 3)
    )
    return value_of_strength(best, five)


def omaha_low(hole: Sequence[int], board: Sequence[int], qualifier: int = 8) -> HandValue | None:
    """Best ace-to-five low of exactly two hole and three board cards, or None.

    Only a low with five different ranks all ``qualifier`` or lower counts
    (8-or-better by default); None when no such two-plus-three exists.
    """
    require_qualifier(qualifier)
    h, b = checked_hole_board(hole, board, HOLE_RANGE, BOARD_RANGE)
    # A qualifying low has five different low ranks, so only one card per low rank matters.
    hole_lows, board_lows = _low_cards(h, qualifier), _low_cards(b, qualifier)
    best: tuple[list[int], tuple[Card, ...]] | None = None
    for two in combinations(hole_lows, 2):
        for three in combinations(board_lows, 3):
            ranks = sorted({_ace_low(c) for c in two + three}, reverse=True)
            if len(ranks) == 5 and (best is None or ranks < best[0]):
                best = ranks, two + three
    return None if best is None else low_a5(best[1], qualifier)


def _ace_low(card: int) -> int:
    return ((card >> 2) + 1) % 13


def _low_cards(cards: Sequence[Card], qualifier: int) -> list[Card]:
    """One card of each rank that is ``qualifier`` or lower (ace = 1)."""
    by_rank: dict[int, Card] = {}
    for c in cards:
        if _ace_low(c) < qualifier:
            by_rank.setdefault(_ace_low(c), c)
    return list(by_rank.values())
