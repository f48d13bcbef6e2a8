"""RULEBOOK §10.9: a player the room stands up for a sanction leaves with the sanction as
the record's reason (staff reviewing a table read why), the table's watchers see an
ordinary departure, and records stored before the reason existed still read."""

from __future__ import annotations

from cardroom.room import commands as cmd
from cardroom.room import events as rv
from cardroom.room.codec import decode_room_event, encode_room_event
from cardroom.room.state import SeatState, TableState, state_from_dict, state_to_dict
from cardroom.room.table import Table
from cardroom.room.views import project

from .conftest import Harness


def _left(events: list[rv.RoomEvent | object]) -> list[tuple[str, str]]:
    return [(e.player, e.reason) for e in events if isinstance(e, rv.PlayerLeft)]


def test_10_9_a_frozen_player_between_hands_leaves_as_frozen(h: Harness) -> None:
    h.seat({0: 40})
    assert _left(h.do(cmd.Leave("p0", rv.FROZEN))) == [("p0", "frozen")]
    h.seat({1: 40})
    assert _left(h.do(cmd.Leave("p1"))) == [("p1", "left")]  # his own choice


def test_10_9_a_frozen_player_dealt_in_leaves_as_frozen_after_the_hand(h: Harness) -> None:
    h.seat({0: 40, 1: 40, 2: 40})
    h.tick()
    assert h.table.state.in_hand
    frozen = next(p for p in ("p0", "p1", "p2") if p != h.actor)
    assert h.do(cmd.Leave(frozen, rv.BANNED))[0] == rv.LeaveRequested(int(frozen[1]), rv.BANNED)
    # Rebuilt from its record mid-hand (a server restart), the table still knows why.
    h.table = Table.restore(h.settings, *h.table.record(), h.ledger, h.clock)
    events: list[rv.RoomEvent | object] = []
    hand = h.table.hand
    while h.table.state.in_hand and hand is not None:
        events += h.act("check" if hand.legal_actions(hand.actor).check else "call")  # type: ignore[arg-type]
    assert _left(events + h.tick()) == [(frozen, "banned")]


def test_10_9_records_stored_before_the_reason_read_as_a_player_s_own_leave() -> None:
    old = {"v": 1, "type": "LeaveRequested", "seat": 2}
    assert decode_room_event(old) == rv.LeaveRequested(2, "left")
    new = rv.LeaveRequested(2, rv.FROZEN)
    assert decode_room_event(encode_room_event(new)) == new
    seat = {**state_to_dict(TableState([SeatState("p0", 40, 30.0)]))["seats"][0]}
    del seat["leave_reason"]  # a snapshot stored before it
    (restored,) = state_from_dict({**state_to_dict(TableState([])), "seats": [seat]}).seats
    assert restored is not None and restored.leave_reason == "left"


def test_10_9_watchers_see_a_sanctioned_player_leave_like_any_other() -> None:
    """A freeze is staff business (an investigation, §10.9): the table's other players,
    and the player himself, see "left"; the stored record keeps "frozen"."""
    left = rv.PlayerLeft(0, "p0", 40, rv.FROZEN, 1.0)
    for seat in (None, 0, 1):
        assert project(left, seat) == {
            "type": "PlayerLeft", "seat": 0, "player": "p0", "cashed_out": 40,
            "reason": "left", "at": 1.0,
        }  # fmt: skip
    asked = project(rv.LeaveRequested(0, rv.BANNED), 1)
    assert asked == {"type": "LeaveRequested", "seat": 0, "reason": "left"}
    gone = project(rv.WaitlistLeft("p3", rv.FROZEN), None)
    assert gone == {"type": "WaitlistLeft", "player": "p3", "reason": "left"}
    assert project(rv.PlayerLeft(0, "p0", 40, "sat_out_too_long", 1.0), 1)["reason"] == (  # type: ignore[index]
        "sat_out_too_long"
    )
