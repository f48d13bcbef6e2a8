"""Side pots, hi-lo splits, odd chips, showdown order and mucking (RULEBOOK §5, §7)."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from cardroom.cards import parse_cards
from cardroom.games import (
    DISCONNECT_ALL_IN,
    Action,
    Hand,
    IllegalAction,
    RoomAction,
    Seat,
    Stakes,
    TableConfig,
    arrange_deck,
    build_pots,
    dealing_order,
    events,
)


def deal(
    config: TableConfig,
    seats: list[Seat | int | None],
    button: int,
    holes: Mapping[int, str],
    board: str,
) -> Hand:
    order = dealing_order([s is not None for s in seats], button)
    deck = arrange_deck(
        config, order, {s: parse_cards(c) for s, c in holes.items()}, parse_cards(board)
    )
    return Hand(config, seats, button, deck)


def act(hand: Hand, seat: int, kind: str, amount: int = 0) -> None:
    assert hand.actor == seat, f"expected seat {seat} to act, not {hand.actor}"
    hand.apply(Action(seat, kind, amount))


def check_down(hand: Hand) -> None:
    while hand.actor is not None:
        hand.apply(Action(hand.actor, "check"))


def awards(hand: Hand) -> list[tuple[int, int, int, str]]:
    return [
        (e.pot, e.seat, e.amount, e.share) for e in hand.events if isinstance(e, events.PotAwarded)
    ]


HOLDEM = TableConfig.of("holdem", Stakes.blinds(1, 2))


def test_three_all_ins_make_three_pots_each_awarded_independently() -> None:
    hand = deal(
        HOLDEM,
        [400, 50, 100, 200],
        0,
        {1: "Ah Ad", 2: "Kh Kd", 3: "Qh Qd", 0: "7c 6d"},
        "2c 5d 9h Js 3s",
    )
    act(hand, 3, "raise", 200)
    # Everyone else is all-in for at most 200: a raise could never be called.
    assert hand.legal_actions(0).min_raise_to is None
    act(hand, 0, "call")
    act(hand, 1, "call")
    act(hand, 2, "call")
    assert hand.is_over and hand.result is not None
    pots = [(p.amount, p.eligible) for p in hand.result.pots]
    assert pots == [(200, (1, 2, 3, 0)), (150, (2, 3, 0)), (200, (3, 0))]
    # Settled from the last side pot to the main pot.
    assert awards(hand) == [(2, 3, 200, "all"), (1, 2, 150, "all"), (0, 1, 200, "all")]
    assert hand.result.stacks == (200, 200, 150, 200)


def test_build_pots_counts_folded_chips_but_not_folded_players() -> None:
    pots = build_pots([30, 100, 60, 100], [False, True, True, True], [0, 1, 2, 3])
    assert [(p.amount, p.eligible) for p in pots] == [(210, (1, 2, 3)), (80, (1, 3))]


OMAHA_HI_LO = TableConfig.of("omaha_hi_lo", Stakes.blinds(1, 50))


def hi_lo_hand(hole_2: str, hole_0: str) -> Hand:
    """Button 0 calls 50, the small blind folds, the big blind checks: a 101-chip pot."""
    hand = deal(
        OMAHA_HI_LO,
        [1000, 1000, 1000],
        0,
        {0: hole_0, 1: "5h 6h 8s 8h", 2: hole_2},
        "2c 4d 7h Kc Ks",
    )
    act(hand, 0, "call")
    act(hand, 1, "fold")
    act(hand, 2, "check")
    check_down(hand)
    return hand


def test_hi_lo_odd_chip_goes_to_the_high_half_101_is_51_50() -> None:
    hand = hi_lo_hand(hole_2="As 3h 9c 9d", hole_0="Kd Qh Jd Tc")
    assert awards(hand) == [(0, 0, 51, "high"), (0, 2, 50, "low")]
    assert hand.result is not None
    assert hand.result.stacks == (1001, 999, 1000)
    assert hand.result.pots[0].scoop is None
    named = {e.seat: e.hand for e in hand.events if isinstance(e, events.PotAwarded)}
    assert "Kings" in named[0] and "low" in named[2].lower()


def test_hi_lo_scoop() -> None:
    hand = hi_lo_hand(hole_2="As 3h Kd Qh", hole_0="Jd Tc 9c 9d")
    assert awards(hand) == [(0, 2, 51, "high"), (0, 2, 50, "low")]
    assert hand.result is not None and hand.result.pots[0].scoop == 2


def test_hi_lo_without_a_qualifying_low_the_high_takes_all() -> None:
    hand = deal(
        OMAHA_HI_LO,
        [1000, 1000, 1000],
        0,
        {0: "Kd Qh Jd Tc", 1: "5h 6h 8s 8h", 2: "As 3h 9c 9d"},
        "2c Jh Qc Kc Ks",
    )
    act(hand, 0, "call")
    act(hand, 1, "fold")
    act(hand, 2, "check")
    check_down(hand)
    assert awards(hand) == [(0, 0, 101, "all")]


def test_tie_odd_chip_goes_to_first_winner_clockwise_from_the_button() -> None:
    config = TableConfig.of("holdem", Stakes.blinds(1, 2, ante=1))
    # Button 1: small blind 2, big blind 0; the board is a royal flush: everyone ties.
    hand = deal(config, [100, 100, 100], 1, {}, "Ah Kh Qh Jh Th")
    act(hand, 1, "fold")
    act(hand, 2, "call")
    act(hand, 0, "check")
    check_down(hand)
    assert hand.result is not None and hand.result.pots[0].amount == 7
    # Seat 2 sits before seat 0 going clockwise from the button: it gets the odd chip.
    assert awards(hand) == [(0, 2, 4, "all"), (0, 0, 3, "all")]


def test_win_without_showdown_shows_nothing() -> None:
    hand = deal(HOLDEM, [100, 100, 100], 0, {}, "")
    act(hand, 0, "raise", 10)
    act(hand, 1, "fold")
    act(hand, 2, "fold")
    assert not any(isinstance(e, events.Shown | events.Mucked) for e in hand.events)
    assert awards(hand) == [(0, 0, 5, "all")]
    assert hand.result is not None and hand.result.stacks == (103, 99, 98)


def test_all_in_run_out_deals_the_board_and_shows_both_hands() -> None:
    hand = deal(HOLDEM, [100, 100], 0, {0: "As Ad", 1: "Kh Kd"}, "2c 5d 9h Js 3s")
    act(hand, 0, "raise", 100)
    act(hand, 1, "call")
    assert hand.is_over and len(hand.board) == 5
    shown = [e.seat for e in hand.events if isinstance(e, events.Shown)]
    assert sorted(shown) == [0, 1]
    assert hand.result is not None and hand.result.stacks == (200, 0)


def river_bet_hand(auto_muck_1: bool = True) -> Hand:
    """Three players to the river; seat 2 bets, both call. Seat 0 best, seat 1 worst."""
    seats: list[Seat | int | None] = [Seat(100), Seat(100, auto_muck=auto_muck_1), Seat(100)]
    hand = deal(
        HOLDEM,
        seats,
        0,
        {0: "As Ad", 1: "7c 6d", 2: "Kh Kd"},
        "2c 5d 9h Js 3s",
    )
    act(hand, 0, "call")
    act(hand, 1, "call")
    act(hand, 2, "check")
    for _ in range(2):
        check_down_street(hand)  # flop and turn
    act(hand, 1, "check")
    act(hand, 2, "raise", 10)
    act(hand, 0, "call")
    act(hand, 1, "call")
    return hand


def check_down_street(hand: Hand) -> None:
    street = hand.street_index
    while hand.actor is not None and hand.street_index == street:
        hand.apply(Action(hand.actor, "check"))


def showdown(hand: Hand) -> list[tuple[int, bool]]:
    return [
        (e.seat, isinstance(e, events.Shown))
        for e in hand.events
        if isinstance(e, events.Shown | events.Mucked)
    ]


def test_last_aggressor_shows_first_and_losers_muck() -> None:
    hand = river_bet_hand()
    # Seat 2 bet last: it shows first; seat 0 beats it and shows; seat 1 cannot win: mucks.
    assert showdown(hand) == [(2, True), (0, True), (1, False)]


def test_auto_muck_off_shows_a_losing_hand() -> None:
    hand = river_bet_hand(auto_muck_1=False)
    assert showdown(hand) == [(2, True), (0, True), (1, True)]


def checked_down(holes: dict[int, str]) -> Hand:
    """Three players, button seat 0, in for the big blind and checked down to the end
    on the board 2c 5d 9h Js 3s: the showdown with nobody's bet to call."""
    hand = deal(HOLDEM, [100, 100, 100], 0, holes, "2c 5d 9h Js 3s")
    act(hand, 0, "call")
    act(hand, 1, "call")
    act(hand, 2, "check")
    check_down(hand)
    return hand


