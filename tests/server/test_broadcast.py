"""What each watcher of a table is sent (RULEBOOK §12): every event projected for the
seat the watcher held when it happened. Pins lines of ``server/broadcast.py`` the
mutation audit (docs/views_mutation_audit.md) found unpinned."""

from __future__ import annotations

import json
from collections import deque
from typing import Any

import pytest
from tests.room.conftest import Harness, holdem

from cardroom.cards import parse_cards
from cardroom.games import events as ev
from cardroom.room import commands as cmd
from cardroom.room import events as rv
from cardroom.room.errors import TableError
from cardroom.server.broadcast import History, Watcher, fan_out, projected, snapshot


def seated(player: str, seat: int) -> rv.PlayerSeated:
    return rv.PlayerSeated(player, seat, 40, None, False, 30.0, 0.0)


def test_12_a_player_who_left_a_seat_never_sees_the_cards_of_the_next_player_in_it() -> None:
    """§12: p1 leaves seat 0 and stays on the rail; p2 sits there and is dealt in. The
    cards dealt to seat 0 now are p2's: p1 reads them as any watcher does, face down."""
    history = History()
    stored = history.add(
        1,
        [
            seated("p1", 0),
            rv.PlayerLeft(0, "p1", 40, "left", 0.0),
            seated("p2", 0),
            ev.HoleDealt(0, tuple(parse_cards("As Kd")), (False, False)),
        ],
    )
    dealt = {pl: projected(stored, pl)[-1].event for pl in ("p1", "p2", "rail")}
    assert dealt["p2"]["cards"] == ["As", "Kd"]
    assert dealt["p1"]["cards"] == dealt["rail"]["cards"] == [None, None]
    assert "p1" not in history.seats and history.seats["p2"] == 0


def test_12_one_batch_that_seats_a_player_and_deals_him_in_sends_his_cards_to_him_alone() -> None:
    """§12: a projection is computed once per history of seats over the whole batch, not
    per seat at its first event: p1 sits down, then p2, who is dealt in, all in one
    batch. The rail and p2 held no seat at the first event; only p2 may be sent the
    cards dealt to seat 0."""
    history = History()
    dealt = ev.HoleDealt(0, tuple(parse_cards("As Kd")), (False, False))
    stored = history.add(1, [seated("p1", 1), seated("p2", 0), dealt])
    sent: dict[str, list[Any]] = {}

    def watcher(conn: int, player: str) -> Watcher:
        return Watcher(conn, player, lambda data: sent.setdefault(player, []).append(data))

    fan_out("holdem", stored, [watcher(1, "p2"), watcher(2, "rail")])
    cards = {pl: json.loads(data)["events"][-1]["event"]["cards"] for pl, [data] in sent.items()}
    assert cards == {"p2": ["As", "Kd"], "rail": [None, None]}


def test_a_reconnect_that_missed_an_event_no_longer_at_hand_gets_a_snapshot() -> None:
    """A client reconnecting with ``since`` gets the events after it only when every one
    of them is still at hand; when the oldest kept is not the next it missed, it gets
    nothing from here (a fresh snapshot instead), never the later events with a gap."""
    history = History()
    history.recent = deque(maxlen=3)
    history.add(1, [seated(f"p{i}", i) for i in range(5)])  # 1..5 numbered, 3..5 kept
    assert history.since(2) is not None and [s.seq for s in history.since(2) or []] == [3, 4, 5]
    assert history.since(1) is None  # event 2 is gone: a snapshot
    assert history.since(0) is None


def test_12_after_a_rebuild_each_seated_player_still_sees_his_own_cards() -> None:
    """A table rebuilt from its record starts its history afresh from the seating as it
    stands: each seated player is still at his seat, so the cards dealt to it next are
    sent to him face up (an empty seating sent every player the rail's projection)."""
    h = Harness(holdem(seats=2))
    h.seat({0: 40, 1: 40})
    history = History()
    history.reset(h.table)
    assert history.seats == {"p0": 0, "p1": 1}
    stored = history.add(9, [ev.HoleDealt(0, tuple(parse_cards("As Kd")), (False, False))])
    assert projected(stored, "p0")[0].event["cards"] == ["As", "Kd"]
    assert projected(stored, "p1")[0].event["cards"] == [None, None]


def test_10_2_a_snapshot_tells_the_most_a_rebuy_may_bring_a_stack_to() -> None:
    """The reducing rule (§10.2) raises a returning player's buy-in range (``buy_in``)
    above the table's maximum; a rebuy stays capped at the table's own maximum. A client
    offered the raised figure for a rebuy, refused ``buy_in_too_large``: ``max_stack``
    tells it the cap."""
    h = Harness(holdem(max_buy_in=40))
    h.seat({0: 40, 1: 40})
    h.tick()
    while h.table.state.in_hand:  # p1 folds to p0, who takes the blinds
        h.act("fold" if h.actor == "p1" else "call")
    won = h.table.stacks()["p0"]
    assert won > 40
    h.do(cmd.Leave("p0"))
    info = json.loads(snapshot(h.table, 0, "p0", {}))["info"]
    assert info["buy_in"] == [won, won] and info["max_stack"] == 40
    h.do(cmd.Sit("p0", 0, won))
    with pytest.raises(TableError) as err:
        h.do(cmd.Rebuy("p0", 1))
    assert err.value.code == "buy_in_too_large"
    fresh = json.loads(snapshot(h.table, 0, "p1", {}))["info"]
    assert fresh["buy_in"] == [20, 40] and fresh["max_stack"] == 40


def test_10_2_a_snapshot_tells_a_returning_player_what_the_reducing_rule_asks() -> None:
    """The browser's buy-in form said "Buy-in (30 to 40)" to a player who had left with
    30, without a word why the table's 20 was not his minimum. ``reducing`` tells the
    chips taken off and until when they bind (the server's clock); none to anyone else,
    nor once the window has passed, nor when what was taken off was below the minimum."""
    h = Harness(holdem(max_buy_in=40))
    h.seat({0: 30, 1: 40})
    h.do(cmd.Leave("p0"))
    h.do(cmd.Leave("p1"))
    left_at = h.clock.now
    info = json.loads(snapshot(h.table, 0, "p0", {}))["info"]
    assert info["buy_in"] == [30, 40]
    assert info["reducing"] == {"chips": 30, "until": left_at + 30 * 60}
    assert json.loads(snapshot(h.table, 0, "p2", {}))["info"]["reducing"] is None
    h.seat({1: 40})  # p1 brought his 40 back: nothing binds him any more
    assert json.loads(snapshot(h.table, 0, "p1", {}))["info"]["reducing"] is None
    h.tick(30 * 60)  # the window has passed (the table reads its clock as it ticks)
    assert json.loads(snapshot(h.table, 0, "p0", {}))["info"]["reducing"] is None
