"""Chinese poker tables (RULEBOOK §8; issue 13 item 12): points per unit, Fantasyland carried
over, settlement with each loss limited to the chips on the table."""

from __future__ import annotations

import random

import pytest

from cardroom.cards import CARDS, parse_cards
from cardroom.chinese import CardsDealt, ChineseError, HandStarted, Place
from cardroom.room.chinese_table import ChineseTable, ChineseTableConfig, settle

# Seat 0: QQ on top, two pair in the middle, aces full on the bottom (royalties 7 + 6).
SEAT0 = {"top": "Qh Qd 2c", "middle": "Ks Kd 3h 3d 4c", "bottom": "As Ad Ac 5s 5d"}
# Seat 1: 8-high top, a pair of nines, tens full (royalty 6). Seat 0 scoops: 6 + 13 - 6 = 13.
SEAT1 = {"top": "6c 7c 8c", "middle": "9h 9s 2d 3c 4d", "bottom": "Th Tc Ts Jh Jd"}


def test_8_settlement_pays_everything_when_losers_cover() -> None:
    got = settle({0: 90, 1: -30, 2: -60}, {0: 100, 1: 100, 2: 100}, order=[1, 2, 0])
    assert got.paid == {1: -30, 2: -60, 0: 90}
    assert got.shortfall == 0


def test_8_settlement_loss_limited_to_the_chips_on_the_table() -> None:
    # Hand-worked: seat 2 owes 60 but has 40; the one winner gets the 70 collected.
    stacks = {0: 100, 1: 100, 2: 40}
    got = settle({0: 90, 1: -30, 2: -60}, stacks, order=[1, 2, 0])
    assert got.paid == {1: -30, 2: -40, 0: 70}
    assert got.shortfall == 20
    after = {s: stacks[s] + got.paid[s] for s in stacks}
    assert after == {0: 170, 1: 70, 2: 0}


def test_8_settlement_short_loser_winners_paid_pro_rata_then_by_seat_order() -> None:
    # Hand-worked: seats 0 and 1 are owed 50 and 30; seat 2 owes 80 but has 41.
    # Pro rata: 50*41//80 = 25 and 30*41//80 = 15; the chip left goes to the first
    # winner clockwise from the button's left. Button on seat 0: order 1, 2, 0.
    got = settle({0: 50, 1: 30, 2: -80}, {0: 10, 1: 10, 2: 41}, order=[1, 2, 0])
    assert got.paid == {1: 16, 2: -41, 0: 25}
    # Button on seat 1: order 2, 0, 1, so seat 0 is first and gets the chip.
    got = settle({0: 50, 1: 30, 2: -80}, {0: 10, 1: 10, 2: 41}, order=[2, 0, 1])
    assert got.paid == {2: -41, 0: 26, 1: 15}


def test_8_settlement_two_short_losers_three_remainder_chips() -> None:
    # Owed 10/10/10 to seats 0, 1, 2; seats 3 and 4 owe 15 each but have 7 and 6:
    # 13 collected, 13*10//30 = 4 each (12), 1 left to seat 0 (order from button 4).
    got = settle(
        {0: 10, 1: 10, 2: 10, 3: -15, 4: -15}, {0: 1, 1: 1, 2: 1, 3: 7, 4: 6}, [0, 1, 2, 3, 4]
    )
    assert got.paid == {0: 5, 1: 4, 2: 4, 3: -7, 4: -6}
    assert got.shortfall == 30 - 13


def test_8_settlement_conserves_chips_and_never_takes_more_than_the_stack() -> None:
    rng = random.Random(13)
    for _ in range(2000):
        n = rng.randint(2, 4)
        owed = {s: rng.randint(-300, 300) for s in range(n - 1)}
        owed[n - 1] = -sum(owed.values())
        stacks = {s: rng.randint(1, 400) for s in range(n)}
        order = rng.sample(range(n), n)
        paid = settle(owed, stacks, order).paid
        assert sum(paid.values()) == 0
        for s in range(n):
            assert isinstance(paid[s], int)
            assert paid[s] >= -stacks[s]
            assert (paid[s] <= 0) if owed[s] <= 0 else (0 <= paid[s] <= owed[s])


