"""The bots' decisions from a turn message: legal, sensible, and human-timed."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardroom.bots.strategy import raise_to, random_action, sensible_action
from cardroom.bots.strength import discards, equity, made_hand
from cardroom.bots.timing import FAST, HUMAN, Timing
from cardroom.bots.tracker import HandTracker
from cardroom.cards import parse_cards


def turn(cards: str, board: str = "", **legal: Any) -> dict[str, Any]:
    base = {"actions": ["fold", "call", "raise"], "call": 2, "min_raise_to": 4,
            "max_raise_to": 200, "bring_in": None, "draw": None, "raise_sizes": []}  # fmt: skip
    base.update(legal)
    return {"seat": 0, "legal": base, "cards": cards.split(), "board": board.split()}


def hand(game: str = "holdem", pot: int = 3, live: int = 2) -> HandTracker:
    return HandTracker(game=game, pot=pot, live=set(range(live)))


def test_the_equity_of_aces_against_one_random_hand_is_about_85_percent() -> None:
    share = equity("holdem", parse_cards("As Ad"), (), 1, random.Random(1), samples=2000)
    assert 0.80 < share < 0.90


def test_equity_falls_with_more_opponents_and_a_made_flush_is_strong() -> None:
    rng = random.Random(2)
    one = equity("holdem", parse_cards("Kh Qh"), (), 1, rng, samples=1500)
    four = equity("holdem", parse_cards("Kh Qh"), (), 4, rng, samples=1500)
    flush = equity("holdem", parse_cards("Kh Qh"), parse_cards("2h 7h 9h"), 2, rng, samples=600)
    assert four < one and flush > 0.8


def test_omaha_and_short_deck_equity_use_their_own_rules() -> None:
    rng = random.Random(3)
    # Pooled, As with the board's KQJT of spades would be a royal flush; Omaha uses exactly
    # two hole cards, which leaves ace high at best.
    board = parse_cards("Ks Qs Js Ts 5d")
    assert equity("omaha", parse_cards("As 2c 3d 4h"), board, 1, rng, 300) < 0.5
    assert 0.0 <= equity("short_deck", parse_cards("As Kd"), (), 2, rng, 200) <= 1.0


def test_the_sensible_bot_raises_aces_within_the_legal_bounds() -> None:
    fields = sensible_action(turn("As Ad"), hand(), random.Random(4))
    assert fields["kind"] == "raise" and 4 <= fields["amount"] <= 200


def test_the_sensible_bot_folds_trash_when_the_call_costs_more_than_the_pot_odds() -> None:
    # 7-2 offsuit against four opponents, 100 to call into a pot of 10: far below 100/110.
    fields = sensible_action(turn("7c 2d", call=100), hand(pot=10, live=5), random.Random(5))
    assert fields == {"kind": "fold"}


def test_the_sensible_bot_calls_a_small_bet_into_a_big_pot_with_a_fair_hand() -> None:
    # Top pair against one opponent, 1 to call into 100: any hand with >1% equity calls.
    t = turn("Ah 9c", "As 7d 3c", call=1, actions=["fold", "call"], min_raise_to=None,
             max_raise_to=None)  # fmt: skip
    fields = sensible_action(t, hand(pot=100), random.Random(6))
    assert fields == {"kind": "call"}


def test_the_sensible_bot_checks_a_weak_hand_when_it_is_free() -> None:
    t = turn("7c 2d", "Ks Qh 9s", call=None, actions=["check", "raise"])
    assert sensible_action(t, hand(live=4), random.Random(7)) == {"kind": "check"}


def test_raise_size_is_about_two_thirds_of_the_pot_and_clamped_to_the_bounds() -> None:
    legal = {"min_raise_to": 10, "max_raise_to": 50, "raise_sizes": []}
    assert raise_to(legal, 30, 0) == 10 + 20
    assert raise_to(legal, 300, 0) == 50
    assert raise_to({**legal, "raise_sizes": [8, 16]}, 300, 0) == 8


def test_a_27_draw_throws_the_pair_and_the_high_cards_and_a_high_draw_keeps_pairs() -> None:
    low = discards("triple_draw_27", parse_cards("2s 3d 4c Kh Kd"), 5)
    assert sorted(map(str, low)) == ["Kd", "Kh"]
    high = discards("five_card_draw", parse_cards("9s 9d 4c Kh 2d"), 3)
    assert sorted(map(str, high)) == ["2d", "4c", "Kh"]
    assert len(discards("triple_draw_27", parse_cards("Ks Qd Jc Th 9d"), 3)) == 3


def test_made_hands_rank_trips_over_a_pair_over_nothing_and_a_smooth_low_high() -> None:
    trips = made_hand("stud", parse_cards("9s 9d 9c 2h"))
    pair = made_hand("stud", parse_cards("9s 9d 4c 2h"))
    nothing = made_hand("stud", parse_cards("9s 7d 4c 2h"))
    assert trips > pair > nothing
    assert made_hand("razz", parse_cards("As 2d 3c 4h 5s")) > made_hand(
        "razz", parse_cards("Ks Kd Qc")
    )


def test_the_sensible_bot_draws_and_brings_in_from_the_legal_set() -> None:
    t = turn("2s 3d 4c Kh Kd", actions=["draw"], draw=5)
    fields = sensible_action(t, hand("triple_draw_27"), random.Random(8))
    assert fields["kind"] == "draw" and sorted(fields["cards"]) == ["Kd", "Kh"]
    t = turn("7c 2d 3h", actions=["bring_in", "raise"], bring_in=1, call=None)
    assert sensible_action(t, hand("stud"), random.Random(9)) == {"kind": "bring_in"}


@pytest.mark.parametrize("seed", range(200))
def test_the_random_bot_only_ever_sends_a_legal_kind_and_amount(seed: int) -> None:
    rng = random.Random(seed)
    kinds = rng.sample(["fold", "check", "call", "raise", "draw"], rng.randint(1, 4))
    t = turn("2s 3d 4c Kh Kd", actions=kinds, draw=3, min_raise_to=6, max_raise_to=40)
    fields = random_action(t, hand(), rng)
    assert fields["kind"] in kinds
    if fields["kind"] == "raise":
        assert 6 <= fields["amount"] <= 40
    if fields["kind"] == "draw":
        assert len(fields["cards"]) <= 3 and set(fields["cards"]) <= set(t["cards"])


def test_think_times_stay_in_their_bounds_and_are_mostly_short() -> None:
    rng = random.Random(10)
    draws = [HUMAN.draw(rng) for _ in range(2000)]
    assert min(draws) >= 0.5 and max(draws) <= 3.0
    assert sorted(draws)[1000] < 1.75  # the median is below the middle of the range
    assert FAST.fast and FAST.draw(rng) == 0.0
    assert Timing.parse("0.5,3") == Timing(0.5, 3.0) and Timing.parse("0").fast
    with pytest.raises(ValueError):
        Timing(2.0, 1.0)


def test_the_tracker_follows_the_pot_and_the_folds() -> None:
    h = HandTracker()
    for e in [
        {"type": "HandStarted", "game": "holdem", "stacks": [100, None, 100, 100]},
        {"type": "Posted", "seat": 0, "amount": 1},
        {"type": "Posted", "seat": 2, "amount": 2},
        {"type": "Acted", "seat": 3, "kind": "raise", "amount": 10},
        {"type": "Acted", "seat": 0, "kind": "fold", "amount": 0},
        {"type": "UncalledReturned", "seat": 3, "amount": 8},
    ]:
        h.see(e)
    assert (h.game, h.pot, h.live) == ("holdem", 5, {2, 3})
    assert h.opponents(3) == 1


def test_the_bots_flop_games_are_the_engines_flop_games() -> None:
    # A bot sees game names only (it may not import the engine): its list is checked here.
    from cardroom.bots.strength import FLOP_GAMES
    from cardroom.games import VARIANTS

    assert set(FLOP_GAMES) == {name for name, v in VARIANTS.items() if v.board_cards}


def test_irish_equity_before_and_after_its_discard() -> None:
    rng = random.Random(11)
    sets = equity("irish", parse_cards("As Ad 7c 8c"), parse_cards("Ah 2d 9h"), 1, rng, 300)
    kept = equity("irish", parse_cards("As Ad"), parse_cards("Ah 7d 9h"), 1, rng, 300)
    assert sets > 0.85 and kept > 0.85


def test_the_bot_learns_the_deck_from_the_hands_events_not_from_the_games_name() -> None:
    # The engine decides the deck; its public HandStarted (and hand view) says which.
    from cardroom.games import Hand, Stakes, TableConfig
    from cardroom.games.views import event_view, view

    config = TableConfig.of("short_deck", Stakes(ante=1, button_blind=2))
    hand = Hand(config, [100, 100], 0, seed=1)
    tracker = HandTracker()
    tracker.see(event_view(hand.events[0], 0))
    assert tracker.deck == "short" and view(hand, 0)["deck"] == "short"
    rng = random.Random(12)
    # Short deck's ranking: a flush beats a full house, so only quads beat this flush.
    flush = equity("short_deck", parse_cards("Ah Kh"), parse_cards("Qh Jh 6h 6s 7d"), 1, rng,
                   400, deck="short")  # fmt: skip
    assert flush >= 0.99
