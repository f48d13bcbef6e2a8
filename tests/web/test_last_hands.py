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
