"""One test per betting rule of RULEBOOK §4–§5 in the flop games."""

from __future__ import annotations

import pytest

from cardroom.cards import CARDS
from cardroom.games import (
    Action,
    Hand,
    IllegalAction,
    Stakes,
    TableConfig,
    events,
)


def act(hand: Hand, seat: int, kind: str, amount: int = 0) -> None:
    assert hand.actor == seat, f"expected seat {seat} to act, not {hand.actor}"
    hand.apply(Action(seat, kind, amount))


def bounds(hand: Hand, seat: int) -> tuple[int | None, int | None]:
    legal = hand.legal_actions(seat)
    return legal.min_raise_to, legal.max_raise_to


def heads_up_flop(structure: str) -> Hand:
    """Omaha heads-up, 25/25 blinds, checked to the flop: the pot holds 50."""
    config = TableConfig.of("omaha", Stakes.blinds(25, 25), structure=structure)
    hand = Hand(config, [1000, 1000], button=0, seed=1)
    act(hand, 0, "check")
    act(hand, 1, "check")
    assert hand.street.name == "flop"
    return hand


def test_pot_limit_seed_004_example() -> None:
    # 100 in the pot including the 50 bet faced, 50 to call -> may put in 200.
    hand = heads_up_flop("pot_limit")
    act(hand, 1, "raise", 50)
    legal = hand.legal_actions(0)
    assert legal.call == 50
    assert (legal.min_raise_to, legal.max_raise_to) == (100, 200)
    with pytest.raises(IllegalAction):
        hand.apply(Action(0, "raise", 201))
    act(hand, 0, "raise", 200)
    assert hand.stacks[0] == 1000 - 25 - 200


def test_half_pot_limit_caps_the_raise_at_half_the_pot_after_calling() -> None:
    hand = heads_up_flop("half_pot_limit")
    assert bounds(hand, 1) == (25, 25)  # half of the 50 in the pot
    act(hand, 1, "raise", 25)
    # calling 25 makes the pot 100; half of it is 50 -> raise to 25 + 50.
    assert bounds(hand, 0) == (50, 75)


def test_pot_limit_first_bet_is_the_pot() -> None:
    hand = heads_up_flop("pot_limit")
    assert bounds(hand, 1) == (25, 50)


def six_max(
    structure: str = "no_limit", stacks: list[int] | None = None, **options: object
) -> Hand:
    stakes = Stakes.limit(10, 20) if structure == "fixed_limit" else Stakes.blinds(1, 2)
    config = TableConfig.of("holdem", stakes, structure=structure, **options)
    return Hand(config, stacks or [100] * 6, button=0, seed=2)


def test_no_limit_min_raise_is_the_last_raise_size() -> None:
    hand = six_max()
    assert bounds(hand, 3) == (4, 100)  # the minimum bet is the big blind
    act(hand, 3, "raise", 6)  # raises by 4
    assert bounds(hand, 4) == (10, 100)
    with pytest.raises(IllegalAction, match="between 10 and 100"):
        hand.apply(Action(4, "raise", 9))
    act(hand, 4, "raise", 10)
    assert bounds(hand, 5) == (14, 100)


def test_all_in_for_less_than_a_minimum_raise_is_allowed() -> None:
    hand = six_max(stacks=[100, 100, 100, 3, 100, 100])
    assert bounds(hand, 3) == (3, 3)  # short of the minimum raise to 4
    act(hand, 3, "raise", 3)
    assert hand.is_all_in(3)


def test_all_in_call_for_less() -> None:
    hand = six_max(stacks=[100, 100, 100, 100, 100, 3])
    act(hand, 3, "raise", 10)
    act(hand, 4, "fold")
    assert hand.legal_actions(5).call == 3
    assert bounds(hand, 5) == (None, None)  # covered: only call or fold
    act(hand, 5, "call")
    assert hand.is_all_in(5)


def test_check_raise_is_allowed() -> None:
    hand = six_max()
    act(hand, 3, "call")
    for seat in (4, 5, 0):
        act(hand, seat, "fold")
    act(hand, 1, "call")
    act(hand, 2, "check")
    act(hand, 1, "check")
    act(hand, 2, "raise", 2)
    act(hand, 3, "call")
    assert "raise" in hand.legal_actions(1).kinds
    act(hand, 1, "raise", 8)