def test_8_settlement_refuses_results_that_do_not_sum_to_zero() -> None:
    with pytest.raises(ValueError):
        settle({0: 10, 1: -5}, {0: 10, 1: 10}, [0, 1])


def _deck_for(*hands: dict[str, str]) -> list[int]:
    """A deck that deals each seat (in play order) its 13 cards, one per seat per round."""
    cards = [[int(c) for row in h.values() for c in parse_cards(row)] for h in hands]
    dealt = [c for round_ in zip(*cards, strict=True) for c in round_]
    return dealt + [int(c) for c in CARDS if int(c) not in dealt]


def _place_by_plan(table: ChineseTable, plans: dict[int, dict[str, str]], now: float) -> None:
    """Place every card dealt into the row the plan puts it in, until the hand ends."""
    rows_of = {
        seat: {int(c): row for row, text in plan.items() for c in parse_cards(text)}
        for seat, plan in plans.items()
    }
    while table.hand is not None:
        seat = table.hand.to_act()[0]
        cards = table.hand.legal_actions(seat)[0].cards
        rows: dict[str, list[int]] = {"top": [], "middle": [], "bottom": []}
        for c in cards:
            rows[rows_of[seat][int(c)]].append(int(c))
        table.place(Place.of(seat, **rows), now)


def _ofc_table(stacks: tuple[int, int]) -> ChineseTable:
    table = ChineseTable(ChineseTableConfig("ofc", point_value=10))
    table.sit(0, "ann", stacks[0])
    table.sit(1, "bob", stacks[1])
    return table


def test_8_points_per_unit_and_loss_limited_at_the_table() -> None:
    table = _ofc_table((500, 100))
    events = table.start_hand(0.0, deck=_deck_for(SEAT1, SEAT0))
    # The first button is the lowest seat, so seat 1 plays (and is dealt) first.
    assert isinstance(events[0], HandStarted) and events[0].seats == (1, 0)
    _place_by_plan(table, {0: SEAT0, 1: SEAT1}, now=1.0)
    settlement = table.last_settlement
    assert settlement is not None
    assert settlement.owed == {1: -130, 0: 130}  # 13 points at 10 a point
    assert settlement.paid == {1: -100, 0: 100}  # seat 1 had 100 on the table
    assert table.stacks == {0: 600, 1: 0}
    assert sum(table.stacks.values()) == 600


def test_8_fantasyland_carries_over_to_the_next_hand() -> None:
    table = _ofc_table((1000, 1000))
    table.start_hand(0.0, deck=_deck_for(SEAT1, SEAT0))
    _place_by_plan(table, {0: SEAT0, 1: SEAT1}, now=1.0)
    assert table.fantasyland == {0: 13}  # QQ on top, not fouled
    events = table.start_hand(2.0, seed=5)
    started = events[0]
    assert isinstance(started, HandStarted)
    assert started.button == 1 and started.seats == (0, 1)
    assert dict(zip(started.seats, started.fantasyland, strict=True)) == {0: 13, 1: 0}
    dealt = {e.seat: len(e.cards) for e in events if isinstance(e, CardsDealt)}
    assert dealt == {0: 13, 1: 5}
    assert table.deadline(0) == 2.0 + 90.0  # a full set gets the longer time


def test_8_fantasyland_lost_by_a_player_not_dealt_the_next_hand() -> None:
    table = ChineseTable(ChineseTableConfig("ofc", point_value=10))
    for seat, name in enumerate(("ann", "bob", "cat")):
        table.sit(seat, name, 1000)
    order_plans = {0: SEAT0, 1: SEAT1}
    table.leave(2)
    table.start_hand(0.0, deck=_deck_for(SEAT1, SEAT0))
    _place_by_plan(table, order_plans, now=1.0)
    assert table.fantasyland == {0: 13}
    assert table.leave(0) == 1000 + 130
    table.sit(2, "cat", 500)
    started = table.start_hand(2.0, seed=1)[0]
    assert isinstance(started, HandStarted) and started.seats == (2, 1)
    assert started.fantasyland == (0, 0)


