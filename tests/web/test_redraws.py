"""The table is redrawn as the server's messages come (several a second while bots
play): a click held on a button and the keyboard focus on a card survive it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.web.browser import fresh_alias, play_passively, register, shoot, sit

pytestmark = pytest.mark.browser


def test_a_slow_click_sits_down_while_bots_play_fast(page: Any, server: str) -> None:
    alias = fresh_alias()
    register(page, server, alias)
    page.goto(f"{server}/#/table/busy")
    page.locator(".felt").wait_for()
    page.evaluate(  # counts the table news the page hears (a test hook, not a check)
        "() => { window.__news = 0; window.cardroom.conn.listen(m => {"
        " if (m.type === 'events') window.__news += 1; }); }"
    )
    sit_here = page.get_by_role("button", name=re.compile(r"^Sit at seat \d+$")).last
    label = sit_here.get_attribute("aria-label")
    box = sit_here.bounding_box()
    assert box is not None
    # A slow hand on the mouse: the table moves on between mouse-down and mouse-up.
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.wait_for_function("window.__news >= 3", timeout=15_000)
    page.mouse.up()
    form = page.get_by_role("form", name="Buy in")
    expect(form.get_by_role("heading")).to_have_text(label or "")
    page.get_by_role("button", name="Buy in").click()
    mine = page.locator(".seat.mine")
    expect(mine.locator(".alias")).to_have_text(alias, timeout=30_000)
    expect(mine.locator(".stack .chips")).to_have_text(re.compile(r"^\d[\d,]*$"))
    shoot(page, "sat-while-bots-play")


def test_keyboard_focus_stays_on_a_discard_button(page: Any, server: str) -> None:
    register(page, server, fresh_alias())
    sit(page, server, "draw-keys")
    bar = page.locator(".actionbar")
    stand_pat = bar.get_by_role("button", name="Stand pat")
    play_passively(page, lambda: stand_pat.count() > 0, seconds=60)
    picks = page.locator(".seat.mine .card-pick")
    first = picks.nth(0)
    name = first.get_attribute("aria-label") or ""
    assert name.startswith("Discard ")
    first.focus()
    page.keyboard.press("Enter")
    expect(first).to_have_attribute("aria-pressed", "true")
    expect(bar.get_by_role("button", name="Discard 1 and draw")).to_be_enabled()
    focused = "document.activeElement && document.activeElement.getAttribute('aria-label')"
    assert page.evaluate(focused) == name  # still on the card just chosen
    # The clock ticks and the table is redrawn: the focus stays, Space takes it back.
    page.wait_for_timeout(1200)
    assert page.evaluate(focused) == name
    page.keyboard.press(" ")
    expect(first).to_have_attribute("aria-pressed", "false")
    assert page.evaluate(focused) == name
    expect(stand_pat).to_be_enabled()
    # Tab to the next card and choose it from the keyboard too.
    page.keyboard.press("Tab")
    second = picks.nth(1)
    assert page.evaluate(focused) == second.get_attribute("aria-label")
    page.keyboard.press("Enter")
    expect(second).to_have_attribute("aria-pressed", "true")
    shoot(page, "discard-focus")
    bar.get_by_role("button", name="Discard 1 and draw").click()
    expect(page.locator(".seat.mine .tag.drew")).to_have_text("Drew 1", timeout=15_000)
