"""RULEBOOK §10.9 and §10.1 across tables: the room's one integrity review sees every
table, so patterns split over two tables are flagged like those at one."""

from __future__ import annotations

from typing import Any

from cardroom.ledger import Currency
from cardroom.room import commands as cmd
from cardroom.room import events as rv
from cardroom.room.codec import decode_room_event, encode_room_event
from cardroom.room.integrity import Access, HandObservation, IntegrityMonitor, RaiseResponse
from cardroom.room.integrity_rules import AccessPattern
from cardroom.room.review import SettledHand, hand_ref, review
from cardroom.room.table import AnyEvent
from cardroom.room.views import project

from .conftest import Harness, holdem


def _room(*table_ids: str) -> list[Harness]:
    """Tables of one room: one integrity monitor (the shipped rules) for all of them."""
    monitor = IntegrityMonitor()
    tables = [Harness(holdem(t)) for t in table_ids]
    for h in tables:
        h.integrity = monitor
    return tables


def _flags(events: list[AnyEvent]) -> list[rv.ReviewFlagged]:
    return [e for e in events if isinstance(e, rv.ReviewFlagged)]


def test_10_1_a_second_account_from_one_address_at_another_table_is_flagged() -> None:
    a, b = _room("a", "b")
    assert not _flags(a.do(cmd.Sit("p0", 0, 40, ip="10.0.0.7")))
    assert not _flags(b.do(cmd.Sit("p9", 0, 40, ip="10.9.9.9")))
    flags = _flags(b.do(cmd.Sit("p1", 1, 40, ip="10.0.0.7")))
    assert [(f.rule, f.accounts) for f in flags] == [("shared_ip", ("p0", "p1"))]
    assert flags[0] in b.table.log and not _flags(a.table.log)  # where it was seen
    assert all(project(f, s) is None for f in flags for s in (None, 0, 1))


def _give_blinds_away(h: Harness, giver: str = "p0") -> list[AnyEvent]:
    """One heads-up hand in which ``giver`` folds at every turn (check or not): the
    other wins."""
    events = h.tick()
    while h.table.state.in_hand:
        hand = h.table.hand
        assert hand is not None and hand.actor is not None
        legal = hand.legal_actions(hand.actor)
        events += h.act("fold" if h.actor == giver else "check" if legal.check else "call")
    return events


def test_10_9_chips_dumped_over_two_tables_are_one_pattern() -> None:
    # The shipped rule flags 10 pots from one account to another within 300 hands: five
    # at each table reach it only when one review sees both tables.
    a, b = _room("a", "b")
    for h in (a, b):
        h.seat({0: 40, 1: 40})
    flags: list[rv.ReviewFlagged] = []
    for _ in range(5):
        for h in (a, b):
            flags += _flags(_give_blinds_away(h))
    assert [(f.rule, f.accounts) for f in flags] == [("repeated_pots", ("p0", "p1"))]
    hands = flags[0].hands
    assert len(hands) == 10 and {h.split("#")[0] for h in hands} == {"a", "b"}
    assert flags[0] in b.table.log  # b's hand was the tenth
    assert a.table.state.seats[0] is not None  # a flag, never a punishment


def test_10_9_free_play_chips_won_back_do_not_hide_real_money_dumped() -> None:
    # p0 gives p1 a real-money pot at one table while p1 gives p0 a play-money pot at
    # another, hand after hand: play chips are free, so they must not cancel the real
    # money (the pair's pots were one window, counted in chips of both monies: the two
    # flows cancelled and nothing was flagged). Each money is its own rule.
    monitor = IntegrityMonitor()
    real, play = Harness(holdem("r", currency=Currency.REAL)), Harness(holdem("q"))
    flags: dict[str, list[rv.ReviewFlagged]] = {"r": [], "q": []}
    for h in (real, play):
        h.integrity = monitor
        h.seat({0: 40, 1: 40})
    for _ in range(10):
        flags["r"] += _flags(_give_blinds_away(real, "p0"))
        flags["q"] += _flags(_give_blinds_away(play, "p1"))
    assert [(f.rule, f.accounts) for f in flags["r"]] == [("repeated_pots_real", ("p0", "p1"))]
    assert [(f.rule, f.accounts) for f in flags["q"]] == [("repeated_pots", ("p1", "p0"))]
    assert all(h.startswith("r#") for h in flags["r"][0].hands)