def test_without_a_bet_the_first_player_left_of_the_button_shows_first() -> None:
    hand = checked_down({0: "As Ad", 1: "7c 6d", 2: "Kh Kd"})
    # Seat 1 shows first (left of the button), seat 2 beats it, seat 0 beats both.
    assert showdown(hand) == [(1, True), (2, True), (0, True)]


def test_a_hand_beaten_by_any_hand_already_shown_is_mucked() -> None:
    """§7: a player who is not first to show may muck a losing hand. Checked down, seat 1
    shows fours first, seat 2 shows aces; seat 0's kings beat the fours but not the
    aces, so they are mucked (auto-muck on): the best hand shown so far decides."""
    hand = checked_down({0: "Kh Kd", 1: "4h 4d", 2: "As Ad"})
    assert showdown(hand) == [(1, True), (2, True), (0, False)]


def test_called_all_in_hand_is_always_shown() -> None:
    hand = deal(HOLDEM, [100, 100, 30], 0, {0: "As Ad", 1: "Kh Kd", 2: "7c 6d"}, "2c 5d Th Js 3s")
    act(hand, 0, "call")
    act(hand, 1, "call")
    act(hand, 2, "raise", 30)  # all-in
    act(hand, 0, "call")
    act(hand, 1, "call")
    check_down(hand)
    shows = dict(showdown(hand))
    assert shows[2] is True  # the all-in loser still shows


