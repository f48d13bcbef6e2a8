"""The export of a random hand, or None when PHH's reader would read it otherwise."""

from __future__ import annotations

from cardroom.games import Hand
from cardroom.games.phh import HandHistory, PhhError
from cardroom.games.phh_export import export

READ_OTHERWISE = ("short_raise", "short_forced_bet")
"""Refusals for a rule of §4 PHH's reader (PokerKit) plays otherwise: a fixed-limit round
capped past a short all-in raise, the largest forced bet posted all-in for less."""


def export_unless_read_otherwise(hand: Hand) -> HandHistory | None:
    """``export(hand)``; None when refused for one of :data:`READ_OTHERWISE` (random
    play with random stacks meets them now and then). Any other refusal raises."""
    try:
        return export(hand)
    except PhhError as refused:
        if refused.code not in READ_OTHERWISE:
            raise
        return None
