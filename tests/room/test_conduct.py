"""§10.7, §10.9 and §12 at the table: moderated chat, reports, integrity flags for
review, the table's lobby line (the pieces are roomaux's; these test the wiring)."""

from __future__ import annotations

import pytest

from cardroom.room import commands as cmd
from cardroom.room import events as rv
from cardroom.room.chinese_room import ChineseRoomTable
from cardroom.room.chinese_table import ChineseTableConfig
from cardroom.room.conduct import lobby_summary
from cardroom.room.errors import TableError
from cardroom.room.integrity import IntegrityMonitor
from cardroom.room.integrity_rules import PotPattern
from cardroom.room.rotation import horse
from cardroom.room.settings import TableSettings
from cardroom.room.views import project

from .conftest import Harness, holdem


def test_10_7_a_chat_line_is_broadcast_to_the_table(h: Harness) -> None:
    h.seat({0: 40, 1: 40})
    events = h.do(cmd.Say("p0", "good luck all"))
    assert events == [rv.ChatSaid("p0", "good luck all", h.clock.now)]
    assert project(events[0], 1) is not None and project(events[0], None) is not None


def test_10_7_card_talk_by_a_player_in_the_hand_is_blocked(h: Harness) -> None:
    h.seat({0: 40, 1: 40, 2: 40})
    h.tick()
    events = h.do(cmd.Say("p1", "I have pocket aces"))
    assert not any(isinstance(e, rv.ChatSaid) for e in events)
    blocked = next(e for e in events if isinstance(e, rv.ChatBlocked))
    assert blocked.code == "card_talk" and not blocked.offence
    assert project(blocked, 1) is not None and project(blocked, 0) is None


def test_10_7_card_talk_is_blocked_for_a_folded_player_until_the_hand_ends(h: Harness) -> None:
    # "No talk about cards during a hand": a folded hand's cards are still hidden from
    # those playing on. A seat not dealt in holds no card of the hand: not blocked.
    h.seat({0: 40, 1: 40, 2: 40, 3: 40})
    h.do(cmd.SitOut("p3"))
    h.tick()
    hand = h.table.hand
    assert hand is not None and 3 not in h.table.state.dealt
    folder = f"p{hand.actor}"
    h.do(cmd.Act(folder, "fold"))
    said = h.do(cmd.Say(folder, "I folded AK"))
    assert [e.code for e in said if isinstance(e, rv.ChatBlocked)] == ["card_talk"]
    assert not any(isinstance(e, rv.ChatSaid) for e in said)
    aside = h.do(cmd.Say("p3", "bet he has AK"))
    assert aside == [rv.ChatSaid("p3", "bet he has AK", h.clock.now)]
    h.do(cmd.Act(f"p{hand.actor}", "fold"))  # the last but one folds: the hand is over
    assert not h.table.state.in_hand
    after = h.do(cmd.Say(folder, "I folded AK"))
    assert after == [rv.ChatSaid(folder, "I folded AK", h.clock.now)]


def test_10_7_advertising_is_an_offence_for_the_server_to_sanction(h: Harness) -> None:
    h.seat({0: 40})
    events = h.do(cmd.Say("p0", "come play at www.example.com"))
    blocked = next(e for e in events if isinstance(e, rv.ChatBlocked))
    assert blocked.code == "advertising" and blocked.offence


def test_10_7_a_line_past_the_rate_is_refused_and_nothing_recorded(h: Harness) -> None:
    # A verdict on a line (card talk, an offence) is recorded; a line the player may not
    # send yet is a refusal: a flooder's lines would each be a stored event.
    h.seat({0: 40, 1: 40})
    for i in range(5):  # the burst
        assert h.do(cmd.Say("p0", f"line {i}")) == [rv.ChatSaid("p0", f"line {i}", h.clock.now)]
    recorded = len(h.table.record()[1])
    with pytest.raises(TableError) as err:
        h.do(cmd.Say("p0", "one too many"))
    assert err.value.code == "rate_limited"
    assert len(h.table.record()[1]) == recorded
    h.clock.advance(2.0)
    assert h.do(cmd.Say("p0", "later")) == [rv.ChatSaid("p0", "later", h.clock.now)]


def test_10_7_only_seated_players_chat(h: Harness) -> None:
    with pytest.raises(TableError) as err:
        h.do(cmd.Say("p5", "hi"))
    assert err.value.code == "not_seated"


def test_10_7_a_report_records_a_complaint_for_review(h: Harness) -> None:
    h.seat({0: 40, 1: 40})
    h.do(cmd.Say("p1", "fold now or else"))
    events = h.do(cmd.Report("p0", "p1", "chat_abuse", "threats"))
    report = events[0]
    assert isinstance(report, rv.ChatReported) and report.accused == "p1"
    assert project(report, 0) is not None and project(report, 1) is None
    with pytest.raises(TableError):
        h.do(cmd.Report("p0", "p1", "nonsense"))


