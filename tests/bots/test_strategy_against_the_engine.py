"""Every bot decision, on every game and structure the engine plays, is one the engine
accepts: the bots read only the ``turn`` message (the legal set from the player's own
view), so a game whose legal set they misread shows here (Irish's discard street, where
``draw_min`` cards must go, did)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from tests.games.random_hands import CONFIGS, new_hand

from cardroom.bots.strategy import random_action, sensible_action
from cardroom.bots.tracker import HandTracker
from cardroom.cards import Card
from cardroom.games import Action, Hand
from cardroom.games.views import view

STRATEGIES = {"random": random_action, "sensible": sensible_action}


def _turn(hand: Hand, seat: int) -> dict[str, Any]:
    mine = view(hand, seat)
    own = mine["seats"][seat]
    return {"seat": seat, "legal": mine["legal"], "cards": own["cards"], "board": mine["board"]}


def _action(seat: int, fields: dict[str, Any]) -> Action:
    kind = fields["kind"]
    if kind == "raise":
        return Action.raise_to(seat, int(fields["amount"]))
    if kind == "draw":
        return Action.draw(seat, [Card.parse(c) for c in fields["cards"]])
    return getattr(Action, kind)(seat)  # type: ignore[no-any-return]


@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_every_bot_decision_is_legal_in_every_game(name: str) -> None:
    strategy = STRATEGIES[name]
    rng = random.Random(name)
    for game, structure, config in CONFIGS:
        for _ in range(3):
            hand = new_hand(config, rng)
            tracker = HandTracker(game=game, pot=0, live=set(range(len(hand.seats))))
            while not hand.is_over:
                seat = hand.actor
                assert seat is not None
                fields = strategy(_turn(hand, seat), tracker, rng)
                action = _action(seat, fields)
                assert hand.legal_actions(seat).allows(action), (game, structure, fields)
                hand.apply(action)
