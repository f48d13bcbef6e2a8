"""The lobby (``GET /api/tables``) and one's own hand histories, over a real server where
random bots play hold'em; on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pokerkit
import pytest

from cardroom.games.phh import loads
from cardroom.server.api_history import _page
from cardroom.store.history import HandRef

from .api_client import BACKENDS, Api, bearer, fresh_alias, play_hands, register, start_api

HANDS = 3


@pytest.fixture(scope="module", params=BACKENDS)
def played(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Api, list[str]]]:
    """A server where two bots played at least HANDS hands of hold'em."""
    tmp: Path = tmp_path_factory.mktemp("lobby")
    for api in start_api(request, tmp):
        bots = [register(api, fresh_alias("bot")) for _ in range(2)]
        play_hands(api, "holdem", bots, HANDS)
        # Fresh bots at stud: the bot client numbers its message ids from m1 on every
        # connection, and the server answers a second "m1" of an account as a replay.
        studs = [register(api, fresh_alias("stud")) for _ in range(2)]
        play_hands(api, "stud", studs, 1)
        yield api, [*bots, *studs]


def _tables(api: Api, **query: Any) -> httpx.Response:
    return httpx.get(api.base + "/api/tables", params=query)


def test_12_lobby_lists_every_table_with_badge_stakes_and_money(
    played: tuple[Api, list[str]],
) -> None:
    api, _ = played
    answer = _tables(api)
    assert answer.status_code == 200
    rows = {r["table_id"]: r for r in answer.json()["tables"]}
    assert set(rows) == {"holdem", "stud", "draw", "real", "ofc"}
    assert rows["holdem"]["badge"] == "NL Hold'em" and rows["holdem"]["stakes"] == "1/2"
    assert rows["ofc"]["badge"] == "OFC" and rows["ofc"]["stakes"] == "1 a point"
    assert rows["ofc"]["max_seats"] == 3 and rows["ofc"]["money"] == "play"
    assert rows["real"]["money"] == "real" and rows["stud"]["money"] == "play"
    assert rows["holdem"]["max_seats"] == 6
    games = {c["value"] for c in answer.json()["games"]}
    assert {"holdem", "plo5", "HORSE", "ofc", "pineapple"} <= games


def test_12_lobby_figures_come_from_the_hands_played(played: tuple[Api, list[str]]) -> None:
    api, _ = played
    holdem = next(r for r in _tables(api).json()["tables"] if r["table_id"] == "holdem")
    assert holdem["hands_per_hour"] >= HANDS
    assert holdem["average_pot"] >= 3  # at least both blinds went into every pot
    draw = next(r for r in _tables(api).json()["tables"] if r["table_id"] == "draw")
    assert draw["hands_per_hour"] == 0 and draw["average_pot"] == 0


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ({"game": "stud"}, {"stud"}),
        ({"money": "real"}, {"real"}),
        ({"money": "play"}, {"holdem", "stud", "draw", "ofc"}),
        ({"game": "ofc"}, {"ofc"}),
        ({"structure": "pot_limit"}, {"real"}),
        ({"structure": "fixed_limit"}, {"stud", "draw"}),
        ({"min_stake": "3"}, {"stud", "draw"}),
        ({"max_stake": "2"}, {"holdem", "real", "ofc"}),
        ({"game": "holdem", "money": "real"}, set()),
    ],
)
def test_12_lobby_filters(
    played: tuple[Api, list[str]], query: dict[str, str], expected: set[str]
) -> None:
    api, _ = played
    answer = _tables(api, **query)
    assert answer.status_code == 200
    assert {r["table_id"] for r in answer.json()["tables"]} == expected


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ({"game": "chess"}, "unknown_game"),
        ({"money": "monopoly"}, "unknown_money"),
        ({"min_stake": "-1"}, "bad_request"),
        ({"max_stake": "9" * 40}, "bad_request"),
    ],
)
def test_lobby_refuses_unknown_filters(
    played: tuple[Api, list[str]], query: dict[str, str], code: str
) -> None:
    api, _ = played
    answer = _tables(api, **query)
    assert answer.status_code == 400 and answer.json()["code"] == code


def _hidden_cards_of_others(hand: dict[str, Any]) -> list[Any]:
    """Cards of other seats' HoleDealt events that the record shows (should be none
    unless the seat showed them later)."""
    shown = {e["seat"] for e in hand["events"] if e["type"] == "Shown"}
    return [
        c
        for e in hand["events"]
        if e["type"] == "HoleDealt" and e["seat"] != hand["seat"] and e["seat"] not in shown
        for c, up in zip(e["cards"], e["up"], strict=True)
        if c is not None and not up
    ]