@pytest.mark.parametrize(("trips_beat_straight", "winner"), [(False, 1), (True, 2)])
def test_short_deck_both_ranking_orders(trips_beat_straight: bool, winner: int) -> None:
    config = TableConfig.of(
        "short_deck",
        Stakes.short_deck(1, 2),
        short_deck_trips_beat_straight=trips_beat_straight,
    )
    # Seat 1 makes a straight 6-7-8-9-T; seat 2 trips of queens.
    hand = deal(config, [100, 100, 100], 0, {1: "Ts 6d", 2: "Qh Qd", 0: "As Kd"}, "7c 8d 9h Qs Jc")
    check_down_or_call(hand)
    won = {e.seat for e in hand.events if isinstance(e, events.PotAwarded)}
    assert won == {winner}


def check_down_or_call(hand: Hand) -> None:
    while hand.actor is not None:
        legal = hand.legal_actions(hand.actor)
        hand.apply(Action(hand.actor, "check" if legal.check else "call"))


def test_hi_lo_side_pots_are_split_independently() -> None:
    config = TableConfig.of("omaha_hi_lo", Stakes.blinds(1, 2), structure="no_limit")
    hand = deal(
        config,
        [1000, 20, 1000],
        0,
        {0: "Kd Qh Jd Tc", 1: "As 3h 9c 9d", 2: "Qs Qd Js Ts"},
        "2c 4d 7h Kc Ks",
    )
    act(hand, 0, "raise", 20)
    act(hand, 1, "call")  # all-in
    act(hand, 2, "call")
    act(hand, 2, "raise", 50)
    act(hand, 0, "call")
    check_down(hand)
    # Seat 1 wins the low half of the main pot and nothing of the side pot, which has no low.
    assert awards(hand) == [(1, 0, 100, "all"), (0, 0, 30, "high"), (0, 1, 30, "low")]
    assert hand.result is not None and hand.result.stacks == (1060, 30, 930)


def test_disconnect_all_in_plays_for_the_chips_already_in() -> None:
    hand = deal(HOLDEM, [100, 100, 100], 0, {0: "7c 6d", 1: "Kh Kd", 2: "As Ad"}, "2c 5d 9h Js 3s")
    act(hand, 0, "call")
    act(hand, 1, "call")
    act(hand, 2, "check")
    with pytest.raises(IllegalAction, match="checks") as refused:
        hand.apply_room(RoomAction(1, DISCONNECT_ALL_IN))
    assert refused.value.code == "no_bet_to_face"
    act(hand, 1, "raise", 10)
    hand.apply_room(RoomAction(2, DISCONNECT_ALL_IN))  # seat 2 dropped: all-in for its 2 chips
    assert hand.is_all_in(2) and hand.stacks[2] == 98
    act(hand, 0, "call")
    while hand.actor is not None:
        assert hand.actor != 2
        hand.apply(Action(hand.actor, "check"))
    assert hand.result is not None
    assert [(p.amount, p.eligible) for p in hand.result.pots] == [(6, (1, 2, 0)), (20, (1, 0))]
    assert hand.result.stacks == (88, 108, 104)
    assert 2 in hand.shown


