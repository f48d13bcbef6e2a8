"""Forced bets (RULEBOOK §4, §10.3–10.4), dealing order and burns (§1, §3), Courchevel."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from cardroom.cards import CARDS, Deck, parse_cards
from cardroom.games import (
    POST_BIG_BLIND,
    POST_BOTH_BLINDS,
    Action,
    ConfigError,
    Hand,
    Seat,
    Stakes,
    TableConfig,
    events,
)


def posts(hand: Hand) -> list[tuple[int, str, int, bool]]:
    return [(e.seat, e.what, e.amount, e.live) for e in hand.events if isinstance(e, events.Posted)]


def test_short_deck_antes_and_button_blind() -> None:
    config = TableConfig.of("short_deck", Stakes.short_deck(1))
    hand = Hand(config, [100, 100, 100, 100], button=2, seed=1)
    assert posts(hand) == [
        (3, "ante", 1, False),
        (0, "ante", 1, False),
        (1, "ante", 1, False),
        (2, "ante", 1, False),
        (2, "button_blind", 2, True),  # default: twice the ante
    ]
    assert hand.actor == 3  # action starts left of the button
    legal = hand.legal_actions(3)
    assert legal.call == 2 and legal.min_raise_to == 4
    for seat in (3, 0, 1):
        hand.apply(Action(seat, "call"))
    # The button blind has the option.
    assert hand.actor == 2 and hand.legal_actions(2).check
    assert all(c.rank >= 4 for s in range(4) for c in hand.hole_cards(s))  # 36-card deck


def test_short_deck_button_blind_option_amount() -> None:
    config = TableConfig.of("short_deck", Stakes.short_deck(2, button_blind=5))
    hand = Hand(config, [100, 100], button=0, seed=1)
    assert (0, "button_blind", 5, True) in posts(hand)


def test_short_deck_refuses_a_card_outside_its_deck() -> None:
    config = TableConfig.of("short_deck", Stakes.short_deck(1))
    with pytest.raises(ConfigError, match="not in the Short Deck"):
        Hand(config, [100, 100], button=0, deck=list(CARDS))


def test_antes_are_dead_money_in_a_blind_game() -> None:
    config = TableConfig.of("holdem", Stakes.blinds(1, 2, ante=1))
    hand = Hand(config, [100, 100, 100], button=0, seed=1)
    assert hand.bets == (0, 1, 2)
    assert hand.committed == (1, 2, 3)
    assert hand.legal_actions(0).call == 2


def test_fixed_limit_blinds_follow_the_small_bet() -> None:
    stakes = Stakes.limit(5)
    assert (stakes.small_blind, stakes.big_blind, stakes.effective_big_bet) == (2, 5, 10)


def test_new_player_posts_a_live_big_blind_and_keeps_the_option() -> None:
    config = TableConfig.of("holdem", Stakes.blinds(1, 2))
    seats: list[Seat | int | None] = [100, 100, 100, Seat(100, post=POST_BIG_BLIND)]
    hand = Hand(config, seats, button=0, seed=2)
    assert posts(hand) == [
        (1, "small_blind", 1, True),
        (2, "big_blind", 2, True),
        (3, "big_blind", 2, True),
    ]
    assert hand.actor == 3  # left of the big blind; already in for the big blind
    assert hand.legal_actions(3).check
    hand.apply(Action(3, "check"))
    hand.apply(Action(0, "call"))
    hand.apply(Action(1, "call"))
    assert hand.actor == 2 and hand.legal_actions(2).check


def test_missed_blinds_small_blind_is_posted_dead() -> None:
    config = TableConfig.of("holdem", Stakes.blinds(1, 2))
    seats: list[Seat | int | None] = [100, 100, 100, Seat(100, post=POST_BOTH_BLINDS)]
    hand = Hand(config, seats, button=0, seed=3)
    assert (3, "big_blind", 2, True) in posts(hand)
    assert (3, "dead_small_blind", 1, False) in posts(hand)
    assert hand.bets[3] == 2 and hand.committed[3] == 3
    assert hand.legal_actions(3).check  # the dead chip is not part of the bet


def test_a_dead_small_blind_is_dead_money_for_the_main_pot_not_part_of_a_side_pot_level() -> None:
    """§10.4: the dead small blind goes straight to the pot, not part of the bet: an
    all-in poster is matched on his live chips only, and the dead chip is in the main
    pot (as a big-blind ante is; PokerKit's dead antes). The engine used to count it in
    the poster's level, taking one chip more from each caller into the main pot (found
    by replaying the room's hand histories in PokerKit)."""
    config = TableConfig.of("holdem", Stakes.blinds(1, 2))
    seats: list[Seat | int | None] = [100, 100, 100, Seat(21, post=POST_BOTH_BLINDS)]
    hand = Hand(config, seats, button=0, seed=3)
    hand.apply(Action(3, "raise", 20))  # all-in: 2 live, 1 dead, 18 more
    hand.apply(Action(0, "raise", 50))
    hand.apply(Action(1, "call"))
    hand.apply(Action(2, "fold"))
    pots = [(p.amount, set(p.eligible)) for p in hand.pots()]
    assert pots == [(20 * 3 + 2 + 1, {0, 1, 3}), (30 * 2, {0, 1})]


def test_dead_button_blind_seats_given_by_the_room() -> None:
    config = TableConfig.of("holdem", Stakes.blinds(1, 2))
    hand = Hand(config, [100, None, 100, 100], button=1, seed=4, blind_seats=(None, 2))
    assert posts(hand) == [(2, "big_blind", 2, True)]
    assert hand.actor == 3


def test_heads_up_with_a_dead_button_both_blinds_are_still_posted() -> None:
    """§4: blinds are posted left of the button; heads-up the button posts the small
    blind, but on a dead button (an empty seat) nobody sits there to post it: the two
    players post the small and the big blind in dealing order, and the small blind
    acts first pre-flop as heads-up play has it."""
    config = TableConfig.of("holdem", Stakes.blinds(1, 2))
    hand = Hand(config, [100, None, 100], button=1, seed=4)
    assert posts(hand) == [(2, "small_blind", 1, True), (0, "big_blind", 2, True)]
    assert hand.actor == 2 and hand.legal_actions(2).call == 1


def test_dealing_order_one_card_at_a_time_from_the_button_left_with_burns() -> None:
    config = TableConfig.of("holdem", Stakes.blinds(1, 2))
    deck = list(CARDS)
    hand = Hand(config, [100, 100, 100], button=1, deck=deck)
    # Seat 2 is first left of the button, then 0, then the button (1).
    assert hand.hole_cards(2) == (deck[0], deck[3])
    assert hand.hole_cards(0) == (deck[1], deck[4])
    assert hand.hole_cards(1) == (deck[2], deck[5])
    for seat in (1, 2, 0):
        hand.apply(Action(seat, "call" if hand.legal_actions(seat).call else "check"))
    burns = [e.card for e in hand.events if isinstance(e, events.Burned)]
    assert burns == [deck[6]]
    assert hand.board == deck[7:10]


def test_burn_cards_option_off() -> None:
    config = TableConfig.of("holdem", Stakes.blinds(1, 2), burn_cards=False)
    deck = list(CARDS)
    hand = Hand(config, [100, 100], button=0, deck=deck)
    while hand.actor is not None:
        seat = hand.actor
        hand.apply(Action(seat, "call" if hand.legal_actions(seat).call else "check"))
    assert not any(isinstance(e, events.Burned) for e in hand.events)
    assert hand.board == deck[4:9]


def test_courchevel_exposes_the_first_flop_card_before_betting() -> None:
    config = TableConfig.of("courchevel", Stakes.blinds(1, 2))
    deck = list(CARDS)
    hand = Hand(config, [100, 100, 100], button=0, deck=deck)
    assert all(len(hand.hole_cards(s)) == 5 for s in range(3))
    assert hand.board == [deck[16]]  # 15 hole cards, a burn, then the exposed card
    assert hand.view(None)["board"] == [str(deck[16])]
    assert hand.actor == 0
    for seat in (0, 1):
        hand.apply(Action(seat, "call"))
    hand.apply(Action(2, "check"))
    assert hand.board == [deck[16], deck[18], deck[19]]  # burn, then two more


def test_courchevel_hi_lo_option() -> None:
    config = TableConfig.of("courchevel", Stakes.blinds(1, 2), hi_lo=True)
    assert config.low_evaluator == "omaha_low8"
    assert TableConfig.of("courchevel_hi_lo", Stakes.blinds(1, 2)).low_evaluator == "omaha_low8"
    assert TableConfig.of("courchevel", Stakes.blinds(1, 2)).low_evaluator is None


def test_plo5_deals_five_and_seats_eight() -> None:
    config = TableConfig.of("plo5", Stakes.blinds(1, 2))
    hand = Hand(config, [100] * 8, button=0, seed=5)
    assert {len(hand.hole_cards(s)) for s in range(8)} == {5}
    with pytest.raises(ConfigError, match="seats"):
        Hand(config, [100] * 9, button=0, seed=5)


def test_table_options_have_rulebook_defaults() -> None:
    config = TableConfig.of("holdem", Stakes.blinds(1, 2))
    assert config.burn_cards is True
    assert config.raise_cap == 3
    assert config.heads_up_uncapped is False
    assert config.incomplete_raise_rule == "tda"
    assert config.short_deck_trips_beat_straight is False
    assert config.seat_limit == 10
    assert TableConfig.of("omaha", Stakes.blinds(1, 2), max_seats=9).seat_limit == 9
    assert config.betting == "no_limit"
    assert TableConfig.of("omaha", Stakes.blinds(1, 2)).betting == "pot_limit"


def test_bad_configurations_are_refused() -> None:
    with pytest.raises(ConfigError):
        TableConfig.of("holdem", Stakes.blinds(1, 0))
    with pytest.raises(ConfigError):
        TableConfig.of("holdem", Stakes.blinds(1, 2), structure="table_stakes")
    with pytest.raises(ConfigError):
        TableConfig.of("holdem", Stakes.blinds(1, 2), structure="spread_limit")
    config = TableConfig.of("holdem", Stakes.blinds(1, 2))
    with pytest.raises(ConfigError, match="needs chips"):
        Hand(config, [100, 0], button=0)
    with pytest.raises(ConfigError, match="two players"):
        Hand(config, [100, None], button=0)
    with pytest.raises(ConfigError, match="twice"):
        Hand(config, [100, 100], button=0, deck=parse_cards("As As", allow_duplicates=True) * 10)


def test_configuration_round_trips_through_json() -> None:
    import json

    from cardroom.games import config_from_dict, config_to_dict, seed_003_rule

    config = TableConfig.of(
        "courchevel",
        Stakes.blinds(5, 10, ante=1),
        structure="half_pot_limit",
        hi_lo=True,
        burn_cards=False,
        rake=seed_003_rule("half_pot_limit", 10),
    )
    assert config_from_dict(json.loads(json.dumps(config_to_dict(config)))) == config
    with pytest.raises(ConfigError):
        config_from_dict({"game": "holdem"})
    with pytest.raises(ConfigError, match="burn_cards"):
        TableConfig.of("holdem", Stakes.blinds(1, 2), burn_cards="yes")


def test_draw_for_the_button_highest_card_ties_by_suit() -> None:
    from cardroom.games import button_by_high_card

    button, drawn = button_by_high_card([1, 4, 6], parse_cards("Ah Kc As"))
    assert button == 6 and drawn[4] == parse_cards("Kc")[0]
    assert button_by_high_card([2, 0], parse_cards("2c 2d"))[0] == 0


def test_seeded_shuffles_repeat_and_cover_the_deck() -> None:
    from cardroom.games import shuffle_deck

    first = shuffle_deck(CARDS, seed=11)
    assert first == shuffle_deck(CARDS, seed=11)
    assert first != shuffle_deck(CARDS, seed=12)
    assert sorted(first) == list(CARDS)
    assert sorted(shuffle_deck(CARDS)) == list(CARDS)  # CSPRNG
    # Every card reaches the top about equally often (loose uniformity check).
    tops = [shuffle_deck(CARDS, seed=i)[0] for i in range(5200)]
    counts = [tops.count(c) for c in CARDS]
    assert min(counts) > 60 and max(counts) < 145


def test_blind_seats_given_by_the_room_are_checked() -> None:
    config = TableConfig.of("holdem", Stakes.blinds(1, 2))
    with pytest.raises(ConfigError, match="both blinds"):
        Hand(config, [100, 100, 100], button=0, seed=1, blind_seats=(1, 1))
    with pytest.raises(ConfigError, match="not dealt in"):
        Hand(config, [100, None, 100], button=0, seed=1, blind_seats=(1, 2))
    hand = Hand(config, [100, 100, 100], button=0, seed=1, blind_seats=(2, 0))
    assert posts(hand) == [(2, "small_blind", 1, True), (0, "big_blind", 2, True)]
    assert hand.actor == 1  # left of the big blind


def test_a_hands_reshuffles_are_seeded_streams_of_their_own() -> None:
    from cardroom.cards import random_order, seeded_bytes
    from cardroom.games.reshuffle import Reshuffler

    muck = list(CARDS[:20])
    first, again = Reshuffler(9), Reshuffler(9)
    orders = [first(muck), first(muck)]
    assert orders == [again(muck), again(muck)]  # the same seed, the same reshuffles
    assert orders[0] != orders[1]  # each reshuffle of a hand is a new stream
    assert orders[0] == random_order(muck, seeded_bytes(9, "muck/0", 20))
    assert orders[0] != random_order(muck, seeded_bytes(9, "deck", 20))  # not the deck's stream


@pytest.mark.parametrize(
    ("game", "stakes", "make"),
    [
        ("holdem", Stakes.blinds(1, 2), Deck.standard),
        ("short_deck", Stakes.short_deck(1), Deck.short),
        ("stud", Stakes.limit(2, 4, ante=1), Deck.standard),
        ("triple_draw_27", Stakes.limit(2, 4), Deck.standard),
    ],
)
def test_1_a_seeded_hand_deals_the_deck_of_its_seed(
    game: str, stakes: Stakes, make: Callable[[int | str], Deck]
) -> None:
    # One shuffle everywhere: Hand(seed=s) deals Deck.standard(s), the deck that
    # `cardroom deal --seed s` prints (Deck.short for Short Deck).
    config = TableConfig.of(game, stakes)
    for seed in (7, "007", "table 4"):
        seeded = Hand(config, [100] * 4, button=1, seed=seed)
        given = Hand(config, [100] * 4, button=1, deck=make(seed))
        assert [seeded.hole_cards(s) for s in range(4)] == [given.hole_cards(s) for s in range(4)]
    typed = Hand(config, [100] * 4, button=1, seed="007")  # a seed typed on a command line
    assert typed.hole_cards(0) == Hand(config, [100] * 4, button=1, seed=7).hole_cards(0)


@pytest.mark.parametrize("seed", [True, 1.5, [7], {"seed": 7}])
def test_a_seed_that_is_not_an_int_str_or_bytes_is_refused(seed: object) -> None:
    config = TableConfig.of("triple_draw_27", Stakes.limit(2, 4))
    with pytest.raises(ConfigError, match="a seed must be"):
        Hand(config, [100, 100], button=0, seed=seed)  # type: ignore[arg-type]
    # Also beside a given deck: the seed would order the hand's reshuffles.
    with pytest.raises(ConfigError, match="a seed must be"):
        Hand(config, [100, 100], button=0, seed=seed, deck=Deck.standard(1))  # type: ignore[arg-type]