def test_big_blind_has_the_option() -> None:
    hand = six_max()
    for seat in (3, 4, 5, 0, 1):
        act(hand, seat, "call")
    legal = hand.legal_actions(2)
    assert legal.check and legal.call is None
    assert legal.min_raise_to == 4
    act(hand, 2, "raise", 4)
    assert hand.actor == 3


def test_5_folding_when_a_check_is_free_is_legal_and_binding() -> None:
    # RULEBOOK §5: real rooms record it; the client may ask "check instead?".
    hand = six_max()
    for seat in (3, 4, 5, 0, 1):
        act(hand, seat, "call")
    legal = hand.legal_actions(2)
    assert legal.fold and legal.check
    hand.apply(Action(2, "fold"))
    assert not hand.is_live(2) and hand.committed[2] == 2  # the big blind stays in the pot
    assert hand.actor is None or hand.actor != 2
    while hand.actor is not None:
        assert hand.actor != 2
        act(hand, hand.actor, "check")
    assert hand.result is not None
    assert all(a.seat != 2 for p in hand.result.pots for a in p.awards)


def test_heads_up_button_posts_small_blind_acts_first_pre_flop_last_after() -> None:
    config = TableConfig.of("holdem", Stakes.blinds(1, 2))
    hand = Hand(config, [None, 100, None, 100], button=3, seed=3)
    posts = [(e.seat, e.what) for e in hand.events if isinstance(e, events.Posted)]
    assert posts == [(3, "small_blind"), (1, "big_blind")]
    assert hand.actor == 3
    act(hand, 3, "call")
    act(hand, 1, "check")
    assert hand.street.name == "flop" and hand.actor == 1


def test_pre_flop_action_starts_left_of_the_big_blind_later_left_of_the_button() -> None:
    config = TableConfig.of("holdem", Stakes.blinds(1, 2))
    hand = Hand(config, [100, None, 100, 100, 100], button=4, seed=4)
    posts = [(e.seat, e.what) for e in hand.events if isinstance(e, events.Posted)]
    assert posts == [(0, "small_blind"), (2, "big_blind")]
    assert hand.actor == 3
    act(hand, 3, "call")
    act(hand, 4, "call")
    act(hand, 0, "call")
    act(hand, 2, "check")
    assert hand.actor == 0


def test_uncalled_bet_is_returned() -> None:
    config = TableConfig.of("holdem", Stakes.blinds(1, 2))
    hand = Hand(config, [100, 100], button=0, seed=5)
    act(hand, 0, "raise", 50)
    act(hand, 1, "fold")
    returned = [e for e in hand.events if isinstance(e, events.UncalledReturned)]
    assert returned == [events.UncalledReturned(0, 48)]
    assert hand.result is not None and hand.result.stacks == (102, 98)


def flop_with_three(structure: str, stacks: list[int], **options: object) -> Hand:
    """Three players limp to the flop: button 0, small blind 1, big blind 2."""
    stakes = Stakes.limit(10, 20) if structure == "fixed_limit" else Stakes.blinds(50, 100)
    config = TableConfig.of("holdem", stakes, structure=structure, **options)
    hand = Hand(config, stacks, button=0, seed=6)
    act(hand, 0, "call")
    act(hand, 1, "call")
    act(hand, 2, "check")
    return hand


def test_no_limit_short_all_in_does_not_reopen_for_players_who_acted() -> None:
    hand = flop_with_three("no_limit", [1000, 250, 1000])
    act(hand, 1, "check")
    act(hand, 2, "raise", 100)
    act(hand, 0, "call")
    act(hand, 1, "raise", 150)  # all-in, 50 short of a full raise
    assert hand.legal_actions(2).call == 50
    assert bounds(hand, 2) == (None, None)
    with pytest.raises(IllegalAction, match="not reopened"):
        hand.apply(Action(2, "raise", 250))
    act(hand, 2, "call")
    assert bounds(hand, 0) == (None, None)


def test_half_option_lets_a_half_raise_reopen_in_no_limit() -> None:
    hand = flop_with_three("no_limit", [1000, 250, 1000], incomplete_raise_rule="half")
    act(hand, 1, "check")
    act(hand, 2, "raise", 100)
    act(hand, 0, "call")
    act(hand, 1, "raise", 150)  # 50 is half a full raise of 100
    assert bounds(hand, 2) == (250, 900)