def test_hand_history_shows_own_hands_without_the_others_hidden_cards(
    played: tuple[Api, list[str]],
) -> None:
    api, bots = played
    page = bearer(api, bots[0]).get("/api/hands", params={"limit": 50}).json()
    assert page["total"] >= HANDS and len(page["hands"]) == page["total"]
    assert {h["table_id"] for h in page["hands"]} == {"holdem"}
    for hand in page["hands"]:
        types = [e["type"] for e in hand["events"]]
        assert types[0] == "HandDealt" and types[-1] in ("HandFinished", "HandVoided")
        mine = [e for e in hand["events"] if e["type"] == "HoleDealt" and e["seat"] == hand["seat"]]
        assert mine and all(c is not None for e in mine for c in e["cards"])
        assert _hidden_cards_of_others(hand) == []
        private = [e for e in hand["events"] if e["type"] in ("AdvanceSet", "ReviewFlagged")]
        assert all(e.get("seat") == hand["seat"] for e in private)


def test_hand_history_in_phh_masks_what_the_player_did_not_see(
    played: tuple[Api, list[str]],
) -> None:
    api, bots = played
    hands = bearer(api, bots[0]).get("/api/hands").json()["hands"]
    for hand in [h for h in hands if h["table_id"] == "holdem"]:
        assert hand["phh"] is not None, hand["phh_note"]
        (history,) = loads(hand["phh"])
        assert history.variant == "NT"
        shown = {e["seat"] for e in hand["events"] if e["type"] == "Shown"}
        dealt = [a for a in history.actions if a.kind == "dh"]
        known = [a for a in dealt if a.cards is not None and None not in a.cards]
        masked = [a for a in dealt if a.cards is not None and all(c is None for c in a.cards)]
        # Each deal as the seat saw it (its own cards only); a hand shown at the showdown
        # is written where it was shown.
        assert len(known) == 1 and len(known) + len(masked) == 2
        showing = [a for a in history.actions if a.kind == "sm" and a.cards]
        assert len(showing) == len(shown) and all(None not in a.cards for a in showing)


def test_hand_history_pages_and_one_hand(played: tuple[Api, list[str]]) -> None:
    api, bots = played
    bot = bearer(api, bots[1])
    everything = bot.get("/api/hands", params={"limit": 50}).json()
    first = bot.get("/api/hands", params={"limit": 1}).json()
    assert len(first["hands"]) == 1 and first["next_offset"] == 1
    second = bot.get("/api/hands", params={"limit": 1, "offset": 1}).json()
    keys = [(h["table_id"], h["hand_no"]) for h in everything["hands"]]
    assert [(h["table_id"], h["hand_no"]) for h in first["hands"] + second["hands"]] == keys[:2]
    assert keys == sorted(keys, key=lambda k: k[1], reverse=True)  # newest first
    past = bot.get("/api/hands", params={"offset": 10_000}).json()
    assert past["hands"] == [] and past["next_offset"] is None
    table, number = keys[0]
    one = bot.get(f"/api/hands/{table}/{number}")
    assert one.status_code == 200 and one.json() == everything["hands"][0]
    missing = bot.get(f"/api/hands/{table}/999999")
    assert missing.status_code == 404 and missing.json()["code"] == "no_such_hand"
    # Digits only in ASCII: "²" is a digit to Python's isdigit, not to int().
    for bad in ({"limit": "\u00b2"}, {"offset": "\u00b3"}, {"offset": "\u0663"}, {"limit": "-1"}):
        refused = bot.get("/api/hands", params=bad)
        assert refused.status_code == 400 and refused.json()["code"] == "bad_request", bad


def test_hand_history_is_one_s_own(played: tuple[Api, list[str]]) -> None:
    api, bots = played
    stranger = bearer(api, register(api))
    assert stranger.get("/api/hands").json()["total"] == 0
    table_hand = bearer(api, bots[0]).get("/api/hands").json()["hands"][0]
    peek = stranger.get(f"/api/hands/{table_hand['table_id']}/{table_hand['hand_no']}")
    assert peek.status_code == 404
    assert httpx.get(api.base + "/api/hands").status_code == 401


def test_stud_history_shows_up_cards_and_hides_down_cards(
    played: tuple[Api, list[str]],
) -> None:
    api, bots = played
    hands = bearer(api, bots[2]).get("/api/hands", params={"limit": 50}).json()["hands"]
    stud = [h for h in hands if h["table_id"] == "stud"]
    assert stud
    for hand in stud:
        holes = [e for e in hand["events"] if e["type"] == "HoleDealt"]
        mine = [c for e in holes if e["seat"] == hand["seat"] for c in e["cards"]]
        ups = [c for e in holes for c, up in zip(e["cards"], e["up"], strict=True) if up]
        assert mine and None not in mine and ups and None not in ups
        assert _hidden_cards_of_others(hand) == []
        if hand["phh"] is None:  # it used the room's stud options (docs/api.md)
            assert "PHH cannot" in hand["phh_note"]
            assert hand["phh_refusal"] == "room_rules"
        else:
            assert hand["phh_refusal"] == ""