def test_no_raise_when_the_others_are_all_in_or_protected_by_a_disconnect() -> None:
    """§5/§10.6: a raise needs somebody who could call it. Seat 2 is all-in for 50 and
    seat 0 went all-in by disconnection with 998 chips behind, which he no longer bets:
    seat 1, facing the all-in, may call or fold, not raise."""
    hand = deal(HOLDEM, [1000, 1000, 50], 0, {}, "")
    act(hand, 0, "call")
    act(hand, 1, "call")
    act(hand, 2, "check")
    act(hand, 1, "raise", 10)
    act(hand, 2, "raise", 48)
    assert hand.stacks[2] == 0
    hand.apply_room(RoomAction(0, DISCONNECT_ALL_IN))
    legal = hand.legal_actions(1)
    assert legal.call == 38
    assert (legal.min_raise_to, legal.max_raise_to) == (None, None)
    assert "nobody" in legal.no_raise


def test_disconnect_all_in_needs_chips_in_the_pot() -> None:
    hand = deal(HOLDEM, [100, 100, 100, 100], 0, {}, "")
    act(hand, 3, "raise", 6)
    with pytest.raises(IllegalAction, match="folds") as refused:
        hand.apply_room(RoomAction(0, DISCONNECT_ALL_IN))
    assert refused.value.code == "nothing_in_pot"


def winners(hand: Hand) -> dict[int, str]:
    return {e.seat: e.hand for e in hand.events if isinstance(e, events.PotAwarded)}


def test_omaha_uses_exactly_two_hole_cards() -> None:
    # Seat 1 holds four spades but the board has one: no flush; seat 2's pair of aces wins.
    config = TableConfig.of("omaha", Stakes.blinds(1, 2))
    hand = deal(
        config,
        [100, 100, 100],
        0,
        {0: "2c 3d 7h 8c", 1: "Ks Qs 9s 4s", 2: "Ac Ad 5h 6d"},
        "As Jh 5d 8d 2h",
    )
    check_down_or_call(hand)
    assert set(winners(hand)) == {2}


def test_hold_em_may_play_the_board() -> None:
    hand = deal(HOLDEM, [100, 100], 0, {0: "2c 3d", 1: "4c 5d"}, "Ah Kh Qh Jh Th")
    check_down_or_call(hand)
    assert hand.result is not None and hand.result.stacks == (100, 100)  # both play the royal


def test_short_deck_ace_plays_low_in_a_six_to_nine_straight() -> None:
    config = TableConfig.of("short_deck", Stakes.short_deck(1))
    hand = deal(config, [100, 100], 0, {0: "Ad Kc", 1: "Qd Qc"}, "6s 7h 8c 9d Qh")
    check_down_or_call(hand)
    assert set(winners(hand)) == {0} and "Straight" in winners(hand)[0]


def test_courchevel_hi_lo_splits_with_the_omaha_rule() -> None:
    config = TableConfig.of("courchevel_hi_lo", Stakes.blinds(1, 2))
    hand = deal(
        config,
        [100, 100],
        0,
        {0: "As 3h Kd Qc 9c", 1: "Kh Ks Jd Tc 9d"},
        "2c 4d 7h Kc 8s",
    )
    check_down_or_call(hand)
    shares = {(e.seat, e.share) for e in hand.events if isinstance(e, events.PotAwarded)}
    assert shares == {(1, "high"), (0, "low")}


def test_a_cancelled_hand_gives_back_the_starting_stacks() -> None:
    hand = deal(HOLDEM, [100, None, 70], 0, {}, "")
    hand.apply(Action(0, "raise", 30))
    assert hand.starting_stacks == (100, None, 70)
    assert hand.stacks != (100, 0, 70)


@pytest.mark.parametrize("game", ["holdem", "stud", "triple_draw_27"])
def test_winners_are_named_as_the_evaluator_names_their_cards(game: str) -> None:
    # Settlement names a high winner from the strength it already found; the name and
    # the five cards must be the full evaluator's.
    import random

    from cardroom.bench.engine_driver import to_action
    from cardroom.bench.pokerkit_peer import choose
    from cardroom.evaluation import get_evaluator
    from cardroom.games import Hand, Stakes, TableConfig, events

    stakes = Stakes(ante=1, small_bet=2, bring_in=1) if game == "stud" else Stakes.blinds(1, 2)
    config = TableConfig.of(game, stakes)
    evaluate = get_evaluator(config.high_evaluator)
    rng = random.Random(11)
    named = 0
    for n in range(300):
        hand = Hand(config, [rng.randint(5, 120) for _ in range(6)], 0, seed=n)
        while hand.actor is not None:
            hand.apply(to_action(hand, hand.actor, choose(hand.legal_actions(hand.actor), rng)))
        for e in hand.events:
            if isinstance(e, events.PotAwarded) and e.hand:
                value = evaluate(hand.hole_cards(e.seat), hand.board)
                assert value is not None and (e.hand, e.cards) == (value.name, value.cards)
                named += 1
    assert named > 100