def test_8_timeouts_place_automatically_and_the_hand_settles() -> None:
    table = _ofc_table((1000, 1000))
    table.start_hand(0.0, seed=3)
    assert table.hand is not None
    first = table.hand.to_act()[0]
    assert table.deadline(first) == 30.0
    assert table.tick(29.0) == []
    now = 30.0
    while table.hand is not None:
        assert table.tick(now), "someone was due to place"
        now += 30.0
    assert table.hands_played == 1
    assert sum(table.stacks.values()) == 2000


def test_8_classic_table_many_hands_conserve_chips() -> None:
    table = ChineseTable(ChineseTableConfig("classic", point_value=3))
    for seat, stack in enumerate((40, 60, 25, 80)):
        table.sit(seat, f"p{seat}", stack)
    total = sum(table.stacks.values())
    for n in range(12):
        if len(table.dealt_in()) < 2:
            break
        table.start_hand(1000.0 * n, seed=n)
        assert table.hand is not None and all(table.deadline(s) for s in table.hand.to_act())
        table.tick(1000.0 * n + 120.0)  # everyone out of time: placed back row first
        assert table.hand is None
        assert sum(table.stacks.values()) == total
        assert min(table.stacks.values()) >= 0


def test_8_dealt_in_needs_min_points_worth_of_chips() -> None:
    table = ChineseTable(ChineseTableConfig("pineapple", point_value=10, min_points=2))
    table.sit(0, "ann", 19)
    table.sit(1, "bob", 20)
    table.sit(2, "cat", 200)
    assert table.dealt_in() == [1, 2]
    started = table.start_hand(0.0, seed=2)[0]
    assert isinstance(started, HandStarted) and set(started.seats) == {1, 2}


def test_8_seating_rules() -> None:
    table = _ofc_table((100, 100))
    with pytest.raises(ValueError):
        table.sit(1, "cat", 100)
    with pytest.raises(ValueError):
        table.sit(2, "ann", 100)
    with pytest.raises(ValueError):
        table.sit(9, "dan", 100)
    with pytest.raises(ValueError):
        table.sit(2, "dan", 0)
    table.start_hand(0.0, seed=1)
    with pytest.raises(ValueError):
        table.add_chips(0, 10)
    with pytest.raises(ValueError):
        table.leave(0)
    with pytest.raises(ChineseError):
        assert table.hand is not None
        table.place(Place(seat=table.hand.to_act()[0]), 1.0)
    with pytest.raises(ValueError):
        ChineseTableConfig("pineapple", point_value=0)
    with pytest.raises(ValueError):
        ChineseTableConfig("pineapple", point_value=1, max_seats=4)


def test_10_10_cancelled_hand_changes_no_chips_and_keeps_fantasyland() -> None:
    table = _ofc_table((1000, 1000))
    table.start_hand(0.0, deck=_deck_for(SEAT1, SEAT0))
    _place_by_plan(table, {0: SEAT0, 1: SEAT1}, now=1.0)
    before = (table.stacks, table.button, dict(table.fantasyland))
    table.start_hand(2.0, seed=4)
    assert table.hand is not None and table.button == 1
    table.tick(2.0 + 90.0)  # seat 0 sets its Fantasyland hand automatically
    table.cancel_hand()
    assert (table.stacks, table.button, table.fantasyland) == before
    with pytest.raises(ValueError):
        table.cancel_hand()


def test_10_10_table_restored_from_its_snapshot_without_the_unfinished_hand() -> None:
    table = _ofc_table((1000, 1000))
    table.start_hand(0.0, deck=_deck_for(SEAT1, SEAT0))
    _place_by_plan(table, {0: SEAT0, 1: SEAT1}, now=1.0)
    between = table.snapshot()
    table.start_hand(2.0, seed=4)
    during = table.snapshot()
    assert during == between
    restored = ChineseTable.restore(during)
    assert restored.hand is None
    assert restored.stacks == {0: 1130, 1: 870}
    assert restored.fantasyland == {0: 13}
    started = restored.start_hand(3.0, seed=4)[0]
    assert isinstance(started, HandStarted)
    assert started.button == 1 and started.fantasyland == (13, 0)
