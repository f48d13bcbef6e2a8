"""The record as stored: every engine event through the codec and JSON, and back.

For random hands of every game and structure: play -> encode -> ``json.dumps`` /
``json.loads`` -> decode -> ``replay`` gives the same events, the same state, the
same ``view(seat)`` for every seat and the spectator, and the same result; the
per-seat projection of a decoded event equals that of the live one. Hands per
game and structure: ``CARDROOM_CODEC_HANDS`` (default 10, about 800 hands; e.g. 200
for a soak).
"""

from __future__ import annotations

import json
import os
import random

import pytest
from tests.games.random_hands import CONFIGS, played

from cardroom.games import ConfigError, Hand, event_view, replay
from cardroom.games.codec import EVENT_TYPES, CodecError, decode_event, encode_event
from cardroom.games.events import Acted, HandCancelled, HoleDealt

HANDS = int(os.environ.get("CARDROOM_CODEC_HANDS", "10"))


def stored(hand: Hand) -> list[object]:
    """The hand's events as the event log holds them: JSON text, read back."""
    text = json.dumps([encode_event(e) for e in hand.events], allow_nan=False)
    return [decode_event(d) for d in json.loads(text)]


@pytest.mark.parametrize(
    ("game", "structure", "config"), CONFIGS, ids=[f"{g}-{s}" for g, s, _ in CONFIGS]
)
def test_the_stored_record_replays_to_the_same_hand(
    game: str, structure: str, config: object
) -> None:
    rng = random.Random(f"codec/{game}/{structure}")
    for _ in range(HANDS):
        hand = played(config, rng)  # type: ignore[arg-type]
        back = stored(hand)
        assert back == hand.events
        again = replay(back)  # type: ignore[arg-type]
        assert again.events == hand.events
        assert again.result == hand.result and again.is_over and again.cancelled == hand.cancelled
        assert again.stacks == hand.stacks
        viewers = [None, *range(len(hand.seats))]
        for viewer in viewers:
            assert again.view(viewer) == hand.view(viewer)
            for live, decoded in zip(hand.events, back, strict=True):
                assert event_view(decoded, viewer) == event_view(live, viewer)  # type: ignore[arg-type]


def test_every_event_type_is_covered_and_named() -> None:
    assert {t.__name__ for t in EVENT_TYPES} >= {"HandStarted", "Acted", "HandCancelled"}
    assert encode_event(HandCancelled((5, None, 7))) == {
        "v": 1,
        "type": "HandCancelled",
        "stacks": [5, None, 7],
    }


GOOD = {"v": 1, "type": "Acted", "seat": 1, "kind": "call", "amount": 2, "to": 2, "all_in": False}


@pytest.mark.parametrize(
    "bad",
    [
        None,
        [],
        "Acted",
        {**GOOD, "v": 2},
        {**GOOD, "v": "1"},
        {**GOOD, "v": True},
        {k: v for k, v in GOOD.items() if k != "v"},
        {**GOOD, "type": "Nonsense"},
        {**GOOD, "type": "Event"},
        {k: v for k, v in GOOD.items() if k != "to"},
        {**GOOD, "extra": 1},
        {**GOOD, "amount": 2.0},
        {**GOOD, "amount": True},
        {**GOOD, "amount": "2"},
        {**GOOD, "amount": 2**70},
        {**GOOD, "all_in": 0},
        {**GOOD, "kind": 3},
        {"v": 1, "type": "HoleDealt", "seat": 0, "cards": ["Ah", "Zz"], "up": [False, False]},
        {"v": 1, "type": "HoleDealt", "seat": 0, "cards": [12, 13], "up": [False, False]},
        {"v": 1, "type": "HoleDealt", "seat": 0, "cards": "AhKd", "up": [False, False]},
        {"v": 1, "type": "HoleDealt", "seat": 0, "cards": ["Ah"], "up": [1]},
        {"v": 1, "type": "BlindSeats", "x": 1},
        {
            "v": 1,
            "type": "HandStarted",
            "config": {"game": "holdm"},
            "seats": [],
            "button": 0,
            "blind_seats": None,
        },
        {
            "v": 1,
            "type": "HandStarted",
            "config": [],
            "seats": [],
            "button": 0,
            "blind_seats": None,
        },
        {"v": 1, "type": "HandCancelled", "stacks": [1, 2.5]},
        # Well typed, yet no hand emits them:
        {
            "v": 1,
            "type": "Acted",
            "seat": -1,
            "kind": "call",
            "amount": 2,
            "to": 2,
            "all_in": False,
        },
        {"v": 1, "type": "Acted", "seat": 1, "kind": "xyz", "amount": 2, "to": 2, "all_in": False},
        {
            "v": 1,
            "type": "Acted",
            "seat": 1,
            "kind": "call",
            "amount": -5,
            "to": 2,
            "all_in": False,
        },
        {"v": 1, "type": "HoleDealt", "seat": 0, "cards": ["Ah", "Td"], "up": [False]},
        {"v": 1, "type": "HandCancelled", "stacks": [-5, 3]},
        {
            "v": 1,
            "type": "HandStarted",
            "config": None,
            "seats": [{"stack": 1}],
            "button": 0,
            "blind_seats": [0, 1, 2],
        },
    ],
)
def test_a_malformed_record_is_refused_with_one_error_type(bad: object) -> None:
    with pytest.raises(CodecError):
        decode_event(bad)


def test_a_good_record_decodes() -> None:
    assert decode_event(GOOD) == Acted(1, "call", 2, 2, False)
    dealt = decode_event(
        {"v": 1, "type": "HoleDealt", "seat": 0, "cards": ["Ah", "Td"], "up": [False, True]}
    )
    assert isinstance(dealt, HoleDealt) and [str(c) for c in dealt.cards] == ["Ah", "Td"]


def test_a_record_the_rules_refuse_does_not_replay_with_config_error() -> None:
    hand = played(CONFIGS[0][2], random.Random(3))
    events = list(hand.events)
    first = next(i for i, e in enumerate(events) if isinstance(e, Acted))
    acted = events[first]
    assert isinstance(acted, Acted)
    events[first] = Acted(acted.seat + 1, acted.kind, acted.amount, acted.to, acted.all_in)
    with pytest.raises(ConfigError):
        replay(events)  # out of turn: the rules refuse it, and the record is what is wrong
    with pytest.raises(ConfigError):
        replay([])


def test_only_engine_events_encode() -> None:
    with pytest.raises(CodecError):
        encode_event(GOOD)  # type: ignore[arg-type]
