"""Games as data (issue 12 §3–§4): the dealing order, who acts first and the betting
structures are each described once, and the hand does what that data says."""

from __future__ import annotations

from dataclasses import replace

import pytest

from cardroom.cards import parse_cards
from cardroom.games import Action, ConfigError, Hand, Stakes, TableConfig, arrange_deck
from cardroom.games import events as ev
from cardroom.games.betting import STRUCTURE_RULES, raise_bounds, street_sizes
from cardroom.games.dealing import needed_cards, round_robin, street_deal
from cardroom.games.options import STRUCTURE_CHOICES
from cardroom.games.rake import SEED_003_SCHEDULE
from cardroom.games.variants import (
    BEST_SHOWING,
    HOLDEM,
    LOWEST_SHOWING,
    RAZZ,
    STUD,
    VARIANTS,
)


def _stakes(name: str) -> Stakes:
    if name == "short_deck":
        return Stakes.short_deck(1)
    if VARIANTS[name].stud is not None:
        return Stakes(ante=1, small_bet=10, big_bet=20, bring_in=5)
    return Stakes.limit(10) if VARIANTS[name].structure == "fixed_limit" else Stakes.blinds(5, 10)


def _passive(hand: Hand) -> None:
    """Everyone checks, calls, posts the bring-in or stands pat to the end."""
    while (seat := hand.actor) is not None:
        legal = hand.legal_actions(seat)
        if legal.draw is not None:
            hand.apply(Action.draw(seat))
        elif legal.bring_in is not None:
            hand.apply(Action.bring_in(seat))
        else:
            hand.apply(Action.check(seat) if legal.check else Action.call(seat))


def _cards_off_the_deck(hand: Hand) -> int:
    dealt = 0
    for e in hand.events:
        if isinstance(e, ev.HoleDealt | ev.BoardDealt):
            dealt += len(e.cards)
        elif isinstance(e, ev.Burned):
            dealt += 1
    return dealt


@pytest.mark.parametrize("game", sorted(VARIANTS))
@pytest.mark.parametrize("burn_cards", [True, False])
def test_the_hand_deals_as_many_cards_as_the_street_description_counts(
    game: str, burn_cards: bool
) -> None:
    # street_deal is the one description: needed_cards counts from it, the hand deals by it.
    config = TableConfig.of(game, _stakes(game), burn_cards=burn_cards)
    hand = Hand(config, [1000] * 4, 3, seed=5)
    _passive(hand)
    assert _cards_off_the_deck(hand) == needed_cards(config, 4)


@pytest.mark.parametrize("game", sorted(VARIANTS))
def test_arrange_deck_places_cards_where_the_hand_deals_them(game: str) -> None:
    config = TableConfig.of(game, _stakes(game))
    players = 3
    held = config.variant.hole_cards
    spare = list(reversed(config.variant.cards))  # not the deck order: the places matter
    holes = {s: spare[s * held : (s + 1) * held] for s in range(players)}
    board = spare[players * held : players * held + config.variant.board_cards]
    deck = arrange_deck(config, list(range(players)), holes, board)
    hand = Hand(config, [1000] * players, players - 1, deck, seed=1)
    _passive(hand)
    for s in range(players):  # draw games: everyone stood pat
        assert hand.hole_cards(s) == tuple(holes[s])
    assert list(hand.board) == board


def test_a_stud_street_burns_before_its_cards_a_flop_street_before_the_board() -> None:
    fourth, flop = street_deal(STUD.streets[1], True), street_deal(HOLDEM.streets[1], True)
    assert (fourth.burn_first, fourth.burn_board) == (True, False)
    assert (flop.burn_first, flop.burn_board) == (False, True)
    assert not street_deal(STUD.streets[1], False).burn_first  # a table that does not burn


def test_round_robin_is_the_inverse_of_the_dealer() -> None:
    from cardroom.games.dealer import Dealer

    cards = parse_cards("As Kd 7c 2h 3s 4s 9d 9c 8h")
    hands = Dealer(list(cards)).round_robin(3, 2, 1)
    assert round_robin(hands) == list(cards)


