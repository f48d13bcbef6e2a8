"""One player at several tables, a browser tab each (multitabling).

Each tab's title names its table and, while a decision of ours waits there, says "Your
turn" first: the tab strip tells which table needs the player (every tab said
"cardroom", and nothing else told a table in a background tab was waiting). A tab left
in the background keeps its connection although its timers wake only once a minute
(Chromium's intensive throttling of a tab hidden for 5 minutes): the page took its own
late heartbeat for a minute of silence, dropped the connection, and was away from its
tables for up to a minute each time (the room's §10.6 disconnect clock on its turns).
A hidden tab does not scroll its log: each scroll kept a list alive until the tab drew
a frame, and a background table's tab piled up thousands of DOM nodes a minute."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.web.browser import fresh_alias, register, sit, until

pytestmark = pytest.mark.browser


def test_each_tab_is_titled_by_its_table_and_says_when_it_waits_for_us(
    page: Any, server: str, driven: Any
) -> None:
    register(page, server, fresh_alias())
    puppets = {t: driven.puppet(t, fresh_alias("pup")) for t in ("multi-a", "multi-b")}
    sit(page, server, "multi-a")
    other = page.context.new_page()  # a second tab of the same browser: one session
    try:
        sit(other, server, "multi-b")
        tabs = {"multi-a": page, "multi-b": other}
        deadline = time.monotonic() + 90
        # The puppets check or call until both tables wait for us (each waits: 20 s and
        # a 30 s time bank, more than the other table needs to come to us).
        while not all(tab.locator(".actionbar").count() for tab in tabs.values()):
            assert time.monotonic() < deadline, "no turn of ours came at both tables"
            for puppet in puppets.values():
                puppet.passive()
            page.wait_for_timeout(50)
        for table, tab in tabs.items():
            expect(tab).to_have_title(f"Your turn · {table} · cardroom")
        page.locator(".actionbar").get_by_role("button", name="Fold").click()
        expect(page.locator(".actionbar")).to_have_count(0)
        expect(page).to_have_title("multi-a · cardroom")  # acted: no longer waiting for us
        expect(other).to_have_title("Your turn · multi-b · cardroom")  # still waiting there
        other.goto(f"{server}/#/lobby")
        other.get_by_role("heading", name="Lobby").wait_for()
        expect(other).to_have_title("cardroom")  # the table's title goes with its screen
    finally:
        other.close()


def test_a_background_tab_whose_timers_wake_late_keeps_its_connection(
    page: Any, server: str
) -> None:
    # Playwright's clock jumps a minute at once, firing each timer due once at its end:
    # what a hidden tab's heartbeat sees under Chromium's intensive throttling (this
    # page's connection is quiet: the lobby watches no table).
    page.clock.install()
    register(page, server, fresh_alias())
    sockets: list[Any] = []  # the connections made from now on: none
    page.on("websocket", lambda ws: sockets.append(ws))
    page.evaluate(
        "() => { window.states = [];"
        " window.cardroom.conn.listenState((s) => window.states.push(s)); }"
    )
    for _ in range(3):
        page.clock.fast_forward(60_000)
        page.wait_for_timeout(200)  # the late beat's ping, then its answer
        until(page, "window.cardroom.conn.pending.size === 0", 10_000)
        page.clock.run_for(2000)  # the next beats, on time again
    assert page.evaluate("window.states") == []  # never "reconnecting"
    assert sockets == []
    expect(page.locator("#banner")).to_be_hidden()


HIDDEN = """Object.defineProperty(Document.prototype, "hidden", {
  configurable: true, get() { return Boolean(window.hideTab); } });"""
"""A tab the test hides and shows: ``document.hidden`` follows ``window.hideTab``
(Playwright's pages are always shown; what a hidden tab does not draw is tested here,
the nodes it piled up were counted in a real Chromium, docs/outside_audits_18.md)."""

LOG_END = """(() => { const l = document.querySelector(".loglines");
  return Boolean(l) && l.scrollHeight > l.clientHeight
    && l.scrollTop + l.clientHeight >= l.scrollHeight - 2; })()"""


def test_a_hidden_tab_does_not_scroll_its_log_and_a_shown_one_goes_to_its_end(
    page: Any, server: str
) -> None:
    page.add_init_script(HIDDEN)
    register(page, server, fresh_alias())
    page.goto(f"{server}/#/table/busy")  # four bots at full speed: a line a moment
    until(page, LOG_END, 60_000)  # shown: the log at its last line
    page.evaluate("window.hideTab = true")
    # Lines ever logged (the log itself forgets its oldest past a bound: tablelog.keepLine).
    lines = page.evaluate("window.cardroomTable.logLines")
    until(page, f"window.cardroomTable.logLines > {lines + 2}", 60_000)
    page.wait_for_timeout(300)  # the log drawn again, and its scroll's turn
    # Hidden, the log is not scrolled (a scroll kept each list alive until the tab drew
    # a frame: thousands of nodes a minute at a busy table in a background tab).
    assert page.evaluate("document.querySelector('.loglines').scrollTop") == 0
    page.evaluate(
        "() => { window.hideTab = false; document.dispatchEvent(new Event('visibilitychange')); }"
    )
    # Shown again: at its last line at once (within a frame or two: at a busy table a line
    # may come just then, and the list drawn again is scrolled at its first frame).
    until(page, LOG_END, 2_000)


def test_the_account_tab_shown_again_reads_the_balance_another_tab_moved(
    page: Any, server: str
) -> None:
    register(page, server, fresh_alias())
    page.goto(f"{server}/#/account")
    balances = page.locator("dl.balances")
    expect(balances).to_contain_text("Play money10,000")
    other = page.context.new_page()  # another tab of the same browser: one session
    try:
        sit(other, server, "multi-c")  # buys in for the table's maximum, 2,000
    finally:
        other.close()
    page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")  # shown
    expect(balances).to_contain_text("Play money8,000")  # it said 10,000 until a reload
