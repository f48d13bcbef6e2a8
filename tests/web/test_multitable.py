"""One player at several tables, a browser tab each (multitabling).

Each tab's title names its table and, while a decision of ours waits there, says "Your
turn" first: the tab strip tells which table needs the player (every tab said
"cardroom", and nothing else told a table in a background tab was waiting)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.web.browser import fresh_alias, register, sit

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
