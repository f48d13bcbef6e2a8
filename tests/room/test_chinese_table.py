"""Chinese poker tables (RULEBOOK §8; issue 13 item 12): the table's configuration and the
settlement with each loss limited to the chips on the table. The table itself is played
through the room in ``test_chinese_room.py``."""

from __future__ import annotations

import random

import pytest

from cardroom.cards import CARDS, parse_cards
from cardroom.chinese import ChineseError
from cardroom.room.chinese_table import ChineseTableConfig, settle

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


def deck_for(*hands: dict[str, str]) -> list[int]:
    """A deck that deals each seat (in play order) its 13 cards, one per seat per round."""
    cards = [[int(c) for row in h.values() for c in parse_cards(row)] for h in hands]
    dealt = [c for round_ in zip(*cards, strict=True) for c in round_]
    return dealt + [int(c) for c in CARDS if int(c) not in dealt]


def test_8_table_config_checks_its_values() -> None:
    with pytest.raises(ValueError):
        ChineseTableConfig("pineapple", point_value=0)
    with pytest.raises(ValueError):
        ChineseTableConfig("pineapple", point_value=1, max_seats=4)
    with pytest.raises(ChineseError):
        ChineseTableConfig("omaha", point_value=1)
    assert ChineseTableConfig("ofc", point_value=1).seat_count == 4
