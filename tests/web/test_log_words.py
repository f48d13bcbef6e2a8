"""The hand log in a poker player's words: the first bet of a street "bets N", a bet over
another "raises to N" (the live blinds are the bet to raise preflop), and in stud the
bring-in, its completion ("completes to N") and a raise of that. Two puppets the test
moves play one hand; the page watches the table from before the deal."""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

import pytest
from tests.web.browser import fresh_alias, register, shoot
from tests.web.driven import Puppet

pytestmark = pytest.mark.browser

Plan = dict[int, list[tuple[str, str]]]
"""Per street index, the moves of its first turns in order: (kind, what the log says);
the other turns check or call. ``{who}``, ``{to}`` and ``{amount}`` are filled in."""


def _street(puppet: Puppet) -> int:
    """The street of the puppet's turn: the last one it saw start."""
    started = [e["index"] for e in list(puppet.seen) if e.get("type") == "StreetStarted"]
    return started[-1] if started else 0


def _finished(puppet: Puppet) -> bool:
    return any(e.get("type") == "HandFinished" for e in list(puppet.seen))


def _play_one_hand(page: Any, puppets: dict[str, Puppet], plan: Plan) -> list[str]:
    """Move the puppets through their first hand by ``plan``; the lines the log must
    have, in order."""
    said: list[str] = []
    turns: Counter[int] = Counter()
    deadline = time.monotonic() + 60
    while not all(_finished(p) for p in puppets.values()):
        assert time.monotonic() < deadline, f"the hand did not end in time ({said})"
        for who, puppet in puppets.items():
            turn = puppet.turn()
            if turn is None:
                continue
            street = _street(puppet)
            planned = plan.get(street, [])
            n = turns[street]
            turns[street] += 1
            legal = turn["legal"]
            if n < len(planned):
                kind, words = planned[n]
                to = legal["min_raise_to"] if kind == "raise" else None
                puppet.move(kind, to)
                said.append(words.format(who=who, to=to, amount=legal.get("bring_in")))
            else:
                puppet.move("check" if "check" in legal["actions"] else "call")
        page.wait_for_timeout(30)
    return said


def _first_hand_lines(page: Any) -> list[str]:
    """The log's lines of hand #1 (the next may have begun); every player is named by
    alias, also in the lines written before the page knew a new player's alias."""
    page.wait_for_function("document.querySelector('.log').textContent.includes(' wins ')")
    lines = [line.strip() for line in page.locator(".log li").all_inner_texts()]
    assert not [line for line in lines if "A new player" in line], lines
    start = lines.index("Hand #1 begins.")
    end = lines.index("Hand #2 begins.") if "Hand #2 begins." in lines else len(lines)
    return lines[start:end]


def _watch_then_seat_puppets(page: Any, server: str, table: str, driven: Any) -> dict[str, Puppet]:
    register(page, server, fresh_alias())
    page.goto(f"{server}/#/table/{table}")
    page.locator(".felt").wait_for()
    return {(alias := fresh_alias("pw")): driven.puppet(table, alias) for _ in range(2)}


def test_an_opening_bet_is_a_bet_and_a_bet_over_it_a_raise(
    page: Any, server: str, driven: Any
) -> None:
    puppets = _watch_then_seat_puppets(page, server, "words", driven)
    plan: Plan = {
        0: [("raise", "{who} raises to {to}.")],  # over the big blind: a raise
        1: [("raise", "{who} bets {to}."), ("raise", "{who} raises to {to}.")],
    }
    said = _play_one_hand(page, puppets, plan)
    lines = _first_hand_lines(page)
    assert [line for line in lines if line in said] == said, lines
    assert any(line.endswith(" posts big blind 2.") for line in lines)
    assert sum(" bets " in line for line in lines) == 1, lines  # only the flop's opening
    shoot(page, "log-words-holdem")


def test_stud_brings_in_completes_then_raises_and_bets(page: Any, server: str, driven: Any) -> None:
    puppets = _watch_then_seat_puppets(page, server, "words-stud", driven)
    plan: Plan = {
        0: [
            ("bring_in", "{who} brings in for {amount}."),
            ("raise", "{who} completes to {to}."),  # the bring-in made a full bet
            ("raise", "{who} raises to {to}."),
        ],
        1: [("raise", "{who} bets {to}."), ("raise", "{who} raises to {to}.")],
    }
    said = _play_one_hand(page, puppets, plan)
    lines = _first_hand_lines(page)
    assert [line for line in lines if line in said] == said, lines
    assert sum(line.endswith(" posts ante 1.") for line in lines) == 2, lines
    shoot(page, "log-words-stud")
