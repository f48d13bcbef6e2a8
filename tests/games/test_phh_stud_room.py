"""PHH of stud hands played at a room table, whose rulebook options (a cap of four
raises, the big bet on an open pair on 4th street) PHH has no field for: a hand that
plays the same under PHH's reading (a cap of three, no big bet) has a PHH that
PokerKit and our replay read to the hand's stacks; one that used the room's options
is refused, saying why."""

from __future__ import annotations

import warnings
from collections.abc import Callable

import pokerkit
import pytest

from cardroom.games import Action, Hand
from cardroom.games import events as ev
from cardroom.games.actions import RAISE
from cardroom.games.phh import PhhError, dumps, loads
from cardroom.games.phh_export import export, export_for
from cardroom.games.phh_replay import replay
from cardroom.room.sim_tables import config_for

Policy = Callable[[Hand, int], Action]


def _play(game: str, seed: int, policy: Policy, players: int = 5) -> Hand:
    """A hand at the room's table of ``game`` (its default options), played by ``policy``."""
    config = config_for(game)
    assert config.raise_cap == 4 and config.fourth_street_pair == "big"  # the room's
    hand = Hand(config, [400] * players, button=0, seed=seed)
    while (seat := hand.actor) is not None:
        hand.apply(policy(hand, seat))
    return hand


def _passive(hand: Hand, seat: int) -> Action:
    legal = hand.legal_actions(seat)
    if legal.bring_in is not None:
        return Action.bring_in(seat)
    return Action.check(seat) if legal.check else Action.call(seat)


def _one_raise(hand: Hand, seat: int) -> Action:
    """Completes or bets, and raises once, each round; never a big bet on 4th street."""
    legal = hand.legal_actions(seat)
    big = hand.street.name == "fourth street" and legal.min_raise_to == 8
    if legal.min_raise_to is not None and _raises_this_round(hand) < 2 and not big:
        return Action.raise_to(seat, legal.min_raise_to)
    return _passive(hand, seat)


def _raises_this_round(hand: Hand) -> int:
    since = max(i for i, e in enumerate(hand.events) if isinstance(e, ev.StreetStarted))
    return sum(1 for e in hand.events[since:] if isinstance(e, ev.Acted) and e.kind == RAISE)


def _stacks(hand: Hand) -> list[int]:
    return [hand.stacks[s] for s in hand.order]


def _pokerkit_stacks(text: str) -> list[int]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return [int(s) for s in list(pokerkit.HandHistory.loads(text))[-1].stacks]


@pytest.mark.parametrize("game", ["stud", "razz", "stud_hi_lo"])
def test_a_room_stud_hand_under_phh_s_cap_has_a_phh_pokerkit_replays(game: str) -> None:
    for seed in range(3):
        hand = _play(game, seed, _one_raise)
        assert any(isinstance(e, ev.Acted) and e.kind == RAISE for e in hand.events)
        text = dumps(export(hand))
        assert _pokerkit_stacks(text) == _stacks(hand), text
        assert list(replay(loads(text)[0]).finishing_stacks) == _stacks(hand)
        seen = dumps(export_for(hand, hand.order[0]))  # decided on the full hand
        assert list(replay(loads(seen)[0]).finishing_stacks) == _stacks(hand)


def _capped(hand: Hand, seat: int) -> Action:
    """Raises whenever it may on 3rd street: the room's fourth raise, beyond PHH's cap."""
    legal = hand.legal_actions(seat)
    if hand.street.name == "third street" and legal.min_raise_to is not None:
        return Action.raise_to(seat, legal.min_raise_to)
    return _passive(hand, seat)


def test_a_hand_beyond_phh_s_cap_is_refused_saying_why() -> None:
    hand = _play("stud", 1, _capped)
    for seat in (None, *hand.order):
        with pytest.raises(PhhError, match="not legal under PHH's cap on raises"):
            export_for(hand, seat)


def _big_on_a_pair(hand: Hand, seat: int) -> Action:
    """Bets the big bet the room allows on an open pair on 4th street."""
    legal = hand.legal_actions(seat)
    if hand.street.name == "fourth street" and legal.min_raise_to == 8:
        return Action.raise_to(seat, 8)
    return _passive(hand, seat)


def test_a_big_bet_on_an_open_pair_on_fourth_street_is_refused_saying_why() -> None:
    hands = [_play("stud", seed, _big_on_a_pair, players=7) for seed in range(30)]
    big = [h for h in hands if any(getattr(e, "to", 0) == 8 for e in h.events)]
    assert big
    for hand in big:
        with pytest.raises(PhhError, match="bet on an open pair on fourth street"):
            export(hand)