def test_tda_short_all_ins_adding_up_to_a_full_raise_reopen() -> None:
    config = TableConfig.of("holdem", Stakes.blinds(50, 100))
    hand = Hand(config, [300, 1000, 1000, 250], button=0, seed=7)
    for seat, kind in ((3, "call"), (0, "call"), (1, "call"), (2, "check")):
        act(hand, seat, kind)
    act(hand, 1, "check")
    act(hand, 2, "raise", 100)
    act(hand, 3, "raise", 150)  # all-in, +50
    assert bounds(hand, 0) == (200, 200)
    act(hand, 0, "raise", 200)  # all-in, +50 more: 100 in all since seat 2 bet
    assert bounds(hand, 1) == (300, 900)
    act(hand, 1, "call")
    assert bounds(hand, 2) == (300, 900)


def test_fixed_limit_under_raise_locks_players_who_acted_seed_001() -> None:
    hand = flop_with_three("fixed_limit", [24, 1000, 1000])
    act(hand, 1, "check")
    act(hand, 2, "raise", 10)
    act(hand, 0, "raise", 14)  # all-in: 4 is less than half of 10
    # Seat 1 only checked before the bet: it faces a full bet and may raise a full bet.
    assert bounds(hand, 1) == (24, 24)
    act(hand, 1, "call")
    assert hand.legal_actions(2).call == 4
    assert bounds(hand, 2) == (None, None)


def test_fixed_limit_half_a_raise_counts_as_a_full_raise() -> None:
    hand = flop_with_three("fixed_limit", [25, 1000, 1000])
    act(hand, 1, "check")
    act(hand, 2, "raise", 10)
    act(hand, 0, "raise", 15)  # all-in: 5 is half of 10 -> a full raise
    act(hand, 1, "call")
    assert bounds(hand, 2) == (25, 25)


def test_fixed_limit_bet_sizes_small_then_big() -> None:
    hand = flop_with_three("fixed_limit", [1000, 1000, 1000])
    assert bounds(hand, 1) == (10, 10)
    for seat in (1, 2, 0):
        act(hand, seat, "check")
    assert hand.street.name == "turn"
    assert bounds(hand, 1) == (20, 20)


def test_fixed_limit_cap_is_one_bet_and_three_raises() -> None:
    hand = six_max("fixed_limit", [1000] * 6)
    act(hand, 3, "raise", 20)
    act(hand, 4, "raise", 30)
    act(hand, 5, "raise", 40)
    legal = hand.legal_actions(0)
    assert legal.call == 40 and legal.min_raise_to is None
    with pytest.raises(IllegalAction, match="capped"):
        hand.apply(Action(0, "raise", 50))


def test_fixed_limit_max_raises_option() -> None:
    hand = six_max("fixed_limit", [1000] * 6, max_raises=4)
    for seat, to in ((3, 20), (4, 30), (5, 40)):
        act(hand, seat, "raise", to)
    assert bounds(hand, 0) == (50, 50)


@pytest.mark.parametrize("uncapped", [False, True])
def test_heads_up_uncapped_option(uncapped: bool) -> None:
    config = TableConfig.of(
        "holdem", Stakes.limit(10, 20), structure="fixed_limit", heads_up_uncapped=uncapped
    )
    hand = Hand(config, [1000, 1000], button=0, seed=8)
    act(hand, 0, "raise", 20)
    act(hand, 1, "raise", 30)
    act(hand, 0, "raise", 40)
    if uncapped:
        act(hand, 1, "raise", 50)
        act(hand, 0, "raise", 60)
    else:
        assert bounds(hand, 1) == (None, None)


def test_spread_limit_bets_and_round_cap() -> None:
    config = TableConfig.of(
        "holdem", Stakes.spread_limit((2, 4, 6), 1, 2), structure="spread_limit"
    )
    hand = Hand(config, [1000] * 3, button=0, seed=9)
    assert bounds(hand, 0) == (4, 4)
    act(hand, 0, "raise", 4)
    act(hand, 1, "raise", 6)  # 3x the street maximum of 2: the round is capped
    assert bounds(hand, 2) == (None, None)
    act(hand, 2, "call")
    act(hand, 0, "call")
    for _ in range(3):
        act(hand, hand.actor or 0, "check")  # flop checked through
    assert hand.street.name == "turn"
    for _ in range(3):
        act(hand, hand.actor or 0, "check")
    assert hand.street.name == "river"
    assert bounds(hand, 1) == (2, 6)  # from the big blind to the river maximum
    act(hand, 1, "raise", 3)
    assert bounds(hand, 2) == (6, 9)  # at least the previous bet; at most +6


