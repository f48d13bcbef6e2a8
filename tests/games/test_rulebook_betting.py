"""Rulebook audit (RULEBOOK §4–§5): betting rules the other suites left untested.

Each test pins one rule with exact chip amounts; where PokerKit plays the same
rule, the same situation is replayed there and the bounds must agree.
"""

from __future__ import annotations

import pokerkit as pk
import pytest

from cardroom.cards import parse_cards
from cardroom.games import (
    Action,
    Hand,
    IllegalAction,
    Stakes,
    TableConfig,
    arrange_deck,
    dealing_order,
    events,
)

PK_AUTOMATIONS = (
    pk.Automation.ANTE_POSTING,
    pk.Automation.BET_COLLECTION,
    pk.Automation.BLIND_OR_STRADDLE_POSTING,
    pk.Automation.CARD_BURNING,
    pk.Automation.HOLE_DEALING,
    pk.Automation.BOARD_DEALING,
    pk.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    pk.Automation.HAND_KILLING,
    pk.Automation.CHIPS_PUSHING,
    pk.Automation.CHIPS_PULLING,
)


_PK_DEALING = (
    pk.Automation.CARD_BURNING,
    pk.Automation.HOLE_DEALING,
    pk.Automation.BOARD_DEALING,
)


def act(hand: Hand, seat: int, kind: str, amount: int = 0) -> None:
    assert hand.actor == seat, f"expected seat {seat} to act, not {hand.actor}"
    hand.apply(Action(seat, kind, amount))


def bounds(hand: Hand, seat: int) -> tuple[int | None, int | None]:
    legal = hand.legal_actions(seat)
    return legal.min_raise_to, legal.max_raise_to


def pk_bounds(state: pk.State) -> tuple[int | None, int | None]:
    return (
        state.min_completion_betting_or_raising_to_amount,
        state.max_completion_betting_or_raising_to_amount,
    )


# ------------------------------------------------------------------ pot limit


def test_pot_limit_pre_flop_counts_both_blinds_and_limpers() -> None:
    # Blinds 1/2, four players: under the gun may raise to 2 + (1 + 2 + 2) = 7;
    # after a limp the button may raise to 2 + (1 + 2 + 2 + 2) = 9.
    config = TableConfig.of("omaha", Stakes.blinds(1, 2))
    hand = Hand(config, [1000] * 4, button=0, seed=1)
    assert hand.legal_actions(3).call == 2
    assert bounds(hand, 3) == (4, 7)
    act(hand, 3, "call")
    assert bounds(hand, 0) == (4, 9)
    act(hand, 0, "raise", 9)
    # The small blind: 8 to call; the pot after calling is 9 + 9 + 2 + 2 = 22 -> to 9 + 22.
    assert hand.legal_actions(1).call == 8
    assert bounds(hand, 1) == (16, 31)

    state = pk.PotLimitOmahaHoldem.create_state(
        PK_AUTOMATIONS, True, 0, (1, 2), 2, (1000,) * 4, 4
    )  # players 0..3 = small blind, big blind, under the gun, button
    assert pk_bounds(state) == (4, 7)
    state.check_or_call()
    assert pk_bounds(state) == (4, 9)
    state.complete_bet_or_raise_to(9)
    assert state.checking_or_calling_amount == 8
    assert pk_bounds(state) == (16, 31)


def test_pot_limit_short_all_in_does_not_reopen_for_players_who_acted() -> None:
    config = TableConfig.of("omaha", Stakes.blinds(50, 100))
    hand = Hand(config, [1000, 250, 1000], button=0, seed=2)
    act(hand, 0, "call")
    act(hand, 1, "call")
    act(hand, 2, "check")
    act(hand, 1, "check")
    act(hand, 2, "raise", 100)
    act(hand, 0, "call")
    act(hand, 1, "raise", 150)  # all-in: +50, short of the 100 bet
    assert hand.legal_actions(2).call == 50 and bounds(hand, 2) == (None, None)
    with pytest.raises(IllegalAction, match="not reopened"):
        hand.apply(Action(2, "raise", 250))


# ------------------------------------------------------------------ no limit


def test_no_limit_minimum_bet_after_the_flop_is_the_big_blind() -> None:
    config = TableConfig.of("holdem", Stakes.blinds(5, 10))
    hand = Hand(config, [1000] * 3, button=0, seed=3)
    act(hand, 0, "call")
    act(hand, 1, "call")
    act(hand, 2, "check")
    assert bounds(hand, 1) == (10, 990)
    with pytest.raises(IllegalAction):
        hand.apply(Action(1, "raise", 9))
    act(hand, 1, "raise", 10)
    assert bounds(hand, 2) == (20, 990)  # a raise is at least the 10 bet

    state = pk.NoLimitTexasHoldem.create_state(PK_AUTOMATIONS, True, 0, (5, 10), 10, (1000,) * 3, 3)
    for _ in range(3):
        state.check_or_call()
    assert pk_bounds(state) == (10, 990)
    state.complete_bet_or_raise_to(10)
    assert pk_bounds(state) == (20, 990)


