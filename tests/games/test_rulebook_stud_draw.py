"""Rulebook audit (RULEBOOK §3, §4, §6, §7) for the stud and draw games: seat limits,
who is dealt, the default bring-in, the 7th-street opener with a community card,
stud hi-lo without a low, what the draw reshuffle takes, badugi bet sizes."""

from __future__ import annotations

import pytest

from cardroom.cards import CARDS, Card, parse_cards
from cardroom.games import (
    Action,
    ConfigError,
    Hand,
    Stakes,
    TableConfig,
    arrange_deck,
    events,
)

STUD_STAKES = Stakes(ante=1, small_bet=10, big_bet=20, bring_in=5)


def stakes_for(game: str) -> Stakes:
    if game in ("stud", "stud_hi_lo", "razz", "soko"):
        return STUD_STAKES
    if game == "short_deck":
        return Stakes.short_deck(1)
    return Stakes.blinds(1, 2)


def check_or_call(hand: Hand) -> None:
    seat = hand.actor
    assert seat is not None
    legal = hand.legal_actions(seat)
    if legal.bring_in is not None:
        hand.apply(Action.bring_in(seat))
    elif legal.draw is not None:
        hand.apply(Action.draw(seat))
    else:
        hand.apply(Action.check(seat) if legal.check else Action.call(seat))


# ------------------------------------------------------------------ §3 seat limits

SEAT_LIMITS = {
    "holdem": 10,
    "short_deck": 10,
    "omaha": 10,
    "omaha_hi_lo": 10,
    "plo5": 8,
    "courchevel": 8,
    "courchevel_hi_lo": 8,
    "stud": 8,
    "stud_hi_lo": 8,
    "razz": 8,
    "soko": 8,
    "five_card_draw": 6,
    "triple_draw_27": 6,
    "triple_draw_a5": 6,
    "badugi": 8,
}


@pytest.mark.parametrize(("game", "seats"), sorted(SEAT_LIMITS.items()))
def test_max_seats_by_game(game: str, seats: int) -> None:
    config = TableConfig.of(game, stakes_for(game))
    assert config.seat_limit == seats
    hand = Hand(config, [100] * seats, button=0, seed=1)
    assert len(hand.order) == seats
    with pytest.raises(ConfigError):
        Hand(config, [100] * (seats + 1), button=0, seed=1)
    with pytest.raises(ConfigError):
        TableConfig.of(game, stakes_for(game), max_seats=seats + 1)
    assert TableConfig.of(game, stakes_for(game), max_seats=seats - 1).seat_limit == seats - 1


# ------------------------------------------------------------------ stud


def test_stud_default_bring_in_is_half_the_small_bet() -> None:
    config = TableConfig.of("stud", Stakes(ante=1, small_bet=10, big_bet=20))
    hand = Hand(config, [100] * 3, button=2, seed=2)
    legal = hand.legal_actions(hand.actor or 0)
    assert legal.bring_in == 5 and legal.min_raise_to == 10


def test_stud_only_players_still_in_are_dealt() -> None:
    config = TableConfig.of("stud", STUD_STAKES)
    hand = Hand(config, [100] * 3, button=2, seed=3)
    hand.apply(Action.bring_in(hand.actor or 0))
    folded = hand.actor or 0
    hand.apply(Action.fold(folded))
    while hand.street_index == 0:
        check_or_call(hand)
    assert hand.street_index == 1
    assert len(hand.hole_cards(folded)) == 3
    assert [len(hand.hole_cards(s)) for s in range(3) if s != folded] == [4, 4]
    dealt = [e for e in hand.events if isinstance(e, events.HoleDealt) and e.seat == folded]
    assert [e.up for e in dealt] == [(False, False, True)]  # 3rd street only: 2 down, the door


def test_stud_two_down_one_up_then_three_up_then_the_seventh_down() -> None:
    config = TableConfig.of("stud", STUD_STAKES)
    hand = Hand(config, [100] * 2, button=1, seed=4)
    while hand.street_index < 4:
        check_or_call(hand)
    updown = (False, False, True, True, True, True, False)
    assert all(hand.up_flags(s) == updown for s in range(2))
    seventh = hand.hole_cards(0)[6]
    spectator = hand.view(None)["seats"]
    opponent = hand.view(1)["seats"]
    assert isinstance(spectator, list) and isinstance(opponent, list)
    assert spectator[0]["cards"][6] is None and opponent[0]["cards"][6] is None
    assert hand.view(0)["seats"][0]["cards"][6] == str(seventh)  # type: ignore[index]


def eight_handed_deck() -> tuple[list[Card], int, Card]:
    """A 52-card deck for eight stud players (button seat 7): nobody shows a pair and
    only seat 5 shows a four; the last card, dealt as the community card, is a four.
    Returns the deck, the seat that pairs the community card, and that card."""
    community = parse_cards("4s")[0]
    low_ups = parse_cards("2d 3d 4h 6d")  # seat 5: the lowest board before 7th street
    downs_pool = [c for c in CARDS if c.rank == 2 and c not in (community, low_ups[2])]
    others = [c for c in CARDS if c.rank != 2 and c not in low_ups]
    ups = {s: [others[s + 7 * k] for k in range(4)] for s in range(7)}  # ranks all differ
    spare = [c for c in others if all(c not in u for u in ups.values())]
    ups_by_seat = [ups[0], ups[1], ups[2], ups[3], ups[4], low_ups, ups[5], ups[6]]
    # Seat 5 holds the other two fours down: quads only with the community card.
    downs = [*spare[:5], downs_pool[0], *spare[5:12], downs_pool[1], *spare[12:14]]
    burns = spare[14:17]
    assert len(spare) == 17 and len(downs) == 16
    deck = downs[:8] + downs[8:] + [u[0] for u in ups_by_seat]
    for street in (1, 2, 3):
        deck += [burns[street - 1]] + [u[street] for u in ups_by_seat]
    deck.append(community)
    assert sorted(deck) == list(CARDS)
    return deck, 5, community


