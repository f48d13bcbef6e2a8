"""RULEBOOK §7: a player who is not first to show may muck a losing hand, an option per
player ("auto-muck losing hands", default on). A seat turns it off (or on again) at any
time; it holds from the next hand dealt (a hand's seats are fixed when it is dealt)."""

from __future__ import annotations

import pytest

from cardroom.games.events import Mucked, Shown
from cardroom.room import commands as cmd
from cardroom.room import events as rv
from cardroom.room.errors import BAD_COMMAND, TableError
from cardroom.room.state import state_from_dict, state_to_dict

from .conftest import Harness, holdem

HANDS = 12


def _showdowns(h: Harness, before_first: cmd.Command | None = None) -> list[dict[str, set[int]]]:
    """Play ``HANDS`` hands checked down at three seats (``before_first``: a command sent
    once the first hand is dealt); each hand's seats that showed and that mucked."""
    h.seat({0: 40, 1: 40, 2: 40})
    out = []
    for n in range(HANDS):
        h.tick(60)
        assert h.table.state.in_hand
        if n == 0 and before_first is not None:
            h.do(before_first)
        hand = h.table.hand
        assert hand is not None
        h.finish_by_checking()
        shown = {e.seat for e in hand.events if isinstance(e, Shown)}
        mucked = {e.seat for e in hand.events if isinstance(e, Mucked)}
        out.append({"shown": shown, "mucked": mucked})
    return out


def test_7_auto_muck_off_shows_the_losing_hands_from_the_next_deal() -> None:
    usual = _showdowns(Harness(holdem()))
    showing = _showdowns(Harness(holdem()), cmd.AutoMuck("p2", False))
    # The same seeded hands: where p2 mucked by default it shows instead, from hand 2.
    assert any(2 in hand["mucked"] for hand in usual[1:]), "no hand for the rule to change"
    assert showing[0] == usual[0]  # the hand in progress was dealt with the default
    for n in range(1, HANDS):
        assert 2 not in showing[n]["mucked"], n
        expected_shown = usual[n]["shown"] | (usual[n]["mucked"] & {2})
        assert showing[n]["shown"] == expected_shown, n
        assert showing[n]["mucked"] == usual[n]["mucked"] - {2}, n


def test_7_auto_muck_is_kept_by_the_seat_and_said_to_it_alone(h: Harness) -> None:
    h.seat({0: 40, 1: 40})
    events = h.do(cmd.AutoMuck("p1", False))
    assert events == [rv.AutoMuckSet(1, False)]
    assert h.do(cmd.AutoMuck("p1", False)) == []  # no change, no event
    assert h.table.view("p1")["auto_muck"] is False
    assert h.table.view("p0")["auto_muck"] is True
    assert "auto_muck" not in h.table.view(None)
    assert rv.AutoMuckSet in rv.PRIVATE  # only the seat itself is told
    again = state_from_dict(state_to_dict(h.table.state))  # in the snapshot
    seat = again.seats[1]
    assert seat is not None and seat.auto_muck is False
    with pytest.raises(TableError) as refused:
        h.do(cmd.AutoMuck("p1", 1))  # type: ignore[arg-type]
    assert refused.value.code == BAD_COMMAND
    with pytest.raises(TableError):
        h.do(cmd.AutoMuck("p5", False))  # not seated
