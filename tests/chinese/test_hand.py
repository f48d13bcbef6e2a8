"""The Chinese poker state machine: dealing, turns, placing, replay, refusals and views."""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.cards import Deck
from cardroom.chinese import (
    VARIANTS,
    CardsDealt,
    CardsPlaced,
    ChineseError,
    ChineseHand,
    HandSettled,
    HandStarted,
    Place,
    decode_event,
    encode_event,
    project_event,
)
from cardroom.records import CodecError

ROWS = ("top", "middle", "bottom")


def random_place(hand: ChineseHand, seat: int, rng: random.Random) -> Place:
    """A random legal placement built only from ``legal_actions``."""
    (opt,) = hand.legal_actions(seat)
    cards = list(opt.cards)
    rng.shuffle(cards)
    keep, discard = cards[: opt.place], cards[opt.place :]
    slots = [row for row in ROWS for _ in range(opt.free[row])]
    rng.shuffle(slots)
    rows: dict[str, list[Any]] = {r: [] for r in ROWS}
    for card, row in zip(keep, slots, strict=False):
        rows[row].append(card)
    return Place(seat, *(tuple(rows[r]) for r in ROWS), tuple(discard))


def play_out(hand: ChineseHand, rng: random.Random, timeouts: bool = False) -> None:
    while not hand.finished:
        seat = rng.choice(hand.to_act())
        action = hand.timeout_action(seat) if timeouts else random_place(hand, seat, rng)
        hand.apply(action)


CASES = [
    ("ofc", 2, {}),
    ("ofc", 3, {}),
    ("ofc", 4, {}),
    ("ofc", 3, {0: 13}),
    ("pineapple", 2, {}),
    ("pineapple", 3, {1: 14}),
    ("turbo", 3, {}),
    ("progressive", 3, {0: 17, 2: 15}),
    ("pineapple27", 3, {1: 15}),
    ("classic", 2, {}),
    ("classic", 3, {}),
    ("classic", 4, {}),
]


SEEDS = range(1, 1 + int(os.environ.get("CARDROOM_CHINESE_HANDS", "3")))
"""Random hands per case (seed 3, 6, ... plays with timeouts); more through the variable."""


@pytest.mark.parametrize(("variant", "players", "fl"), CASES)
@pytest.mark.parametrize("seed", SEEDS)
def test_full_hand_plays_settles_and_replays(
    variant: str, players: int, fl: dict[int, int], seed: int
) -> None:
    seats = [2 * i + 1 for i in range(players)]
    fantasyland = {seats[i]: n for i, n in fl.items()}
    hand = ChineseHand.start(
        variant, seats, button=seats[-1], seed=seed, fantasyland=fantasyland, point_value=5
    )
    play_out(hand, random.Random(seed), timeouts=seed % 3 == 0)
    assert hand.finished and hand.results is not None
    assert sum(r.points for r in hand.results) == 0
    assert sum(r.chips for r in hand.results) == 0
    assert all(r.chips == 5 * r.points for r in hand.results)
    for p in hand.players.values():
        assert [len(p.rows[r]) for r in ROWS] == [3, 5, 5]
    # Every card dealt came off the deck in order, and each seat placed or discarded it all.
    dealt = [c for e in hand.events if isinstance(e, CardsDealt) for c in e.cards]
    assert sorted(dealt) == sorted(hand.deck[: len(dealt)])
    assert hand.dealt == len(dealt)
    # Replay from events, and from their JSON form, rebuilds the same state.
    assert ChineseHand.replay(hand.events).state() == hand.state()
    as_data = json.loads(json.dumps([encode_event(e) for e in hand.events]))
    stored = ChineseHand.replay(decode_event(d) for d in as_data)
    assert stored.state() == hand.state()
    assert all(stored.view(v) == hand.view(v) for v in [None, *seats])
    # What a seat is sent of a stored event is what it is sent of the live one.
    for live, data in zip(hand.events, as_data, strict=True):
        for viewer in [None, *seats]:
            assert project_event(decode_event(data), viewer) == project_event(live, viewer)


def test_play_order_and_dealing_start_left_of_the_button() -> None:
    deck = Deck.standard(11).cards
    hand = ChineseHand.start("ofc", [1, 3, 5], button=3, seed=11)
    assert hand.seats == (5, 1, 3)
    assert hand.to_act() == (5,)
    first = {e.seat: e.cards for e in hand.events if isinstance(e, CardsDealt)}
    # One card at a time, clockwise from seat 5.
    assert first[5] == deck[0:15:3] and first[1] == deck[1:15:3] and first[3] == deck[2:15:3]
    for seat in (5, 1, 3):
        assert hand.to_act() == (seat,)
        hand.apply(hand.timeout_action(seat))
    # Street 2: one card each, in the same order.
    dealt = [e for e in hand.events if isinstance(e, CardsDealt) and e.street == 1]
    assert [(e.seat, e.cards) for e in dealt] == [
        (5, (deck[15],)),
        (1, (deck[16],)),
        (3, (deck[17],)),
    ]