# ------------------------------------------------------------------ who acts first


def test_first_to_act_is_the_data_that_decides_the_stud_opener() -> None:
    # The same stud game, told by its data that the lowest board opens, opens with it.
    holes = ["2c 3c Kc 9d", "2d 3d 4h 5h", "2h 3h Qc Qd"]
    lowest_first = replace(STUD, name="stud_lowest", first_to_act=("bring_in", LOWEST_SHOWING))
    opened = {}
    for variant in (STUD, lowest_first):
        config = TableConfig(variant, _stakes("stud"))
        deck = arrange_deck(config, [0, 1, 2], {s: parse_cards(h) for s, h in enumerate(holes)})
        hand = Hand(config, [500] * 3, 2, deck, seed=1)
        while hand.street_index < 1:
            seat = hand.actor
            assert seat is not None
            legal = hand.legal_actions(seat)
            if legal.bring_in is not None:
                hand.apply(Action.bring_in(seat))
            else:
                hand.apply(Action.check(seat) if legal.check else Action.call(seat))
        opened[variant.first_to_act[1]] = hand.actor
    # Up cards on 4th street: Kc 9d / 4h 5h / Qc Qd.
    assert opened == {BEST_SHOWING: 2, LOWEST_SHOWING: 1}


@pytest.mark.parametrize(
    "first_to_act",
    [("bring_in", "left_of_button"), ("left_of_big_blind", "best_showing")],
)
def test_a_stud_order_only_in_a_stud_game_and_always_in_one(first_to_act: tuple[str, str]) -> None:
    game = STUD if first_to_act[0] == "bring_in" else HOLDEM
    with pytest.raises(ConfigError, match="first"):
        replace(game, name="odd", first_to_act=first_to_act)


def test_razz_is_lowest_first_by_its_data() -> None:
    assert RAZZ.first_to_act == ("bring_in", LOWEST_SHOWING)
    assert STUD.first_to_act == ("bring_in", BEST_SHOWING)


# ------------------------------------------------------------------ structures as data


def test_every_structure_has_one_description() -> None:
    assert tuple(STRUCTURE_RULES) == STRUCTURE_CHOICES
    assert {s.label for s in STRUCTURE_RULES.values()} == {"NL", "PL", "½PL", "FL", "SL"}
    # The half rule and the rake tiers read the same data.
    limits = {name for name, s in STRUCTURE_RULES.items() if s.limit}
    assert limits == {"fixed_limit", "spread_limit"}
    for name in STRUCTURE_CHOICES:
        config = TableConfig.of("holdem", Stakes.spread_limit((10, 20, 30), 5, 10), structure=name)
        assert config.limit_rule_half == (name in limits)
        tiers = [t for t in SEED_003_SCHEDULE if name in t.structures]
        assert tiers and all((t.max_small_bet is not None) == (name in limits) for t in tiers[:1])


@pytest.mark.parametrize(
    ("structure", "expected"),
    [
        ("no_limit", (100, 1000)),  # up to the stack
        ("pot_limit", (100, 200)),  # call 50, then the pot of 150
        ("half_pot_limit", (100, 125)),  # call 50, then half the pot
        ("fixed_limit", (100, 100)),  # the one size
        ("spread_limit", (100, 80 + 50)),  # the street's maximum on top of the bet
    ],
)
def test_raise_bounds_follow_the_structures_data(structure: str, expected: tuple[int, int]) -> None:
    # Seed 004's pot: 100 in the middle, 50 to call; the street's spread maximum is 80.
    spread_max = 80 if structure == "spread_limit" else 0
    assert raise_bounds(STRUCTURE_RULES[structure], 50, 0, 1000, 100, 50, spread_max) == expected


def test_street_sizes_come_from_the_streets_data() -> None:
    sizes = [street_sizes(10, 20, (5, 10, 15), st) for st in STUD.streets]
    assert [bet for bet, _ in sizes] == [10, 10, 20, 20, 20]
