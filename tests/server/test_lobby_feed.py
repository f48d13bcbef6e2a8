"""The lobby feed (``server/api_lobby.py``) takes each table's finished hands once, with
their pots, however often or seldom it looks (RULEBOOK §12: average pot, hands per
hour), reading back only to the events it has seen."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from tests.room.conftest import Harness, holdem

from cardroom.games import events as ev
from cardroom.room import commands as cmd
from cardroom.room import events as rv
from cardroom.room.conduct import lobby_summary
from cardroom.room.lobby import LobbyRow, TableSummary
from cardroom.room.table import AnyEvent, Table
from cardroom.server import api_lobby
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


def _watched(seats: dict[int, int]) -> tuple[Harness, _Actor, list[int]]:
    """A heads-up 1/2 table with ``seats`` taken, in an actor's history; the event count
    so far."""
    h = Harness(holdem(seats=2))
    actor = _Actor(h.table, History())
    actor.history.reset(h.table)
    h.seat(seats)
    return h, actor, [0]


def _store(actor: _Actor, count: list[int], events: list[AnyEvent]) -> None:
    for event in events:
        count[0] += 1
        actor.history.add(count[0], [event])


def test_12_a_look_reads_again_only_the_tables_something_happened_at(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A table with no event since the last look keeps its line without being summarised
    again (a big room's lobby summarised every table on every look); seats taken, a
    waiting list joined or a table rebuilt from its record are read at the next look."""
    read: list[str] = []

    def counted(table: Table, pot: int | None = None) -> TableSummary:
        read.append(table.settings.table_id)
        return lobby_summary(table, pot)

    monkeypatch.setattr(api_lobby, "lobby_summary", counted)
    h, actor, count = _watched({0: 40})
    feed = LobbyFeed()
    feed.refresh({"t": actor})
    assert read == ["t"]
    feed.refresh({"t": actor})
    assert read == ["t"]  # nothing happened
    (row,) = feed.lobby.tables(h.clock.now)
    assert (row.seats_taken, row.waiting) == (1, 0)

    _store(actor, count, h.do(cmd.Sit("p1", 1, 40)))
    _store(actor, count, h.do(cmd.JoinWaitlist("w")))
    feed.refresh({"t": actor})
    (row,) = feed.lobby.tables(h.clock.now)
    assert (row.seats_taken, row.waiting) == (2, 1)

    rebuilt = Harness(holdem(seats=2))  # read back from its record: another object
    rebuilt.seat({0: 40})
    actor.table = rebuilt.table
    actor.history.reset(rebuilt.table)
    feed.refresh({"t": actor})
    (row,) = feed.lobby.tables(h.clock.now)
    assert (row.seats_taken, row.waiting) == (1, 0)