def test_button_on_an_empty_seat_and_wraparound() -> None:
    assert ChineseHand.start("ofc", [0, 4, 7], button=8, seed=1).seats == (0, 4, 7)
    assert ChineseHand.start("ofc", [0, 4, 7], button=5, seed=1).seats == (7, 0, 4)


def test_pineapple_streets_place_two_and_discard_one() -> None:
    hand = ChineseHand.start("pineapple", [0, 1], button=1, seed=4)
    for seat in (0, 1):
        (opt,) = hand.legal_actions(seat)
        assert (len(opt.cards), opt.place, opt.discard) == (5, 5, 0)
        hand.apply(hand.timeout_action(seat))
    (opt,) = hand.legal_actions(0)
    assert (len(opt.cards), opt.place, opt.discard, opt.face_down) == (3, 2, 1, False)
    assert hand.legal_actions(1) == []


def test_fantasyland_player_gets_the_whole_hand_and_sets_face_down() -> None:
    hand = ChineseHand.start("progressive", [0, 1, 2], button=2, seed=9, fantasyland={1: 16})
    dealt = {e.seat: e.cards for e in hand.events if isinstance(e, CardsDealt)}
    assert len(dealt[1]) == 16 and len(dealt[0]) == 5
    hand.apply(hand.timeout_action(0))
    (opt,) = hand.legal_actions(1)
    assert (opt.place, opt.discard, opt.face_down) == (13, 3, True)
    hand.apply(hand.timeout_action(1))
    assert hand.players[1].done
    # Seat 0 cannot see seat 1's set; seat 1 sees it; everyone sees it at the showdown.
    assert seat_view(hand, 0, 1)["rows"] == {"top": [], "middle": [], "bottom": []}
    assert seat_view(hand, 0, 1)["face_down"] == 13
    assert sum(len(v) for v in seat_view(hand, 1, 1)["rows"].values()) == 13
    hand.apply(hand.timeout_action(2))
    # Later streets skip the Fantasyland player.
    assert all(e.seat != 1 for e in hand.events if isinstance(e, CardsDealt) and e.street > 0)
    play_out(hand, random.Random(0))
    assert sum(len(v) for v in seat_view(hand, 0, 1)["rows"].values()) == 13
    assert seat_view(hand, 0, 1)["discards"] == 3  # discards stay private
    assert len(seat_view(hand, 1, 1)["discards"]) == 3


def test_fantasyland_timeout_sets_the_best_arrangement_without_fouling() -> None:
    hand = ChineseHand.start("pineapple", [0, 1], button=0, seed=5, fantasyland={1: 14})
    action = hand.timeout_action(1)
    assert len(action.discard) == 1 and len(action.placed) == 13
    hand.apply(action)
    play_out(hand, random.Random(1))
    assert hand.results is not None
    assert not next(r for r in hand.results if r.seat == 1).fouled


def test_classic_arranges_at_once_face_down_and_times_out_in_dealt_order() -> None:
    hand = ChineseHand.start("classic", [0, 1, 2], button=0, seed=3)
    assert set(hand.to_act()) == {0, 1, 2}
    dealt = {e.seat: e.cards for e in hand.events if isinstance(e, CardsDealt)}
    action = hand.timeout_action(2)
    assert action.bottom == dealt[2][:5] and action.middle == dealt[2][5:10]
    assert action.top == dealt[2][10:]
    hand.apply(action)
    assert seat_view(hand, 0, 2)["face_down"] == 13  # seat 2 shows as set, cards hidden
    placed = next(e for e in hand.events if isinstance(e, CardsPlaced))
    assert project_event(placed, 0)["bottom"] == 5
    assert project_event(placed, 2)["bottom"] == [str(c) for c in dealt[2][:5]]
    hand.apply(hand.timeout_action(0))
    assert not hand.finished
    hint = hand.hint(1)
    assert hint is not None
    hand.apply(hint)
    assert hand.finished
    assert seat_view(hand, 0, 2)["rows"]["bottom"] == [str(c) for c in dealt[2][:5]]


