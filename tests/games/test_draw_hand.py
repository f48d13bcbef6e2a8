"""Draw games through the engine: draw order, discards, the muck reshuffle, the draw
timeout, bet sizes, and what others see of a draw (RULEBOOK §6.6–§6.7)."""

from __future__ import annotations

import pytest

from cardroom.evaluation import get_evaluator
from cardroom.games import (
    TIMEOUT,
    Action,
    Hand,
    IllegalAction,
    RoomAction,
    Stakes,
    TableConfig,
    event_view,
    replay,
)
from cardroom.games import events as ev

LIMIT = Stakes.limit(10, 20)


def check_or_call(hand: Hand) -> None:
    seat = hand.actor
    assert seat is not None
    legal = hand.legal_actions(seat)
    if legal.draw is not None:
        hand.apply(Action.draw(seat))
    else:
        hand.apply(Action.check(seat) if legal.check else Action.call(seat))


def betting_done(hand: Hand) -> None:
    """Call or check until the next draw (or the end)."""
    while hand.actor is not None and hand.legal_actions(hand.actor).draw is None:
        check_or_call(hand)


def draw_everything(hand: Hand) -> None:
    """Every player discards all their cards on every draw; everyone checks or calls."""
    while hand.actor is not None:
        seat = hand.actor
        if hand.legal_actions(seat).draw is not None:
            hand.apply(Action.draw(seat, hand.hole_cards(seat)))
        else:
            check_or_call(hand)


def test_draws_go_clockwise_from_left_of_the_button() -> None:
    hand = Hand(TableConfig.of("triple_draw_27", LIMIT), [200] * 4, button=1, seed=3)
    betting_done(hand)
    drawers = []
    while hand.actor is not None and hand.legal_actions(hand.actor).draw is not None:
        drawers.append(hand.actor)
        hand.apply(Action.draw(hand.actor))
    assert drawers == [2, 3, 0, 1]


def test_a_folded_player_does_not_draw() -> None:
    hand = Hand(TableConfig.of("five_card_draw", LIMIT), [200] * 3, button=0, seed=4)
    hand.apply(Action.fold(hand.actor))  # seat 0, the button, acts first 3-handed
    betting_done(hand)
    assert hand.actor == 1 and hand.legal_actions(1).draw == 5


def test_discards_zero_to_all_and_replacements() -> None:
    hand = Hand(TableConfig.of("five_card_draw", LIMIT), [200] * 2, button=1, seed=5)
    betting_done(hand)
    seat = hand.actor
    assert seat is not None
    before = hand.hole_cards(seat)
    hand.apply(Action.draw(seat, before[:2]))
    after = hand.hole_cards(seat)
    assert len(after) == 5 and after[:3] == before[2:]
    assert not set(after) & set(before[:2])


def test_illegal_discards_change_nothing() -> None:
    hand = Hand(TableConfig.of("badugi", LIMIT), [200] * 3, button=2, seed=6)
    betting_done(hand)
    seat = hand.actor
    assert seat is not None
    other = hand.hole_cards((seat + 1) % 3)[0]
    events = list(hand.events)
    for bad in (
        Action.draw(seat, [other]),
        Action.draw(seat, [hand.hole_cards(seat)[0]] * 2),
        Action.check(seat),
        Action.raise_to(seat, 20),
    ):
        with pytest.raises(IllegalAction):
            hand.apply(bad)
    with pytest.raises(IllegalAction):
        Action(seat, "draw_timeout", 0, hand.hole_cards(seat)[:1])  # the room's, not a player's
    assert hand.events == events and hand.actor == seat


def test_drawing_is_refused_while_betting() -> None:
    hand = Hand(TableConfig.of("badugi", LIMIT), [200] * 3, button=2, seed=6)
    seat = hand.actor
    assert seat is not None
    with pytest.raises(IllegalAction, match="no draw"):
        hand.apply(Action.draw(seat))


def test_the_stub_runs_out_and_the_muck_is_reshuffled() -> None:
    hand = Hand(TableConfig.of("triple_draw_27", LIMIT), [500] * 6, button=5, seed="muck")
    draw_everything(hand)
    assert hand.is_over
    reshuffles = [e for e in hand.events if isinstance(e, ev.StubReshuffled)]
    assert reshuffles
    for i, e in enumerate(hand.events):
        if isinstance(e, ev.StubReshuffled):
            drew = hand.events[i + 1]
            assert isinstance(drew, ev.Drew)
            # never the drawing player's own discards of this draw
            assert not set(e.cards) & set(drew.discarded)
            assert not set(drew.dealt) & set(drew.discarded)
    # at every point no card is held twice
    held = [c for s in range(6) for c in hand.hole_cards(s)]
    assert len(set(held)) == len(held) == 30
    assert sum(hand.stacks) == 6 * 500


def test_a_reshuffled_hand_replays_exactly_and_seeds_reproduce() -> None:
    config = TableConfig.of("triple_draw_27", LIMIT)
    first = Hand(config, [500] * 6, button=5, seed="muck")
    second = Hand(config, [500] * 6, button=5, seed="muck")
    draw_everything(first)
    draw_everything(second)
    assert first.events == second.events
    again = replay(first.events)
    assert again.events == first.events and again.result == first.result


