"""RULEBOOK §12 and issue 13: per-seat table views; no view ever holds another player's
hidden cards, checked on every event of every test session for every seat and a
spectator, and on the table view after every step."""

from __future__ import annotations

import json
import os
import random
import re
from typing import Any

from cardroom.cards import Card
from cardroom.games import events as hev
from cardroom.room import events as rv
from cardroom.room.rotation import HORSE
from cardroom.room.simulation import Session, mixed_settings, random_settings
from cardroom.room.views import project

CARD = re.compile(r'"([2-9TJQKA][cdhs])"')
SESSIONS = int(os.environ.get("CARDROOM_ROOM_SESSIONS", "10"))


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

    def _add(self, viewers: list[int | None], cards: Any) -> None:
        for v in viewers:
            self.known[v].update(str(Card(c)) for c in cards)

    def check(self, data: Any, viewer: int | None, where: str) -> None:
        text = json.dumps(data)
        leaked = set(CARD.findall(text)) - self.known[viewer]
        assert not leaked, f"{where}: seat {viewer} sees {sorted(leaked)}"


def check_session(session: Session, steps: int) -> int:
    seats = len(session.table.state.seats)
    knowledge = Knowledge(seats)
    checked = 0
    for _ in range(steps):
        for e in session.step():
            knowledge.learn(e)
            for viewer in knowledge.viewers:
                knowledge.check(project(e, viewer), viewer, type(e).__name__)
                checked += 1
        for s, seat in enumerate(session.table.state.seats):
            if seat is not None:
                knowledge.check(session.table.view(seat.player), s, "table view")
        knowledge.check(session.table.view(None), None, "spectator view")
    return checked


def test_12_no_view_holds_another_players_hidden_cards_in_any_session() -> None:
    rng = random.Random(1212)
    total = 0
    for i in range(SESSIONS):
        session = Session(random_settings(rng, f"v{i}", seed=f"v{i}"), seed=i, check_money=False)
        total += check_session(session, 400)
    assert total > 10_000


def test_12_private_advance_actions_are_seen_by_their_seat_only() -> None:
    e = rv.AdvanceSet(2, "call_any", 0, 0, 2)
    assert project(e, 2) is not None
    assert project(e, 1) is None and project(e, None) is None


def test_12_table_view_shows_seats_button_clock_and_game() -> None:
    session = Session(random_settings(random.Random(4), "g", seed="g"), seed=4)
    while not session.table.state.in_hand:
        session.step()
    player = next(s.player for s in session.table.state.seats if s is not None)
    view = session.table.view(player)
    assert view["button"] == session.table.state.positions.button  # type: ignore[union-attr]
    assert view["turn"]["deadline"] > 0
    assert {"stack", "sitting_out", "time_bank", "connected"} <= set(view["seats"][view["you"]])
    assert view["game"]["game"] == session.settings.games[0].variant.name
    assert view["hand"]["you"] == view["you"]


def test_9_mixed_table_view_says_the_current_and_the_next_game() -> None:
    session = Session(mixed_settings("m", HORSE, seed="m", hands_per_game=2), seed=9)
    games = []
    while session.counters["hands"] < 6:
        events = session.step()
        for e in events:
            if isinstance(e, rv.HandDealt):
                view = session.table.view(None)
                games.append((e.hand_no, view["game"]["game"], view["next_game"]["game"]))
    by_hand = {n: (g, nxt) for n, g, nxt in games}
    assert by_hand[1] == ("holdem", "omaha_hi_lo") and by_hand[2] == by_hand[1]
    assert by_hand[3] == ("omaha_hi_lo", "razz") and by_hand[5][0] == "razz"
    assert session.table.view(None)["mixed"] == "HORSE"