def seat_view(hand: ChineseHand, viewer: int | None, seat: int) -> dict[str, Any]:
    """The part of ``viewer``'s view about ``seat``."""
    return next(p for p in hand.view(viewer)["players"] if p["seat"] == seat)


def snapshot(hand: ChineseHand) -> tuple[Any, int]:
    return repr(hand.state()), len(hand.events)


def test_illegal_actions_raise_and_change_nothing() -> None:
    hand = ChineseHand.start("pineapple", [0, 1], button=1, seed=2)
    p = hand.players[0]
    five = p.pending
    other = hand.players[1].pending
    bad = [
        Place(1, bottom=other),  # not seat 1's turn
        Place(7, bottom=five),  # not in the hand
        Place(0, bottom=five[:4]),  # a card left over
        Place(0, top=five[:4], bottom=five[4:]),  # four on top
        Place(0, bottom=five[:4] + other[:1], discard=five[4:]),  # someone else's card
        Place(0, bottom=five[:4], discard=five[4:]),  # no discard on the first street
        Place(0, bottom=five[:4] + five[:1]),  # a card twice
        Place(0, bottom=(*five[:4], 99)),  # type: ignore[arg-type]  # not a card
        Place(0, bottom=list(five)),  # type: ignore[arg-type]  # not a tuple
        Place(0, bottom=five, discard=None),  # type: ignore[arg-type]
        "fold",
    ]
    for action in bad:
        before = snapshot(hand)
        with pytest.raises(ChineseError):
            hand.apply(action)  # type: ignore[arg-type]
        assert snapshot(hand) == before
    hand.apply(Place(0, bottom=tuple(int(c) for c in five)))  # plain ints are cards too
    assert encode_event(hand.events[-1])["bottom"] == [str(c) for c in five]
    hand.apply(hand.timeout_action(1))
    three = hand.players[0].pending
    with pytest.raises(ChineseError, match="discard exactly 1"):
        hand.apply(Place(0, middle=three))
    with pytest.raises(ChineseError, match="room for 0"):
        hand.apply(Place(0, bottom=three[:2], discard=three[2:]))
    play_out(hand, random.Random(3))
    with pytest.raises(ChineseError, match="over"):
        hand.apply(Place(0))


@pytest.mark.parametrize(
    ("variant", "seats", "kwargs"),
    [
        ("pineapple", [0, 1, 2, 3], {}),  # Pineapple seats 3
        ("ofc", [0, 1, 2, 3, 4], {}),
        ("ofc", [0], {}),
        ("ofc", [0, 0], {}),
        ("classic", [0, 1], {"fantasyland": {0: 13}}),
        ("ofc", [0, 1], {"fantasyland": {5: 13}}),
        ("pineapple", [0, 1], {"fantasyland": {0: 18}}),
        ("pineapple", [0, 1], {"fantasyland": {0: 15}}),  # Pineapple deals 14
        ("ofc", [0, 1], {"fantasyland": {0: 14}}),  # OFC deals 13
        ("pineapple27", [0, 1], {"fantasyland": {0: 16}}),  # 2-7 deals 14 or 15
        ("ofc", [0, 1], {"seed": 1, "deck": list(range(52))}),
        ("ofc", [0, 1], {"deck": [0, 0, *range(2, 52)]}),
        ("ofc", [0, 1], {"deck": list(range(20))}),  # too few cards
        ("ofc", [0, 1], {"point_value": 1.5}),
        ("omaha", [0, 1], {}),
    ],
)
def test_bad_starts_are_refused(variant: str, seats: list[int], kwargs: dict[str, Any]) -> None:
    with pytest.raises(ChineseError):
        ChineseHand.start(variant, seats, button=0, **kwargs)


def test_3_an_ofc_family_game_seats_three_even_when_the_deck_would_deal_four() -> None:
    # §3: "OFC family 3 (4 allowed for plain OFC)". Four Turbo hands take exactly 52
    # cards, so only the seat limit refuses them (Pineapple's 17 cards each would not fit).
    with pytest.raises(ChineseError, match="takes 2 to 3 players"):
        ChineseHand.start("turbo", [0, 1, 2, 3], button=0, seed=1)
    assert len(ChineseHand.start("ofc", [0, 1, 2, 3], button=0, seed=1).seats) == 4


