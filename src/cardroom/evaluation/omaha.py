"""The Omaha rule: exactly two hole cards and exactly three board cards.

High and low are chosen separately, so a player's high and low may use
different hole cards. Works for four (Omaha) or five (PLO5, Courchevel) hole
cards, and any board of three to five cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from cardroom.evaluation.hand_value import HandValue, checked_hole_board
from cardroom.evaluation.high import evaluate_high
from cardroom.evaluation.lowball import low_a5, require_qualifier

HOLE_RANGE = (2, 6)
BOARD_RANGE = (3, 5)


def omaha_high(hole: Sequence[int], board: Sequence[int]) -> HandValue:
    """Best standard high hand of exactly two hole cards and three board cards."""
    h, b = checked_hole_board(hole, board, HOLE_RANGE, BOARD_RANGE)
    return max(
        (evaluate_high(two + three) for two in combinations(h, 2) for three in combinations(b, 3)),
        key=lambda value: value.strength,
    )


def omaha_low(hole: Sequence[int], board: Sequence[int], qualifier: int = 8) -> HandValue | None:
    """Best ace-to-five low of exactly two hole and three board cards, or None.

    Only a low with five different ranks all ``qualifier`` or lower counts
    (8-or-better by default); None when no such two-plus-three exists.
    """
    require_qualifier(qualifier)
    h, b = checked_hole_board(hole, board, HOLE_RANGE, BOARD_RANGE)
    best: HandValue | None = None
    for two in combinations(h, 2):
        for three in combinations(b, 3):
            value = low_a5(two + three, qualifier)
            if value is not None and (best is None or value.strength > best.strength):
                best = value
    return best
