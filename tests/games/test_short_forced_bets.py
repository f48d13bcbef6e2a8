"""RULEBOOK §4: a forced bet posted all-in for less is still called in full.

A blind, straddle, button blind or bring-in the player cannot cover: the others
must call the full amount of that forced bet, a raise is measured from the full
amount, and the short player plays only for what was matched (side pots as
usual). Every hand here is worked by hand; the comments give the arithmetic.
Seats: the button on the last seat, so seat 0 is the small blind (or, in Short
Deck, the first to act) and seat 1 the big blind.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from cardroom.cards import Card, parse_cards
from cardroom.games import Action, Hand, IllegalAction, Stakes, TableConfig, arrange_deck
from cardroom.games import events as ev
from cardroom.games.pots import Pot
from cardroom.games.variants import FIXED_LIMIT

NL = TableConfig.of("holdem", Stakes.blinds(5, 10))
FL = TableConfig.of("holdem", Stakes.limit(10), structure=FIXED_LIMIT)
STRADDLE = TableConfig.of("holdem", Stakes.blinds(1, 2, straddles=(4,)))


def aces_for(seat: int, players: int) -> list[Card]:
    """A hold'em deck giving ``seat`` two aces, the others no pair, and a dry board."""
    others = iter(["7c 2d", "6c 2h", "7d 2s"])
    holes = {s: parse_cards("Ah As" if s == seat else next(others)) for s in range(players)}
    return arrange_deck(NL, list(range(players)), holes, parse_cards("Kd Qs 9h 8c 3s"))


def posted(hand: Hand) -> list[tuple[int, str, int]]:
    return [(e.seat, e.what, e.amount) for e in hand.events if isinstance(e, ev.Posted)]


def returned(hand: Hand) -> list[tuple[int, int]]:
    return [(e.seat, e.amount) for e in hand.events if isinstance(e, ev.UncalledReturned)]


def paid(hand: Hand) -> list[tuple[int, tuple[int, ...]]]:
    """The pots of a finished hand: amount and eligible seats."""
    assert hand.result is not None
    return [(p.amount, p.eligible) for p in hand.result.pots]


def bounds(hand: Hand, seat: int) -> tuple[int | None, int | None, int | None]:
    legal = hand.legal_actions(seat)
    return legal.call, legal.min_raise_to, legal.max_raise_to


# ------------------------------------------------------------------ big blind


def test_4_short_big_blind_is_called_in_full_and_raised_from_the_full_blind() -> None:
    # 5/10, the big blind has 7: it posts 7 all-in. The button must call 10 (not 7),
    # and the smallest raise is to 10 + 10 = 20 (not 7 + 10 = 17).
    hand = Hand(NL, [200, 7, 200], button=2, seed=1)
    assert posted(hand) == [(0, "small_blind", 5), (1, "big_blind", 7)]
    assert hand.current_bet == 10
    assert hand.actor == 2 and bounds(hand, 2) == (10, 20, 200)
    with pytest.raises(IllegalAction):
        hand.apply(Action.raise_to(2, 19))
    hand.apply(Action.call(2))
    assert bounds(hand, 0) == (5, 20, 200)  # the small blind completes to the full 10
    hand.apply(Action.call(0))
    # Bets 10, 7, 10: the big blind plays for 7 from each (21); the other 3 + 3 are a side pot.
    assert hand.pots() == [Pot(21, (0, 1, 2)), Pot(6, (0, 2))]
    assert returned(hand) == [] and hand.street_index == 1


def test_4_short_big_blind_plays_only_for_what_was_matched() -> None:
    # The button raises to the minimum 20; the small blind folds. The big blind's 7 is
    # matched by 7 of the raise and by the small blind's dead 5: a pot of 5 + 7 + 7 = 19.
    # The other 13 of the raise is called by nobody and goes back to the button.
    # The big blind's aces win the 19: stacks 200 - 5, 19, 200 - 7.
    hand = Hand(NL, [200, 7, 200], 2, aces_for(1, 3))
    hand.apply(Action.raise_to(2, 20))
    hand.apply(Action.fold(0))
    assert returned(hand) == [(2, 13)]
    assert hand.result is not None and [(p.amount, p.eligible) for p in hand.result.pots] == [
        (19, (1, 2))
    ]
    assert hand.result.stacks == (195, 19, 193)


