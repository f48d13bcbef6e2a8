"""The result every evaluator returns, and the input checks they share."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from cardroom.cards import CARDS, Card


class EvaluationError(ValueError):
    """Raised for cards an evaluator cannot rank: wrong count, repeats, not a card."""


@dataclass(frozen=True, slots=True)
class HandValue:
    """One evaluated hand.

    ``strength`` orders hands of one family (larger is better, equal is a tie
    and splits the pot); ``category`` is the class of hand ("Full House",
    "8 low"), ``name`` says the hand as a player would, and ``cards`` are the
    cards used in reading order. ``<``, ``<=``, ``>``, ``>=`` compare strength
    only; use ``ties`` to ask whether two hands split.
    """

    strength: int
    category: str
    name: str
    cards: tuple[Card, ...]

    def __lt__(self, other: HandValue) -> bool:
        return self.strength < other.strength

    def __le__(self, other: HandValue) -> bool:
        return self.strength <= other.strength

    def __gt__(self, other: HandValue) -> bool:
        return self.strength > other.strength

    def __ge__(self, other: HandValue) -> bool:
        return self.strength >= other.strength

    def ties(self, other: HandValue) -> bool:
        """True when the two hands are of equal strength (a split)."""
        return self.strength == other.strength

    def __str__(self) -> str:
        return self.name


def checked_cards(
    cards: Iterable[int], minimum: int, maximum: int, what: str = "hand"
) -> tuple[Card, ...]:
    """Return ``cards`` as Card objects, refusing repeats, non-cards and a bad count."""
    out: list[Card] = []
    seen = 0
    for c in cards:
        if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < 52:
            raise EvaluationError(f"{c!r} is not a card")
        bit = 1 << c
        if seen & bit:
            raise EvaluationError(f"card {CARDS[c]} appears more than once")
        seen |= bit
        out.append(CARDS[c])
    n = len(out)
    if not minimum <= n <= maximum:
        wanted = str(minimum) if minimum == maximum else f"{minimum} to {maximum}"
        raise EvaluationError(f"a {what} needs {wanted} cards, got {n}")
    return tuple(out)


def checked_hole_board(
    hole: Sequence[int],
    board: Sequence[int],
    hole_range: tuple[int, int],
    board_range: tuple[int, int],
) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """Check hole and board cards separately and against each other (no shared card)."""
    h = checked_cards(hole, *hole_range, what="hole")
    b = checked_cards(board, *board_range, what="board")
    shared = set(h) & set(b)
    if shared:
        raise EvaluationError(f"card {min(shared)} is both in the hole and on the board")
    return h, b
