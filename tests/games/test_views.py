"""The engine's per-seat projections (RULEBOOK §12, the showdown of §7): what one seat,
or the rail, sees of a hand and of its events. Each test pins a line of
``cardroom/games/views.py`` the mutation audit (docs/views_mutation_audit.md) found
unpinned."""

from __future__ import annotations

from collections.abc import Mapping

from cardroom.cards import parse_cards
from cardroom.games import (
    Action,
    Hand,
    Seat,
    Stakes,
    TableConfig,
    arrange_deck,
    dealing_order,
    event_view,
    events,
)

HOLDEM = TableConfig.of("holdem", Stakes.blinds(1, 2))
BOARD = "2c 5d 9h Js 3s"


def deal(seats: list[Seat | int | None], holes: Mapping[int, str]) -> Hand:
    order = dealing_order([s is not None for s in seats], 0)
    holes_dealt = {s: parse_cards(c) for s, c in holes.items()}
    return Hand(HOLDEM, seats, 0, arrange_deck(HOLDEM, order, holes_dealt, parse_cards(BOARD)))


def river_showdown(auto_muck_1: bool = True) -> Hand:
    """Three players to the river, button seat 0; seat 2 bets, both call. Seat 0 holds
    the best hand, seat 1 the worst (it mucks, unless auto-muck is off)."""
    seats: list[Seat | int | None] = [Seat(100), Seat(100, auto_muck=auto_muck_1), Seat(100)]
    hand = deal(seats, {0: "As Ad", 1: "7c 6d", 2: "Kh Kd"})
    for kind in ("call", "call", "check"):
        hand.apply(Action(hand.actor, kind))  # type: ignore[arg-type]
    while hand.street_index < 3:
        hand.apply(Action(hand.actor, "check"))  # type: ignore[arg-type]
    hand.apply(Action(1, "check"))
    hand.apply(Action(2, "raise", 10))
    hand.apply(Action(0, "call"))
    hand.apply(Action(1, "call"))
    assert hand.is_over
    return hand


def cards_of(view: dict[str, object], seat: int) -> list[str | None]:
    seats = view["seats"]
    assert isinstance(seats, list)
    cards: list[str | None] = seats[seat]["cards"]
    return cards


def test_7_a_hand_shown_at_the_showdown_is_seen_by_every_seat_and_the_rail() -> None:
    """§7/§12: a hand shown at the showdown is public: the other seats and the rail see
    it in the table view, not only its owner (a view that kept the face-down cards
    hidden after they were shown would deny players what the table saw)."""
    hand = river_showdown()
    for viewer in (1, None):
        assert cards_of(hand.view(viewer), 0) == ["As", "Ad"]
        assert cards_of(hand.view(viewer), 2) == ["Kh", "Kd"]


def test_12_a_mucked_hand_stays_hidden_from_every_other_seat_and_the_rail() -> None:
    """§7/§12: a losing hand mucked at the showdown is never shown: only its owner sees it."""
    hand = river_showdown()
    assert cards_of(hand.view(1), 1) == ["7c", "6d"]
    for viewer in (0, 2, None):
        assert cards_of(hand.view(viewer), 1) == [None, None]


STUD = TableConfig.of("stud", Stakes(ante=1, small_bet=10, big_bet=20, bring_in=5))


def test_12_a_stud_up_card_dealt_is_public_in_its_event_and_a_down_card_its_owner_s() -> None:
    """§12: every face-up card is public as it is dealt, not only in the next snapshot:
    the other seats and the rail read the door card in the ``HoleDealt`` event, the two
    down cards as ``None`` (their number shown); the owner reads all three."""
    holes = ["Kc Kd Ks 9c 8d Jh Qc", "Ac 3d 2h 4s 6c Th Jd", "7c 7d 9h 5s 5d 2s 3s"]
    deck = arrange_deck(STUD, [0, 1, 2], {s: parse_cards(h) for s, h in enumerate(holes)})
    hand = Hand(STUD, [500] * 3, 2, deck, seed=1)
    dealt = [e for e in hand.events if isinstance(e, events.HoleDealt) and e.seat == 0]
    assert [list(e.up) for e in dealt] == [[False, False, True]]
    for viewer in (1, None):
        seen = event_view(dealt[0], viewer)
        assert seen["cards"] == [None, None, "Ks"] and seen["up"] == [False, False, True]
    assert event_view(dealt[0], 0)["cards"] == ["Kc", "Kd", "Ks"]


def test_12_hand_started_tells_the_stacks_and_not_a_seat_s_auto_muck_choice() -> None:
    """§7/§12: whether a player mucks losing hands is his own choice (``AutoMuckSet`` is
    seen by his seat only); the hand's first event names every seat's stack, and the
    other seats and the rail read nothing in it that tells them the choice."""
    projected = []
    for auto_muck in (True, False):
        seats: list[Seat | int | None] = [Seat(100), Seat(100, auto_muck=auto_muck), Seat(100)]
        hand = deal(seats, {0: "As Ad", 1: "7c 6d", 2: "Kh Kd"})
        started = hand.events[0]
        assert isinstance(started, events.HandStarted)
        projected.append([event_view(started, viewer) for viewer in (0, 2, None)])
    assert projected[0] == projected[1]
    assert projected[0][0]["stacks"] == [100, 100, 100]


def test_12_a_burn_card_is_shown_to_no_seat_and_not_to_the_rail() -> None:
    """§12: a burn card is nobody's: every seat and the rail learn that a card was burned,
    never which (it was caught before only by the server's check on receipt, two
    minutes into the server tests)."""
    hand = river_showdown()
    burns = [e for e in hand.events if isinstance(e, events.Burned)]
    assert len(burns) == 3
    for burn in burns:
        for viewer in (0, 1, 2, None):
            assert event_view(burn, viewer) == {"type": "Burned"}