def test_8_a_card_placed_twice_is_refused_even_when_every_card_is_accounted_for() -> None:
    # §8 Pineapple: of three cards two are placed and one discarded. Placing one card
    # twice with the other two gives the same set of cards and the right discard count.
    hand = ChineseHand.start("pineapple", [0, 1], button=1, seed=2)
    hand.apply(hand.timeout_action(0))
    hand.apply(hand.timeout_action(1))
    a, b, c = hand.players[0].pending
    before = snapshot(hand)
    with pytest.raises(ChineseError, match="twice"):
        hand.apply(Place(0, middle=(a, a, b), discard=(c,)))
    assert snapshot(hand) == before


def test_a_hint_is_only_for_a_whole_hand_to_set() -> None:
    # ``hint`` sets 13 or more cards (classic, Fantasyland); an open-face street has none.
    hand = ChineseHand.start("ofc", [0, 1], button=1, seed=4)
    assert hand.hint(0) is None
    assert ChineseHand.start("classic", [0, 1], button=1, seed=4).hint(0) is not None


def test_views_hide_pending_cards_and_the_deck() -> None:
    hand = ChineseHand.start("ofc", [0, 1], button=1, seed=8)
    mine = seat_view(hand, 0, 0)
    theirs = seat_view(hand, 1, 0)
    spectator = seat_view(hand, None, 0)
    assert len(mine["pending"]) == 5
    assert theirs["pending"] == 5 and spectator["pending"] == 5
    assert hand.view(0)["options"] == {
        "place": 5, "discard": 0, "free": {"top": 3, "middle": 5, "bottom": 5},
    }  # fmt: skip
    assert hand.view(1)["options"] is None and hand.view(None)["options"] is None
    started = project_event(hand.events[0], None)
    assert "deck" not in started and started["deck_size"] == 52
    deal = next(e for e in hand.events if isinstance(e, CardsDealt) and e.seat == 0)
    assert project_event(deal, 1)["cards"] == 5
    assert project_event(deal, 0)["cards"] == [str(c) for c in deal.cards]
    hand.apply(hand.timeout_action(0))
    # Open face: placed cards are public at once.
    assert seat_view(hand, 1, 0)["rows"] == seat_view(hand, 0, 0)["rows"]
    assert seat_view(hand, None, 0)["face_down"] == 0


def test_pineapple_discards_are_private_in_events_and_views() -> None:
    hand = ChineseHand.start("pineapple", [0, 1], button=1, seed=6)
    play_out(hand, random.Random(6))
    placed = [e for e in hand.events if isinstance(e, CardsPlaced) and e.discarded]
    assert placed
    for e in placed:
        assert project_event(e, 1 - e.seat)["discarded"] == 1
        assert project_event(e, None)["discarded"] == 1
        assert project_event(e, e.seat)["discarded"] == [str(c) for c in e.discarded]
    assert seat_view(hand, None, 0)["discards"] == 4


def test_replay_needs_a_start_and_events_round_trip() -> None:
    with pytest.raises(ChineseError):
        ChineseHand.replay([])
    with pytest.raises(CodecError):
        decode_event({"v": 1, "type": "nonsense"})
    hand = ChineseHand.start("turbo", [0, 1], button=0, seed=12)
    play_out(hand, random.Random(12))
    kinds = [type(e) for e in hand.events]
    assert kinds[0] is HandStarted and kinds[-1] is HandSettled
    for e in hand.events:
        assert decode_event(encode_event(e)) == e


def test_a_room_royalty_table_is_used_and_replayed() -> None:
    from cardroom.cards import CARDS, parse_cards
    from cardroom.chinese import RoyaltyTable

    # Classic, dealt one at a time: seat 0 gets the even cards, set in dealt order by timeout.
    mine = parse_cards("Ac Ad Ah As Kc Qc Qd Qh Qs Kd 2c 2d 3c")
    rest = [c for c in CARDS if c not in mine]
    deck = [c for pair in zip(mine, rest, strict=False) for c in pair] + rest[13:]
    generous = RoyaltyTable.from_dict({"top": {"22": 5}, "middle": {}, "bottom": {}})
    results = {}
    for name, table in (("room", generous), ("standard", None)):
        hand = ChineseHand.start("classic", [0, 1], button=1, deck=deck, royalties=table)
        play_out(hand, random.Random(21), timeouts=True)
        assert hand.results is not None
        results[name] = next(r for r in hand.results if r.seat == 0)
        assert ChineseHand.replay(hand.events).state() == hand.state()
    assert results["room"].royalties == {"top": 5, "middle": 0, "bottom": 0}
    assert results["standard"].royalties == {"top": 0, "middle": 20, "bottom": 10}


