"""Bot placements at a Chinese poker table: from a ``turn`` message to a ``place``.

The turn's ``legal`` says how many cards to place and to discard and the free slots
per row; ``cards`` are the cards dealt. :func:`random_placement` discards at random
and puts each other card in a random row with room: always legal, often fouled.
"""

from __future__ import annotations

import random
from typing import Any

ROWS = ("top", "middle", "bottom")


def is_placement(turn: dict[str, Any]) -> bool:
    """True when the turn asks for a placement (Chinese poker), not a poker action."""
    return "place" in ((turn.get("legal") or {}).get("actions") or [])


def random_placement(turn: dict[str, Any], rng: random.Random) -> dict[str, list[str]]:
    """The fields of a random legal ``place`` message for ``turn``."""
    legal = turn["legal"]
    cards = [c for c in turn.get("cards") or [] if c]
    rng.shuffle(cards)
    discard = int(legal.get("discard") or 0)
    out: dict[str, list[str]] = {row: [] for row in ROWS}
    out["discard"] = cards[:discard]
    free = {row: int((legal.get("free") or {}).get(row, 0)) for row in ROWS}
    for card in cards[discard:]:
        row = rng.choice([r for r in ROWS if free[r] > 0])
        out[row].append(card)
        free[row] -= 1
    return out
