"""Chinese poker tables (RULEBOOK §8; issue 13 item 12): the table's configuration and the
settlement with each loss limited to the chips on the table. The table itself is played
through the room in ``test_chinese_room.py``."""

from __future__ import annotations

import random

import pytest

from cardroom.cards import CARDS, parse_cards
from cardroom.chinese import ChineseError, ChineseHand, Place, RoyaltyTable
from cardroom.room.chinese_table import ChineseTableConfig, hand_debts, settle

# Seat 0: QQ on top, two pair in the middle, aces full on the bottom (royalties 7 + 6).
SEAT0 = {"top": "Qh Qd 2c", "middle": "Ks Kd 3h 3d 4c", "bottom": "As Ad Ac 5s 5d"}
# Seat 1: 8-high top, a pair of nines, tens full (royalty 6). Seat 0 scoops: 6 + 13 - 6 = 13.
SEAT1 = {"top": "6c 7c 8c", "middle": "9h 9s 2d 3c 4d", "bottom": "Th Tc Ts Jh Jd"}


def test_8_settlement_pays_everything_when_losers_cover() -> None:
    got = settle({(1, 0): 30, (2, 0): 60}, {0: 100, 1: 100, 2: 100}, order=[1, 2, 0])
    assert got.paid == {1: -30, 2: -60, 0: 90} == got.owed
    assert got.shortfall == 0


def test_8_settlement_loss_limited_to_the_chips_on_the_table() -> None:
    # Hand-worked: seat 2 owes 60 but has 40; the one winner gets the 70 collected.
    stacks = {0: 100, 1: 100, 2: 40}
    got = settle({(1, 0): 30, (2, 0): 60}, stacks, order=[1, 2, 0])
    assert got.paid == {1: -30, 2: -40, 0: 70}
    assert got.shortfall == 20
    after = {s: stacks[s] + got.paid[s] for s in stacks}
    assert after == {0: 170, 1: 70, 2: 0}


def test_8_settlement_a_short_loser_pays_his_creditors_in_seat_order_from_the_button() -> None:
    # Hand-worked: seat 2 owes seats 0 and 1 50 and 30 but has 41. Button on seat 0:
    # order 1, 2, 0, so seat 1 is paid its 30 in full first and seat 0 gets the 11 left.
    got = settle({(2, 0): 50, (2, 1): 30}, {0: 10, 1: 10, 2: 41}, order=[1, 2, 0])
    assert got.paid == {1: 30, 2: -41, 0: 11}
    # Button on seat 1: order 2, 0, 1, so seat 0 is first and takes all 41.
    got = settle({(2, 0): 50, (2, 1): 30}, {0: 10, 1: 10, 2: 41}, order=[2, 0, 1])
    assert got.paid == {2: -41, 0: 41, 1: 0}
    assert got.shortfall == 80 - 41


def test_8_settlement_is_pairwise_nobody_is_paid_by_one_who_did_not_lose_to_him() -> None:
    # Seat 0 beat seat 1 by 50; seat 1 beat seat 2 by 60, and seat 2 has 10 chips.
    # Seat 1 has the chips to pay seat 0 in full; seat 2's 10 go to seat 1 alone.
    # (Netted, seat 1 would be +10 and share seat 2's 10 with seat 0, who never beat
    # seat 2, while seat 0 went without 50 that seat 1 could pay.)
    got = settle({(1, 0): 50, (2, 1): 60}, {0: 100, 1: 100, 2: 10}, order=[0, 1, 2])
    assert got.payments == {(1, 0): 50, (2, 1): 10}
    assert got.paid == {0: 50, 1: -40, 2: -10}
    assert got.owed == {0: 50, 1: 10, 2: -60}


def test_8_settlement_a_loser_pays_out_of_what_he_wins_and_shortfalls_cascade() -> None:
    # Seat 1 has 5 chips, owes seat 0 30 and is owed 20 by seat 2, who has 4: seat 2
    # pays its 4, so seat 1 can pay 5 + 4 = 9 of its 30 (and ends with nothing).
    got = settle({(1, 0): 30, (2, 1): 20}, {0: 50, 1: 5, 2: 4}, order=[0, 1, 2])
    assert got.payments == {(1, 0): 9, (2, 1): 4}
    assert got.paid == {0: 9, 1: -5, 2: -4}
    # With seat 2 able to pay, seat 1 (now with 15) pays its 30 out of its 15 and the
    # 20 it wins; with 5 it pays the 25 it has.
    got = settle({(1, 0): 30, (2, 1): 20}, {0: 50, 1: 15, 2: 40}, order=[0, 1, 2])
    assert got.paid == {0: 30, 1: -10, 2: -20} == got.owed
    got = settle({(1, 0): 30, (2, 1): 20}, {0: 50, 1: 5, 2: 40}, order=[0, 1, 2])
    assert got.paid == {0: 25, 1: -5, 2: -20}


