"""The lobby feed (``server/api_lobby.py``) takes each table's finished hands once, with
their pots, however often or seldom it looks (RULEBOOK §12: average pot, hands per
hour), reading back only to the events it has seen."""

from __future__ import annotations

from dataclasses import dataclass

from tests.room.conftest import Harness, holdem

from cardroom.games import events as ev
from cardroom.room import events as rv
from cardroom.room.lobby import LobbyRow
from cardroom.room.table import AnyEvent, Table
from cardroom.server.api_lobby import LobbyFeed
from cardroom.server.broadcast import History

HANDS = 4


@dataclass
class _Actor:
    table: Table
    history: History


def _lobby_row(every: int) -> tuple[LobbyRow, list[int]]:
    """Four hands at a 1/2 table, their events numbered into an actor's history, the
    feed looking after every ``every`` events: the table's lobby row then, and the pot
    of each hand (the chips its events awarded)."""
    h = Harness(holdem())
    h.seat({0: 40, 1: 40, 2: 40})
    actor = _Actor(h.table, History())
    actor.history.reset(h.table)
    feed, pots, count = LobbyFeed(), [0], 0

    def store(events: list[AnyEvent]) -> None:
        nonlocal count
        for event in events:
            count += 1
            actor.history.add(count, [event])
            if isinstance(event, ev.PotAwarded):
                pots[-1] += event.amount
            elif isinstance(event, rv.HandFinished):
                pots.append(0)
            if count % every == 0:
                feed.refresh({"t": actor})

    for _ in range(HANDS):
        store(h.tick())
        while (hand := h.table.hand) is not None and h.table.state.in_hand:
            legal = hand.legal_actions(hand.actor)  # type: ignore[arg-type]
            store(h.act("check" if legal.check else "call"))
    feed.refresh({"t": actor})
    (row,) = feed.lobby.tables(h.clock.now)
    return row, pots[:-1]


def test_12_the_lobby_takes_each_hand_once_however_often_it_looks() -> None:
    rows = []
    for every in (1, 7, 10_000):  # after each event, now and then, once at the end
        row, pots = _lobby_row(every)
        assert len(pots) == HANDS and all(pots)
        assert row.average_pot == sum(pots) // HANDS
        rows.append(row)
    assert rows[0] == rows[1] == rows[2]
    assert rows[0].hands_per_hour > 0
