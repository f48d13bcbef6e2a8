"""Chat moderation (RULEBOOK §10.7) as the player reads it, from the real server's
filters: talk about one's cards during a hand, a link (an offence: a chat ban, with its
length and end), then a line while banned; each refusal said once, in words."""

from __future__ import annotations

import datetime
import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.web.browser import fresh_alias, register, shoot, sit
from tests.web.conftest import _open_page

pytestmark = pytest.mark.browser

UNTIL = r"until \d{1,2} [A-Z][a-z]{2},? \d\d:\d\d"


def _say(page: Any, text: str) -> str:
    """Send a chat line; the chat's new last line (ours, or the moderation's answer)."""
    lines = page.locator(".chatlines li")
    before = lines.count()
    box = page.get_by_role("textbox", name="Chat message")
    box.fill(text)
    box.press("Enter")
    expect(lines).to_have_count(before + 1)
    return lines.last.inner_text()


def test_moderation_refusals_are_said_once_in_words(page: Any, server: str) -> None:
    alias = fresh_alias()
    register(page, server, alias)
    sit(page, server, "chat")
    mine = page.locator(".seat.mine")
    said = ""
    deadline = time.monotonic() + 60
    while not said.startswith("Not sent"):  # said while still in a hand
        assert time.monotonic() < deadline, f"never in a hand to talk about: {said!r}"
        if mine.locator(".card.face").count() and "folded" not in (
            mine.get_attribute("class") or ""
        ):
            said = _say(page, "I have aces")
        else:
            page.wait_for_timeout(100)
    assert said == "Not sent: talk about your cards is not allowed during a hand."
    said = _say(page, "come and play at www.example.com")
    assert re.fullmatch(
        r"Not sent: links and the names of other card rooms are not allowed in chat\. "
        rf"You are banned from chat for 24 hours, {UNTIL}\.",
        said,
    ), said
    said = _say(page, "sorry about that")
    assert re.fullmatch(rf"Not sent: you are banned from chat {UNTIL}\.", said), said
    expect(page.locator("#table-notice")).to_have_text("")  # told in the chat only, once
    text = page.locator(".chatlines").inner_text()
    assert text.count("banned") == 2 and "advertising" not in text and "card_talk" not in text
    shoot(page, "chat-moderation")


def test_a_long_unbroken_chat_line_wraps_inside_the_phone_screen(phone: Any, server: str) -> None:
    """A chat line of 300 letters without a space (any seated player may send one) made
    everyone's page at the table 1,700 px wide on a phone: the felt, the seat's controls
    and the chat's own Send button were pushed off the screen. It wraps in the chat."""
    register(phone, server, fresh_alias())
    sit(phone, server, "chat-long")
    word = "x" * 300
    assert word[:150] in _say(phone, word)  # the room keeps the first 200 characters
    wide = phone.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= phone.viewport_size["width"], wide
    line = phone.locator(".chatlines li").last.bounding_box()
    chat = phone.locator(".chat").bounding_box()
    assert line is not None and chat is not None
    assert line["x"] + line["width"] <= chat["x"] + chat["width"], (line, chat)
    phone.get_by_role("button", name="Send").click(trial=True, timeout=2000)  # reachable
    shoot(phone, "chat-long-line-phone")


def test_a_wrapped_chat_line_cannot_pass_for_another_player_s_line(page: Any, server: str) -> None:
    """Each line showed as "alias: text" with the text wrapped to the left edge, where
    the aliases start: a line padded to wrap just before "Victim: I am colluding with
    me, report me" showed that as a line of Victim's (live: only the bold told them
    apart). The text after the first line is indented under the alias."""
    alias = fresh_alias()
    register(page, server, alias)
    sit(page, server, "chat-wrap")
    _say(page, "gl " + " ".join(["Victim: I am colluding, report me"] * 5))
    line = page.locator(".chatlines li").last
    starts = line.evaluate(
        """(li) => {
        const range = document.createRange();
        range.selectNodeContents(li);
        const left = li.getBoundingClientRect().left;
        const tops = new Map();  // each line box: its leftmost start
        for (const r of range.getClientRects()) {
          const top = Math.round(r.top);
          tops.set(top, Math.min(tops.has(top) ? tops.get(top) : Infinity, r.left - left));
        }
        return [...tops.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]);
      }"""
    )
    assert len(starts) >= 3, starts  # wrapped
    first, *wrapped = starts
    assert all(start >= first + 8 for start in wrapped), starts
    shoot(page, "chat-wrapped-line")


def test_a_chat_ban_is_told_in_the_player_s_own_time_whatever_his_clock(
    browser: Any, console: Any, request: pytest.FixtureRequest, server: str
) -> None:
    """A player in Tonga (UTC+13) whose computer's clock is two hours fast is banned from
    chat for 24 hours: the chat says 24 hours (it said 22: the end read against his
    clock), and the chat and his account page say when it ends in his own time (the
    account page said "until 2026-12-08T06:44:35.220578Z")."""
    page = _open_page(browser, console, timezone_id="Pacific/Tongatapu")
    try:
        page.clock.set_system_time(time.time() + 2 * 3600)
        register(page, server, fresh_alias())
        sit(page, server, "chat-clock")
        said = _say(page, "come and play at www.example.com")
        tonga = datetime.timezone(datetime.timedelta(hours=13))
        now = datetime.datetime.now(tonga)
        ends = [now + datetime.timedelta(hours=24, minutes=m) for m in (-1, 0, 1)]
        until = [f"until {e.day} {e.strftime('%b')}, {e.strftime('%H:%M')}" for e in ends]
        assert any(
            said == "Not sent: links and the names of other card rooms are not allowed in chat."
            f" You are banned from chat for 24 hours, {u}."
            for u in until
        ), said
        page.goto(f"{server}/#/account")
        sanction = page.locator("li", has_text="Banned from chat").inner_text()
        assert any(u in sanction for u in until), sanction
    finally:
        shoot(page, request.node.name)
        page.context.close()
    assert console.unexpected() == [], console.unexpected()
