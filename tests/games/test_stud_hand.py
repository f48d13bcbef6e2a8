"""Stud-family hands through the engine: one test per rule of RULEBOOK §4–§7 for stud."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import pytest

from cardroom.cards import parse_cards
from cardroom.games import Action, Hand, IllegalAction, Stakes, TableConfig, arrange_deck, replay
from cardroom.games import events as ev

STAKES = Stakes(ante=1, small_bet=10, big_bet=20, bring_in=5)


def config(game: str = "stud", **options: object) -> TableConfig:
    return TableConfig.of(game, STAKES, **options)


def deal(cfg: TableConfig, holes: Sequence[str], stack: int = 500) -> Hand:
    """Seats 0..n-1 (button on the last seat) holding ``holes`` (each in dealing order)."""
    order = list(range(len(holes)))
    deck = arrange_deck(cfg, order, {s: parse_cards(h) for s, h in enumerate(holes)})
    return Hand(cfg, [stack] * len(holes), len(holes) - 1, deck, seed=1)


def check_or_call(hand: Hand) -> None:
    seat = hand.actor
    assert seat is not None
    legal = hand.legal_actions(seat)
    if legal.bring_in is not None:
        hand.apply(Action.bring_in(seat))
    else:
        hand.apply(Action.check(seat) if legal.check else Action.call(seat))


def to_street(hand: Hand, index: int) -> None:
    while hand.street_index < index and hand.actor is not None:
        check_or_call(hand)


# Three players; door (third card) decides the bring-in.
THREE = ["Kc Kd Ks 9c 8d Jh Qc", "Ac 3d 2h 4s 6c Th Jd", "7c 7d 9h 5s 5d 2s 3s"]


class TestBringIn:
    def test_lowest_door_card_brings_in_and_may_only_post_or_complete(self) -> None:
        hand = deal(config(), THREE)
        assert hand.actor == 1  # 2h is the lowest door card
        legal = hand.legal_actions(1)
        assert (legal.fold, legal.check, legal.call) == (False, False, None)
        assert legal.bring_in == 5
        assert (legal.min_raise_to, legal.max_raise_to) == (10, 10)  # complete to the small bet
        with pytest.raises(IllegalAction, match="bring-in"):
            hand.apply(Action.fold(1))

    def test_after_the_bring_in_others_fold_call_or_complete(self) -> None:
        hand = deal(config(), THREE)
        hand.apply(Action.bring_in(1))
        legal = hand.legal_actions(2)
        assert legal.fold and legal.call == 5
        assert (legal.min_raise_to, legal.max_raise_to) == (10, 10)
        hand.apply(Action.raise_to(2, 10))  # completes
        legal = hand.legal_actions(0)
        assert (legal.call, legal.min_raise_to) == (10, 20)

    def test_bring_in_player_may_complete_at_once(self) -> None:
        hand = deal(config(), THREE)
        hand.apply(Action.raise_to(1, 10))
        assert hand.legal_actions(2).min_raise_to == 20

    def test_ties_by_suit_or_by_position(self) -> None:
        holes = ["Kc Kd 9s 9c 8d Jh Qc", "Ac 3d 2h 4s 8c Js Qd", "7c 7d 2c 5s 8h Jc Qh"]
        assert deal(config(), holes).actor == 2  # 2c is lower than 2h
        assert deal(config(bring_in_by_position=True), holes).actor == 1

    def test_razz_highest_door_card_aces_low(self) -> None:
        holes = ["2c 3d Ks 9c 8d Jh Qc", "4c 5d As 4s 6c Th Jd", "7c 7h Kh 5s 9h 2s 3s"]
        assert deal(config("razz"), holes).actor == 0  # Ks beats Kh; the ace is low

    def test_everyone_folding_to_the_bring_in(self) -> None:
        hand = deal(config(), THREE)
        hand.apply(Action.bring_in(1))
        hand.apply(Action.fold(2))
        hand.apply(Action.fold(0))
        assert hand.is_over and hand.stacks[1] == 500 + 2  # two antes won


class TestBettingRounds:
    def test_cap_four_raises_at_stud(self) -> None:
        hand = deal(config(), THREE, stack=1000)
        hand.apply(Action.bring_in(1))
        to = 10
        seats = [2, 0, 1, 2, 0]
        for seat in seats:  # complete, then four raises
            hand.apply(Action.raise_to(seat, to))
            to += 10
        legal = hand.legal_actions(1)
        assert legal.call is not None and legal.min_raise_to is None

    def test_small_bet_on_third_and_fourth_big_from_fifth(self) -> None:
        hand = deal(config(), THREE, stack=1000)
        sizes = []
        while hand.actor is not None and hand.street_index < 4:
            seat = hand.actor
            legal = hand.legal_actions(seat)
            if hand.current_bet == 0 and legal.min_raise_to is not None:
                sizes.append((hand.street_index, legal.min_raise_to))
            check_or_call(hand)
        assert (1, 10) in sizes and (2, 20) in sizes and (3, 20) in sizes

    def test_best_showing_hand_acts_first_from_fourth_street(self) -> None:
        hand = deal(config(), THREE)
        to_street(hand, 1)
        # up: Ks 9c / 2h 4s / 9h 5s: the king is highest
        assert hand.actor == 0
        to_street(hand, 2)
        # up: Ks 9c 8d / 2h 4s 6c / 9h 5s 5d: the pair of fives
        assert hand.actor == 2

    def test_first_to_act_tie_by_position_then_by_suit(self) -> None:
        holes = ["2c 3c Kc 9d 4d 4h 4s", "2d 3d Kd 9s 5c 5h 5s", "2h 3h 7c 8c 6c 6h 6s"]
        assert deal(config(), holes).street_index == 0
        hand = deal(config(), holes)
        to_street(hand, 1)
        assert hand.actor == 0  # K9 and K9: closest clockwise from the button
        hand = deal(config(stud_order_ties="suit"), holes)
        to_street(hand, 1)
        assert hand.actor == 1  # the king of diamonds outranks the king of clubs

    def test_razz_lowest_showing_hand_and_its_ties(self) -> None:
        holes = ["Kc Qc 6d 2c 9s 9h Jd", "Kd Qd 6c 2s 8s 8h Js", "Kh Qh Th 7c 3c 7s 7h"]
        hand = deal(config("razz"), holes)
        to_street(hand, 1)
        assert hand.actor == 0  # 6-2 ties 6-2: position
        hand = deal(config("razz", stud_order_ties="suit"), holes)
        to_street(hand, 1)
        assert hand.actor == 1  # seed 000: the six of clubs is lower than the diamond


class TestOpenPair:
    HOLES: ClassVar[list[str]] = [
        "Ac Ad 9c 9d 2h 3h 4h",
        "Kc Kd 3s 7s 5c 6c Jc",
        "Qc Qd 4s 8s 5d 6d Jd",
    ]

    def fourth(self, **options: object) -> Hand:
        hand = deal(config(**options), self.HOLES)
        to_street(hand, 1)
        return hand

    def test_default_the_big_bet(self) -> None:
        hand = self.fourth()
        assert hand.actor == 0  # the open nines act first
        legal = hand.legal_actions(0)
        assert (legal.min_raise_to, legal.max_raise_to) == (20, 20)

    def test_option_small_or_big_then_raises_are_big(self) -> None:
        hand = self.fourth(fourth_street_pair="option")
        legal = hand.legal_actions(0)
        assert (legal.min_raise_to, legal.max_raise_to) == (10, 20)
        assert legal.raise_sizes == (10, 20)
        assert not legal.allows(Action.raise_to(0, 15)) and legal.allows(Action.raise_to(0, 20))
        with pytest.raises(IllegalAction, match="to 10 or to 20"):
            hand.apply(Action.raise_to(0, 15))
        hand.apply(Action.raise_to(0, 20))
        legal = hand.legal_actions(1)
        assert (legal.min_raise_to, legal.max_raise_to) == (40, 40)

    def test_option_small_bet_keeps_the_choice(self) -> None:
        hand = self.fourth(fourth_street_pair="option")
        hand.apply(Action.raise_to(0, 10))
        legal = hand.legal_actions(1)
        assert (legal.min_raise_to, legal.max_raise_to) == (20, 30)
        assert legal.raise_sizes == (20, 30) and legal.call == 10

    def test_small_rule_keeps_the_small_bet_with_an_open_pair(self) -> None:
        """§5 stud 4th street: the big bet for an open pair is the default and
        "option" lets the bettor choose; a table set to ``fourth_street_pair="small"``
        keeps the small bet (10) with the open nines showing, and offers no choice."""
        hand = self.fourth(fourth_street_pair="small")
        assert hand.actor == 0
        legal = hand.legal_actions(0)
        assert (legal.min_raise_to, legal.max_raise_to) == (10, 10)
        assert legal.raise_sizes == ()
        with pytest.raises(IllegalAction):
            hand.apply(Action.raise_to(0, 20))

    def test_option_big_bet_of_a_short_stack_is_its_all_in(self) -> None:
        """§5 table stakes with the 4th-street option: a player never bets more than
        the chips on the table. Stacks of 21: ante 1 and the bring-in 5 called leave
        seat 0 (open nines) 15, so it may bet the small bet, 10, or all-in 15 for less
        than the big bet, not 20."""
        hand = deal(config(fourth_street_pair="option"), self.HOLES, stack=21)
        to_street(hand, 1)
        assert hand.actor == 0 and hand.stacks[0] == 15
        legal = hand.legal_actions(0)
        assert (legal.min_raise_to, legal.max_raise_to) == (10, 15)
        assert legal.raise_sizes == (10, 15)
        with pytest.raises(IllegalAction):
            hand.apply(Action.raise_to(0, 20))

    def test_razz_ignores_pairs(self) -> None:
        hand = deal(config("razz"), ["Ac Ad 9c 9d 2h 3h 4h", *self.HOLES[1:]])
        to_street(hand, 1)
        seat = hand.actor
        assert seat is not None
        legal = hand.legal_actions(seat)
        assert (legal.min_raise_to, legal.max_raise_to) == (10, 10)


class TestCommunityCard:
    def eight_handed(self, **options: object) -> Hand:
        hand = Hand(config(**options), [500] * 8, button=7, seed="eight")
        to_street(hand, 4)
        return hand

    def test_eight_players_to_seventh_street_share_one_card(self) -> None:
        hand = self.eight_handed()
        assert hand.street_index == 4 and len(hand.board) == 1
        assert all(len(hand.hole_cards(s)) == 6 for s in range(8))
        every = [c for s in range(8) for c in hand.hole_cards(s)] + hand.board
        assert len(set(every)) == len(every) == 49
        burned = [e.card for e in hand.events if isinstance(e, ev.Burned)]
        assert len(burned) == 3  # no burn before the community card: one card was left
        # 7th-street betting starts with the best showing hand including the card
        assert hand.actor is not None
        while hand.actor is not None:
            check_or_call(hand)
        assert hand.is_over
        shown = [e for e in hand.events if isinstance(e, ev.Shown)]
        assert shown and all(len(e.cards) == 6 for e in shown)
        assert sum(hand.stacks) == 8 * 500

    def test_without_betting_on_the_community_card(self) -> None:
        hand = Hand(config(community_card_betting=False), [500] * 8, button=7, seed="eight")
        while hand.actor is not None:
            check_or_call(hand)
        assert len(hand.board) == 1
        acted_on_7th = [e for e in _street_events(hand, 4) if isinstance(e, ev.Acted)]
        assert not acted_on_7th

    def test_the_record_replays(self) -> None:
        hand = self.eight_handed()
        while hand.actor is not None:
            check_or_call(hand)
        assert replay(hand.events).events == hand.events


def _street_events(hand: Hand, index: int) -> list[ev.Event]:
    out: list[ev.Event] = []
    on = False
    for e in hand.events:
        if isinstance(e, ev.StreetStarted):
            on = e.index == index
        elif on:
            out.append(e)
    return out


class TestShowdown:
    def test_stud_hi_lo_odd_chip_goes_to_the_high_half(self) -> None:
        hand = deal(config("stud_hi_lo"), THREE, stack=100)
        hand.apply(Action.bring_in(1))
        hand.apply(Action.fold(2))
        hand.apply(Action.call(0))
        while hand.actor is not None:
            hand.apply(Action.check(hand.actor))
        assert hand.result is not None
        (pot,) = hand.result.pots
        assert pot.amount == 13  # three antes and two bring-ins
        shares = {(a.seat, a.share): a.amount for a in pot.awards}
        assert shares == {(0, "high"): 7, (1, "low"): 6}
        assert hand.stacks == (101, 100, 99)

    def test_best_board_shows_first_without_a_bet(self) -> None:
        holes = ["Ac Ad 2h 3c 4d 5s Kh", "Kc Kd 9h 9c 8d 7s Qh"]
        hand = deal(config(), holes)
        while hand.actor is not None:
            check_or_call(hand)
        shown = [e for e in hand.events if isinstance(e, (ev.Shown, ev.Mucked))]
        assert isinstance(shown[0], ev.Shown) and shown[0].seat == 1  # 9-9 showing
        assert isinstance(shown[1], ev.Shown) and shown[1].seat == 0  # the wheel beats kings up

    def test_razz_is_won_by_the_lowest_hand(self) -> None:
        holes = ["Ac 2d 3h 4s 6c Kc Kd", "Ad 2c 3s 4h 7c Qc Qd"]
        hand = deal(config("razz"), holes)
        while hand.actor is not None:
            check_or_call(hand)
        assert hand.result is not None
        (award,) = hand.result.pots[0].awards
        assert award.seat == 0 and "6-4-3-2-A" in award.hand


def test_up_cards_are_public_and_down_cards_private() -> None:
    hand = deal(config(), THREE)
    to_street(hand, 1)
    seats = hand.view(2)["seats"]
    assert isinstance(seats, list)
    theirs = seats[0]["cards"]
    assert theirs[:2] == [None, None] and theirs[2:] == ["Ks", "9c"]
    assert seats[2]["cards"] == ["7c", "7d", "9h", "5s"]


def test_the_bring_in_seat_sees_the_bring_in_amount() -> None:
    hand = deal(config(), THREE)
    legal = hand.view(1)["legal"]
    assert legal["actions"] == ["raise", "bring_in"] and legal["bring_in"] == 5


def test_without_a_bring_in_the_low_card_opens_and_may_check() -> None:
    cfg = TableConfig.of("stud", Stakes(ante=1, small_bet=10, big_bet=20, bring_in=0))
    hand = deal(cfg, THREE)
    assert hand.actor == 1
    legal = hand.legal_actions(1)
    assert legal.check and legal.bring_in is None and legal.min_raise_to == 10


def test_a_bring_in_seat_all_in_on_the_ante_passes_the_bring_in_on() -> None:
    # As PokerKit: the next player able to act posts the bring-in or completes.
    order = [0, 1, 2]
    holes = {s: parse_cards(h) for s, h in enumerate(THREE)}
    cfg = config()
    hand = Hand(cfg, [500, 1, 500], 2, arrange_deck(cfg, order, holes), seed=1)
    assert hand.is_all_in(1)
    assert hand.actor == 2 and hand.legal_actions(2).bring_in == 5


@pytest.mark.parametrize("players", [2, 5, 8])
def test_each_round_opens_with_the_best_board_as_first_to_act_says(players: int) -> None:
    # The engine keeps running rank counts of the up cards; the opener must be the seat
    # first_to_act picks from the cards themselves (8 players: the community card too).
    import random

    from cardroom.bench.engine_driver import to_action
    from cardroom.bench.pokerkit_peer import choose
    from cardroom.games.stud import first_to_act

    rng = random.Random(players)
    config = TableConfig.of("stud", STAKES)
    checked = 0
    for n in range(150):
        hand = Hand(config, [rng.randint(15, 400) for _ in range(players)], 0, seed=n)
        street = hand.street_index
        while hand.actor is not None:
            if hand.street_index != street and hand.street_index > 0:
                street = hand.street_index
                live = [s for s in hand.order if hand.is_live(s)]
                showing = [
                    (
                        s,
                        [
                            c
                            for c, up in zip(hand.hole_cards(s), hand.up_flags(s), strict=True)
                            if up
                        ],
                    )
                    for s in live
                ]
                board = list(hand.board)
                expected = first_to_act([(s, up + board) for s, up in showing])
                if not hand.is_all_in(expected) and all(hand.bets[s] == 0 for s in live):
                    assert hand.actor == expected
                    checked += 1
            hand.apply(to_action(hand, hand.actor, choose(hand.legal_actions(hand.actor), rng)))
    assert checked > 100


def test_razz_checked_down_the_lowest_board_shows_first() -> None:
    """§7: without a bet on the last round the stud family's best showing hand shows
    first; in Razz that is the lowest board. Up cards: seat 0 K Q J T (brings in with
    the king), seat 1 2 3 4 5, seat 2 9 8 7 6; checked down, seat 1 shows first."""
    holes = ["Ac Ad Kc Qc Jc Tc 9c", "As Ks 2d 3d 4d 5d 6h", "Qh Qs 9d 8d 7d 6d 7h"]
    hand = deal(config("razz"), holes)
    assert hand.actor == 0 and hand.legal_actions(0).bring_in == 5
    while hand.actor is not None:
        check_or_call(hand)
    assert hand.result is not None and hand.street_index == 4
    shows = [
        (e.seat, isinstance(e, ev.Shown))
        for e in hand.events
        if isinstance(e, ev.Shown | ev.Mucked)
    ]
    assert shows[0] == (1, True)
