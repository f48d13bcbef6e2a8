"""The export of a random hand, or None when it is refused for a short all-in raise."""

from __future__ import annotations

from cardroom.games import Hand
from cardroom.games.phh import HandHistory, PhhError
from cardroom.games.phh_export import export


def export_unless_short_raise(hand: Hand) -> HandHistory | None:
    """``export(hand)``; None when refused ``short_raise`` (a fixed-limit round capped past
    a short all-in raise, which PHH's reader counts and RULEBOOK §4 does not): random
    play with random stacks meets it in a few hands in a hundred. Any other refusal raises."""
    try:
        return export(hand)
    except PhhError as refused:
        if refused.code != "short_raise":
            raise
        return None