def test_only_the_uncalled_part_of_a_bet_is_returned() -> None:
    # Seat 0 raises to 500, the big blind calls all-in for 300: 200 comes back.
    config = TableConfig.of("holdem", Stakes.blinds(5, 10))
    order = dealing_order([True] * 3, 0)
    holes = {0: parse_cards("As Ad"), 1: parse_cards("Kc 3d"), 2: parse_cards("7c 2d")}
    deck = arrange_deck(config, order, holes, parse_cards("Kh 9s 4c 3h Js"))  # burns unknown
    hand = Hand(config, [1000, 1000, 300], button=0, deck=deck)
    act(hand, 0, "raise", 500)
    act(hand, 1, "fold")
    act(hand, 2, "call")
    returned = [e for e in hand.events if isinstance(e, events.UncalledReturned)]
    assert returned == [events.UncalledReturned(0, 200)]
    assert hand.result is not None
    assert [p.amount for p in hand.result.pots] == [605]  # 300 + 300 + the dead small blind
    assert hand.result.stacks == (1305, 995, 0)

    # PokerKit, same cards (its players: small blind, big blind, button); burns unknown.
    no_burns = tuple(a for a in PK_AUTOMATIONS if a not in _PK_DEALING)
    state = pk.NoLimitTexasHoldem.create_state(no_burns, True, 0, (5, 10), 10, (1000, 300, 1000), 3)
    for cards in ("Kc3d", "7c2d", "AsAd"):
        state.deal_hole(cards)
    state.complete_bet_or_raise_to(500)
    state.fold()
    state.check_or_call()
    for cards in ("Kh9s4c", "3h", "Js"):
        state.burn_card("??")
        state.deal_board(cards)
    assert tuple(state.stacks) == (995, 0, 1305)


# ------------------------------------------------------------------ fixed limit


def test_fixed_limit_hand_posts_half_the_small_bet_rounded_down() -> None:
    config = TableConfig.of("holdem", Stakes.limit(5), structure="fixed_limit")
    hand = Hand(config, [100] * 3, button=0, seed=4)
    posted = [(e.seat, e.what, e.amount) for e in hand.events if isinstance(e, events.Posted)]
    assert posted == [(1, "small_blind", 2), (2, "big_blind", 5)]
    assert bounds(hand, 0) == (10, 10)


def test_fixed_limit_full_raise_after_an_under_raise_reopens_the_betting() -> None:
    config = TableConfig.of("holdem", Stakes.limit(10, 20), structure="fixed_limit")
    hand = Hand(config, [1000, 1000, 24, 1000], button=0, seed=5)
    for seat in (3, 0, 1):
        act(hand, seat, "call")
    act(hand, 2, "check")
    act(hand, 1, "raise", 10)
    act(hand, 2, "raise", 14)  # all-in: +4 is less than half a bet
    act(hand, 3, "raise", 24)  # a full raise over the all-in
    act(hand, 0, "call")
    assert bounds(hand, 1) == (34, 34)  # seat 1 had acted, but faces a full raise now


def test_fixed_limit_under_raise_alone_keeps_the_opener_locked() -> None:
    config = TableConfig.of("holdem", Stakes.limit(10, 20), structure="fixed_limit")
    hand = Hand(config, [1000, 1000, 24, 1000], button=0, seed=5)
    for seat in (3, 0, 1):
        act(hand, seat, "call")
    act(hand, 2, "check")
    act(hand, 1, "raise", 10)
    act(hand, 2, "raise", 14)
    assert bounds(hand, 3) == (24, 24)  # yet to act: may make a full raise
    act(hand, 3, "call")
    act(hand, 0, "call")
    assert hand.legal_actions(1).call == 4 and bounds(hand, 1) == (None, None)


def test_fixed_limit_under_raises_never_add_up_to_reopen_the_betting() -> None:
    """§5: in fixed limit "less than half does not reopen betting: players who already
    acted may only call or fold"; the TDA sum of short all-ins is the NL/PL rule only.

    10/20, five players call pre-flop. On the flop seat 1 bets 10; seats 2, 3 and 4
    go all-in to 14, 18 and 22 (+4 each, under half a bet); the button calls. Seat 1
    faces 12 more, over a full bet in all, yet none of the raises was full.
    """
    config = TableConfig.of("holdem", Stakes.limit(10, 20), structure="fixed_limit")
    hand = Hand(config, [1000, 1000, 10 + 14, 10 + 18, 10 + 22], button=0, seed=5)
    for seat in (3, 4, 0, 1):
        act(hand, seat, "call")
    act(hand, 2, "check")
    act(hand, 1, "raise", 10)
    for seat, to in ((2, 14), (3, 18), (4, 22)):
        act(hand, seat, "raise", to)
        assert hand.stacks[seat] == 0
    assert bounds(hand, 0) == (32, 32)  # yet to act: may still make a full raise
    act(hand, 0, "call")
    assert hand.legal_actions(1).call == 12 and bounds(hand, 1) == (None, None)


