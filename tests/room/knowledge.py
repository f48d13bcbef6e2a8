"""What each seat may have seen: the oracle of the hidden-card tests."""

from __future__ import annotations

import json
import re
from typing import Any

from cardroom.cards import Card
from cardroom.chinese import CardsDealt, CardsPlaced, HandSettled
from cardroom.games import events as hev
from cardroom.room import events as rv
from cardroom.room.views import project

CARD = re.compile(r'"([2-9TJQKA][cdhs])"')


class Knowledge:
    """The cards each seat (and a spectator, None) may have seen so far this hand."""

    def __init__(self, seats: int) -> None:
        self.viewers: list[int | None] = [None, *range(seats)]
        self.known: dict[int | None, set[str]] = {v: set() for v in self.viewers}

    def learn(self, e: object) -> None:
        if isinstance(e, rv.HandDealt):
            self.known = {v: set() for v in self.viewers}
        elif isinstance(e, hev.HoleDealt):
            self._add([e.seat], e.cards)
            self._add(self.viewers, [c for c, up in zip(e.cards, e.up, strict=True) if up])
        elif isinstance(e, hev.BoardDealt | hev.Shown):
            self._add(self.viewers, e.cards)
        elif isinstance(e, hev.Drew):
            self._add([e.seat], e.dealt)
        elif isinstance(e, CardsDealt):  # Chinese poker: one's own cards to place
            self._add([e.seat], e.cards)
        elif isinstance(e, CardsPlaced) and not e.face_down:  # open face: public once placed
            self._add(self.viewers, e.top + e.middle + e.bottom)
        elif isinstance(e, HandSettled):  # the showdown shows every row, never discards
            for r in e.results:
                self._add(self.viewers, r.top + r.middle + r.bottom)

    def _add(self, viewers: list[int | None], cards: Any) -> None:
        for v in viewers:
            self.known[v].update(str(Card(c)) for c in cards)

    def check(self, data: Any, viewer: int | None, where: str) -> None:
        text = json.dumps(data)
        leaked = set(CARD.findall(text)) - self.known[viewer]
        assert not leaked, f"{where}: seat {viewer} sees {sorted(leaked)}"

    def check_events(self, events: Any) -> None:
        """Learn from each event, then check it as every seat and a spectator see it."""
        for e in events:
            self.learn(e)
            for viewer in self.viewers:
                self.check(project(e, viewer), viewer, type(e).__name__)

    def check_table(self, table: Any) -> None:
        """Check the table view of every seated player and of a spectator."""
        for s, seat in enumerate(table.state.seats):
            if seat is not None:
                self.check(table.view(seat.player), s, "table view")
        self.check(table.view(None), None, "spectator view")
