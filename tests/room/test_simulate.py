"""``cardroom simulate``: headless tables of every game (Chinese poker included); the last
line is a JSON summary with every counter, and the exit code says whether every invariant
held: the money, per-seat secrecy of events and views, the order of the blinds."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

from cardroom.chat_bans import CHAT_BAN_STEPS
from cardroom.cli import main
from cardroom.room import checks, table
from cardroom.room import events as rv
from cardroom.room.money import TableBank
from cardroom.room.positions import Plan
from cardroom.room.sim_tables import random_settings
from cardroom.room.simulation import COUNTERS, Session
from cardroom.room.table import AnyEvent
from cardroom.room.views import project


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code = main(["simulate", *args])
    last = capsys.readouterr().out.strip().splitlines()[-1]
    return code, json.loads(last)


def test_simulate_prints_a_json_summary_and_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    code, summary = run(capsys, "--tables", "9", "--hands", "6", "--seed", "5", "--json")
    assert code == 0 and summary["money_invariant"] == "held"
    assert summary["secrecy"] == "held" and summary["blind_order"] == "held"
    assert summary["tables"] == 9 and summary["hands"] == 9 * 6
    assert "HORSE" in summary["games"]
    counters = summary["counters"]
    assert set(COUNTERS) <= set(counters)  # every counter, zero or not
    assert counters["timeouts"] > 0


def test_simulate_plays_chinese_poker_tables_and_posts_dead_small_blinds(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, summary = run(capsys, "--tables", "27", "--hands", "12", "--seed", "3", "--json")
    assert code == 0, summary["violations"]
    assert {"ofc", "pineapple", "classic"} <= set(summary["games"])
    counters = summary["counters"]
    assert counters["chinese_hands"] >= 3 * 12
    assert counters["dead_small_blinds"] > 0  # players away for both blinds come back posting
    assert counters["review_shared_ip"] > 0  # two pairs of players share an address
    assert counters["review_shared_device"] > 0  # and one pair a device (§10.9)
    assert counters["chat_blocked_empty"] > 0  # a line of spaces is refused, not said


def test_10_10_simulated_cancels_keep_the_money_and_the_order_of_the_blinds(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The blind-order check treats a cancelled hand as never dealt: the next deal is
    # checked against the one before it, so a cancel that moved the blinds on (or one
    # that repeated a big blind) is a violation.
    code, summary = run(capsys, "--tables", "28", "--hands", "20", "--seed", "9", "--json")
    assert code == 0, summary["violations"]
    assert summary["counters"]["hands_voided"] > 0
    assert summary["blind_order"] == summary["money_invariant"] == "held"


def test_10_7_a_simulated_offence_mutes_the_player_for_the_ban() -> None:
    # A table's random players curse and advertise; each offence mutes them (the
    # server records the same escalating bans with the account).
    # Seeded decks: the same hands every run (unseeded, about one run in 25 dealt no line
    # after a ban, so nothing to mute).
    settings = [random_settings(random.Random(i), f"t{i}", seed=f"bans{i}") for i in range(4)]
    sessions = [Session(s, seed=i) for i, s in enumerate(settings)]
    for session in sessions:
        session.run(100)
        check_bans(session.record)
    assert sum(s.counters["chat_bans"] for s in sessions) > 0
    assert sum(s.counters["chat_blocked_banned"] for s in sessions) > 0


def check_bans(record: list[AnyEvent]) -> None:
    """Every line of a player after an offence is refused until the ban ends."""
    ends: dict[str, float | None] = {}
    offences: dict[str, int] = {}
    for i, e in enumerate(record):
        if not isinstance(e, rv.ChatSaid | rv.ChatBlocked):
            continue
        before = record[i - 1] if i else None
        offence = isinstance(before, rv.ChatBlocked) and before.offence
        if isinstance(e, rv.ChatSaid) and offence:
            continue  # a curse is sent masked right after its offence: not muted yet
        if e.player in ends:
            until = ends[e.player]
            muted = until is None or e.at < until
            assert muted == (isinstance(e, rv.ChatBlocked) and e.code == "banned"), e
        if isinstance(e, rv.ChatBlocked) and e.offence:
            n = offences[e.player] = offences.get(e.player, 0) + 1
            step = CHAT_BAN_STEPS[min(n, len(CHAT_BAN_STEPS)) - 1]
            ends[e.player] = None if step is None else e.at + step.total_seconds()


def test_simulate_exits_non_zero_when_money_goes_missing(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(TableBank, "settle", lambda self, hand_no, deltas, rake: None)
    code, summary = run(capsys, "--tables", "3", "--hands", "4", "--json")
    assert code == 1 and summary["money_invariant"] == "broken"
    assert summary["violations"]


def test_simulate_exits_non_zero_when_a_view_shows_hidden_cards(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def leaky(event: Any, seat: int | None) -> Any:  # everyone sees the owner's view
        return project(event, getattr(event, "seat", seat))

    monkeypatch.setattr(checks, "project", leaky)
    code, summary = run(capsys, "--tables", "3", "--hands", "4", "--json")
    assert code == 1 and summary["secrecy"] == "broken"
    assert summary["money_invariant"] == "held" and "sees" in summary["violations"][0]


def test_simulate_exits_non_zero_when_the_big_blind_repeats(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    planner = table.plan_hand

    def sticky(facts: Any, prev: Any, hand_no: int, **kw: Any) -> Plan | None:
        plan = planner(facts, prev, hand_no, **kw)  # the blinds stay where they were
        if plan is None or prev is None or plan.big_blind is None or len(plan.dealt) < 3:
            return plan
        if prev.sb == prev.bb or not {prev.sb, prev.bb} <= set(plan.dealt):
            return plan
        return dataclasses.replace(plan, positions=prev, small_blind=prev.sb, big_blind=prev.bb)

    monkeypatch.setattr(table, "plan_hand", sticky)
    code, summary = run(capsys, "--tables", "3", "--hands", "20", "--json")
    assert code == 1 and summary["blind_order"] == "broken"
    assert "twice running" in " ".join(summary["violations"])