def test_8_settlement_conserves_chips_and_never_takes_more_than_the_stack() -> None:
    rng = random.Random(13)
    for _ in range(3000):
        n = rng.randint(2, 4)
        order = rng.sample(range(n), n)
        debts = {}
        for a in range(n):
            for b in range(a + 1, n):
                chips = rng.choice([0, rng.randint(1, 300)])
                if chips:
                    debts[(a, b) if rng.random() < 0.5 else (b, a)] = chips
        stacks = {s: rng.randint(1, 400) for s in range(n)}
        got = settle(debts, stacks, order)
        assert sum(got.paid.values()) == 0 and sum(got.owed.values()) == 0
        for (d, c), chips in got.payments.items():
            assert type(chips) is int and 0 <= chips <= debts[d, c]
        for s in range(n):
            assert type(got.paid[s]) is int and got.paid[s] >= -stacks[s]
            mine = [c for (d, c) in debts if d == s]
            short = [c for c in mine if got.payments[s, c] < debts[s, c]]
            if short:  # a debt not paid in full: the debtor has nothing left ...
                assert got.paid[s] == -stacks[s]
                # ... and the creditors after the first one short in the order get nothing.
                first = order.index(min(short, key=order.index))
                assert all(got.payments[s, c] == 0 for c in mine if order.index(c) > first)


def test_8_settlement_refuses_bad_debts() -> None:
    with pytest.raises(ValueError):
        settle({(0, 1): -5}, {0: 10, 1: 10}, [0, 1])
    with pytest.raises(ValueError):
        settle({(0, 2): 5}, {0: 10, 1: 10}, [0, 1])
    with pytest.raises(ValueError):
        settle({(0, 1): 5}, {0: 10, 1: 10}, [0, 0])
    # Mutation audit (docs/money_audit.md, H8, H9): each refused by its own check, not
    # only when another check happens to fail too.
    with pytest.raises(ValueError, match="appears twice"):
        settle({(0, 1): 5}, {0: 10, 1: 10}, [0, 1, 0])
    with pytest.raises(ValueError, match="between seats 0 and 0"):
        settle({(0, 0): 5}, {0: 10, 1: 10}, [0, 1])


def deck_for(*hands: dict[str, str]) -> list[int]:
    """A deck that deals each seat (in play order) its 13 cards, one per seat per round."""
    cards = [[int(c) for row in h.values() for c in parse_cards(row)] for h in hands]
    dealt = [c for round_ in zip(*cards, strict=True) for c in round_]
    return dealt + [int(c) for c in CARDS if int(c) not in dealt]


def test_8_hand_debts_score_with_the_hands_own_royalty_table() -> None:
    # §8 "royalties are added": a hand dealt with a room's own table (here none at all)
    # owes what its settlement scored, not what the standard table would give (13).
    hand = ChineseHand.start(
        "classic",
        [0, 1],
        button=1,
        deck=deck_for(SEAT0, SEAT1),
        royalties=RoyaltyTable(),
        point_value=5,
    )
    for seat, rows in ((0, SEAT0), (1, SEAT1)):
        hand.apply(Place.of(seat, **{r: rows[r].split() for r in rows}))
    assert [r.chips for r in hand.results or ()] == [30, -30]
    assert hand_debts(hand) == {(1, 0): 30}


def test_8_table_config_checks_its_values() -> None:
    with pytest.raises(ValueError):
        ChineseTableConfig("pineapple", point_value=0)
    with pytest.raises(ValueError):
        ChineseTableConfig("pineapple", point_value=1, max_seats=4)
    with pytest.raises(ChineseError):
        ChineseTableConfig("omaha", point_value=1)
    assert ChineseTableConfig("ofc", point_value=1).seat_count == 3  # §3: OFC family 3
    assert ChineseTableConfig("ofc", point_value=1, max_seats=4).seat_count == 4  # allowed
    assert ChineseTableConfig("classic", point_value=1).seat_count == 4  # Chinese poker 4


@pytest.mark.parametrize(
    "bad",
    [
        {"min_points": 2.5},  # a float of chips to be dealt in: money is integers
        {"min_points": True},
        {"min_points": "3"},
        {"max_seats": "3"},
        {"max_seats": 2.0},
        {"set_seconds": "90"},  # the first Fantasyland or classic deal would crash the table
        {"set_seconds": -5},
        {"set_seconds": 0},
        {"set_seconds": float("nan")},
        {"set_seconds": True},
    ],
)
def test_8_table_config_refuses_values_of_the_wrong_kind(bad: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        ChineseTableConfig("ofc", point_value=10, **bad)  # type: ignore[arg-type]
    assert ChineseTableConfig("ofc", point_value=10, set_seconds=45, min_points=0).set_seconds == 45
