"""Evaluators by name: each takes (hole, board) and returns the best hand or None."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from cardroom.cards import Card
from cardroom.evaluation.badugi import badugi
from cardroom.evaluation.front import front3
from cardroom.evaluation.hand_value import HandValue
from cardroom.evaluation.high import high, short_deck
from cardroom.evaluation.lowball import low_27, low_a5
from cardroom.evaluation.omaha import omaha_high, omaha_low
from cardroom.evaluation.soko import soko

Evaluator = Callable[[Sequence[Card], Sequence[Card]], HandValue | None]
"""(hole, board) -> the best hand, or None when no hand qualifies (8-or-better lows)."""


def _pooled(rank: Callable[[list[Card]], HandValue | None]) -> Evaluator:
    """An evaluator that ranks hole and board cards together (no Omaha rule)."""

    def evaluate(hole: Sequence[Card], board: Sequence[Card]) -> HandValue | None:
        return rank([*hole, *board])

    return evaluate


EVALUATORS: dict[str, Evaluator] = {
    "high": _pooled(high),
    "short_deck": _pooled(short_deck),
    "short_deck_trips": _pooled(lambda cards: short_deck(cards, trips_beat_straight=True)),
    "omaha_high": omaha_high,
    "omaha_low8": omaha_low,
    "a5_low": _pooled(low_a5),
    "a5_low8": _pooled(lambda cards: low_a5(cards, qualifier=8)),
    "27_low": _pooled(low_27),
    "badugi": _pooled(badugi),
    "soko": _pooled(soko),
    "front3": _pooled(front3),
}


def get_evaluator(name: str) -> Evaluator:
    """The evaluator registered as ``name``; ValueError names the known ones otherwise."""
    try:
        return EVALUATORS[name]
    except KeyError:
        known = ", ".join(sorted(EVALUATORS))
        raise ValueError(f"no evaluator called {name!r}; known: {known}") from None
