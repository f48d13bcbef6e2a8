"""Player vs room authority, and atomic apply (issue: the engine ready for a room).

- For random states of every game and structure, every sampled action (amounts at,
  inside and just outside the bounds; every kind; other seats) is accepted by
  ``apply`` exactly when ``legal_actions(seat).allows`` it, and a refusal carries a
  stable code and changes nothing.
- The room's decisions (timeout, disconnect all-in) are not a player's to send.
- If anything fails inside ``apply`` (a rake rule or an evaluator that raises, at any
  stage), the hand is exactly as it was, and plays on as if the call never happened.

States per game and structure: ``CARDROOM_AUTHORITY_HANDS`` (default 2).
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator

import pytest
from tests.games.random_hands import CONFIGS, new_hand, play, random_move

from cardroom.games import (
    DISCONNECT_ALL_IN,
    TIMEOUT,
    Action,
    Hand,
    IllegalAction,
    RoomAction,
    Stakes,
    TableConfig,
    seed_003_rule,
)
from cardroom.games import events as events_module
from cardroom.games import showdown as showdown_module
from cardroom.games.betting_round import BettingRound
from cardroom.games.errors import CODES

HANDS = int(os.environ.get("CARDROOM_AUTHORITY_HANDS", "2"))
KINDS = ("fold", "check", "call", "raise", "bet", "bring_in", "draw")


def candidates(hand: Hand, rng: random.Random) -> Iterator[Action]:
    """Actions around the legal set: every kind, amounts at, inside and just outside the
    bounds, cards held and not held, and the same for other seats."""
    seat = hand.actor
    assert seat is not None
    legal = hand.legal_actions(seat)
    seats = [seat, (seat + 1) % len(hand.seats)]
    amounts = {0, 1, hand.current_bet, hand.current_bet + 1, 10**12}
    for bound in (legal.min_raise_to, legal.max_raise_to):
        if bound is not None:
            amounts.update({bound - 1, bound, bound + 1})
    if legal.min_raise_to is not None and legal.max_raise_to is not None:
        amounts.add(rng.randint(legal.min_raise_to, legal.max_raise_to))
    held = list(hand.hole_cards(seat))
    others = [c for c in hand.hole_cards(seats[1]) if c not in held]
    draws = [(), tuple(held[:1]), tuple(held[: legal.draw or 0]), tuple(held)]
    draws += [(held[0], held[0])] if held else []
    draws += [tuple(others[:1])] if others else []
    for s in seats:
        for kind in KINDS:
            if kind in ("raise", "bet"):
                yield from (Action(s, kind, a) for a in sorted(amounts))
            elif kind == "draw":
                yield from (Action(s, kind, 0, d) for d in draws)
            else:
                yield Action(s, kind)


@pytest.mark.parametrize(
    ("game", "structure", "config"), CONFIGS, ids=[f"{g}-{s}" for g, s, _ in CONFIGS]
)
def test_apply_accepts_exactly_what_legal_actions_allows(
    game: str, structure: str, config: TableConfig, hand_state: Callable[[Hand], object]
) -> None:
    rng = random.Random(f"authority/{game}/{structure}")
    for _ in range(HANDS):
        hand = new_hand(config, rng)
        while hand.actor is not None:
            before = hand_state(hand)  # each refusal must leave it so
            for action in candidates(hand, rng):
                allowed = hand.legal_actions(action.seat).allows(action)
                if allowed:  # accepted: try it on a copy, the hand plays on unchanged
                    new_copy(hand).apply(action)
                    continue
                with pytest.raises(IllegalAction) as refused:
                    hand.apply(action)
                assert refused.value.code in CODES
                assert hand_state(hand) == before
            play(hand, random_move(hand, rng))


def test_the_state_compared_sees_every_move(hand_state: Callable[[Hand], object]) -> None:
    # The refusals above are checked by comparing this state before and after: it must
    # tell apart a hand before and after any move, in every game (events are compared
    # as values, the mutable helpers field by field).
    rng = random.Random("authority/state")
    for _game, _structure, config in CONFIGS[::7]:
        hand = new_hand(config, rng)
        while hand.actor is not None:
            before = hand_state(hand)
            play(hand, random_move(hand, rng))
            assert hand_state(hand) != before


def new_copy(hand: Hand) -> Hand:
    """An independent copy of ``hand`` (rebuilt from its record by the replay)."""
    from cardroom.games import replay

    return replay(hand.events)


def test_the_room_decisions_are_not_a_players_to_send() -> None:
    hand = Hand(TableConfig.of("holdem", Stakes.blinds(1, 2)), [100, 100, 100], 0, seed=3)
    hand.apply(Action.raise_to(0, 6))
    for kind in (DISCONNECT_ALL_IN, TIMEOUT, "draw_timeout"):
        with pytest.raises(IllegalAction) as refused:
            Action(1, kind)
        assert refused.value.code == "bad_action"
    with pytest.raises(IllegalAction):
        hand.apply(RoomAction(1, DISCONNECT_ALL_IN))  # type: ignore[arg-type]
    with pytest.raises(IllegalAction):
        hand.apply_room(Action.fold(1))  # type: ignore[arg-type]
    # The cheat of the issue: a player facing a bet cannot stay in without calling.
    events = hand.apply_room(RoomAction(1, DISCONNECT_ALL_IN))  # the room may
    assert events[0].kind == "disconnect_all_in" and hand.is_all_in(1)


def test_10_5_a_timeout_checks_if_possible_otherwise_folds() -> None:
    hand = Hand(TableConfig.of("holdem", Stakes.blinds(1, 2)), [100, 100, 100], 0, seed=3)
    hand.apply_room(RoomAction(0, TIMEOUT))  # facing the big blind: fold
    assert not hand.is_live(0)
    hand.apply(Action.call(1))
    hand.apply_room(RoomAction(2, TIMEOUT))  # the big blind's option: check
    assert hand.is_live(2) and hand.street.name == "flop"


def test_10_5_a_stud_bring_in_times_out_into_the_bring_in() -> None:
    config = TableConfig.of("stud", Stakes(ante=1, small_bet=4, big_bet=8, bring_in=2))
    hand = Hand(config, [50, 50, 50], 0, seed=5)
    seat = hand.actor
    assert seat is not None and hand.legal_actions(seat).bring_in == 2
    event = hand.apply_room(RoomAction(seat, TIMEOUT))[0]
    assert event.kind == "bring_in" and event.amount == 2  # type: ignore[union-attr]


def test_10_10_cancel_returns_every_stack_and_is_replayable() -> None:
    from cardroom.games import replay

    hand = Hand(TableConfig.of("holdem", Stakes.blinds(1, 2)), [100, None, 80, 60], 0, seed=9)
    hand.apply(Action.raise_to(hand.actor or 0, 20))
    assert sum(hand.committed) > 0
    (cancelled,) = hand.cancel()
    assert cancelled.stacks == (100, None, 80, 60)  # type: ignore[union-attr]
    assert hand.is_over and hand.cancelled and hand.result is None and hand.actor is None
    assert hand.stacks == (100, 0, 80, 60) and sum(hand.committed) == 0
    with pytest.raises(IllegalAction) as refused:
        hand.cancel()
    assert refused.value.code == "hand_over"
    assert replay(hand.events).stacks == hand.stacks


class Injected(Exception):
    """A failure injected into the engine."""


def one_shot(real: Callable[..., object]) -> Callable[..., object]:
    """``real``, but its first call raises :class:`Injected`."""
    calls = []

    def failing(*args: object, **kwargs: object) -> object:
        calls.append(1)
        if len(calls) == 1:
            raise Injected(real.__name__)
        return real(*args, **kwargs)

    return failing


TARGETS = {
    # The settlement: rake, evaluators, pots, awards.
    "settle": ("cardroom.games.hand.settle", showdown_module.settle),
    # Dealing a street's board, mid-way through moving the hand on.
    "board": ("cardroom.games.events.BoardDealt", events_module.BoardDealt),
    # Recording an action, after the chips moved.
    "acted": ("cardroom.games.events.Acted", events_module.Acted),
    # Finding the next player to act.
    "next_actor": (
        "cardroom.games.betting_round.BettingRound.next_actor",
        BettingRound.next_actor,
    ),
    # Dealing a stud street's cards, or a draw's replacements.
    "hole": ("cardroom.games.events.HoleDealt", events_module.HoleDealt),
    "drew": ("cardroom.games.events.Drew", events_module.Drew),
}

FAMILIES = {
    "omaha_hi_lo": (("settle", "board", "acted", "next_actor"), Stakes.blinds(1, 2)),
    "stud_hi_lo": (("settle", "hole", "acted"), Stakes(ante=1, bring_in=1, small_bet=2, big_bet=4)),
    "triple_draw_27": (("settle", "drew", "acted"), Stakes.limit(2)),
    "badugi": (("drew", "next_actor"), Stakes.limit(2)),
}
CASES = [(game, target) for game, (targets, _) in FAMILIES.items() for target in targets]


@pytest.mark.parametrize(("game", "target"), CASES)
@pytest.mark.parametrize("stage", range(8))
def test_a_failure_inside_apply_leaves_the_hand_exactly_as_it_was(
    game: str,
    target: str,
    stage: int,
    hand_state: Callable[[Hand], object],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path, real = TARGETS[target]
    stakes = FAMILIES[game][1]
    structure = TableConfig.of(game, stakes).betting
    config = TableConfig.of(game, stakes, rake=seed_003_rule(structure, 2))
    failed = False
    for attempt in range(10):  # until a hand lasts long enough for the failure to strike
        rng = random.Random(f"{game}/{target}/{stage}/{attempt}")
        hand = Hand(config, [100, 100, 100, 100], 0, seed=stage * 100 + attempt)
        twin = Hand(config, [100, 100, 100, 100], 0, seed=stage * 100 + attempt)
        moves = 0
        while hand.actor is not None:
            move = random_move(hand, rng)
            if moves >= stage and not failed:
                monkeypatch.setattr(path, one_shot(real))
            before = hand_state(hand)
            try:
                play(hand, move)
            except Injected:
                failed = True
                assert hand_state(hand) == before
                play(hand, move)  # the same move again: the failure was one-shot
            monkeypatch.undo()
            play(twin, move)
            assert hand.events == twin.events
            moves += 1
        assert hand.result == twin.result
        if failed:
            break
    assert failed