def test_hand_history_names_who_sat_where(played: tuple[Api, list[str]]) -> None:
    """Each hand says who sat at each seat as it was dealt (seat -> alias), so a
    replayer names the players rather than "Seat 3"."""
    api, bots = played
    hands = bearer(api, bots[0]).get("/api/hands", params={"limit": 50}).json()["hands"]
    holdem = [h for h in hands if h["table_id"] == "holdem"]
    assert holdem
    for hand in holdem:
        players = hand["players"]
        assert players[str(hand["seat"])] == bots[0]
        assert sorted(players.values()) == sorted(bots[:2])
        dealt = hand["events"][0]["dealt"]
        assert {int(s) for s in players} >= set(dealt)
    stud = bearer(api, bots[2]).get("/api/hands").json()["hands"][0]
    assert sorted(stud["players"].values()) == sorted(bots[2:])


def test_a_downloaded_phh_says_its_table_hand_time_seats_and_players(
    played: tuple[Api, list[str]],
) -> None:
    """The PHH file a player downloads is read alone, away from the page that listed it:
    it says (in the standard's optional fields, read here by PokerKit) which table and
    hand it is, when the hand was dealt, each player's seat and name in ``p1``, ``p2``...
    order (the button last), and the table's seats. It said none of them: the reader
    could not tell which player he was, nor where anyone sat."""
    api, bots = played
    hands = bearer(api, bots[0]).get("/api/hands", params={"limit": 50}).json()["hands"]
    holdem = [h for h in hands if h["table_id"] == "holdem"]
    assert holdem
    for hand in holdem:
        history = pokerkit.HandHistory.loads(hand["phh"])
        dealt, started = hand["events"][0], hand["events"][1]
        seats = len(started["stacks"])
        order = sorted(dealt["dealt"], key=lambda s: (s - dealt["button"] - 1) % seats)
        assert (history.table, history.hand) == ("holdem", hand["hand_no"])
        assert history.seats == [s + 1 for s in order] and history.seat_count == seats
        assert history.players == [hand["players"][str(s)] for s in order]
        assert history.players[order.index(hand["seat"])] == bots[0]
        at = datetime.fromisoformat(hand["dealt_at"]).replace(microsecond=0)
        written = datetime.combine(
            datetime(history.year, history.month, history.day).date(), history.time, UTC
        )
        assert (written, history.time_zone) == (at, "UTC")


class _GrowingHistory:
    """One player's finished hands at table ``t`` (a stand-in for ``TableHistory``); the
    test finishes another between two page reads, as a player reading his history while
    he plays does."""

    def __init__(self) -> None:
        self.refs = [self.hand(n) for n in range(1, 6)]

    @staticmethod
    def hand(n: int) -> HandRef:
        return HandRef("t", n, 0, 10 * n, 10 * n + 5, datetime(2026, 12, 6, n, tzinfo=UTC))

    def hands_of(self, player: str, table_id: str | None = None) -> list[HandRef]:
        return sorted(self.refs, key=lambda h: h.at, reverse=True)

    def seated(self, table_id: str, seqs: list[int]) -> dict[int, dict[int, str]]:
        return {seq: {0: "me"} for seq in seqs}

    def span(self, table_id: str, first: int, last: int | None) -> list[dict[str, Any]]:
        return []


def test_paging_while_hands_finish_lists_no_hand_twice() -> None:
    """A live run's client read its 94 hands 50 a page while it played: a hand finished
    between two pages, every hand moved one place down the newest-first list, and the
    second page began with the last hand of the first. Each page now says where the next
    begins (``next_before``: its last hand), which hands finishing meanwhile do not move."""
    history: Any = _GrowingHistory()
    first = _page(history, "me", 0, 2)
    assert [h.hand_no for h in first.hands] == [5, 4] and first.next_before == "t/4"
    history.refs.append(_GrowingHistory.hand(6))
    assert [h.hand_no for h in _page(history, "me", 2, 2).hands] == [4, 3]  # what offset does
    second = _page(history, "me", 0, 2, first.next_before)
    third = _page(history, "me", 0, 2, second.next_before)
    assert [h.hand_no for h in first.hands + second.hands + third.hands] == [5, 4, 3, 2, 1]
    assert (third.next_before, third.next_offset) == (None, None)


def test_hand_history_pages_by_before(played: tuple[Api, list[str]]) -> None:
    api, bots = played
    bot = bearer(api, bots[0])
    everything = bot.get("/api/hands", params={"limit": 50}).json()["hands"]
    keys, cursor, seen = [f"{h['table_id']}/{h['hand_no']}" for h in everything], None, []
    while True:
        page = bot.get("/api/hands", params={"limit": 1, **({"before": cursor} if cursor else {})})
        seen += [f"{h['table_id']}/{h['hand_no']}" for h in page.json()["hands"]]
        cursor = page.json()["next_before"]
        if cursor is None:
            break
    assert seen == keys
    unknown = bot.get("/api/hands", params={"before": "holdem/999999"})
    assert unknown.status_code == 404 and unknown.json()["code"] == "no_such_hand"
    for bad in ("holdem", "holdem/", "/1", "a b/1", "t/" + "9" * 20, "t/1\x00"):
        refused = bot.get("/api/hands", params={"before": bad})
        assert refused.status_code == 400 and refused.json()["code"] == "bad_request", bad
