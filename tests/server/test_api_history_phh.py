"""PHH for one seat (``api_history.phh_for_seat``): exactly the cards that seat saw are
written, the rest ``??``; on engine hands of a flop game, stud and draw."""

from __future__ import annotations

import pytest

from cardroom.games import Action, Hand, Stakes, TableConfig
from cardroom.games import events as ev
from cardroom.games.phh import loads
from cardroom.games.views import event_view
from cardroom.server.api_history import phh_for_seat, visible_cards

CONFIGS = {
    "holdem": TableConfig.of("holdem", Stakes.blinds(1, 2)),
    # The stud options PHH can describe (the engine's defaults, a cap of four raises and
    # the big bet on an open pair, cannot be written in PHH).
    "stud": TableConfig.of(
        "stud", Stakes(small_bet=4, big_bet=8, ante=1), max_raises=3, fourth_street_pair="small"
    ),
    "five_card_draw": TableConfig.of("five_card_draw", Stakes.blinds(1, 2)),
}


def _played(config: TableConfig, seed: int) -> Hand:
    """Seat 2 folds as soon as it may; the others check or call to the end (and draw none)."""
    hand = Hand(config, [200, 200, 200], button=0, seed=seed)
    while not hand.is_over:
        seat = hand.actor
        legal = hand.legal_actions(seat)
        if seat == 2 and legal.fold:
            action = Action.fold(seat)
        elif legal.draw is not None:
            action = Action.draw(seat, ())
        elif legal.check:
            action = Action.check(seat)
        elif legal.call is not None:
            action = Action.call(seat)
        else:
            action = Action.bring_in(seat)
        hand.apply(action)
    return hand


def _dealt(text: str) -> list[tuple[int, list[str | None]]]:
    (history,) = loads(text)
    return [
        (a.player, [None if c is None else str(c) for c in a.cards])
        for a in history.actions
        if a.kind == "dh" and a.cards is not None and a.player is not None
    ]


@pytest.mark.parametrize("game", sorted(CONFIGS))
@pytest.mark.parametrize("seed", [1, 2])
def test_phh_for_a_seat_writes_exactly_what_it_saw(game: str, seed: int) -> None:
    hand = _played(CONFIGS[game], seed)
    viewer = 0
    projected = [event_view(e, viewer) for e in hand.events]
    text, note = phh_for_seat(list(hand.events), viewer, visible_cards(projected))
    assert text is not None, note
    me = hand.order.index(viewer)
    shown = {str(c) for e in hand.events if isinstance(e, ev.Shown) for c in e.cards}
    ups = {
        str(c)
        for e in hand.events
        if isinstance(e, ev.HoleDealt)
        for c, up in zip(e.cards, e.up, strict=True)
        if up
    }
    hidden_seen, known = 0, set()
    for player, cards in _dealt(text):
        if player == me:
            assert None not in cards
            continue
        for card in cards:
            if card is None:
                hidden_seen += 1
            else:
                assert card in ups | shown  # never another player's down card unless shown
                known.add(card)
    assert hidden_seen > 0  # the folded seat's down cards stay hidden
    mine = {str(c) for e in hand.events if isinstance(e, ev.HoleDealt) and e.seat == viewer
            for c in e.cards}  # fmt: skip
    assert (ups | shown) - mine <= known  # and every card shown face up is written


def test_visible_cards_are_only_real_cards() -> None:
    projected = [{"type": "PotAwarded", "share": "all", "cards": ["Ah", None, "Td"]}]
    assert visible_cards(projected) == {"Ah", "Td"}
