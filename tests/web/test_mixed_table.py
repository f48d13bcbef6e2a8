"""A mixed table (RULEBOOK §9) changing game: CUSTOM_MIXED, two hands of NL Hold'em then
two of FL Stud, random bots and a three-second clock. The lobby shows the badge and
the game being played; at the table the player sees the current and the next game,
plays Hold'em on the flop layout, then sees the table turn to Stud: its name, its
rules page, up cards on every seat."""

from __future__ import annotations

import contextlib
import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.web.browser import fresh_alias, register, shoot, sit

pytestmark = pytest.mark.browser

FACE_UP = re.compile("face up$")


def _act_quickly(page: Any) -> None:
    """On our turn: fold when we may, else check, bring in or call."""
    bar = page.locator(".actionbar")
    if not bar.count():
        return
    for name in ("Fold", "Check", "Bring in", "Call"):
        button = bar.get_by_role("button", name=re.compile(f"^{name}"))
        if button.count():
            # The bar is redrawn as the table moves on: a vanished button is fine.
            with contextlib.suppress(Exception):
                button.first.click(timeout=1000)
            return


def _play_until(page: Any, seen: Any, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not seen():
        assert time.monotonic() < deadline, "the table did not get there in time"
        _act_quickly(page)
        page.wait_for_timeout(100)


def test_9_mixed_table_changes_game_and_layout(page: Any, server: str, driven: Any) -> None:
    driven.seat("mixed", 3)  # random bots, acting at once
    register(page, server, fresh_alias())
    row = page.locator('tr[data-table="mixed"]')
    expect(row.locator(".badge").first).to_have_text("CUSTOM_MIXED")
    expect(row.locator("th")).to_contain_text(re.compile(r"now (NL Hold'em|FL Stud)"))
    shoot(page, "lobby-mixed")

    sit(page, server, "mixed")
    rotation = page.locator("#rotation")
    mine = page.locator(".seat.mine")
    others = page.locator(".seat:not(.mine):not(.empty)")

    def holdem_dealt() -> bool:
        return "now NL Hold'em" in rotation.inner_text() and mine.locator(".card.face").count() == 2

    _play_until(page, holdem_dealt)
    now_holdem = re.compile(r"CUSTOM_MIXED: now NL Hold'em \(.+\), then FL Stud")
    expect(rotation).to_contain_text(now_holdem)
    expect(page.get_by_role("heading", level=1)).to_contain_text("NL Hold'em")
    assert others.get_by_role("img", name=FACE_UP).count() == 0  # their cards are face down
    link = page.get_by_role("link", name="View hand rankings")
    assert link.get_attribute("href") == "#/rules/high"
    shoot(page, "mixed-holdem")

    def stud_dealt() -> bool:
        return (
            "now FL Stud" in rotation.inner_text()
            and mine.locator(".card.face").count() >= 3
            and others.get_by_role("img", name=FACE_UP).count() >= 1
        )

    _play_until(page, stud_dealt)
    expect(rotation).to_contain_text(re.compile(r"now FL Stud \(.+\), then NL Hold'em"))
    expect(page.get_by_role("heading", level=1)).to_contain_text("FL Stud")
    assert mine.get_by_role("img", name=FACE_UP).count() >= 1  # our door card, face up
    assert others.locator(".card.back").count() >= 2  # and their hole cards face down
    link = page.get_by_role("link", name="View Stud rules")
    assert link.get_attribute("href") == "#/rules/stud"
    expect(page.locator(".log")).to_contain_text("The game changes to FL Stud.")
    shoot(page, "mixed-stud")


GAMES = ("NL Hold'em", "FL Stud")
"""The rotation of the ``mixed`` table: two hands of each, from hand #1."""


def _game_of(hand_no: int) -> str:
    return GAMES[(hand_no - 1) // 2 % 2]


HEADER = """() => {
    const v = window.cardroomTable && window.cardroomTable.view;
    if (!v || v.hand || !v.hand_no) return null;  // between hands only
    return { hand_no: v.hand_no, h1: document.querySelector("h1").textContent,
             rotation: document.querySelector("#rotation").textContent };
}"""
"""The header as drawn between two hands (with the number of the hand just played)."""


def test_9_between_hands_the_header_says_the_game_played_and_the_next(
    page: Any, server: str, driven: Any
) -> None:
    """Between hands (3 s at this table) the table has dealt nothing new: the header
    names the game just played, and "next: ..." when the next hand changes game. (At a
    table of bots only: the player who left ``mixed`` waits on its clock, 30 s a
    decision while he is away, in the hand he left.)"""
    driven.seat("mixed-bots", 3)
    register(page, server, fresh_alias())
    page.goto(f"{server}/#/table/mixed-bots")
    page.locator("#rotation").wait_for()
    seen: dict[str, dict[str, Any]] = {}
    deadline = time.monotonic() + 60
    while len(seen) < 2:
        assert time.monotonic() < deadline, f"between hands seen only as {seen}"
        header = page.evaluate(HEADER)
        if header:
            played, coming = _game_of(header["hand_no"]), _game_of(header["hand_no"] + 1)
            other = GAMES[1 - GAMES.index(played)]
            if played != coming:  # two games: the one after the next is the one played
                expected = f"CUSTOM_MIXED: {played} is over; next: {other} (2 hands), then {played}"
            else:
                expected = f"CUSTOM_MIXED: now {played} (1 more hand), then {other}"
            assert header["rotation"] == expected, header
            assert header["h1"] == f"mixed-bots · {played}", header  # what was dealt
            seen["change" if played != coming else "same"] = header
            if played == "FL Stud" and played != coming:
                shoot(page, "mixed-between-hands")
        page.wait_for_timeout(50)


def test_9_our_last_hands_name_the_game_each_was_dealt(page: Any, server: str, driven: Any) -> None:
    """The box "Your last hands here" named each hand by the game of the last snapshot
    when the hand was dealt: at a table that deals the next hand at once, the game just
    played (a hand of FL Stud listed as NL Hold'em). Hand n of ``mixed-last`` is
    Hold'em when n is odd, Stud when it is even (one hand of each in turn)."""
    driven.seat("mixed-last", 3)  # random bots, acting at once
    register(page, server, fresh_alias())
    sit(page, server, "mixed-last")
    entries = page.locator(".lasthands li")
    _play_until(page, lambda: entries.count() >= 2)
    listed = entries.all_inner_texts()
    for text in listed:
        hand = re.fullmatch(r"Hand #(\d+) · (.+)", text.strip())
        assert hand, listed
        assert hand[2] == GAMES[(int(hand[1]) - 1) % 2], listed
    shoot(page, "mixed-last-hands")