def test_heads_up_uncapped_counts_the_players_at_the_start_of_the_round() -> None:
    config = TableConfig.of(
        "holdem", Stakes.limit(10, 20), structure="fixed_limit", heads_up_uncapped=True
    )
    # Three dealt in, one folds pre-flop: the flop starts heads-up and is uncapped.
    hand = Hand(config, [1000] * 3, button=0, seed=6)
    act(hand, 0, "fold")
    act(hand, 1, "call")
    act(hand, 2, "check")
    for seat, to in ((1, 10), (2, 20), (1, 30), (2, 40)):
        act(hand, seat, "raise", to)
    assert bounds(hand, 1) == (50, 50)
    # Three at the start of the round: still capped when one folds during it.
    hand = Hand(config, [1000] * 3, button=0, seed=6)
    act(hand, 0, "raise", 20)
    act(hand, 1, "fold")
    act(hand, 2, "raise", 30)
    act(hand, 0, "raise", 40)  # the big blind and three raises
    assert bounds(hand, 2) == (None, None)


# ------------------------------------------------------------------ spread limit


def river_of_spread_limit(short_stack: int, short_seat: int = 1) -> Hand:
    """1/2-style spread limit 20-40-60 (blinds 10/20), three players checked to the river;
    ``short_seat`` (the small blind, seat 1, unless said) has ``short_stack`` in all, the
    others 1,000; seat 2 bets 60, seat 0 calls."""
    config = TableConfig.of(
        "holdem", Stakes.spread_limit((20, 40, 60), 10, 20), structure="spread_limit"
    )
    stacks = [1000, 1000, 1000]
    stacks[short_seat] = short_stack
    hand = Hand(config, stacks, button=0, seed=7)
    act(hand, 0, "call")
    act(hand, 1, "call")
    act(hand, 2, "check")
    while hand.street.name != "river":
        act(hand, hand.actor or 0, "check")
    act(hand, 1, "check")
    act(hand, 2, "raise", 60)
    act(hand, 0, "call")
    return hand


def test_spread_limit_all_in_under_half_a_raise_does_not_reopen() -> None:
    hand = river_of_spread_limit(20 + 89)
    act(hand, 1, "raise", 89)  # all-in: +29, less than half of 60
    assert hand.legal_actions(2).call == 29 and bounds(hand, 2) == (None, None)
    act(hand, 2, "call")
    assert bounds(hand, 0) == (None, None)


def test_spread_limit_all_in_of_half_a_raise_reopens() -> None:
    hand = river_of_spread_limit(20 + 90)
    act(hand, 1, "raise", 90)  # all-in: +30, half of 60 counts as a full raise
    low, high = bounds(hand, 2)
    assert low is not None and high is not None and high <= 3 * 60


def test_spread_limit_cap_holds_when_the_next_full_raise_would_pass_it() -> None:
    """§5 spread limit: "a round caps at 3x that street's maximum" (180 on a 60 river),
    and "a raise at least equals the previous bet/raise".

    Blinds 10/20, 20-40-60, checked to the river. Seat 2 bets 60, seat 0 calls, seat 1
    raises to 120, seat 2 goes all-in to 150 (+30: half a raise, a full one under the
    half rule). Seat 0 faces 150: a full raise (+60) would reach 210, past the cap,
    and a raise to 180 adds less than the previous raise: call or fold only.
    """
    hand = river_of_spread_limit(20 + 150, short_seat=2)
    act(hand, 1, "raise", 120)
    act(hand, 2, "raise", 150)
    assert hand.stacks[2] == 0
    assert hand.legal_actions(0).call == 90
    assert bounds(hand, 0) == (None, None)
    for to in (180, 210):
        with pytest.raises(IllegalAction):
            hand.apply(Action(0, "raise", to))


# ------------------------------------------------------------------ short deck


def test_short_deck_heads_up_the_button_blind_acts_last_pre_flop() -> None:
    config = TableConfig.of("short_deck", Stakes.short_deck(1))
    hand = Hand(config, [100, 100], button=1, seed=8)
    posted = [(e.seat, e.what, e.amount) for e in hand.events if isinstance(e, events.Posted)]
    assert posted == [(0, "ante", 1), (1, "ante", 1), (1, "button_blind", 2)]
    assert hand.actor == 0 and hand.legal_actions(0).call == 2
    act(hand, 0, "call")
    assert hand.actor == 1 and hand.legal_actions(1).check  # the button blind's option
    act(hand, 1, "check")
    assert hand.street.name == "flop" and hand.actor == 0
