"""Hands said the way players say them: "Full House, Kings over Sevens", "8-6-4-2-A low"."""

from __future__ import annotations

from collections.abc import Sequence

from cardroom.cards import RANK_NAMES, RANK_PLURALS, RANKS

# Standard high categories, indexed by the category number of the high encoding.
HIGH_CATEGORIES = (
    "High Card",
    "Pair",
    "Two Pair",
    "Three of a Kind",
    "Straight",
    "Flush",
    "Full House",
    "Four of a Kind",
    "Straight Flush",
)


def rank_name(rank: int) -> str:
    """The name of a rank index (0 = deuce .. 12 = ace): Ace, Seven."""
    return RANK_NAMES[rank]


def rank_plural(rank: int) -> str:
    """The plural of a rank index: Aces, Sixes."""
    return RANK_PLURALS[rank]


def high_name(category: str, ranks: Sequence[int]) -> str:
    """Name a high hand from its category and its five ranks in reading order."""
    r = ranks
    if category == "Straight Flush":
        return "Royal Flush" if r[0] == 12 else f"Straight Flush, {rank_name(r[0])} high"
    if category == "Four of a Kind":
        return f"Four of a Kind, {rank_plural(r[0])}"
    if category == "Full House":
        return f"Full House, {rank_plural(r[0])} over {rank_plural(r[3])}"
    if category in ("Flush", "Straight"):
        return f"{category}, {rank_name(r[0])} high"
    if category == "Three of a Kind":
        return f"Three of a Kind, {rank_plural(r[0])}"
    if category == "Two Pair":
        return f"Two Pair, {rank_plural(r[0])} and {rank_plural(r[2])}"
    if category == "Pair":
        return f"Pair of {rank_plural(r[0])}"
    return f"High Card, {rank_name(r[0])}"


def low_ranks_text(ranks: Sequence[int]) -> str:
    """ "8-6-4-2-A" for rank indexes in reading order."""
    return "-".join(RANKS[r] for r in ranks)