def test_10_9_raises_called_at_play_money_do_not_dilute_folds_at_real_money() -> None:
    # p0 folds to p1's raises in 12 real-money hands and calls them in 12 play-money
    # ones (free): 50 % of one window was no soft play; each money is its own rule.
    monitor = IntegrityMonitor()
    flags = []
    for n in range(12):
        for money, folded in (("real", True), ("play", False)):
            seen = (RaiseResponse("p0", "p1", folded),)
            flags += monitor.observe_hand(HandObservation(f"{money}#{n}", seen, money=money))
    assert [(f.rule, f.accounts) for f in flags] == [("folds_to_same_raiser_real", ("p0", "p1"))]


def test_10_9_the_same_pattern_with_a_monitor_per_table_is_not_seen() -> None:
    # The oracle for the test above: a review per table misses it.
    a, b = _room("a", "b")
    b.integrity = IntegrityMonitor()
    flags: list[rv.ReviewFlagged] = []
    for h in (a, b):
        h.seat({0: 40, 1: 40})
    for _ in range(5):
        for h in (a, b):
            flags += _flags(_give_blinds_away(h))
    assert flags == []


def test_10_9_a_table_sets_aside_each_settled_hand_for_the_review(h: Harness) -> None:
    h.seat({0: 40, 1: 40}, ip="10.0.0.1")
    _give_blinds_away(h)
    items = h.table.take_reviews()
    access, settled = items[:2], items[2:]
    assert [(x.player, x.ip) for x in access] == [("p0", "10.0.0.1"), ("p1", "10.0.0.1")]  # type: ignore[union-attr]
    assert len(settled) == 1 and isinstance(settled[0], SettledHand)
    hand = settled[0]
    assert hand.hand == hand_ref("t", 1) == "t#1"
    assert hand.players == {0: "p0", 1: "p1"} and sum(hand.net.values()) == 0
    assert hand.net["p0"] < 0 < hand.net["p1"]
    assert h.table.take_reviews() == []  # taken once
    assert review(IntegrityMonitor(), []) == []


def test_10_9_a_flag_recorded_by_a_table_monitor_reads_back_with_its_hands_named() -> None:
    old = {
        "v": 1,
        "type": "ReviewFlagged",
        "rule": "repeated_pots",
        "accounts": ["p0", "p1"],
        "evidence": "p0 lost 6 pots to p1, net 9 chips",
        "hands": [3, 4, 7],
    }
    flag = decode_room_event(old)
    assert isinstance(flag, rv.ReviewFlagged) and flag.hands == ("#3", "#4", "#7")
    assert decode_room_event(encode_room_event(flag)) == flag


def test_10_9_a_flag_that_could_not_be_recorded_is_raised_again() -> None:
    # The server stores flags in a step of their own; should that step fail, the flag
    # is forgotten as raised, and the next hand that keeps the pattern raises it again.
    monitor = IntegrityMonitor()
    net = {"p0": -2, "p1": 2}
    flags = []
    for n in range(1, 11):  # the shipped rule: 10 pots one way
        flags += review(monitor, [SettledHand(hand_ref("t", n), (), {}, net)])
    assert [(f.rule, f.accounts) for f in flags] == [("repeated_pots", ("p0", "p1"))]
    assert review(monitor, [SettledHand("t#11", (), {}, net)]) == []  # raised once
    monitor.forget("repeated_pots", ("p0", "p1"))
    again = review(monitor, [SettledHand("t#12", (), {}, net)])
    assert [(f.rule, f.accounts, len(f.hands)) for f in again] == [
        ("repeated_pots", ("p0", "p1"), 10)  # the latest hands, as many as the threshold
    ]


def test_10_9_a_flag_being_stored_is_out_of_the_memory_until_recorded() -> None:
    """A server stores a flag after the step that raised it: while it is being stored,
    a memory kept leaves it out (a crash then leaves it to be raised again); once
    stored, a memory holds it raised (not raised twice); one that could not be stored
    is raised again."""
    monitor = IntegrityMonitor([AccessPattern(window=100.0, threshold=2)])
    assert monitor.observe_access(Access("ann", "1.2.3.4", at=0.0)) == []
    (flag,) = monitor.observe_access(Access("bob", "1.2.3.4", at=1.0))
    monitor.recording(flag.rule, flag.accounts)

    def raised() -> list[Any]:
        return list(monitor.memory()["rules"][flag.rule]["raised"])

    assert raised() == []
    monitor.recorded(flag.rule, flag.accounts)
    assert raised() == [list(flag.accounts)]
    assert monitor.observe_access(Access("bob", "1.2.3.4", at=2.0)) == []
    monitor.recording(flag.rule, flag.accounts)
    monitor.forget(flag.rule, flag.accounts)  # not stored
    assert raised() == []
    assert monitor.observe_access(Access("bob", "1.2.3.4", at=3.0)) == [flag]