def test_illegal_actions_name_the_reason() -> None:
    hand = six_max()
    with pytest.raises(IllegalAction, match="turn"):
        hand.apply(Action(0, "call"))
    with pytest.raises(IllegalAction, match="cannot check"):
        hand.apply(Action(3, "check"))
    with pytest.raises(IllegalAction, match="unknown action"):
        hand.apply(Action(3, "dance"))
    with pytest.raises(IllegalAction, match="whole number"):
        hand.apply(Action(3, "raise", 5.5))  # type: ignore[arg-type]


def test_garbage_is_refused_as_an_illegal_action() -> None:
    hand = six_max()
    with pytest.raises(IllegalAction, match="not an action"):
        hand.apply("fold")
    with pytest.raises(IllegalAction):
        hand.apply(Action("3", "call"))  # type: ignore[arg-type]
    assert hand.legal_actions(99).kinds == ()


@pytest.mark.parametrize(("short_stack", "reopened"), [(10, False), (11, True)])
def test_spread_limit_under_raise_half_rule(short_stack: int, reopened: bool) -> None:
    config = TableConfig.of(
        "holdem", Stakes.spread_limit((2, 4, 6), 1, 2), structure="spread_limit"
    )
    hand = Hand(config, [1000, 1000, short_stack], button=0, seed=10)
    act(hand, 0, "call")
    act(hand, 1, "call")
    act(hand, 2, "check")
    while hand.street.name != "river":
        act(hand, hand.actor or 0, "check")
    act(hand, 1, "raise", 6)  # the river maximum
    all_in = short_stack - 2
    act(hand, 2, "raise", all_in)  # +2 is less than half of 6; +3 is half
    assert bounds(hand, 0) == (all_in + 6, all_in + 6)  # yet to act: a full raise
    act(hand, 0, "call")
    assert bounds(hand, 1) == ((all_in + 6, all_in + 6) if reopened else (None, None))


def test_a_malformed_action_is_refused_where_it_is_built() -> None:
    # Messages from the network: wrong types never reach the engine.
    with pytest.raises(IllegalAction, match="seat number"):
        Action("3", "call")  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="seat number"):
        Action(True, "call")
    with pytest.raises(IllegalAction, match="unknown action"):
        Action(3, 2)  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="whole number"):
        Action(3, "raise", 6.0)  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="sequence of cards"):
        Action(3, "draw", 0, "As")  # type: ignore[arg-type]
    listed = Action(3, "draw", 0, [CARDS[0]])  # type: ignore[arg-type]
    assert listed.cards == (CARDS[0],)  # a list of cards is kept as a tuple
    for not_a_card in (float(CARDS[0]), int(CARDS[0]), "As", [1], None):
        with pytest.raises(IllegalAction) as refused:
            Action(3, "draw", 0, (not_a_card,))  # type: ignore[arg-type]
        assert refused.value.code == "bad_action"
    for room_kind in ("disconnect_all_in", "timeout", "draw_timeout"):
        with pytest.raises(IllegalAction) as refused:
            Action(3, room_kind)
        assert refused.value.code == "bad_action"
    for kind in ("check", "call", "fold", "raise", "bet", "bring_in"):
        # Only a draw names cards (its discards): a check that names cards is malformed.
        with pytest.raises(IllegalAction, match="names no cards") as refused:
            Action(3, kind, 6 if kind in ("raise", "bet") else 0, (CARDS[0],))
        assert refused.value.code == "bad_action"
    for kind in ("check", "call", "fold", "bring_in", "draw"):
        # Only a bet or raise names an amount (the total to): the engine sizes the rest.
        with pytest.raises(IllegalAction, match="names no amount") as refused:
            Action(3, kind, 39)
        assert refused.value.code == "bad_action"


def test_5_heads_up_uncapped_against_an_all_in_says_nobody_could_call_not_capped() -> None:
    # One function decides a raise and its refusal: the reason is the decision's, not a
    # second reading that once said "the betting is capped" here.
    config = TableConfig.of(
        "holdem", Stakes.limit(2), structure="fixed_limit", heads_up_uncapped=True
    )
    hand = Hand(config, [100, 6], 0, seed=1)
    hand.apply(Action.raise_to(0, 4))
    hand.apply(Action.raise_to(1, 6))  # all in
    legal = hand.legal_actions(0)
    assert legal.min_raise_to is None and legal.no_raise == "nobody left who could call a raise"
    with pytest.raises(IllegalAction) as refused:
        hand.apply(Action.raise_to(0, 8))
    assert refused.value.code == "raise_not_allowed"
    assert str(refused.value) == legal.no_raise