def test_a_timed_out_drawer_stands_pat_and_may_not_bet_or_raise() -> None:
    hand = Hand(TableConfig.of("triple_draw_27", LIMIT), [500] * 3, button=2, seed=8)
    betting_done(hand)
    seat = hand.actor
    assert seat is not None
    before = hand.hole_cards(seat)
    hand.apply_room(RoomAction(seat, TIMEOUT))
    assert hand.hole_cards(seat) == before
    while hand.actor is not None and hand.legal_actions(hand.actor).draw is not None:
        hand.apply(Action.draw(hand.actor))
    # next betting round: the timed-out player may check or call, never bet or raise
    assert hand.actor == seat
    legal = hand.legal_actions(seat)
    assert legal.check and legal.min_raise_to is None
    with pytest.raises(IllegalAction, match="timed out"):
        hand.apply(Action.raise_to(seat, 10))
    hand.apply(Action.check(seat))
    bettor = hand.actor
    assert bettor is not None
    hand.apply(Action.raise_to(bettor, 10))
    while hand.actor != seat:
        check_or_call(hand)
    legal = hand.legal_actions(seat)
    assert legal.call == 10 and legal.min_raise_to is None
    hand.apply(Action.call(seat))
    while hand.actor is not None and hand.legal_actions(hand.actor).draw is None:
        check_or_call(hand)
    while hand.actor is not None and hand.legal_actions(hand.actor).draw is not None:
        hand.apply(Action.draw(hand.actor))
    # the round after: the restriction is gone
    assert hand.actor == seat and hand.legal_actions(seat).min_raise_to == 20


def test_triple_draw_bets_double_after_the_second_draw() -> None:
    hand = Hand(TableConfig.of("triple_draw_a5", LIMIT), [500] * 2, button=1, seed=9)
    sizes: dict[int, int] = {}
    while hand.actor is not None:
        seat = hand.actor
        legal = hand.legal_actions(seat)
        if legal.check and legal.min_raise_to is not None:
            sizes.setdefault(hand.street_index, legal.min_raise_to)
        check_or_call(hand)
    assert sizes == {0: 20, 1: 10, 2: 20, 3: 20}  # 0: the big blind's option raise


def test_five_card_draw_small_before_big_after() -> None:
    hand = Hand(TableConfig.of("five_card_draw", LIMIT), [500] * 2, button=1, seed=10)
    assert hand.legal_actions(hand.actor or 0).min_raise_to == 20  # 10 blind + 10
    betting_done(hand)
    while hand.actor is not None and hand.legal_actions(hand.actor).draw is not None:
        hand.apply(Action.draw(hand.actor))
    assert hand.legal_actions(hand.actor or 0).min_raise_to == 20  # big bet from 0


def test_others_see_how_many_cards_were_drawn_not_which() -> None:
    hand = Hand(TableConfig.of("badugi", LIMIT), [200] * 3, button=2, seed=11)
    betting_done(hand)
    seat = hand.actor
    assert seat is not None
    hand.apply(Action.draw(seat, hand.hole_cards(seat)[:3]))
    drew = next(e for e in hand.events if isinstance(e, ev.Drew))
    public = event_view(drew, (seat + 1) % 3)
    assert public == {"type": "Drew", "seat": seat, "count": 3, "timed_out": False}
    assert event_view(drew, None) == public
    mine = event_view(drew, seat)
    assert len(mine["discarded"]) == 3 and len(mine["dealt"]) == 3


def test_reshuffle_event_hides_the_new_stub() -> None:
    hand = Hand(TableConfig.of("triple_draw_27", LIMIT), [500] * 6, button=5, seed="muck")
    draw_everything(hand)
    e = next(e for e in hand.events if isinstance(e, ev.StubReshuffled))
    for viewer in (None, 0, 3):
        assert event_view(e, viewer) == {"type": "StubReshuffled", "count": len(e.cards)}


def test_single_draw_no_limit_and_lowball_showdown() -> None:
    hand = Hand(TableConfig.of("single_draw_27", Stakes.blinds(5, 10)), [300] * 3, 2, seed=12)
    seat = hand.actor
    assert seat is not None
    legal = hand.legal_actions(seat)
    assert (legal.min_raise_to, legal.max_raise_to) == (20, 300)
    while hand.actor is not None:
        check_or_call(hand)
    assert hand.result is not None and sum(hand.stacks) == 900
    low = get_evaluator("27_low")
    values = {s: low(hand.hole_cards(s), ()) for s in range(3)}
    best = max(v.strength for v in values.values() if v is not None)
    winners = {a.seat for a in hand.result.pots[0].awards}
    assert winners == {s for s, v in values.items() if v is not None and v.strength == best}


def test_the_drawing_seat_sees_how_many_cards_it_may_discard() -> None:
    hand = Hand(TableConfig.of("badugi", LIMIT), [200] * 3, button=2, seed=13)
    betting_done(hand)
    seat = hand.actor
    assert seat is not None
    legal = hand.view(seat)["legal"]
    assert legal["actions"] == ["draw"] and legal["draw"] == 4
    assert "legal" not in hand.view((seat + 1) % 3)


def test_6_every_seat_s_view_says_how_many_cards_each_player_drew_last() -> None:
    """Who drew how many is public (RULEBOOK §6.7, as the Drew event says it): the view
    carries each seat's last draw this hand, so a player who reloads the page still sees
    it; none before a seat's first draw."""
    hand = Hand(TableConfig.of("triple_draw_27", LIMIT), [200] * 3, button=0, seed=5)
    betting_done(hand)
    assert [s["drew"] for s in hand.view(None)["seats"]] == [None, None, None]  # type: ignore[index]
    hand.apply(Action.draw(1, hand.hole_cards(1)[:2]))
    hand.apply(Action.draw(2))
    for viewer in (None, 0, 1, 2):
        seats = hand.view(viewer)["seats"]
        assert [s["drew"] for s in seats] == [None, 2, 0]  # type: ignore[index]
    hand.apply(Action.draw(0, hand.hole_cards(0)[:1]))
    betting_done(hand)
    hand.apply(Action.draw(1, hand.hole_cards(1)[:3]))  # the second draw's count replaces it
    assert [s["drew"] for s in hand.view(2)["seats"]] == [1, 3, 0]  # type: ignore[index]
