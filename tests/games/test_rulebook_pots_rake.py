"""Rulebook audit (RULEBOOK §7, §10.8): odd chips of split halves, multi-way ties,
every row of seed 003's rake schedule, and no drop before the rake street in the
stud, Soko and draw games."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from cardroom.cards import parse_cards
from cardroom.games import (
    Action,
    Hand,
    RakeRule,
    Stakes,
    TableConfig,
    arrange_deck,
    dealing_order,
    events,
    seed_003_rule,
)

NL_RULE = seed_003_rule("no_limit", 200)


def deal(
    config: TableConfig, stacks: list[int], button: int, holes: Mapping[int, str], board: str
) -> Hand:
    order = dealing_order([True] * len(stacks), button)
    cards = {s: parse_cards(c) for s, c in holes.items()}
    return Hand(config, stacks, button, arrange_deck(config, order, cards, parse_cards(board)))


def act(hand: Hand, seat: int, kind: str, amount: int = 0) -> None:
    assert hand.actor == seat, f"expected seat {seat} to act, not {hand.actor}"
    hand.apply(Action(seat, kind, amount))


def check_or_call_down(hand: Hand) -> None:
    while hand.actor is not None:
        legal = hand.legal_actions(hand.actor)
        hand.apply(Action(hand.actor, "check" if legal.check else "call"))


def awards(hand: Hand) -> list[tuple[int, int, int, str]]:
    return [
        (e.pot, e.seat, e.amount, e.share) for e in hand.events if isinstance(e, events.PotAwarded)
    ]


# ------------------------------------------------------------------ odd chips


def test_tied_low_half_gives_its_odd_chip_to_the_first_low_clockwise_from_the_button() -> None:
    config = TableConfig.of("omaha_hi_lo", Stakes.blinds(1, 2, ante=1))
    hand = deal(
        config,
        [100] * 4,
        0,
        {2: "Kd Kh Qd Qc", 3: "As 2h 9c 9d", 0: "Ad 2d Tc Td"},
        "3c 4d 7h Ks 8s",
    )
    act(hand, 3, "call")
    act(hand, 0, "call")
    act(hand, 1, "fold")
    act(hand, 2, "check")
    check_or_call_down(hand)
    assert hand.result is not None and hand.result.pots[0].amount == 11  # 4 antes, 1 + 2*3
    # High half 6 (it takes the split's odd chip), low half 5 split 3/2: seat 3 sits
    # before seat 0 going clockwise from the button (seat 0).
    assert awards(hand) == [(0, 2, 6, "high"), (0, 3, 3, "low"), (0, 0, 2, "low")]
    assert hand.result.stacks == (100 - 3 + 2, 100 - 2, 100 - 3 + 6, 100 - 3 + 3)


def test_three_way_tie_two_odd_chips_go_to_the_first_two_winners() -> None:
    config = TableConfig.of("holdem", Stakes.blinds(1, 2, ante=1))
    hand = deal(config, [100] * 4, 0, {}, "Ah Kh Qh Jh Th")  # royal flush on board
    act(hand, 3, "call")
    act(hand, 0, "call")
    act(hand, 1, "fold")
    act(hand, 2, "check")
    check_or_call_down(hand)
    # 11 chips among seats 2, 3, 0 (clockwise from the button's left): 4, 4, 3.
    assert awards(hand) == [(0, 2, 4, "all"), (0, 3, 4, "all"), (0, 0, 3, "all")]


# ------------------------------------------------------------------ rake schedule

NL_ROWS = [
    (199, 2, 9),  # under 200: 1 per 20
    (200, 2, 10),  # 5 per 100
    (1500, 2, 75),  # cap 75 for 2 players
    (1600, 2, 75),
    (1600, 3, 80),
    (4000, 3, 200),  # cap 200 for 3-4
    (9000, 4, 200),
    (9000, 5, 400),  # cap 400 for 5-10
    (9000, 10, 400),
    (7999, 10, 395),
]
LIMIT_LOW_ROWS = [  # FL / spread up to 50/100: 5 per 100, caps 75 (2-3) / 100 (4-10)
    (199, 2, 9),
    (1500, 3, 75),
    (1600, 3, 75),
    (1600, 4, 80),
    (5000, 10, 100),
]
LIMIT_MID_ROWS = [  # FL 100/200: 25 per 500, caps 75 / 200
    (199, 4, 9),
    (499, 4, 0),
    (500, 4, 25),
    (3000, 2, 75),
    (3000, 3, 75),
    (3000, 4, 150),
    (10_000, 10, 200),
]
LIMIT_HIGH_ROWS = [  # FL 200/400 and up: 50 per 1000, caps 75 / 200
    (199, 4, 9),
    (999, 4, 0),
    (1000, 4, 50),
    (2000, 3, 75),
    (3999, 5, 150),
    (10_000, 5, 200),
]


@pytest.mark.parametrize(
    ("structure", "small_bet", "rows"),
    [
        ("no_limit", 2, NL_ROWS),
        ("pot_limit", 100, NL_ROWS),
        ("half_pot_limit", 1000, NL_ROWS),
        ("fixed_limit", 2, LIMIT_LOW_ROWS),
        ("fixed_limit", 50, LIMIT_LOW_ROWS),
        ("spread_limit", 50, LIMIT_LOW_ROWS),
        ("fixed_limit", 100, LIMIT_MID_ROWS),
        ("spread_limit", 100, LIMIT_MID_ROWS),
        ("fixed_limit", 200, LIMIT_HIGH_ROWS),
        ("fixed_limit", 1000, LIMIT_HIGH_ROWS),
    ],
)
def test_every_row_of_the_seed_003_schedule(
    structure: str, small_bet: int, rows: list[tuple[int, int, int]]
) -> None:
    rule = seed_003_rule(structure, small_bet)
    assert rule is not None
    assert [(pot, n, rule.rake(pot, n)) for pot, n, _ in rows] == rows


# ------------------------------------------------------------------ no flop, no drop

TEN_PERCENT = RakeRule(per=1, unit=10, caps=((10, 100),))
STUD_STAKES = Stakes(ante=10, small_bet=100, big_bet=200, bring_in=50)


def stud_hand(game: str) -> Hand:
    config = TableConfig.of(game, STUD_STAKES, rake=TEN_PERCENT)
    # Seed 4: no open pair on 4th street, so the small bet is the only bet there.
    return Hand(config, [1000] * 3, button=2, seed=4)


def fold_out(hand: Hand) -> None:
    while hand.actor is not None:
        hand.apply(Action.fold(hand.actor))


def test_stud_no_drop_unless_fourth_street_is_dealt() -> None:
    hand = stud_hand("stud")
    hand.apply(Action.bring_in(hand.actor or 0))
    hand.apply(Action.raise_to(hand.actor or 0, 100))
    fold_out(hand)
    assert hand.result is not None and hand.street_index == 0
    assert (hand.result.pots[0].amount, hand.result.rake) == (30 + 100, 0)

    hand = stud_hand("stud")
    hand.apply(Action.bring_in(hand.actor or 0))
    while hand.street_index == 0:
        hand.apply(Action.call(hand.actor or 0))
    hand.apply(Action.raise_to(hand.actor or 0, 100))
    fold_out(hand)
    assert hand.result is not None
    assert (hand.result.pots[0].amount, hand.result.rake) == (30 + 150, 18)


def test_soko_no_drop_unless_the_third_card_is_dealt() -> None:
    hand = stud_hand("soko")
    hand.apply(Action.raise_to(hand.actor or 0, 100))  # the bring-in completes
    fold_out(hand)
    assert hand.result is not None and hand.result.rake == 0

    hand = stud_hand("soko")
    hand.apply(Action.raise_to(hand.actor or 0, 100))
    while hand.street_index == 0:
        hand.apply(Action.call(hand.actor or 0))
    assert all(len(hand.hole_cards(s)) == 3 for s in range(3))
    hand.apply(Action.raise_to(hand.actor or 0, 100))
    fold_out(hand)
    assert hand.result is not None
    assert (hand.result.pots[0].amount, hand.result.rake) == (30 + 300, 33)


def test_draw_games_no_drop_unless_a_draw_took_place() -> None:
    config = TableConfig.of("triple_draw_27", Stakes.limit(100, 200), rake=TEN_PERCENT)
    hand = Hand(config, [1000] * 3, button=0, seed=3)
    act(hand, 0, "raise", 200)
    act(hand, 1, "fold")
    act(hand, 2, "fold")
    assert hand.result is not None and hand.result.rake == 0

    hand = Hand(config, [1000] * 3, button=0, seed=3)
    act(hand, 0, "call")
    act(hand, 1, "call")
    act(hand, 2, "check")
    while hand.actor is not None and hand.legal_actions(hand.actor).draw is not None:
        hand.apply(Action.draw(hand.actor))
    hand.apply(Action.raise_to(hand.actor or 0, 100))
    fold_out(hand)
    assert hand.result is not None
    assert (hand.result.pots[0].amount, hand.result.rake) == (300, 30)


@pytest.mark.parametrize(("dealt_in", "cap"), [(2, 75), (3, 200)])
def test_rake_cap_counts_the_players_dealt_in_not_those_who_saw_the_flop(
    dealt_in: int, cap: int
) -> None:
    # Blinds 100/200; the button raises to 2000 and the big blind calls (any third
    # player folds pre-flop): 4000+ in the pot reached the flop -> 5 per 100 is over 200.
    config = TableConfig.of("holdem", Stakes.blinds(100, 200), rake=NL_RULE)
    hand = Hand(config, [10_000] * dealt_in, button=0, seed=9)
    act(hand, 0, "raise", 2000)
    if dealt_in == 3:
        act(hand, 1, "fold")
    act(hand, dealt_in - 1 if dealt_in == 3 else 1, "call")
    assert hand.street.name == "flop"
    seat = hand.actor
    assert seat is not None
    act(hand, seat, "raise", 200)
    act(hand, hand.actor or 0, "fold")
    assert hand.result is not None
    assert hand.result.pots[0].amount == 4000 + (100 if dealt_in == 3 else 0)
    assert hand.result.rake == cap
