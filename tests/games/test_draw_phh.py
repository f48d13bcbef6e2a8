"""Draw and stud hands through PHH: export, write, read, replay to the same stacks,
including triple-draw hands where the stub ran out and the muck was reshuffled."""

from __future__ import annotations

import random

import pytest
from tests.games.phh_read_otherwise import export_unless_read_otherwise

from cardroom.games import Action, Hand, Stakes, TableConfig
from cardroom.games import events as ev
from cardroom.games.phh import dumps, loads
from cardroom.games.phh_replay import export, replay


def play(hand: Hand, rng: random.Random, heavy: bool) -> None:
    while hand.actor is not None:
        seat = hand.actor
        legal = hand.legal_actions(seat)
        if legal.draw is not None:
            hole = list(hand.hole_cards(seat))
            n = len(hole) if heavy else rng.randint(0, len(hole))
            hand.apply(Action.draw(seat, rng.sample(hole, n)))
        elif legal.bring_in is not None:
            hand.apply(Action.bring_in(seat))
        elif legal.min_raise_to is not None and rng.random() < 0.2:
            hand.apply(Action.raise_to(seat, legal.min_raise_to))
        else:
            hand.apply(Action.check(seat) if legal.check else Action.call(seat))


@pytest.mark.parametrize("game", ["triple_draw_27", "badugi", "single_draw_27", "stud", "razz"])
def test_exported_hands_replay_to_the_same_stacks(game: str) -> None:
    rng = random.Random(game)
    if game in ("stud", "razz"):
        stakes = Stakes(ante=1, small_bet=4, big_bet=8, bring_in=2)
        options: dict[str, object] = {"fourth_street_pair": "small", "max_raises": 3}
    elif game == "single_draw_27":
        stakes, options = Stakes.blinds(1, 2), {}
    else:
        stakes, options = Stakes.limit(2, 4), {}
    config = TableConfig.of(game, stakes, **options)
    reshuffled = 0
    for i in range(30):
        players = rng.randint(2, config.seat_limit)
        hand = Hand(config, [rng.randint(20, 200) for _ in range(players)], players - 1, seed=i)
        play(hand, rng, heavy=i % 2 == 0)
        reshuffled += any(isinstance(e, ev.StubReshuffled) for e in hand.events)
        exported = export_unless_read_otherwise(hand)
        if exported is None:
            continue
        (history,) = loads(dumps(exported))
        assert replay(history).finishing_stacks == hand.stacks
    if game in ("triple_draw_27", "badugi"):
        assert reshuffled > 0  # some of these hands ran the stub out


def test_an_eight_handed_stud_hand_with_the_community_card_round_trips() -> None:
    stakes = Stakes(ante=1, small_bet=4, big_bet=8, bring_in=2)
    config = TableConfig.of("stud", stakes, fourth_street_pair="small", max_raises=3)
    hand = Hand(config, [300] * 8, 7, seed="community")
    while hand.actor is not None:
        seat = hand.actor
        legal = hand.legal_actions(seat)
        if legal.bring_in is not None:
            hand.apply(Action.bring_in(seat))
        else:
            hand.apply(Action.check(seat) if legal.check else Action.call(seat))
    assert len(hand.board) == 1
    (history,) = loads(dumps(export(hand)))
    assert replay(history).finishing_stacks == hand.stacks


# ---------------------------------------------------------------- mutation audit (phh)

UNKNOWN_DISCARD = """variant = "N2L1D"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = [
  "d dh p1 7c5d4h3s??", "d dh p2 ??????????", "d dh p3 ??????????",
  "p3 f", "p1 cc", "p2 cc", "p1 sd ??", "p2 sd", "d dh p1 2c", "p1 cc", "p2 cc",
  "p1 sm 7c5d4h3s2c", "p2 sm",
]
"""


def test_a_discard_written_unknown_throws_the_card_the_file_does_not_know() -> None:
    """``sd ??`` throws a card the file never named: p1 keeps the four it named and draws
    the deuce to a 7-5 low, shown, which takes the pot (phh R11). Throwing a named card
    in its place would leave p1 holding cards other than the ones shown."""
    assert replay(loads(UNKNOWN_DISCARD)[0]).finishing_stacks == (102, 98, 100)
