"""RULEBOOK §12 and issue 13: per-seat table views; no view ever holds another player's
hidden cards, checked on every event of every test session for every seat and a
spectator, and on the table view after every step."""

from __future__ import annotations

import dataclasses
import os
import random

import pytest

from cardroom.games import RakeRule
from cardroom.games.config import Stakes, TableConfig
from cardroom.ledger import Currency
from cardroom.room import commands as cmd
from cardroom.room import events as rv
from cardroom.room.conduct import lobby_summary
from cardroom.room.errors import TableError
from cardroom.room.rotation import HORSE, custom_mixed, horse
from cardroom.room.settings import TableSettings
from cardroom.room.sim_tables import mixed_settings, random_settings
from cardroom.room.simulation import Session
from cardroom.room.views import project

from .conftest import Harness, holdem, limit_holdem
from .knowledge import Knowledge

SESSIONS = int(os.environ.get("CARDROOM_ROOM_SESSIONS", "16"))


def check_session(session: Session, steps: int) -> int:
    knowledge = Knowledge(len(session.table.state.seats))
    checked = 0
    for _ in range(steps):
        events = session.step()
        knowledge.check_events(events)
        knowledge.check_table(session.table)
        checked += len(events) * len(knowledge.viewers)
    return checked


def test_12_no_view_holds_another_players_hidden_cards_in_any_session() -> None:
    rng = random.Random(1212)
    total = 0
    for i in range(SESSIONS):
        session = Session(random_settings(rng, f"v{i}", seed=f"v{i}"), seed=i, check_money=False)
        total += check_session(session, 400)
    assert total > 10_000


def test_12_private_advance_actions_are_seen_by_their_seat_only() -> None:
    e = rv.AdvanceSet(2, "call_any", 0, 0, 2)
    assert project(e, 2) is not None
    assert project(e, 1) is None and project(e, None) is None


def test_10_6_how_many_disconnect_all_ins_a_player_used_is_told_to_his_seat_only() -> None:
    # That one was given is public; how many are used (so whether any is left, and a
    # knock offline now folds him) is his own, the record's and the staff's.
    e = rv.DisconnectAllInUsed(seat=2, player="p2", hand_no=7, used_today=2, day=20000)
    assert project(e, 2) == {"type": "DisconnectAllInUsed", **dataclasses.asdict(e)}
    for other in (1, None):
        assert project(e, other) == {
            "type": "DisconnectAllInUsed", "seat": 2, "player": "p2", "hand_no": 7, "day": 20000
        }  # fmt: skip


def test_12_table_view_shows_seats_button_clock_and_game() -> None:
    session = Session(random_settings(random.Random(4), "g", seed="g"), seed=4)
    while not session.table.state.in_hand:
        session.step()
    player = next(s.player for s in session.table.state.seats if s is not None)
    view = session.table.view(player)
    assert view["button"] == session.table.state.positions.button  # type: ignore[union-attr]
    assert view["turn"]["deadline"] > 0
    assert {"stack", "sitting_out", "time_bank", "connected"} <= set(view["seats"][view["you"]])
    assert view["game"]["game"] == session.settings.games[0].variant.name
    assert view["hand"]["you"] == view["you"]
    assert isinstance(view["chat"], list)


def test_10_the_room_options_of_a_table_are_shown_to_players() -> None:
    """RULEBOOK (its preamble): every option "must be settable per table and shown to
    players". The room's own (§10.4-§10.6: the clock, the time bank, the wait for a
    disconnected player, the disconnect all-ins, the sit-out limit) were settable and
    shown nowhere (the view carried the engine's rule options only): a player could not
    tell how long he may sit out, or whether being cut off folds him here."""
    options = dict(
        action_seconds=20.0,
        time_bank_start=15.0,
        time_bank_refill=5.0,
        time_bank_every=8,
        time_bank_max=45.0,
        reconnect_seconds=40.0,
        disconnect_allins_per_day=3,
        allowance_resets_per_day=2,
        sit_out_minutes=7.0,
        waitlist_offer_seconds=50.0,
        reducing_minutes=20.0,
    )
    h = Harness(limit_holdem(disconnect_protection=True, **options))  # type: ignore[arg-type]
    h.seat({0: 40})
    terms = {
        "action_seconds": 20.0,
        "time_bank": {"start": 15.0, "refill": 5.0, "every": 8, "max": 45.0},
        "reconnect_seconds": 40.0,
        "disconnect_allins_per_day": 3,
        "allowance_resets_per_day": 2,
        "sit_out_minutes": 7.0,
        "waitlist_offer_seconds": 50.0,
        "reducing_minutes": 20.0,
        "language": "en",
    }
    for viewer in ("p0", None):
        view = h.table.view(viewer)
        assert view["terms"] == terms
        assert view["game"]["disconnect_protection"] is True
    assert holdem_view_protection(holdem()) is False  # NL play money: none by default