def test_a_fantasyland_timeout_sets_for_the_hands_own_royalty_table() -> None:
    from cardroom.cards import CARDS, parse_cards
    from cardroom.chinese import RoyaltyTable, best_arrangement

    # Seat 0 in Fantasyland is dealt these 13 (one at a time with seat 1's five). With
    # no royalties, the pair of kings is worth more at the back than the middle's
    # kings and jacks on top (which the standard table pays 12 for).
    mine = parse_cards("5s Jd Th 4c 7s Jh 9h Qc Ah 3c Kh 2c Kd")
    rest = [c for c in CARDS if c not in mine]
    deck = [c for pair in zip(mine, rest[:5], strict=False) for c in pair] + [*mine[5:], *rest[5:]]
    empty = RoyaltyTable()
    hand = ChineseHand.start(
        "ofc", [0, 1], button=1, deck=deck, fantasyland={0: 13}, royalties=empty
    )
    assert set(hand.players[0].pending) == set(mine)
    best = best_arrangement(VARIANTS["ofc"], mine, in_fantasyland=True, royalties=empty)
    standard = best_arrangement(VARIANTS["ofc"], mine, in_fantasyland=True)
    assert best.arrangement != standard.arrangement
    action = hand.timeout_action(0)
    assert (action.top, action.middle, action.bottom) == (
        best.arrangement.top,
        best.arrangement.middle,
        best.arrangement.bottom,
    )
    hint = hand.hint(0)
    assert hint is not None and hint.placed == action.placed


def _cards_in(data: Any) -> set[str]:
    """Every card name anywhere in a JSON-shaped view."""
    if isinstance(data, str):
        return {data} if len(data) == 2 and data[0] in "23456789TJQKA" else set()
    if isinstance(data, dict):
        return set().union(*(_cards_in(v) for v in data.values())) if data else set()
    if isinstance(data, list):
        return set().union(*(_cards_in(v) for v in data)) if data else set()
    return set()


def _secrets_from(hand: ChineseHand, viewer: int | None) -> set[str]:
    """Cards ``viewer`` must not see: others' unplaced cards, discards, face-down sets."""
    out: set[str] = set()
    for seat, p in hand.players.items():
        if seat == viewer:
            continue
        hidden = list(p.pending) + p.discards + ([] if hand.finished else p.face_down)
        out |= {str(c) for c in hidden}
    return out


@settings(max_examples=int(os.environ.get("CARDROOM_CHINESE_EXAMPLES", "40")), deadline=None)
@given(
    variant=st.sampled_from(["ofc", "pineapple", "turbo", "progressive", "pineapple27", "classic"]),
    players=st.integers(2, 4),
    seed=st.integers(0, 10**6),
    fl=st.lists(st.sampled_from([0, 0, 13, 14, 15, 16, 17]), min_size=4, max_size=4),
)
def test_random_hands_never_leak_and_always_replay(
    variant: str, players: int, seed: int, fl: list[int]
) -> None:
    v = VARIANTS[variant]
    players = min(players, v.max_players)
    allowed = v.fantasyland.deal_sizes if v.fantasyland else frozenset()
    sizes = [n if n in allowed else 0 for n in fl[:players]]
    if sum(n or v.cards_per_player for n in sizes) > 52:
        sizes = [0] * players
    hand = ChineseHand.start(
        variant, list(range(players)), button=seed % players, seed=seed,
        fantasyland={s: n for s, n in enumerate(sizes)},
    )  # fmt: skip
    rng = random.Random(seed)
    while True:
        for viewer in [None, *range(players)]:
            assert not _cards_in(hand.view(viewer)) & _secrets_from(hand, viewer)
            for event in hand.events:
                assert not _cards_in(project_event(event, viewer)) & _secrets_from(hand, viewer)
        if hand.finished:
            break
        seat = rng.choice(hand.to_act())
        hand.apply(random_place(hand, seat, rng))
    assert hand.results is not None and sum(r.points for r in hand.results) == 0
    assert ChineseHand.replay(hand.events).state() == hand.state()


def test_1_a_seeded_chinese_deal_is_the_package_deck_of_that_seed() -> None:
    # One shuffle everywhere: the seed deals Deck.standard(seed), the deck of a hold'em
    # hand and of `cardroom deal --seed` with the same seed; "007" is the seed 7.
    assert ChineseHand.start("ofc", [0, 1], button=1, seed=7).deck == Deck.standard(7).cards
    assert ChineseHand.start("ofc", [0, 1], button=1, seed="007").deck == Deck.standard(7).cards
    with pytest.raises(ChineseError, match="a seed must be"):
        ChineseHand.start("ofc", [0, 1], button=1, seed=7.5)  # type: ignore[arg-type]
