"""Stud-family rules as pure functions: bring-in, first to act, open pairs, the community card."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.cards import CARDS, Card, parse_cards
from cardroom.games.stud import (
    RAZZ_BRING_IN,
    SOKO_BRING_IN,
    STUD_BRING_IN,
    bring_in_seat,
    first_to_act,
    fourth_street_bets,
    has_open_pair,
    plan_last_card,
    rank_counts,
    showing_hand,
    showing_key_of_counts,
)


def c(text: str) -> Card:
    return parse_cards(text)[0]


def doors(*texts: str) -> list[tuple[int, Card]]:
    return [(seat, c(t)) for seat, t in enumerate(texts)]


class TestBringIn:
    def test_stud_lowest_door_card_aces_high(self) -> None:
        assert bring_in_seat(doors("As", "3h", "Kd"), STUD_BRING_IN) == 1

    def test_stud_tie_goes_to_lowest_suit_clubs_first(self) -> None:
        assert bring_in_seat(doors("2s", "2d", "2c", "2h"), STUD_BRING_IN) == 2

    def test_stud_tie_by_position_option(self) -> None:
        # seed 001: the one closest to the dealer's left brings in
        assert bring_in_seat(doors("5s", "2h", "2c"), STUD_BRING_IN, by_position=True) == 1

    def test_razz_highest_door_card_aces_low(self) -> None:
        assert bring_in_seat(doors("As", "Kc", "Qs"), RAZZ_BRING_IN) == 1
        assert bring_in_seat(doors("As", "2c"), RAZZ_BRING_IN) == 1

    def test_razz_tie_goes_to_highest_suit(self) -> None:
        assert bring_in_seat(doors("Kd", "Ks", "Kh"), RAZZ_BRING_IN) == 1

    def test_soko_highest_card_spades_first(self) -> None:
        assert bring_in_seat(doors("Ah", "As", "Kc"), SOKO_BRING_IN) == 1
        assert bring_in_seat(doors("Ac", "Ad", "Kc"), SOKO_BRING_IN) == 1

    def test_seats_are_returned_not_indexes(self) -> None:
        assert bring_in_seat([(7, c("9c")), (2, c("4d"))], STUD_BRING_IN) == 2

    @settings(deadline=None)  # a loaded machine may pause one example past 200 ms
    @given(st.lists(st.sampled_from(CARDS), min_size=2, max_size=8, unique=True))
    def test_stud_bring_in_is_the_minimum_by_rank_then_suit(self, cards: list[Card]) -> None:
        seat = bring_in_seat(list(enumerate(cards)), STUD_BRING_IN)
        assert cards[seat] == min(cards, key=lambda x: (x.rank, x.suit))

    @settings(deadline=None)  # a loaded machine may pause one example past 200 ms
    @given(st.lists(st.sampled_from(CARDS), min_size=2, max_size=8, unique=True))
    def test_razz_bring_in_is_the_maximum_with_aces_low(self, cards: list[Card]) -> None:
        seat = bring_in_seat(list(enumerate(cards)), RAZZ_BRING_IN)
        assert cards[seat] == max(cards, key=lambda x: ((x.rank + 1) % 13, x.suit))

    def test_no_doors_is_an_error(self) -> None:
        with pytest.raises(ValueError, match="nobody"):
            bring_in_seat([], STUD_BRING_IN)


def showing(*hands: str) -> list[tuple[int, tuple[Card, ...]]]:
    return [(seat, parse_cards(h)) for seat, h in enumerate(hands)]


class TestFirstToAct:
    def test_pair_beats_high_cards(self) -> None:
        assert first_to_act(showing("Ah Kd", "3c 3d", "Qs Js")) == 1

    def test_made_hands_order(self) -> None:
        hands = ["As Ks Qs Js", "2c 2d 3c 3d", "4c 4d 4h 9s", "5c 5d Ah Kd", "7c 7d 7h 7s"]
        assert first_to_act(showing(*hands)) == 4
        assert first_to_act(showing(*hands[:4])) == 2
        assert first_to_act(showing(*hands[:2])) == 1
        assert first_to_act(showing(hands[0], hands[3])) == 1
        assert first_to_act(showing(hands[3], hands[1])) == 1

    def test_straights_and_flushes_do_not_count(self) -> None:
        assert first_to_act(showing("9s Ts Js Qs", "2c 2d 4h 5s")) == 1
        assert first_to_act(showing("9s Ts Js Qs", "Ac 3d 4h 6s")) == 1

    def test_kickers_then_position_tie(self) -> None:
        assert first_to_act(showing("Kc 9d", "Kd Ts")) == 1
        # equal ranks: closest clockwise from the button (first in dealing order)
        assert first_to_act(showing("Kc 9d", "Kd 9s")) == 0
        assert first_to_act([(5, parse_cards("Kc 9d")), (1, parse_cards("Kd 9s"))]) == 5

    def test_tie_by_suit_option(self) -> None:
        assert first_to_act(showing("Kc 9d", "Kd 9s"), ties="suit") == 1
        assert first_to_act(showing("Ks 9c", "Kd 9s"), ties="suit") == 0

    def test_razz_lowest_showing_hand(self) -> None:
        assert first_to_act(showing("Kc 2d", "7c 6d", "Ac Ad"), low=True) == 1
        assert first_to_act(showing("6c 2d", "6d Ah"), low=True) == 1  # 6-A beats 6-2

    def test_razz_pairs_are_bad(self) -> None:
        assert first_to_act(showing("2c 2d", "Kc Qd"), low=True) == 1

    def test_razz_tie_by_position_and_by_suit(self) -> None:
        # seed 000: 6d 2c and 6c 2s tie; by suit the six of clubs is lower and starts
        assert first_to_act(showing("6d 2c", "6c 2s"), low=True) == 0
        assert first_to_act(showing("6d 2c", "6c 2s"), low=True, ties="suit") == 1

    def test_community_card_counts_for_everyone(self) -> None:
        board = c("9h")
        a = (*parse_cards("Ac Kd Qh Js"), board)
        b = (*parse_cards("9c 2d 3h 4s"), board)
        assert first_to_act([(0, a), (1, b)]) == 1

    def test_full_house_between_trips_and_quads(self) -> None:
        assert (
            showing_hand(parse_cards("9c 9d 9h 2s 2c"))[0]
            > showing_hand(parse_cards("Ac Ad Ah Ks Qc"))[0]
        )
        assert (
            showing_hand(parse_cards("9c 9d 9h 9s 2c"))[0]
            > showing_hand(parse_cards("Ac Ad Ah Ks Kc"))[0]
        )

    def test_unknown_tie_option_is_rejected(self) -> None:
        with pytest.raises(ValueError, match="stud_order_ties"):
            first_to_act(showing("Ac"), ties="random")  # type: ignore[arg-type]

    @settings(deadline=None)  # a loaded machine may pause one example past 200 ms
    @given(st.lists(st.sampled_from(CARDS), min_size=4, max_size=16, unique=True))
    def test_high_order_matches_brute_force(self, cards: list[Card]) -> None:
        n = len(cards) // 2
        hands = [(i, tuple(cards[2 * i : 2 * i + 2])) for i in range(n)]

        def brute(up: tuple[Card, ...]) -> tuple[int, int, int]:
            hi, lo = sorted((x.rank for x in up), reverse=True)
            return (1 if hi == lo else 0, hi, lo)

        best = max(brute(h) for _, h in hands)
        expect = next(seat for seat, h in hands if brute(h) == best)
        assert first_to_act(hands) == expect


class TestOpenPair:
    def test_has_open_pair(self) -> None:
        assert has_open_pair(parse_cards("7c 7d"))
        assert not has_open_pair(parse_cards("7c 8c"))

    def test_default_big_bet_when_a_pair_shows(self) -> None:
        assert fourth_street_bets("big", True, 10, 20, False) == (20,)
        assert fourth_street_bets("big", False, 10, 20, False) == (10,)

    def test_option_lets_the_bettor_choose_until_a_big_bet(self) -> None:
        assert fourth_street_bets("option", True, 10, 20, False) == (10, 20)
        assert fourth_street_bets("option", True, 10, 20, True) == (20,)
        assert fourth_street_bets("option", False, 10, 20, False) == (10,)

    def test_small_ignores_pairs(self) -> None:
        assert fourth_street_bets("small", True, 10, 20, False) == (10,)

    def test_unknown_rule(self) -> None:
        with pytest.raises(ValueError, match="fourth_street_pair"):
            fourth_street_bets("huge", True, 10, 20, False)  # type: ignore[arg-type]


class TestLastCard:
    @pytest.mark.parametrize(
        ("stub", "players", "burn", "expect"),
        [
            (10, 8, True, (True, False, False)),
            (9, 8, True, (True, False, False)),
            (8, 8, True, (True, True, False)),
            (8, 8, False, (False, False, False)),
            (1, 8, True, (False, True, False)),
            (0, 8, True, (False, True, True)),
            (3, 7, True, (True, True, False)),
        ],
    )
    def test_plan(self, stub: int, players: int, burn: bool, expect: tuple[bool, ...]) -> None:
        plan = plan_last_card(stub, players, burn)
        assert (plan.burn, plan.community, plan.from_muck) == expect

    def test_eight_players_never_all_get_a_seventh_card_with_burns(self) -> None:
        # 8 x 6 cards and three burns leave one card: it must be the community card
        stub = 52 - 8 * 6 - 3
        plan = plan_last_card(stub, 8, True)
        assert plan.community and not plan.burn and not plan.from_muck


def test_every_two_card_showing_pair_ranks_above_every_no_pair() -> None:
    pairs = [showing_hand(p) for p in itertools.combinations(CARDS, 2) if p[0].rank == p[1].rank]
    no_pairs = [showing_hand(p) for p in itertools.combinations(CARDS, 2) if p[0].rank != p[1].rank]
    assert min(pairs) > max(no_pairs)


@settings(deadline=None)  # a loaded machine may pause one example past 200 ms
@given(
    st.lists(
        st.lists(st.sampled_from(CARDS), min_size=1, max_size=4, unique=True),
        min_size=1,
        max_size=8,
    ),
    st.lists(st.sampled_from(CARDS), max_size=1),
)
def test_rank_counts_give_the_showing_hand_and_its_order(
    ups: list[list[Card]], board: list[Card]
) -> None:
    # The running counts the engine keeps must order boards exactly as showing_hand.
    showing = [(seat, up + board) for seat, up in enumerate(ups)]
    for _, cards in showing:
        assert showing_key_of_counts(rank_counts(cards)) == showing_hand(cards)
    best = max(
        range(len(ups)),
        key=lambda i: (showing_key_of_counts(rank_counts(ups[i]) + rank_counts(board)), -i),
    )
    assert first_to_act(showing) == best