def test_4_short_big_blind_heads_up_the_button_calls_the_full_blind() -> None:
    # Heads-up the button posts the small blind 5; the big blind (seat 0) posts 7 of 10.
    # The button must put in 5 more (not 2); the 3 nobody can match comes back.
    # The big blind's aces win 7 + 7: stacks 14 and 200 - 7.
    hand = Hand(NL, [7, 200], 1, aces_for(0, 2))
    assert hand.actor == 1 and bounds(hand, 1) == (5, None, None)  # nobody could call a raise
    hand.apply(Action.call(1))
    assert returned(hand) == [(1, 3)]
    assert hand.result is not None and [(p.amount, p.eligible) for p in hand.result.pots] == [
        (14, (0, 1))
    ]
    assert hand.result.stacks == (14, 193)


def test_4_big_blind_shorter_than_the_small_blind_is_still_the_bet() -> None:
    # 5/10, the big blind has 3: the bet is still 10, not the small blind's 5.
    hand = Hand(NL, [200, 3, 200], button=2, seed=1)
    assert hand.current_bet == 10 and bounds(hand, 2) == (10, 20, 200)


def test_4_short_big_blind_in_fixed_limit_the_raise_is_the_full_small_bet_on_top() -> None:
    # 5/10 fixed limit, the big blind has 7: call 10, the one raise size is to 20 (not 17).
    hand = Hand(FL, [200, 7, 200], button=2, seed=1)
    assert bounds(hand, 2) == (10, 20, 20)
    hand.apply(Action.raise_to(2, 20))
    assert bounds(hand, 0) == (15, 30, 30)


def test_4_big_blind_all_in_on_the_ante_is_still_the_bet() -> None:
    # Ante 5 at 5/10: the big blind's 5 chips go on the ante, nothing is left for the
    # blind it cannot cover. The others still call the full 10 (§4: a forced bet the
    # player cannot cover), and a raise goes to 20.
    config = TableConfig.of("holdem", Stakes.blinds(5, 10, 5))
    hand = Hand(config, [200, 5, 200], button=2, seed=1)
    assert (1, "big_blind", 0) not in posted(hand) and hand.is_all_in(1)
    assert bounds(hand, 2) == (10, 20, 195)


# ---------------------------------------------------------------- small blind


def test_4_short_small_blind_plays_only_for_what_was_matched() -> None:
    # The small blind has 3 of 5: the bet is the big blind's 10, and the small blind's 3
    # from each of three players is the main pot; the rest is a side pot without it.
    hand = Hand(NL, [3, 200, 200], button=2, seed=1)
    assert posted(hand) == [(0, "small_blind", 3), (1, "big_blind", 10)]
    assert bounds(hand, 2) == (10, 20, 200)
    hand.apply(Action.call(2))
    hand.apply(Action.check(1))
    assert hand.pots() == [Pot(9, (0, 1, 2)), Pot(14, (1, 2))]


# ------------------------------------------------------------------- straddle


def test_4_short_straddle_is_called_in_full_and_raised_from_the_full_straddle() -> None:
    # 1/2 with a 4 straddle; the straddler has 3 and posts it all-in. The button calls 4
    # (not 3), and the smallest raise adds the straddle: to 4 + 4 = 8 (not 3 + 2 = 5).
    hand = Hand(STRADDLE, [100, 100, 3, 100], button=3, seed=1)
    assert posted(hand)[-1] == (2, "straddle", 3)
    assert hand.actor == 3 and bounds(hand, 3) == (4, 8, 100)
    hand.apply(Action.call(3))
    assert bounds(hand, 0) == (3, 8, 100)  # the small blind's 1 goes to the full 4
    assert bounds(Hand(STRADDLE, [100, 100, 1, 100], button=3, seed=1), 3) == (4, 8, 100)


