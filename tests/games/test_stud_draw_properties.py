"""Properties of every stud and draw game over random hands (hypothesis): chips are
conserved, no view leaks a card its viewer never held or saw face up, illegal
actions change nothing, and the record replays to the same hand.

Examples per test: ``CARDROOM_PROPERTY_EXAMPLES`` (default 40).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.games.random_hands import play

from cardroom.cards import CARDS
from cardroom.games import (
    TIMEOUT,
    Action,
    Hand,
    IllegalAction,
    RoomAction,
    Seat,
    Stakes,
    TableConfig,
    event_view,
    replay,
    seed_003_rule,
)
from cardroom.games import events as ev

EXAMPLES = int(os.environ.get("CARDROOM_PROPERTY_EXAMPLES", "40"))
STUD = ("stud", "stud_hi_lo", "razz", "soko")
DRAW = ("five_card_draw", "triple_draw_27", "triple_draw_a5", "single_draw_27", "badugi")
CARD = re.compile(r'"([2-9TJQKA][cdhs])"')
SETTINGS = settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@st.composite
def hands(draw: st.DrawFn) -> tuple[Hand, st.DataObject]:
    game = draw(st.sampled_from(STUD + DRAW))
    structure = draw(st.sampled_from(("fixed_limit", "pot_limit", "no_limit", "half_pot_limit")))
    if game in STUD:
        stakes = Stakes(ante=draw(st.integers(0, 3)), small_bet=4, big_bet=8, bring_in=2)
        options = {
            "fourth_street_pair": draw(st.sampled_from(("big", "option", "small"))),
            "stud_order_ties": draw(st.sampled_from(("position", "suit"))),
            "bring_in_by_position": draw(st.booleans()),
            "community_card_betting": draw(st.booleans()),
            "structure": "fixed_limit",
        }
    else:
        stakes = Stakes(small_blind=1, big_blind=2, small_bet=2, big_bet=4)
        options = {"structure": structure}
    rake = seed_003_rule("fixed_limit", 2) if draw(st.booleans()) else None
    config = TableConfig.of(game, stakes, burn_cards=draw(st.booleans()), rake=rake, **options)
    n = draw(st.integers(2, config.seat_limit))
    seats: list[Seat | int | None] = [
        draw(st.one_of(st.none(), st.integers(1, 150), st.builds(Seat, st.integers(1, 150))))
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
    kind = data.draw(st.sampled_from(legal.kinds))
    if kind == "draw":
        hole = list(hand.hole_cards(seat))
        if data.draw(st.integers(0, 9)) == 0:
            return RoomAction(seat, TIMEOUT)
        return Action.draw(seat, data.draw(st.lists(st.sampled_from(hole), unique=True)))
    if kind == "raise":
        assert legal.min_raise_to is not None and legal.max_raise_to is not None
        lo, hi = legal.min_raise_to, legal.max_raise_to
        return Action.raise_to(seat, data.draw(st.sampled_from((lo, hi))))
    return Action(seat, kind)


@SETTINGS
@given(hands())
def test_chips_are_conserved(case: tuple[Hand, st.DataObject]) -> None:
    hand, data = case
    total = sum(s.stack for s in hand.seats if s is not None)
    while hand.actor is not None:
        assert sum(hand.stacks) + sum(hand.committed) == total
        play(hand, random_action(hand, data))
    assert hand.result is not None
    assert sum(s for s in hand.result.stacks if s is not None) + hand.result.rake == total


def seen_by(hand: Hand, viewer: int | None) -> set[str]:
    """Every card ``viewer`` may have seen: face-up cards, the board, shown hands, and
    every card the viewer ever held (discards included)."""
    seen = {str(c) for c in hand.board}
    for e in hand.events:
        if isinstance(e, ev.HoleDealt):
            for c, up in zip(e.cards, e.up, strict=True):
                if up or e.seat == viewer:
                    seen.add(str(c))
        elif isinstance(e, ev.Drew) and e.seat == viewer:
            seen.update(str(c) for c in (*e.discarded, *e.dealt))
    for cards in hand.shown.values():
        seen.update(str(c) for c in cards)
    return seen


def assert_no_leak(hand: Hand) -> None:
    viewers: list[int | None] = [None, *[s for s, x in enumerate(hand.seats) if x is not None]]
    for viewer in viewers:
        hidden = {str(c) for c in CARDS} - seen_by(hand, viewer)
        text = json.dumps(hand.view(viewer)) + json.dumps(
            [event_view(e, viewer) for e in hand.events]
        )
        leaked = set(CARD.findall(text)) & hidden
        assert not leaked, (viewer, leaked)


@SETTINGS
@given(hands())
def test_views_never_show_hidden_cards(case: tuple[Hand, st.DataObject]) -> None:
    hand, data = case
    while hand.actor is not None:
        play(hand, random_action(hand, data))
        if data.draw(st.integers(0, 3)) == 0:
            assert_no_leak(hand)
    assert_no_leak(hand)


def illegal_actions(hand: Hand) -> list[Action]:
    seat = hand.actor
    if seat is None:
        return [Action.call(0), Action.draw(0)]
    legal = hand.legal_actions(seat)
    other = (seat + 1) % len(hand.seats)
    out = [Action.call(other)]
    if legal.draw is not None:
        out += [Action.check(seat), Action.bring_in(seat), Action.draw(seat, [CARDS[0]] * 2)]
        foreign = next(c for c in CARDS if c not in hand.hole_cards(seat))
        out.append(Action.draw(seat, [foreign]))
    else:
        out += [Action.draw(seat)]
        if legal.bring_in is None:
            out.append(Action.bring_in(seat))
        if not legal.check:
            out.append(Action.check(seat))
        if legal.min_raise_to is not None:
            out.append(Action.raise_to(seat, legal.min_raise_to - 1))
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
