"""Every refusal a player can meet carries its stable code (the client translates the
codes, so each is pinned here from a situation worked by hand)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from cardroom.cards import Card, parse_cards
from cardroom.games import Action, Hand, IllegalAction, Stakes, TableConfig
from cardroom.games import errors as codes


def holdem(structure: str = "no_limit") -> Hand:
    """Three players at 1/2, button 0: seat 1 small blind, seat 2 big blind, seat 0 first."""
    stakes = Stakes.limit(2) if structure == "fixed_limit" else Stakes.blinds(1, 2)
    config = TableConfig.of("holdem", stakes, structure=structure)
    return Hand(config, [100, 100, 100], 0, seed=1)


def limped() -> Hand:
    """Pre-flop called round to the big blind, who may check."""
    hand = holdem()
    hand.apply(Action.call(0))
    hand.apply(Action.call(1))
    return hand


def triple_draw() -> Hand:
    """2-7 triple draw, the first draw reached: seat 0 is to draw."""
    config = TableConfig.of("triple_draw_27", Stakes.limit(2))
    hand = Hand(config, [100, 100, 100], 0, seed=1)
    while hand.legal_actions(hand.actor).draw is None:  # type: ignore[arg-type]
        seat = hand.actor
        assert seat is not None
        legal = hand.legal_actions(seat)
        hand.apply(Action.check(seat) if legal.check else Action.call(seat))
    return hand


def stud() -> Hand:
    config = TableConfig.of("stud", Stakes(ante=1, bring_in=1, small_bet=2, big_bet=4))
    return Hand(config, [100, 100, 100], 0, seed=1)


CASES: dict[str, tuple[Callable[[], Hand], Callable[[Hand], Action]]] = {
    codes.NOT_YOUR_TURN: (holdem, lambda h: Action.call(1)),
    codes.CANNOT_CHECK: (holdem, lambda h: Action.check(0)),
    codes.NOTHING_TO_CALL: (limped, lambda h: Action.call(2)),
    codes.AMOUNT_TOO_SMALL: (holdem, lambda h: Action.raise_to(0, 3)),
    codes.AMOUNT_TOO_LARGE: (holdem, lambda h: Action.raise_to(0, 101)),
    codes.NO_BRING_IN: (holdem, lambda h: Action.bring_in(0)),
    codes.NO_DRAW: (holdem, lambda h: Action.draw(0)),
    codes.DRAW_DUE: (triple_draw, lambda h: Action.check(h.actor or 0)),
    codes.CARDS_NOT_HELD: (triple_draw, lambda h: Action.draw(h.actor or 0, [_not_held(h)])),
    codes.TOO_MANY_CARDS: (
        triple_draw,
        lambda h: Action.draw(h.actor or 0, [*h.hole_cards(h.actor or 0), _not_held(h)]),
    ),
    codes.BRING_IN_DUE: (stud, lambda h: Action.check(h.actor or 0)),
    codes.HAND_OVER: (lambda: _over(holdem()), lambda h: Action.fold(0)),
}


def _not_held(hand: Hand) -> Card:
    seat = hand.actor
    assert seat is not None
    held = set(hand.hole_cards(seat))
    return next(c for c in parse_cards("2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h") if c not in held)


def _over(hand: Hand) -> Hand:
    hand.apply(Action.fold(0))
    hand.apply(Action.fold(1))
    return hand


@pytest.mark.parametrize("code", sorted(CASES))
def test_each_refusal_carries_its_code_and_changes_nothing(code: str) -> None:
    build, make = CASES[code]
    hand = build()
    before = list(hand.events)
    action = make(hand)
    assert not (hand.actor is not None and hand.legal_actions(hand.actor).allows(action))
    with pytest.raises(IllegalAction) as refused:
        hand.apply(action)
    assert refused.value.code == code, refused.value
    assert hand.events == before