def test_10_8_a_real_money_table_shows_the_rake_each_game_pays() -> None:
    """RULEBOOK §10.8: the rake schedule is data, per table or per stake, and (its
    preamble) every table option is shown to players. The rake a real-money table takes
    was told only in the hands' logs ("Rake 5") and to the operator: a player choosing
    a seat could not read it. Each game of the view says its rule (a mixed table's
    differ: FL and NL Hold'em are raked by different lines of the schedule); play money
    is free (None)."""
    nl = {"per": 5, "unit": 100, "caps": [[2, 75], [4, 200], [10, 400]]}
    nl |= {"small_pot_below": 200, "small_per": 1, "small_unit": 20, "street": "flop"}
    h = Harness(holdem(currency=Currency.REAL))
    for viewer in ("p0", None):
        assert h.table.view(viewer)["game"]["rake"] == nl
    assert Harness(holdem()).table.view(None)["game"]["rake"] is None
    own = RakeRule(3, 60, ((10, 30),))
    view = Harness(holdem(currency=Currency.REAL, rake=own)).table.view(None)
    assert view["game"]["rake"]["per"] == 3 and view["game"]["rake"]["caps"] == [[10, 30]]
    limit = Harness(TableSettings.with_rotation("m", horse(100), currency=Currency.REAL))
    assert limit.table.view(None)["game"]["label"] == "FL Hold'em"  # 100/200: 25 per 500
    assert limit.table.view(None)["game"]["rake"]["unit"] == 500
    big_bet = Harness(TableSettings.with_rotation("c", custom_mixed(100), currency=Currency.REAL))
    view = big_bet.table.view(None)
    assert (view["game"]["label"], view["game"]["rake"]) == ("NL Hold'em", nl)
    # No flop, no drop, as each game's data says it (the client words it from `street`).
    from cardroom.games import Stakes, TableConfig
    from cardroom.room.views import rake_view

    streets = {}
    for game, stakes in (("stud", Stakes.limit(4, ante=1)), ("soko", Stakes.limit(4, ante=1))):
        shown = rake_view(TableConfig.of(game, stakes, rake=own))
        assert shown is not None
        streets[game] = shown["street"]
    assert streets == {"stud": "fourth street", "soko": "third street"}


def test_12_a_table_s_game_label_names_its_hi_lo_option() -> None:
    """The table's title says the game played (§12): Courchevel with `hi_lo=true` is
    Courchevel Hi-Lo (§6.3), as the lobby's badge says, not "PL Courchevel"."""
    config = TableConfig.of("courchevel", Stakes.blinds(1, 2), hi_lo=True)
    h = Harness(TableSettings.single("c", config, seed="c"))
    h.seat({0: 40, 1: 40})
    assert h.table.view(None)["game"]["label"] == "PL Courchevel Hi-Lo"
    h.tick()
    assert h.table.view("p0")["game"]["label"] == "PL Courchevel Hi-Lo"
    assert lobby_summary(h.table).current_game == ""  # a single game: no "now ..." line


def test_10_7_a_table_chats_in_its_language_set_per_table_and_shown() -> None:
    """RULEBOOK §10.7: "per-table chat in the table language"; a table had no language
    at all. ``language`` (a language tag, English by default) is set per table and shown
    with the table's terms."""
    assert Harness(holdem()).table.view(None)["terms"]["language"] == "en"
    h = Harness(holdem(language="el"))
    h.seat({0: 40})
    assert h.table.view("p0")["terms"]["language"] == "el"
    for wrong in ("", "Greek", "e", "el_GR", "el-"):
        with pytest.raises(TableError):
            holdem(language=wrong)


def holdem_view_protection(settings: TableSettings) -> object:
    return Harness(settings).table.view(None)["game"]["disconnect_protection"]


def test_12_table_view_holds_the_recent_chat_as_it_was_broadcast() -> None:
    h = Harness(holdem())
    h.seat({0: 40, 1: 40, 2: 40})
    h.do(cmd.Say("p0", "good luck all"))
    h.tick()  # a hand: card talk by a player in it is not broadcast
    h.do(cmd.Say("p1", "I have pocket aces"))
    h.do(cmd.Say("p2", "shit cards again"))  # masked, then broadcast
    said = [(e.player, e.text, e.at) for e in h.table.log if isinstance(e, rv.ChatSaid)]
    assert [text for _, text, _ in said] == ["**** cards again"]  # this hand's record
    expected = [
        {"player": "p0", "text": "good luck all", "at": h.clock.now},
        {"player": "p2", "text": "**** cards again", "at": h.clock.now},
    ]
    h.do(cmd.Disconnect("p0"))
    h.do(cmd.Reconnect("p0"))  # a player coming back gets the chat with the table
    for viewer in ("p0", "p1", "p2", None):
        assert h.table.view(viewer)["chat"] == expected


