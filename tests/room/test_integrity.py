"""Integrity flags (RULEBOOK §10.9): soft play, chip dumping, shared IP or device."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.games import Action, Hand, Stakes, TableConfig
from cardroom.room.integrity import (
    Access,
    Flag,
    HandObservation,
    IntegrityMonitor,
    RaiseResponse,
    Transfer,
    observe,
    transfers,
)
from cardroom.room.integrity_rules import (
    AccessPattern,
    FoldPattern,
    PotPattern,
    Rule,
    default_rules,
    load_rules,
)

FOLDS = FoldPattern(window=20, threshold=4, min_share_percent=80)
POTS = PotPattern(window=20, threshold=3, min_one_way_percent=75)


def _fold_hand(hand: int, folder: str, raiser: str, folded: bool = True) -> HandObservation:
    return HandObservation(hand, responses=(RaiseResponse(folder, raiser, folded),))


def test_10_9_folding_to_the_same_raiser_again_and_again_is_flagged() -> None:
    monitor = IntegrityMonitor([FOLDS])
    flags = [monitor.observe_hand(_fold_hand(n, "ann", "bob")) for n in range(6)]
    assert flags[:3] == [[], [], []]
    assert flags[3] == [
        Flag(
            "folds_to_same_raiser",
            ("ann", "bob"),
            "ann folded to bob's raises in 4 of 4 hands",
            (0, 1, 2, 3),
        )
    ]
    assert flags[4:] == [[], []]  # raised once, not on every hand after


def test_10_9_fold_flag_needs_the_share_and_counts_each_hand_once() -> None:
    monitor = IntegrityMonitor([FOLDS])
    out = []
    for n in range(10):
        # Folds in half the hands only: 5 of 10 < 80 %.
        out += monitor.observe_hand(_fold_hand(n, "ann", "bob", folded=n % 2 == 0))
    assert out == []
    # Many folds in one hand (re-raised pots) count as one hand.
    monitor = IntegrityMonitor([FOLDS])
    many = HandObservation(0, responses=(RaiseResponse("ann", "bob", True),) * 5)
    assert monitor.observe_hand(many) == []


def test_10_9_folding_to_different_raisers_is_not_flagged() -> None:
    monitor = IntegrityMonitor([FOLDS])
    raisers = ["bob", "cat", "dan", "eve"]
    out = [f for n in range(12) for f in monitor.observe_hand(_fold_hand(n, "ann", raisers[n % 4]))]
    assert out == []


def test_10_9_flags_only_within_the_window() -> None:
    # The window is the pair's last 5 hands in which ann faced bob's raise: she folds
    # in one of three, never 3 in 5 (10 folds in all would flag without a window).
    monitor = IntegrityMonitor([FoldPattern(window=5, threshold=3, min_share_percent=0)])
    out: list[Flag] = []
    for n in range(30):
        out += monitor.observe_hand(_fold_hand(n, "ann", "bob", folded=n % 3 == 0))
        out += monitor.observe_hand(HandObservation(f"other#{n}"))  # hands without them
    assert out == []


def test_10_9_flag_raised_again_after_the_condition_lapsed() -> None:
    # Window 4, 2 folds and half of them: ann folds to bob in hands 0, 1, 8 and 9 and
    # calls him in the others. Flagged at 1; it holds through 3 (2 of 4), lapses at 4
    # (1 of 4), and holds again at 9: flagged again.
    monitor = IntegrityMonitor([FoldPattern(window=4, threshold=2, min_share_percent=50)])
    raised = []
    for n in range(12):
        obs = _fold_hand(n, "ann", "bob", folded=n in (0, 1, 8, 9))
        raised += [n for _ in monitor.observe_hand(obs)]
    assert raised == [1, 9]


def test_10_9_a_pair_quiet_for_forget_days_is_forgotten() -> None:
    # A room's monitor lives as long as its process: once a day it drops the pairs with
    # no hand for their rule's forget_days, so it keeps only the pairs still playing.
    day = 24 * 3600.0
    rules = [
        FoldPattern(window=20, threshold=2, min_share_percent=100, forget_days=30),
        PotPattern(window=20, threshold=2, min_one_way_percent=75, forget_days=30),
    ]
    monitor = IntegrityMonitor(rules)
    for n in range(2):  # flagged on both rules
        obs = HandObservation(n, (RaiseResponse("ann", "bob", True),), (Transfer("ann", "bob", 9),))
        assert monitor.observe_hand(obs) or n == 0
    assert monitor.tracked_pairs == 2
    quiet = HandObservation(2, (RaiseResponse("cat", "dan", False),), at=29 * day)
    assert monitor.observe_hand(quiet) == [] and monitor.tracked_pairs == 3  # not yet
    late = HandObservation(3, (RaiseResponse("cat", "dan", False),), at=31 * day)
    assert monitor.observe_hand(late) == [] and monitor.tracked_pairs == 1  # cat and dan
    # ann and bob start afresh: one fold is not two; the second raises a new flag.
    obs = HandObservation(4, (RaiseResponse("ann", "bob", True),), at=31 * day)
    assert monitor.observe_hand(obs) == []
    flags = monitor.observe_hand(HandObservation(5, obs.responses, at=31 * day))
    assert [(f.rule, f.accounts, f.hands) for f in flags] == [
        ("folds_to_same_raiser", ("ann", "bob"), (4, 5))
    ]


def _pot(hand: int, sender: str, receiver: str, amount: int) -> HandObservation:
    return HandObservation(hand, transfers=(Transfer(sender, receiver, amount),))


def test_10_9_repeated_pots_between_the_same_two_accounts_flagged() -> None:
    monitor = IntegrityMonitor([POTS])
    out = [monitor.observe_hand(_pot(n, "ann", "bob", 100)) for n in range(4)]
    assert out[:2] == [[], []]
    assert out[2] == [
        Flag("repeated_pots", ("ann", "bob"), "ann lost 3 pots to bob, net 300 chips", (0, 1, 2))
    ]
    assert out[3] == []


def test_10_9_pots_traded_both_ways_not_flagged_one_way_flow_is() -> None:
    monitor = IntegrityMonitor([POTS])
    out: list[Flag] = []
    for n in range(10):
        out += monitor.observe_hand(
            _pot(n, "ann", "bob", 50) if n % 2 == 0 else _pot(n, "bob", "ann", 50)
        )
    assert out == []
    # Small pots back do not hide a one-way flow: 3 x 100 out, 2 x 10 back = 87 % one way.
    monitor = IntegrityMonitor([POTS])
    for n, (sender, receiver, amount) in enumerate(
        [("ann", "bob", 100), ("bob", "ann", 10), ("ann", "bob", 100), ("bob", "ann", 10)]
    ):
        assert monitor.observe_hand(_pot(n, sender, receiver, amount)) == []
    assert monitor.observe_hand(_pot(4, "ann", "bob", 100)) == [
        Flag("repeated_pots", ("ann", "bob"), "ann lost 3 pots to bob, net 280 chips", (0, 2, 4))
    ]


def test_10_9_transfers_from_a_hand_hand_worked() -> None:
    # ann and bob put in 100, cat 50; bob wins 245 (5 rake): net ann -100, cat -50, bob +145.
    got = transfers({"ann": 100, "bob": 100, "cat": 50}, {"bob": 245})
    assert got == (Transfer("ann", "bob", 96), Transfer("cat", "bob", 48))  # 145*100//150 ...
    # A split pot: each of two winners gets half of the loser's chips.
    assert transfers({"a": 10, "b": 10, "c": 10}, {"a": 15, "b": 15}) == (
        Transfer("c", "a", 5),
        Transfer("c", "b", 5),
    )
    assert transfers({"a": 10, "b": 10}, {"a": 10, "b": 10}) == ()


def test_10_9_shared_ip_or_device_flagged_within_the_window() -> None:
    rules = [
        AccessPattern(window=100.0, threshold=2),
        AccessPattern(name="shared_device", via="device", window=100.0, threshold=2),
    ]
    monitor = IntegrityMonitor(rules)
    assert monitor.observe_access(Access("ann", "1.2.3.4", "pc-1", at=0.0)) == []
    assert monitor.observe_access(Access("bob", "5.6.7.8", "pc-2", at=10.0)) == []
    flags = monitor.observe_access(Access("cat", "1.2.3.4", "pc-2", at=50.0))
    assert flags == [
        Flag("shared_ip", ("ann", "cat"), "2 accounts from ip 1.2.3.4"),
        Flag("shared_device", ("bob", "cat"), "2 accounts from device pc-2"),
    ]
    assert monitor.observe_access(Access("cat", "1.2.3.4", "pc-2", at=60.0)) == []
    # A third account on the IP is a new set of accounts: flagged again.
    assert monitor.observe_access(Access("dan", "1.2.3.4", at=70.0)) == [
        Flag("shared_ip", ("ann", "cat", "dan"), "3 accounts from ip 1.2.3.4")
    ]
    # Long after, one sighting alone is no longer shared.
    assert monitor.observe_access(Access("eve", "9.9.9.9", "pc-2", at=1000.0)) == []


def test_10_9_a_shared_ip_flag_is_raised_again_after_it_lapsed() -> None:
    # Two accounts from one address, then none for longer than the window: the
    # condition was false, so the same two coming back are flagged again.
    DAY = 24 * 3600.0
    monitor = IntegrityMonitor([AccessPattern(window=7 * DAY, threshold=2)])
    assert monitor.observe_access(Access("ann", "1.2.3.4", at=0.0)) == []
    assert len(monitor.observe_access(Access("bob", "1.2.3.4", at=60.0))) == 1
    assert monitor.observe_access(Access("ann", "1.2.3.4", at=120.0)) == []  # raised once
    assert monitor.observe_access(Access("ann", "1.2.3.4", at=9 * DAY)) == []  # bob expired
    flags = monitor.observe_access(Access("bob", "1.2.3.4", at=9 * DAY + 60))
    assert [f.accounts for f in flags] == [("ann", "bob")]


def test_10_9_a_room_s_monitor_forgets_addresses_older_than_the_window() -> None:
    # A room's monitor lives as long as its process: once a day it drops the sightings
    # older than the window, so addresses never seen again are not kept for good.
    DAY = 24 * 3600.0
    monitor = IntegrityMonitor([AccessPattern(window=7 * DAY, threshold=2)])
    for i in range(50):
        monitor.observe_access(Access(f"p{i}", f"10.0.0.{i}", at=float(i)))
    monitor.observe_access(Access("old", "10.0.0.1", at=100.0))  # flagged with p1
    assert monitor.tracked_addresses == 50
    assert monitor.observe_access(Access("new", "10.9.9.9", at=8 * DAY)) == []
    assert monitor.tracked_addresses == 1  # only the new address
    assert monitor.observe_access(Access("p1", "10.0.0.1", at=8 * DAY + 1)) == []  # alone
    flags = monitor.observe_access(Access("old", "10.0.0.1", at=8 * DAY + 2))
    assert [f.accounts for f in flags] == [("old", "p1")]  # a new episode, flagged again


def test_10_9_default_rules_are_data_with_name_window_threshold() -> None:
    rules = default_rules()  # integrity_rules.ini, beside the module
    names = [rule.name for rule in rules]
    hand_rules = ["folds_to_same_raiser", "repeated_pots"]
    assert names == [f"{n}{end}" for n in hand_rules for end in ("", "_real")] + [
        "shared_ip",
        "shared_device",
    ]
    assert all(rule.window > 0 and rule.threshold >= 2 for rule in rules)
    assert rules[0] == FoldPattern(window=300, threshold=12, min_share_percent=90, money="play")
    assert rules[2] == PotPattern(window=300, threshold=10, min_one_way_percent=80, money="play")
    for play, real in (rules[0:2], rules[2:4]):  # the same thresholds, for real money
        assert real == dataclasses.replace(play, name=f"{play.name}_real", money="real")
    assert rules[5] == AccessPattern(
        name="shared_device", via="device", window=7 * 24 * 3600.0, threshold=2
    )
    assert IntegrityMonitor().rules == rules


def test_10_9_rules_file_thresholds_are_read_and_checked() -> None:
    text = (
        "[soft]\nkind = folds\nwindow = 50  # hands\nthreshold = 5\nmin_share_percent = 80\n"
        "forget_days = 7\n"
    )
    assert load_rules(text) == (
        FoldPattern(name="soft", window=50, threshold=5, min_share_percent=80, forget_days=7),
    )
    # A file written before forget_days existed reads with its default (30).
    older = "[old]\nkind = pots\nwindow = 9\nthreshold = 3\nmin_one_way_percent = 75\n"
    assert load_rules(older) == (
        PotPattern(name="old", window=9, threshold=3, min_one_way_percent=75, forget_days=30),
    )
    # A pot rule counts one money's hands (play chips are not real money's unit).
    (real,) = load_rules(older + "money = real\n")
    assert isinstance(real, PotPattern) and real.money == "real"
    assert real.counts("real") and not real.counts("play")
    for bad in (
        "[x]\nkind = nope\n",
        "[x]\nkind = pots\nwindow = 5\nthreshold = 2\nforget_days = 1\n",  # one missing
        "[x]\nkind = folds\nwindow = 5\nthreshold = 2\nforget_days = 9\n",  # no share
        "[x]\nkind = pots\nwindow = 5\nthreshold = two\nmin_one_way_percent = 75\n",
        "[x]\nkind = access\nvia = phone\nwindow_days = 1\nthreshold = 2\n",
        # Out of range: a window of no hand, a share over 100 %, pairs kept no day.
        "[x]\nkind = pots\nwindow = 0\nthreshold = 2\nmin_one_way_percent = 75\nforget_days = 1\n",
        "[x]\nkind = folds\nwindow = 9\nthreshold = 2\nmin_share_percent = 101\nforget_days = 1\n",
        "[x]\nkind = folds\nwindow = 9\nthreshold = 2\nmin_share_percent = 90\nforget_days = 0\n",
        "kind = folds\n",  # no section
        older + "money = gold\n",  # a money is play or real
        "[x]\nkind = access\nvia = ip\nwindow_days = 7\nthreshold = 2\nmoney = real\n",
    ):
        with pytest.raises(ValueError):
            load_rules(bad)


@pytest.mark.parametrize(
    "text",
    [
        # A shared address needs two accounts: one alone flagged every player who sat down.
        "[x]\nkind = access\nvia = ip\nwindow_days = 7\nthreshold = 1\n",
        "[x]\nkind = access\nvia = ip\nwindow_days = 7\nthreshold = 0\n",
        # A window of no day (or less) forgot every sighting at once: nothing ever flagged.
        "[x]\nkind = access\nvia = device\nwindow_days = 0\nthreshold = 2\n",
        "[x]\nkind = access\nvia = device\nwindow_days = -7\nthreshold = 2\n",
        # More hands than the window holds: never flagged; none: every pair that met.
        "[x]\nkind = folds\nwindow = 5\nthreshold = 6\nmin_share_percent = 90\n",
        "[x]\nkind = pots\nwindow = 5\nthreshold = 0\nmin_one_way_percent = 75\n",
    ],
)
def test_10_9_rules_file_refuses_a_rule_that_never_flags_or_flags_everyone(text: str) -> None:
    with pytest.raises(ValueError):
        load_rules(text)


def test_10_9_a_rule_made_in_code_is_checked_as_one_from_the_file() -> None:
    with pytest.raises(ValueError):
        AccessPattern(window=7 * 86400.0, threshold=1)
    with pytest.raises(ValueError):
        AccessPattern(via="phone", window=7 * 86400.0, threshold=2)
    with pytest.raises(ValueError):
        PotPattern(window=3, threshold=4, min_one_way_percent=75)


def test_10_9_observation_built_from_an_engine_hand() -> None:
    players = {0: "ann", 1: "bob", 2: "cat"}
    hand = Hand(TableConfig.of("holdem", Stakes.blinds(1, 2)), [100, 100, 100], button=0, seed=1)
    assert hand.actor == 0
    hand.apply(Action.raise_to(0, 6))
    hand.apply(Action.fold(1))
    hand.apply(Action.raise_to(2, 20))  # cat re-raises: ann now faces cat's raise
    hand.apply(Action.fold(0))
    got = observe(7, hand.events, players)
    assert got.hand == 7
    assert got.responses == (
        RaiseResponse("bob", "ann", True),
        RaiseResponse("cat", "ann", False),
        RaiseResponse("ann", "cat", True),
    )
    # ann lost 6, bob 1; cat won 7.
    assert got.transfers == (Transfer("ann", "cat", 6), Transfer("bob", "cat", 1))
    monitor = IntegrityMonitor([FoldPattern(window=10, threshold=1, min_share_percent=100)])
    flagged = {flag.accounts for flag in monitor.observe_hand(got)}
    assert flagged == {("bob", "ann"), ("ann", "cat")}


# ---------------------------------------------------------------- brute force
# The monitor keeps rolling counts per pair; this reference recounts every pair's
# window (its last hands that count for the rule) from scratch at every hand, with
# the same "flag once until the condition lapses" rule, and must raise exactly the
# same flags.


def _brute_flags(
    rules: list[FoldPattern | PotPattern], hands: list[HandObservation]
) -> list[list[Flag]]:
    raised: dict[str, set[tuple[str, str]]] = {r.name: set() for r in rules}
    out: list[list[Flag]] = []
    for i in range(len(hands)):
        flags: list[Flag] = []
        for rule in rules:
            if isinstance(rule, FoldPattern):
                flags += _brute_folds(rule, hands[: i + 1], raised[rule.name])
            else:
                flags += _brute_pots(rule, hands[: i + 1], raised[rule.name])
        out.append(flags)
    return out


def _once(raised: set[tuple[str, str]], pair: tuple[str, str], holds: bool) -> bool:
    if not holds:
        raised.discard(pair)
        return False
    new = pair not in raised
    raised.add(pair)
    return new


def _brute_folds(
    rule: FoldPattern, hands: list[HandObservation], raised: set[tuple[str, str]]
) -> list[Flag]:
    faced = [{(r.player, r.raiser) for r in o.responses} for o in hands]
    folded = [{(r.player, r.raiser) for r in o.responses if r.folded} for o in hands]
    flags = []
    for pair in sorted(set().union(*faced) | raised):  # raised: it may have lapsed
        window = [i for i, f in enumerate(faced) if pair in f][-rule.window :]
        folds = [hands[i].hand for i in window if pair in folded[i]]
        share = 100 * len(folds) >= rule.min_share_percent * len(window)
        if _once(raised, pair, len(folds) >= rule.threshold and share):
            evidence = f"{pair[0]} folded to {pair[1]}'s raises in {len(folds)} of {len(window)}"
            evidence += " hands"
            # The flag names the latest hands, as many as the threshold.
            named = tuple(folds[len(folds) - rule.threshold :])
            flags.append(Flag(rule.name, pair, evidence, named))
    return flags


def _brute_pots(
    rule: PotPattern, hands: list[HandObservation], raised: set[tuple[str, str]]
) -> list[Flag]:
    # Each hand's net chips between two accounts (A lost them to B: positive).
    nets: list[dict[tuple[str, str], int]] = []
    for o in hands:
        net: dict[tuple[str, str], int] = {}
        for t in o.transfers:
            if t.amount > 0 and t.sender != t.receiver:
                a, b = sorted((t.sender, t.receiver))
                net[a, b] = net.get((a, b), 0) + (t.amount if t.sender == a else -t.amount)
        nets.append({k: v for k, v in net.items() if v})
    flags = []
    pairs = {p for n in nets for key in n for p in (key, (key[1], key[0]))}
    for pair in sorted(pairs | raised):
        key, sign = (pair, 1) if pair[0] < pair[1] else ((pair[1], pair[0]), -1)
        window = [i for i, n in enumerate(nets) if key in n][-rule.window :]
        lost = [i for i in window if sign * nets[i][key] > 0]
        sent = sum(sign * nets[i][key] for i in lost)
        back = sum(-sign * nets[i][key] for i in window if i not in lost)
        one_way = sent > back and 100 * (sent - back) >= rule.min_one_way_percent * (sent + back)
        if _once(raised, pair, len(lost) >= rule.threshold and one_way):
            evidence = f"{pair[0]} lost {len(lost)} pots to {pair[1]}, net {sent - back} chips"
            named = tuple(hands[i].hand for i in lost[len(lost) - rule.threshold :])
            flags.append(Flag(rule.name, pair, evidence, named))
    return flags


_NAMES = st.sampled_from(["ann", "bob", "cat", "dan"])
_RESPONSE = st.builds(RaiseResponse, _NAMES, _NAMES, st.booleans())
_TRANSFER = st.builds(Transfer, _NAMES, _NAMES, st.integers(0, 50))
_HANDS = st.lists(
    st.tuples(st.lists(_RESPONSE, max_size=5), st.lists(_TRANSFER, max_size=4)), max_size=40
)


@settings(max_examples=300, deadline=None)
@given(
    hands=_HANDS,
    window=st.integers(1, 8),
    threshold=st.integers(1, 4),
    percent=st.sampled_from([0, 50, 75, 100]),
)
def test_10_9_rolling_counts_agree_with_a_recount_of_the_window(
    hands: list[tuple[list[RaiseResponse], list[Transfer]]],
    window: int,
    threshold: int,
    percent: int,
) -> None:
    threshold = min(threshold, window)  # more than the window holds is refused
    rules: list[FoldPattern | PotPattern] = [
        FoldPattern(window=window, threshold=threshold, min_share_percent=percent),
        PotPattern(window=window + 1, threshold=threshold, min_one_way_percent=percent),
    ]
    observations = [HandObservation(100 + n, tuple(r), tuple(t)) for n, (r, t) in enumerate(hands)]
    monitor = IntegrityMonitor(rules)
    got = [monitor.observe_hand(o) for o in observations]
    assert got == _brute_flags(rules, observations)


def test_10_9_a_table_counts_what_the_hand_record_shows() -> None:
    # A table sets aside each hand's events and the net results it settled in the
    # ledger, and the room's review shows them to its monitor; a monitor fed the public
    # observation of the same hands (all from the events) must raise the same flags at
    # the same hands. Low thresholds, so random players raise (and lapse) flags of both
    # rules.
    import random

    from cardroom.bench.room_bench import choose
    from cardroom.ledger import AccountRef, Currency, MemoryLedger, Reason
    from cardroom.ledger import Transfer as Posting
    from cardroom.room import events as rv
    from cardroom.room.clock import ManualClock
    from cardroom.room.commands import Act, Rebuy, Sit
    from cardroom.room.review import hand_ref, review_table
    from cardroom.room.settings import TableSettings
    from cardroom.room.table import Table

    rules = [
        FoldPattern(window=6, threshold=2, min_share_percent=50),
        PotPattern(window=6, threshold=2, min_one_way_percent=50),
    ]
    ledger, cashier = MemoryLedger(), AccountRef.cashier(Currency.PLAY)
    settings = TableSettings.single(
        "t", TableConfig.of("holdem", Stakes.blinds(1, 2)), currency=Currency.PLAY, seed="s"
    )
    table, monitor = Table(settings, ledger, ManualClock()), IntegrityMonitor(rules)
    names = [f"p{s}" for s in range(4)]
    for s, name in enumerate(names):
        player = AccountRef.player(name, Currency.PLAY)
        ledger.post(Posting(f"d{s}", Reason.DEPOSIT, cashier, player, 10_000))
        table.handle(Sit(name, s, 40))
    replayed, rng = IntegrityMonitor(rules), random.Random(4)
    seen_at_table: list[list[Flag]] = []
    replayed_flags: list[list[Flag]] = []
    while table.state.hand_no < 120:
        out = table.tick()
        hand = table.hand
        assert hand is not None and table.state.in_hand
        while table.state.in_hand:
            s = hand.actor
            assert s is not None
            kind, amount, cards = choose(hand.legal_actions(s), hand.hole_cards(s), rng)
            out += table.handle(Act(names[s], kind, amount, cards))  # type: ignore[arg-type]
        out += review_table(monitor, table)
        flags = [e for e in out if isinstance(e, rv.ReviewFlagged)]
        seen_at_table.append([Flag(f.rule, f.accounts, f.evidence, f.hands) for f in flags])
        ref = hand_ref("t", table.state.hand_no)
        observation = observe(ref, hand.events, dict(enumerate(names)))
        replayed_flags.append(replayed.observe_hand(observation))
        for s, name in enumerate(names):  # keep everyone in: top up a short stack
            seat = table.state.seats[s]
            if seat is not None and seat.stack < 10:
                table.handle(Rebuy(name, 40 - seat.stack))
    assert seen_at_table == replayed_flags
    assert {f.rule for hand_flags in seen_at_table for f in hand_flags} == {r.name for r in rules}


def test_10_9_a_room_wide_monitor_sees_a_pair_at_one_table_among_many() -> None:
    # One monitor reviews every table of a room (room/review.py), so the hands of
    # 49 other tables come between two hands of ann and bob: a rule's window is counted
    # in the pair's own hands, or a busy room would hide every pattern.
    monitor = IntegrityMonitor(default_rules())
    flags: list[Flag] = []
    for n in range(20):
        for t in range(50):
            if t == 0:  # ann folds to bob's raise and loses chips to him, every hand
                pair, flow = RaiseResponse("ann", "bob", True), Transfer("ann", "bob", 10)
            else:  # other players trade pots both ways and call raises
                x, y = (f"x{t}", f"y{t}") if n % 2 else (f"y{t}", f"x{t}")
                pair, flow = RaiseResponse(x, y, False), Transfer(x, y, 10)
            flags += monitor.observe_hand(HandObservation(f"t{t}#{n}", (pair,), (flow,)))
    assert [(f.rule, f.accounts, f.hands[-1]) for f in flags] == [
        ("repeated_pots", ("ann", "bob"), "t0#9"),  # the 10th pot
        ("folds_to_same_raiser", ("ann", "bob"), "t0#11"),  # the 12th fold
    ]


_ACCESS = st.builds(
    Access,
    _NAMES,
    st.sampled_from(["1.1.1.1", "2.2.2.2", ""]),
    st.sampled_from(["pc-1", "pc-2", ""]),
    st.floats(0, 20 * 24 * 3600.0),
)


@settings(max_examples=150, deadline=None)
@given(
    hands=_HANDS,
    accesses=st.lists(_ACCESS, max_size=10),
    split=st.integers(0, 50),
    window=st.integers(2, 6),  # the rules' threshold is 2: a window of 1 never flags
)
def test_10_9_a_monitor_s_memory_carries_its_counts_over_a_restart(
    hands: list[tuple[list[RaiseResponse], list[Transfer]]],
    accesses: list[Access],
    split: int,
    window: int,
) -> None:
    # The room's monitor is kept in the database when the server stops and recalled
    # when it starts (server/room.py): a monitor that stopped after ``split`` items and
    # was recalled (through JSON) raises exactly the flags one that never stopped does.
    day = 24 * 3600.0
    rules: list[Rule] = [
        FoldPattern(window=window, threshold=2, min_share_percent=50, forget_days=3),
        PotPattern(window=window, threshold=2, min_one_way_percent=50, forget_days=3),
        AccessPattern(window=2 * day, threshold=2),
        AccessPattern(name="shared_device", via="device", window=2 * day, threshold=2),
    ]
    items: list[HandObservation | Access] = [
        HandObservation(n, tuple(r), tuple(t), at=n * day / 4) for n, (r, t) in enumerate(hands)
    ]
    items += sorted(accesses, key=lambda a: a.at)
    items.sort(key=lambda i: i.at)  # one clock: hands and sit-downs interleaved

    def feed(monitor: IntegrityMonitor, part: list[HandObservation | Access]) -> list[Flag]:
        out: list[Flag] = []
        for item in part:
            if isinstance(item, Access):
                out += monitor.observe_access(item)
            else:
                out += monitor.observe_hand(item)
        return out

    whole = IntegrityMonitor(rules)
    expected = feed(whole, items[:split]), feed(whole, items[split:])
    first = IntegrityMonitor(rules)
    before = feed(first, items[:split])
    memory = json.loads(json.dumps(first.memory(), allow_nan=False))
    second = IntegrityMonitor(rules)
    assert second.recall(memory) == [r.name for r in rules]
    assert (before, feed(second, items[split:])) == expected
    assert second.memory() == whole.memory()


def test_10_9_a_changed_rule_starts_afresh_and_a_bad_memory_is_refused() -> None:
    old = IntegrityMonitor([POTS, FOLDS])
    for n in range(2):  # two of the three pots of POTS
        old.observe_hand(_pot(n, "ann", "bob", 100))
        old.observe_hand(_fold_hand(n, "ann", "bob"))
    stricter = dataclasses.replace(FOLDS, threshold=5)
    new = IntegrityMonitor([POTS, stricter])
    assert new.recall(old.memory()) == ["repeated_pots"]  # the fold rule changed
    assert [f.rule for f in new.observe_hand(_pot(2, "ann", "bob", 100))] == ["repeated_pots"]
    assert new.tracked_pairs == 1  # the fold rule's pair was not recalled
    for bad in ({}, {"v": 2, "swept": None, "rules": {}}, {"v": 1, "swept": None, "rules": {
        "repeated_pots": {"rule": dataclasses.asdict(POTS), "pairs": [[1, 2, []]], "raised": []}
    }}, {"v": 1, "swept": None, "rules": {"repeated_pots": {"rule": dataclasses.asdict(POTS),
        "pairs": [["a", "b", [[2**70], 1, [1, 0], [2**70, 0], [[], []], 0.0]]], "raised": []}
    }}):  # fmt: skip
        with pytest.raises(ValueError):
            new.recall(bad)
    assert new.tracked_pairs == 1  # a refused memory took nothing


def test_10_9_a_memory_read_in_steps_is_the_memory_and_the_monitor_may_count_between() -> None:
    # A server keeps the memory as it runs, a few thousand windows at a time with its
    # tables playing on between (server/room.py): the steps make the same memory, and a
    # hand counted between two steps (new pairs, a sweep) breaks nothing.
    monitor = IntegrityMonitor([POTS, FOLDS])
    for n in range(30):
        monitor.observe_hand(_pot(n, f"p{n}", f"q{n}", 100))
        monitor.observe_hand(_fold_hand(n, f"p{n}", f"q{n}"))
    memory: dict[str, Any] = {}
    pauses = 0
    for _ in monitor.memory_steps(memory, pairs=7):
        pauses += 1
        monitor.observe_hand(_pot(100 + pauses, f"new{pauses}", "q0", 5))  # the room plays on
        monitor.observe_hand(_pot(200 + pauses, "p0", "q0", 5))  # also in a window read
    assert pauses == 2 * 5  # two rules of 30 pairs, 7 at a time
    # Each window as it was when read: hands counted later (the room played on) are not
    # in its counts, which must stay those of its flows.
    windows = {(a, b): w for a, b, w in memory["rules"][POTS.name]["pairs"]}
    assert windows["p0", "q0"][:4] == [[100], 1, [1, 0], [100, 0]]  # its one pot then
    again = IntegrityMonitor([POTS, FOLDS])
    assert again.recall(memory) == [POTS.name, FOLDS.name]
    assert again.tracked_pairs == 60  # the pairs there when reading began
    whole = IntegrityMonitor([POTS, FOLDS])
    assert whole.recall(monitor.memory()) and whole.tracked_pairs == monitor.tracked_pairs