def test_10_9_integrity_flags_are_review_events_never_shown_to_players() -> None:
    h = Harness(holdem())
    rule = PotPattern(window=300, threshold=2, min_one_way_percent=50)
    h.integrity = IntegrityMonitor([rule])  # the room's
    h.seat({0: 40, 1: 40})
    flags: list[rv.ReviewFlagged] = []
    for _ in range(6):  # p0 gives the blinds away hand after hand
        h.tick()
        while h.table.state.in_hand:
            legal = h.table.hand.legal_actions(h.table.hand.actor)  # type: ignore[union-attr,arg-type]
            events = h.act("fold" if h.actor == "p0" else "check" if legal.check else "call")
            flags += [e for e in events if isinstance(e, rv.ReviewFlagged)]
    assert flags and flags[0].rule == "repeated_pots"
    assert set(flags[0].accounts) == {"p0", "p1"}
    assert all(project(f, s) is None for f in flags for s in (None, 0, 1))
    assert h.table.state.seats[0] is not None  # a flag, never a punishment


def play_soft(h: Harness, hands: int) -> list[rv.ReviewFlagged]:
    """Heads-up, p1 raises whenever he acts and p0 folds to him: p0's chips go to p1."""
    flags: list[rv.ReviewFlagged] = []
    for _ in range(hands):
        events = h.tick()
        while h.table.state.in_hand:
            hand = h.table.hand
            assert hand is not None and hand.actor is not None
            legal = hand.legal_actions(hand.actor)
            if h.actor == "p1":
                events += h.act("raise", legal.min_raise_to or 0)
            elif legal.check:
                events += h.act("check")
            else:  # p0 calls a blind, folds to p1's raise
                events += h.act("fold" if hand.current_bet > 2 else "call")
        flags += [e for e in events if isinstance(e, rv.ReviewFlagged)]
    return flags


def test_10_9_soft_play_chip_dumping_and_a_shared_ip_at_a_table_are_flagged() -> None:
    h = Harness(holdem())
    h.integrity = IntegrityMonitor()  # the room's, with the shipped rules
    first = h.do(cmd.Sit("p0", 0, 40, ip="10.0.0.7"))
    assert not any(isinstance(e, rv.ReviewFlagged) for e in first)
    events = h.do(cmd.Sit("p1", 1, 40, ip="10.0.0.7"))
    shared = [e for e in events if isinstance(e, rv.ReviewFlagged)]
    assert [(f.rule, f.accounts) for f in shared] == [("shared_ip", ("p0", "p1"))]
    flags = play_soft(h, 12)
    by_rule = {f.rule: f for f in flags}
    assert set(by_rule) == {"repeated_pots", "folds_to_same_raiser"}
    assert by_rule["repeated_pots"].accounts == ("p0", "p1")  # p0 lost to p1...
    assert len(by_rule["repeated_pots"].hands) == 10  # ...in 10: the file's threshold
    assert by_rule["folds_to_same_raiser"].accounts == ("p0", "p1")  # p0 folded to p1
    assert len(by_rule["folds_to_same_raiser"].hands) == 12
    record = h.table.log  # in the record, for the operator (the hand's events since)
    assert all(project(f, s) is None for f in flags + shared for s in (None, 0, 1))
    assert by_rule["folds_to_same_raiser"] in record
    assert all(seat is not None for seat in h.table.state.seats[:2])  # never a punishment


def test_10_9_chinese_poker_hands_are_reviewed_for_chip_dumping() -> None:
    config = ChineseTableConfig("ofc", point_value=10)
    settings = TableSettings.chinese_table("c", config, seed="chinese-review")
    h = Harness(settings)
    every_win = PotPattern(window=10, threshold=1, min_one_way_percent=50)
    assert isinstance(h.table, ChineseRoomTable)
    h.integrity = IntegrityMonitor([every_win])
    h.seat({0: 1000, 1: 1000})
    events = h.tick()
    while not any(isinstance(e, rv.HandFinished) for e in events):
        events += h.tick(1000)  # the table places for both: the clock runs out
    finished = next(e for e in events if isinstance(e, rv.HandFinished))
    flags = [e for e in events if isinstance(e, rv.ReviewFlagged)]
    assert dict(finished.stacks) == {0: 1060, 1: 940}  # p1 lost 6 points (this deck)
    assert [(f.rule, f.accounts) for f in flags] == [("repeated_pots", ("p1", "p0"))]


def test_12_lobby_summary_of_a_table(h: Harness) -> None:
    h.seat({0: 40, 1: 40})
    h.tick()
    h.act("call")
    h.act("check")
    h.finish_by_checking()
    finished = next(e for e in h.table.log if isinstance(e, rv.HandFinished))
    summary = lobby_summary(h.table, finished.pot)
    assert (summary.table_id, summary.seats_taken, summary.waiting) == ("t", 2, 0)
    assert summary.pot == 4


def test_12_a_mixed_table_s_lobby_line_names_its_game_as_the_badge_does() -> None:
    """§9, §12: a mixed table is shown with the game it plays now, named as the badges
    name games (structure and game: "FL Hold'em", not the engine's "Texas Hold'em"),
    the hand's own while one is played."""
    h = Harness(TableSettings.with_rotation("m", horse(4), seed="m"))
    h.seat({0: 40, 1: 40})
    assert lobby_summary(h.table).current_game == "FL Hold'em"  # the next hand's
    h.tick()
    assert lobby_summary(h.table).current_game == "FL Hold'em"