def test_4_short_straddle_under_big_blind_sizing_raises_a_big_blind_over_it() -> None:
    # straddle_raise="big_blind": the raise adds the big blind, from the full 4: to 6.
    config = TableConfig.of(
        "holdem", Stakes.blinds(1, 2, straddles=(4,)), straddle_raise="big_blind"
    )
    hand = Hand(config, [100, 100, 3, 100], button=3, seed=1)
    assert bounds(hand, 3) == (4, 6, 100)


# --------------------------------------------------------------- button blind


def test_4_short_button_blind_is_called_in_full() -> None:
    # Short Deck, ante 1, button blind 4: the button has 3, antes 1 and posts 2 all-in.
    # Seat 0 (left of the button) must call 4 (not 2); a raise adds the minimum bet,
    # the button blind: to 8 (not 6).
    config = TableConfig.of("short_deck", Stakes.short_deck(1, button_blind=4))
    hand = Hand(config, [100, 100, 3], button=2, seed=1)
    assert posted(hand)[-1] == (2, "button_blind", 2)
    assert hand.actor == 0 and bounds(hand, 0) == (4, 8, 99)
    hand.apply(Action.call(0))
    hand.apply(Action.call(1))
    # Totals 5, 5, 3: the button plays for 3 from each (9), the other 2 + 2 are a side pot.
    assert hand.pots() == [Pot(9, (0, 1, 2)), Pot(4, (0, 1))]


# ------------------------------------------------------------------- bring-in

# Three stud players; seat 1's door card 2h is the lowest, so seat 1 brings in.
THREE = ["Kc Kd Ks 9c 8d Jh Qc", "Ac 3d 2h 4s 6c Th Jd", "7c 7d 9h 5s 5d 2s 3s"]


def stud(stakes: Stakes, stacks: Sequence[int]) -> Hand:
    config = TableConfig.of("stud", stakes)
    deck = arrange_deck(config, [0, 1, 2], {s: parse_cards(h) for s, h in enumerate(THREE)})
    return Hand(config, list(stacks), 2, deck, seed=1)


def test_4_short_bring_in_is_called_in_full() -> None:
    # Ante 1, bring-in 5, small bet 10. Seat 1 has 4: it antes 1 and brings in its last 3.
    # Seat 2 must call 5 (not 3) or complete to 10.
    hand = stud(Stakes(ante=1, small_bet=10, big_bet=20, bring_in=5), [200, 4, 200])
    assert hand.actor == 1 and hand.legal_actions(1).bring_in == 3
    hand.apply(Action.bring_in(1))
    assert hand.actor == 2 and bounds(hand, 2) == (5, 10, 10)
    hand.apply(Action.call(2))
    hand.apply(Action.call(0))
    # Totals 6, 4, 6: seat 1 plays for 4 from each (12, antes included); 2 + 2 beside it.
    assert hand.pots() == [Pot(12, (0, 1, 2)), Pot(4, (0, 2))]


def test_4_short_bring_in_of_a_full_small_bet_is_the_opening_bet() -> None:
    # The bring-in is the full small bet (10); seat 1 posts 3 of it all-in. It is still
    # the opening bet: call 10, and the raise is to 10 + 10 = 20 (not a completion to 10).
    hand = stud(Stakes(ante=1, small_bet=10, big_bet=20, bring_in=10), [200, 4, 200])
    hand.apply(Action.bring_in(1))
    assert bounds(hand, 2) == (10, 20, 20)


def test_4_small_blind_covering_a_short_big_blind_alone_has_nothing_to_decide() -> None:
    # 5/10, the big blind posts 3 all-in and the button folds. The small blind's 5 already
    # covers all the big blind can match and nobody else is left: it is not asked to put
    # in more (the 10 is the price for players with a decision). The 2 unmatched come back.
    hand = Hand(NL, [200, 3, 200], 2, aces_for(1, 3))
    hand.apply(Action.fold(2))
    assert hand.actor is None and returned(hand) == [(0, 2)]
    assert paid(hand) == [(6, (0, 1))] and hand.result is not None
    assert hand.result.stacks == (197, 6, 200)
