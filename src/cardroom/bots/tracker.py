"""What a bot knows of the current hand, followed from the events it is sent.

Only public information reaches here: the game, the chips put in (the pot),
which seats are still in, the board. A bot's own cards come with its ``turn``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class HandTracker:
    """The current hand as events describe it."""

    game: str = ""
    deck: str = "standard"
    """The deck the hand is dealt from, as the engine names it (``standard``, ``short``)."""
    pot: int = 0
    live: set[int] = field(default_factory=set)
    last_seq: int | None = None
    """The last table sequence number seen (sent on a reconnect)."""

    def see_seq(self, seq: int) -> None:
        """Remember a sequence number (they only grow)."""
        if self.last_seq is None or seq > self.last_seq:
            self.last_seq = seq

    def see(self, event: dict[str, Any]) -> None:
        """Follow one event."""
        kind = event.get("type")
        if kind == "HandStarted":
            self.game = str(event.get("game") or "")
            self.deck = str(event.get("deck") or "standard")
            self.pot = 0
            self.live = {i for i, s in enumerate(event.get("stacks") or []) if s is not None}
        elif kind in ("Posted", "Acted"):
            self.pot += int(event.get("amount") or 0)
            if kind == "Acted" and event.get("kind") == "fold":
                self.live.discard(int(event["seat"]))
        elif kind == "UncalledReturned":
            self.pot -= int(event.get("amount") or 0)

    def see_view(self, view: dict[str, Any]) -> None:
        """Take what a snapshot's table view says of the hand in progress."""
        hand = view.get("hand") or {}
        if not hand or "players" in hand:  # none, or Chinese poker: no pot to follow
            return
        self.game = str(hand.get("game") or self.game)
        self.deck = str(hand.get("deck") or self.deck)
        pots = sum(int(p.get("amount") or 0) for p in hand.get("pots") or [])
        seats = [s for s in hand.get("seats") or [] if s]
        self.pot = pots + sum(int(s.get("bet") or 0) for s in seats)
        self.live = {int(s["seat"]) for s in seats if s.get("in_hand")}

    def opponents(self, seat: int | None) -> int:
        """How many other seats are still in the hand (at least one)."""
        return max(1, len(self.live - {seat}))
