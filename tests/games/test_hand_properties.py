"""Properties of every game × structure over random hands (hypothesis):
chips are conserved, no view leaks a hidden card, illegal actions change nothing,
and the record replays to the same hand.

The number of examples comes from ``CARDROOM_PROPERTY_EXAMPLES`` (default 40 per test).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.games.random_hands import play

from cardroom.cards import Card
from cardroom.games import (
    DISCONNECT_ALL_IN,
    STRUCTURES,
    TIMEOUT,
    VARIANTS,
    Action,
    Hand,
    IllegalAction,
    RoomAction,
    Seat,
    Stakes,
    TableConfig,
    event_view,
    events,
    replay,
    seed_003_rule,
)

EXAMPLES = int(os.environ.get("CARDROOM_PROPERTY_EXAMPLES", "40"))
GAMES = tuple(name for name, game in VARIANTS.items() if game.board_cards)
"""Every flop game: one added to ``variants.py`` is tested here with no edit."""
STRADDLE_STRUCTURES = ("no_limit", "pot_limit", "half_pot_limit")
CARD = re.compile(r'"([2-9TJQKA][cdhs])"')


def config_for(game: str, structure: str, raked: bool, option: str = "") -> TableConfig:
    """``option``: ``"bba"`` a big-blind ante, ``"straddle"`` two straddles (blind games;
    straddles at no-limit and pot-limit tables only), else none."""
    if game == "short_deck":
        # No big blind: fixed limit needs its small bet set (a raise adds chips).
        stakes = Stakes(ante=1, button_blind=2, small_bet=2, spread=(2, 4, 6))
    elif structure == "fixed_limit":
        stakes = Stakes.limit(2, 4)
    else:
        stakes = Stakes(small_blind=1, big_blind=2, spread=(2, 4, 6))
    if game != "short_deck" and option == "bba":
        stakes = replace(stakes, big_blind_ante=3)
    if game != "short_deck" and option == "straddle" and structure in STRADDLE_STRUCTURES:
        stakes = replace(stakes, straddles=(4, 9))
    rake = seed_003_rule(structure, 2) if raked else None
    return TableConfig.of(game, stakes, structure=structure, rake=rake)


@st.composite
def hands(draw: st.DrawFn) -> tuple[Hand, st.DataObject]:
    game = draw(st.sampled_from(GAMES))
    structure = draw(st.sampled_from(STRUCTURES))
    option = draw(st.sampled_from(("", "bba", "straddle")))
    config = config_for(game, structure, draw(st.booleans()), option)
    n = draw(st.integers(2, config.seat_limit))
    seats: list[Seat | int | None] = [
        draw(
            st.one_of(
                st.none(), st.integers(1, 120), st.builds(Seat, st.integers(1, 120), st.booleans())
            )
        )
        for _ in range(n)
    ]
    if sum(s is not None for s in seats) < 2:
        seats[:2] = [100, 100]
    button = draw(st.integers(0, n - 1))
    return Hand(config, seats, button, seed=draw(st.integers(0, 2**32))), draw(st.data())


def random_action(hand: Hand, data: st.DataObject) -> Action | RoomAction:
    seat = hand.actor
    assert seat is not None
    legal = hand.legal_actions(seat)
    if legal.call is not None and hand.committed[seat] and data.draw(st.integers(0, 15)) == 0:
        return RoomAction(seat, DISCONNECT_ALL_IN)  # the room's action for a dropped player
    if data.draw(st.integers(0, 15)) == 0:
        return RoomAction(seat, TIMEOUT)  # the room acts for a player out of time
    kind = data.draw(st.sampled_from(legal.kinds))
    if kind == "raise":
        assert legal.min_raise_to is not None and legal.max_raise_to is not None
        return Action(seat, kind, data.draw(st.integers(legal.min_raise_to, legal.max_raise_to)))
    if kind == "draw":  # Irish's discard street: exactly draw_min (= draw) of the cards held
        assert legal.draw is not None
        count = data.draw(st.integers(legal.draw_min, legal.draw))
        return Action.draw(seat, legal.held[:count])
    return Action(seat, kind)


def chips(hand: Hand) -> int:
    return sum(hand.stacks) + sum(hand.committed)


def start_chips(hand: Hand) -> int:
    return sum(s.stack for s in hand.seats if s is not None)


SETTINGS = settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@SETTINGS
@given(hands())
def test_chips_are_conserved(case: tuple[Hand, st.DataObject]) -> None:
    hand, data = case
    total = start_chips(hand)
    while hand.actor is not None:
        assert chips(hand) == total
        play(hand, random_action(hand, data))
    assert hand.result is not None
    stacks = [s for s in hand.result.stacks if s is not None]
    assert sum(stacks) + hand.result.rake == total
    paid = sum(a.amount for p in hand.result.pots for a in p.awards)
    assert paid + hand.result.rake == sum(hand.committed)
    assert all(s >= 0 for s in stacks)


def visible_cards(hand: Hand, viewer: int | None) -> set[str]:
    seen = {str(c) for c in hand.board}
    for seat in range(len(hand.seats)):
        if hand.seats[seat] is None:
            continue
        cards = hand.hole_cards(seat)
        if seat == viewer or seat in hand.shown:
            seen.update(str(c) for c in cards)
        if seat == viewer:  # and the cards it threw away (Irish's discards)
            drew = [e for e in hand.events if isinstance(e, events.Drew) and e.seat == seat]
            seen.update(str(c) for e in drew for c in e.discarded)
        elif seat not in hand.shown:
            seen.update(str(c) for c, up in zip(cards, hand.up_flags(seat), strict=True) if up)
    return seen


def hidden_cards(hand: Hand, viewer: int | None) -> set[str]:
    every = {str(Card(c)) for c in range(52)}
    return every - visible_cards(hand, viewer)


def assert_no_leak(hand: Hand) -> None:
    viewers: list[int | None] = [None, *[s for s, x in enumerate(hand.seats) if x is not None]]
    for viewer in viewers:
        hidden = hidden_cards(hand, viewer)
        shown = set(CARD.findall(json.dumps(hand.view(viewer))))
        assert not shown & hidden, (viewer, shown & hidden)
        for e in hand.events:
            text = json.dumps(event_view(e, viewer))
            leaked = set(CARD.findall(text)) & hidden
            assert not leaked, (viewer, e, leaked)


@SETTINGS
@given(hands())
def test_views_never_show_hidden_cards(case: tuple[Hand, st.DataObject]) -> None:
    hand, data = case
    assert_no_leak(hand)
    while hand.actor is not None:
        play(hand, random_action(hand, data))
        if data.draw(st.integers(0, 3)) == 0:
            assert_no_leak(hand)
    assert_no_leak(hand)
    burned = {str(e.card) for e in hand.events if isinstance(e, events.Burned)}
    for viewer in [None, *range(len(hand.seats))]:
        assert not burned & set(CARD.findall(json.dumps(hand.view(viewer))))


def illegal_actions(hand: Hand) -> list[Action]:
    seat = hand.actor
    others = [s for s in range(len(hand.seats) + 1) if s != seat]
    out = [Action(s, "call") for s in others[:2]]
    if seat is None:
        return out
    legal = hand.legal_actions(seat)
    if not legal.check:
        out.append(Action(seat, "check"))
    if not legal.fold:
        out.append(Action(seat, "fold"))
    if legal.call is None:
        out.append(Action(seat, "call"))
    if legal.min_raise_to is None:
        out.append(Action(seat, "raise", hand.current_bet + 1000))
    else:
        assert legal.max_raise_to is not None
        out.append(Action(seat, "raise", legal.min_raise_to - 1))
        out.append(Action(seat, "raise", legal.max_raise_to + 1))
    return out


@SETTINGS
@given(hands())
def test_illegal_actions_change_nothing(
    hand_state: Callable[[Hand], object], case: tuple[Hand, st.DataObject]
) -> None:
    hand, data = case
    while True:
        for bad in illegal_actions(hand):
            before = hand_state(hand)
            with pytest.raises(IllegalAction):
                hand.apply(bad)
            assert hand_state(hand) == before
        if hand.actor is None:
            break
        play(hand, random_action(hand, data))


@SETTINGS
@given(hands())
def test_the_record_replays_the_hand(case: tuple[Hand, st.DataObject]) -> None:
    hand, data = case
    while hand.actor is not None:
        play(hand, random_action(hand, data))
    again = replay(hand.events)
    assert again.events == hand.events
    assert again.result == hand.result


def test_seed_and_actions_rebuild_the_hand() -> None:
    config = config_for("holdem", "no_limit", True)
    first = Hand(config, [100, 80, None, 120], button=1, seed="replay me")
    second = Hand(config, [100, 80, None, 120], button=1, seed="replay me")
    while first.actor is not None:
        legal = first.legal_actions(first.actor)
        action = (
            Action(first.actor, "raise", legal.min_raise_to)
            if legal.min_raise_to
            else (Action(first.actor, "check" if legal.check else "call"))
        )
        assert first.apply(action) == second.apply(action)
    assert first.events == second.events and first.result == second.result


@pytest.mark.parametrize("structure", STRUCTURES)
@pytest.mark.parametrize("game", GAMES)
def test_every_game_and_structure_conserves_chips(game: str, structure: str) -> None:
    import random

    rng = random.Random(f"{game}/{structure}")
    for i in range(15):
        config = config_for(
            game, structure, raked=bool(i % 2), option=("", "bba", "straddle")[i % 3]
        )
        n = rng.randint(2, config.seat_limit)
        seats: list[Seat | int | None] = [
            None if rng.random() < 0.15 else rng.randint(1, 150) for _ in range(n)
        ]
        seats[0], seats[-1] = seats[0] or 40, seats[-1] or 90
        hand = Hand(config, seats, rng.randrange(n), seed=i)
        total = start_chips(hand)
        while hand.actor is not None:
            legal = hand.legal_actions(hand.actor)
            kind = rng.choice(legal.kinds)
            amount, cards = 0, legal.held[: legal.draw_min]  # a discard street's cards
            if kind == "raise":
                assert legal.min_raise_to is not None and legal.max_raise_to is not None
                amount = rng.randint(legal.min_raise_to, legal.max_raise_to)
            hand.apply(Action(hand.actor, kind, amount, cards if kind == "draw" else ()))
            assert hand.is_over or chips(hand) == total
        assert hand.result is not None
        assert sum(s for s in hand.result.stacks if s is not None) + hand.result.rake == total
        assert replay(hand.events).events == hand.events
