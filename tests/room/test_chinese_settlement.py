"""RULEBOOK §8 money at a served Chinese poker table with three and four players where
several lose more than the chips they have: each loss limited to the table chips
(§10.2), a short loser's creditors paid in seat order from the button's left (the
documented rule: docs/room.md, ``chinese_table.settle``), every chip conserved in
integers. Expected stacks are worked out by hand in each test's docstring."""

from __future__ import annotations

from typing import Any

import pytest

from cardroom.chinese import HandSettled
from cardroom.room import events as rv

from .conftest import Harness
from .test_chinese_room import FOULED, ofc, play_plans, rig
from .test_chinese_table import SEAT0, SEAT1, deck_for

# The 13 cards no other hand here holds, set fouled (Q-high top over a 7-high middle).
FOULED2 = {"top": "Qc Jc 9c", "middle": "2s 3s 4s 6h 7h", "bottom": "5c 8h 6s 7s 8s"}


def four_players(
    monkeypatch: pytest.MonkeyPatch, stacks: dict[int, int]
) -> tuple[dict[int, int], int, Harness]:
    """Seat 0 SEAT0 (royalties 13), seat 1 SEAT1 (royalty 6), seats 2 and 3 fouled;
    button on seat 0, so play (and payment) order 1, 2, 3, 0."""
    rig(monkeypatch, deck_for(SEAT1, FOULED, FOULED2, SEAT0))
    h = Harness(ofc(min_buy_in=10, seats=4))
    h.seat(stacks)
    h.tick()
    events = play_plans(h, {0: SEAT0, 1: SEAT1, 2: FOULED, 3: FOULED2})
    settled = next(e for e in events if isinstance(e, HandSettled))
    # Pairwise units: 0 beats 1 by 6 + 13 - 6 = 13, each fouled hand by 6 + 13 = 19;
    # 1 beats each fouled hand by 6 + 6 = 12; the fouled pair 0. At 10 chips a point.
    assert {r.seat: r.points for r in settled.results} == {0: 51, 1: 11, 2: -31, 3: -31}
    return finished(events, h)


def finished(events: list[Any], h: Harness) -> tuple[dict[int, int], int, Harness]:
    """The stacks after the settlement, the chips won, and the table's harness."""
    end = next(e for e in events if isinstance(e, rv.HandFinished))
    return dict(end.stacks), end.pot, h


def test_8_four_players_two_fouled_short_pay_seat_1_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Debts: 1->0 130, 2->0 190, 2->1 120, 3->0 190, 3->1 120. Seat 1 (100 chips) pays
    its 130 out of its stack and what it wins. Seat 2 (100) pays its first creditor
    from the button's left, seat 1, 100 of 120, seat 0 nothing; seat 3 (150) pays seat 1
    its 120 and seat 0 the 30 left. Seat 0: +130 +30; seat 1: -130 +100 +120."""
    stacks, pot, h = four_players(monkeypatch, {0: 1000, 1: 100, 2: 100, 3: 150})
    assert stacks == {0: 1160, 1: 190, 2: 0, 3: 0}
    assert pot == 160 + 90
    assert sum(stacks.values()) == 1350
    assert h.table.stacks() == {"p0": 1160, "p1": 190, "p2": 0, "p3": 0}


def test_8_four_players_three_short_the_shortfall_cascades(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Seats 1, 2, 3 hold 10, 30, 40. Seats 2 and 3 pay seat 1 (first in the order) all
    they have, 30 and 40; seat 1 then has 10 + 70 = 80 of the 130 it owes seat 0 and
    pays that. Seat 0 +80; seats 1, 2, 3 end with nothing."""
    stacks, pot, h = four_players(monkeypatch, {0: 1000, 1: 10, 2: 30, 3: 40})
    assert stacks == {0: 1080, 1: 0, 2: 0, 3: 0}
    assert pot == 80
    assert h.table.stacks() == {"p0": 1080, "p1": 0, "p2": 0, "p3": 0}


def test_8_three_players_one_up_in_points_may_end_down_in_chips(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Three players, button on seat 0 (order 1, 2, 0): seat 0 SEAT0, seat 1 SEAT1,
    seat 2 fouled with 35 chips. Debts 1->0 130, 2->0 190, 2->1 120. Seat 2's 35 go to
    seat 1 (first in the order); seat 1 (200) pays seat 0 its 130 in full. Seat 1 won 11
    points and ends 95 down: pairwise settlement, not netted (docs/room.md)."""
    rig(monkeypatch, deck_for(SEAT1, FOULED, SEAT0))
    h = Harness(ofc(min_buy_in=10))
    h.seat({0: 500, 1: 200, 2: 35})
    h.tick()
    events = play_plans(h, {0: SEAT0, 1: SEAT1, 2: FOULED})
    stacks, pot, h = finished(events, h)
    assert stacks == {0: 630, 1: 105, 2: 0}
    assert pot == 130