def test_stud_seventh_street_opens_with_the_best_board_including_the_community_card() -> None:
    deck, pairing_seat, community = eight_handed_deck()
    config = TableConfig.of("stud", STUD_STAKES)
    hand = Hand(config, [500] * 8, button=7, deck=deck)
    openers: dict[int, int | None] = {}
    while hand.street_index < 4:
        openers.setdefault(hand.street_index, hand.actor)
        check_or_call(hand)
    assert openers[3] not in (None, pairing_seat)  # its 2-3-4-6 is the worst board on 6th
    assert hand.board == [community]
    assert hand.actor == pairing_seat  # a pair of fours with the community card


def test_stud_community_card_is_part_of_every_remaining_hand() -> None:
    deck, quads_seat, community = eight_handed_deck()
    hand = Hand(TableConfig.of("stud", STUD_STAKES), [500] * 8, button=7, deck=deck)
    assert len(hand.hole_cards(quads_seat)) == 3
    while hand.actor is not None:
        check_or_call(hand)
    assert hand.result is not None
    (pot,) = hand.result.pots
    (award,) = pot.awards
    assert award.seat == quads_seat and award.amount == 8 * (1 + 5)
    assert award.hand.startswith("Four of a Kind") and community in award.cards
    # Nobody bet on 7th street: the best board, community card included, shows first.
    shows = [e.seat for e in hand.events if isinstance(e, events.Shown | events.Mucked)]
    assert shows[0] == quads_seat


def test_stud_hi_lo_without_a_qualifying_low_the_high_takes_all() -> None:
    config = TableConfig.of("stud_hi_lo", STUD_STAKES)
    holes = {0: parse_cards("Kc Kd 9s 9c 8d Jh Qc"), 1: parse_cards("Ac Qd Th 4s 8c Js 3d")}
    hand = Hand(config, [100, 100], button=1, deck=arrange_deck(config, [0, 1], holes))
    while hand.actor is not None:
        check_or_call(hand)
    assert hand.result is not None
    (pot,) = hand.result.pots
    assert pot.amount == 2 + 5 + 5
    assert [(a.seat, a.amount, a.share) for a in pot.awards] == [(0, 12, "all")]


# ------------------------------------------------------------------ draw games


def test_the_reshuffled_muck_is_burns_discards_and_folded_hands_but_not_the_drawer() -> None:
    config = TableConfig.of("triple_draw_27", Stakes.limit(10, 20))
    hand = Hand(config, [500] * 6, button=5, seed="audit")
    folded = hand.actor or 0
    hand.apply(Action.fold(folded))
    folded_cards = set(hand.hole_cards(folded))
    while hand.legal_actions(hand.actor or 0).draw is None:
        check_or_call(hand)
    # Five players discard all five cards: the stub of 52 - 30 - 1 burn = 21 runs out
    # on the fifth player, who gets its last card and four from the reshuffled muck.
    while hand.actor is not None and hand.legal_actions(hand.actor).draw is not None:
        hand.apply(Action.draw(hand.actor, hand.hole_cards(hand.actor)))
    burns = {e.card for e in hand.events if isinstance(e, events.Burned)}
    draws = [e for e in hand.events if isinstance(e, events.Drew)]
    (reshuffle,) = [e for e in hand.events if isinstance(e, events.StubReshuffled)]
    assert len(burns) == 1 and len(draws) == 5
    earlier = {c for d in draws[:4] for c in d.discarded}
    assert set(reshuffle.cards) == burns | earlier | folded_cards
    assert len(reshuffle.cards) == 1 + 20 + 5
    assert not set(reshuffle.cards) & set(draws[4].discarded)
    assert len(draws[4].dealt) == 5
    held = [c for s in range(6) if s != folded for c in hand.hole_cards(s)]
    assert len(set(held)) == 25


def test_badugi_small_bets_then_big_after_the_second_draw() -> None:
    hand = Hand(TableConfig.of("badugi", Stakes.limit(10, 20)), [500] * 2, button=1, seed=4)
    sizes: dict[int, int] = {}
    while hand.actor is not None:
        legal = hand.legal_actions(hand.actor)
        if legal.check and legal.min_raise_to is not None:
            sizes.setdefault(hand.street_index, legal.min_raise_to - hand.bets[hand.actor])
        check_or_call(hand)
    assert sizes == {0: 10, 1: 10, 2: 20, 3: 20}  # 0: the big blind's option raise


@pytest.mark.parametrize(("structure", "max_to"), [("pot_limit", 7), ("half_pot_limit", 4)])
def test_badugi_pot_and_half_pot_limit(structure: str, max_to: int) -> None:
    # Blinds 1/2, three players: under the gun calls 2 and may raise by the pot after
    # calling (2 + 3 = 5, to 7) or, at half pot, by half of it (2, to 4).
    config = TableConfig.of("badugi", Stakes.blinds(1, 2), structure=structure)
    hand = Hand(config, [100] * 3, button=0, seed=5)
    legal = hand.legal_actions(0)
    assert (legal.call, legal.min_raise_to, legal.max_raise_to) == (2, 4, max_to)
