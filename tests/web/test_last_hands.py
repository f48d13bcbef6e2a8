"""The last hands' histories at the table (RULEBOOK §12): the hands we played here are
listed beside the table, newest first, each a link to its replayer (before, only the
log's last lines and the last showdown were there). Heads-up against a puppet that
folds whenever it may."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.web.browser import fresh_alias, register, shoot, sit

pytestmark = pytest.mark.browser


def _play_until(page: Any, puppet: Any, done: Any, what: str) -> None:
    """Play heads-up until ``done()``: the puppet folds, we check or call."""
    deadline = time.monotonic() + 60
    while not done():
        assert time.monotonic() < deadline, what
        if puppet.turn() is not None:
            puppet.move("fold")
        passive = page.locator(".actionbar").locator(".act.check, .act.call")
        if passive.count():
            passive.first.click()
        page.wait_for_timeout(50)


def test_the_last_hands_played_here_are_linked_to_their_replay(
    page: Any, server: str, driven: Any
) -> None:
    """Then, logging out leaves no hole cards in the browser: it keeps the hands it was
    dealt into (the replayer's fallback), our hole cards with them, folded ones too, and
    the next person at a shared browser must not read them once we logged out."""
    alias = fresh_alias()
    register(page, server, alias)
    puppet = driven.puppet("last-hands", fresh_alias("pup"))
    sit(page, server, "last-hands")
    last = page.get_by_role("region", name="Your last hands here")
    links = last.get_by_role("link")
    _play_until(page, puppet, lambda: links.count() >= 2, "two hands were not played")
    numbers = [int(text.split("#")[1]) for text in links.all_inner_texts()]
    assert numbers == sorted(numbers, reverse=True), numbers  # the newest first
    shoot(page, "last-hands")
    links.first.click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(f"last-hands hand #{numbers[0]}")
    page.get_by_role("button", name="End").click()
    expect(page.locator(".replay")).to_contain_text("folds")
    kept = f"localStorage.getItem('cardroom.hands.{alias}')"
    assert '"HoleDealt"' in page.evaluate(kept)
    page.get_by_role("button", name="Log out").click()
    page.get_by_role("heading", name="Log in").wait_for()
    assert page.evaluate(kept) is None


RAKED_HAND = [
    {"type": "HandDealt", "hand_no": 22, "button": 5, "dealt": [1, 2, 4, 5]},
    {"type": "HandStarted", "stacks": [None, 25, 56, None, 164, 18]},
    {"type": "Posted", "seat": 1, "what": "small_blind", "amount": 1},
    {"type": "Posted", "seat": 2, "what": "big_blind", "amount": 2},
    {"type": "Acted", "seat": 4, "kind": "raise", "amount": 6, "to": 6},
    {"type": "Acted", "seat": 5, "kind": "raise", "amount": 18, "to": 18, "all_in": True},
    {"type": "Acted", "seat": 1, "kind": "call", "amount": 17, "to": 18},
    {"type": "Acted", "seat": 2, "kind": "call", "amount": 16, "to": 18},
    {"type": "Acted", "seat": 4, "kind": "call", "amount": 12, "to": 18},
    {"type": "BettingClosed", "index": 0},
    {"type": "Acted", "seat": 1, "kind": "raise", "amount": 5, "to": 5},
    {"type": "Acted", "seat": 2, "kind": "fold", "amount": 0, "to": 0},
    {"type": "Acted", "seat": 4, "kind": "raise", "amount": 23, "to": 23},
    {"type": "Acted", "seat": 1, "kind": "call", "amount": 2, "to": 7, "all_in": True},
    {"type": "UncalledReturned", "seat": 4, "amount": 16},
    {"type": "BettingClosed", "index": 1},
    {"type": "RakeTaken", "pot": 0, "amount": 4},
    {"type": "PotAwarded", "pot": 1, "seat": 4, "amount": 14, "share": "all"},
    {"type": "PotAwarded", "pot": 0, "seat": 4, "amount": 68, "share": "all"},
    {"type": "HandFinished", "hand_no": 22, "stacks": [[1, 0], [2, 38], [4, 221], [5, 0]]},
]
"""A real-money hand of a live run (nlr#22, shortened): a main pot of 72 raked 4, a side
pot of 14, both to seat 4."""


def test_the_replayer_tells_the_rake_and_which_pot_each_share_came_from(
    page: Any, server: str
) -> None:
    """At the end of a raked hand the replayer showed the rake as a pot still on the table
    ("Pot: 4": the rake was never taken out of it) and no line said the rake; with a side
    pot, its lines did not say which pot each win came from, as the table's showdown
    does (RULEBOOK §12: the pot and each side pot)."""
    page.goto(server)
    state = page.evaluate(
        """async (events) => {
            const m = await import("/js/history.js");
            return m.replayState({ names: {}, events, me: 1 }, events.length);
        }""",
        RAKED_HAND,
    )
    assert state["pot"] == 0
    assert state["log"][-3:] == [
        "Rake 4 from the main pot.",
        "Seat 5 wins 14 from side pot 1.",
        "Seat 5 wins 68 from the main pot.",
    ]