def test_9_mixed_table_view_says_the_current_and_the_next_game() -> None:
    session = Session(mixed_settings("m", HORSE, seed="m", hands_per_game=2), seed=9)
    games = []
    left: dict[int, int] = {}
    while session.counters["hands"] < 6:
        events = session.step()
        for e in events:
            if isinstance(e, rv.HandDealt):
                view = session.table.view(None)
                games.append((e.hand_no, view["game"]["game"], view["next_game"]["game"]))
                left[e.hand_no] = view["hands_left"]
                # The lobby says the game being played too, even on its last hand.
                assert lobby_summary(session.table).current_game == view["game"]["label"]
    by_hand = {n: (g, nxt) for n, g, nxt in games}
    assert [left[n] for n in range(1, 6)] == [2, 1, 2, 1, 2]  # this hand included
    assert by_hand[1] == ("holdem", "omaha_hi_lo") and by_hand[2] == by_hand[1]
    assert by_hand[3] == ("omaha_hi_lo", "razz") and by_hand[5][0] == "razz"
    assert session.table.view(None)["mixed"] == "HORSE"


def test_rule_options_set_at_a_table_are_shown_to_players_between_hands_too() -> None:
    # RULEBOOK (conflicts): "every option below must be settable per table and shown to
    # players": the view's games carry the options set away from their defaults.
    config = TableConfig.of("holdem", Stakes.blinds(1, 2), burn_cards=False)
    plain = Harness(holdem()).table.view(None)
    assert plain["game"]["rules"] == {} and plain["next_game"]["rules"] == {}
    single = Harness(TableSettings.single("t", config, seed="v")).table.view(None)
    assert single["game"]["rules"] == {"burn_cards": False}
    rules = {"stud_order_ties": "suit", "max_raises": 5}
    mixed = Session(mixed_settings("m", HORSE, seed="m", rules=rules), seed=9)
    while mixed.counters["hands"] < 1:
        mixed.step()
    view = mixed.table.view(None)
    assert view["game"]["rules"] == view["next_game"]["rules"] == rules
    assert view["last_game"]["rules"] == rules


def test_9_mixed_table_view_names_the_game_dealt_last_apart_from_the_next() -> None:
    # Between hands the view's game is the next hand's; last_game is the one just played
    # (what the header names until the next hand is dealt), the hand's own during it.
    session = Session(mixed_settings("m", HORSE, seed="m", hands_per_game=2), seed=9)
    assert session.table.view(None)["last_game"] is None  # nothing dealt yet
    dealt: dict[int, str] = {}
    between: dict[int, tuple[str, str]] = {}
    while session.counters["hands"] < 6:
        session.step()
        view = session.table.view(None)
        if view["hand"] is not None:
            assert view["last_game"] == view["game"]
            dealt[view["hand_no"]] = view["game"]["game"]
        elif view["hand_no"]:
            between[view["hand_no"]] = (view["last_game"]["game"], view["game"]["game"])
    for hand_no, (last, _) in between.items():
        assert last == dealt[hand_no]
    changes = {n: games for n, games in between.items() if games[0] != games[1]}
    assert changes and all(n % 2 == 0 for n in changes)  # after each game's 2nd hand
    assert {games for games in changes.values()} <= {
        ("holdem", "omaha_hi_lo"), ("omaha_hi_lo", "razz"), ("razz", "stud")
    }  # fmt: skip


def test_10_3_a_seat_offered_from_the_waiting_list_is_in_the_offered_player_s_view_only() -> None:
    """§10.3: the seat held for the first player waiting is his to take: his view says
    ``offer``; the next one waiting, a seated player and the rail have none (read as
    theirs, it would invite them to a seat held for somebody else)."""
    h = Harness(holdem(seats=2, waitlist_offer_seconds=60))
    h.seat({0: 40, 1: 40})
    h.do(cmd.JoinWaitlist("p2"))
    h.do(cmd.JoinWaitlist("p3"))
    h.do(cmd.Leave("p0"))
    assert h.table.view("p2")["offer"]["seat"] == 0
    for other in ("p3", "p1", None):
        assert "offer" not in h.table.view(other)


def test_10_3_a_seat_held_for_the_waiting_list_is_held_in_everyone_s_view() -> None:
    """§10.3: a seat freed is held for the first player waiting, and nobody else may sit
    there (``seat_reserved``) or anywhere while he holds it, but the view showed it as
    any empty seat: a browser offered the rail "Sit here" (refused) and no waiting list,
    though the room takes its players. Every view now says the seats held (``held``)."""
    h = Harness(holdem(seats=2, waitlist_offer_seconds=60))
    h.seat({0: 40, 1: 40})
    h.do(cmd.JoinWaitlist("p2"))
    assert h.table.view(None)["held"] == []
    h.do(cmd.Leave("p0"))
    for viewer in ("p2", "p1", "p4", None):
        assert h.table.view(viewer)["held"] == [0]
    h.do(cmd.Sit("p2", 0, 40))
    assert h.table.view(None)["held"] == []
