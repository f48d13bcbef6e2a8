"""The table is redrawn as the server's messages come (several a second while bots
play): a click held on a button and the keyboard focus on a card survive it."""

from __future__ import annotations

import contextlib
import json
import re
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.web.browser import (
    LABEL_IN_NAME,
    fresh_alias,
    play_passively,
    register,
    serious_violations,
    settled,
    shoot,
    sit,
)

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
    sit_here = page.get_by_role("button", name=re.compile(r"^Sit here: seat \d+$")).last
    label = sit_here.get_attribute("aria-label") or ""
    box = sit_here.bounding_box()
    assert box is not None
    # A slow hand on the mouse: the table moves on between mouse-down and mouse-up.
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.wait_for_function("window.__news >= 3", timeout=15_000)
    page.mouse.up()
    form = page.get_by_role("form", name="Buy in")
    seat_no = label.rpartition(" ")[2]  # "Sit here: seat 3": the form is for that seat
    expect(form.get_by_role("heading")).to_have_text(f"Sit at seat {seat_no}")
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
    # Its name holds what it shows ("Discard A♥, Ace of hearts"): it said "Discard Ace
    # of hearts", the "A♥" a voice user reads on it missing (axe's label in name).
    problems = serious_violations(page, only=[LABEL_IN_NAME])
    assert problems == [], json.dumps(problems, indent=1)
    shown = first.inner_text().replace("\n", "")
    assert name.startswith(f"Discard {shown}, "), (name, shown)
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


def test_a_button_held_down_stays_under_the_pointer_while_the_seats_are_refitted(
    page: Any, server: str, driven: Any
) -> None:
    """A click is a press and a release on the same button. A player with a long alias
    sits down while our pointer is pressed on "Sit here": the seats are fitted again
    around the new seat only once the pointer is released, so the button neither moves
    from under the pointer nor loses the click (the bots' tables redraw several times a
    second, and a seat going broke or sitting down used to move every seat)."""
    register(page, server, fresh_alias())
    page.goto(f"{server}/#/table/press")
    page.locator(".felt").wait_for()
    sit_here = page.get_by_role("button", name="Sit here: seat 6")
    before = sit_here.bounding_box()
    assert before is not None
    page.mouse.move(before["x"] + before["width"] / 2, before["y"] + before["height"] / 2)
    page.mouse.down()
    longname = fresh_alias("longname")
    driven.puppet("press", longname, seat=4)  # beside ours: seat 5
    # The page drew the seating, the alias known (its log says so: drawn in the same
    # pass as the felt).
    expect(page.get_by_role("list", name="Hand log")).to_contain_text(f"{longname} sits down")
    settled(page)
    assert sit_here.bounding_box() == before
    page.mouse.up()
    expect(page.get_by_role("form", name="Buy in").get_by_role("heading")).to_have_text(
        "Sit at seat 6"
    )
    # Released, the felt is drawn again: the new player's seat and the seats refitted.
    expect(page.locator(".felt .seat:not(.empty)")).to_have_count(1)


def test_a_press_held_far_longer_than_a_click_does_not_freeze_the_table(
    page: Any, server: str, driven: Any
) -> None:
    """A release the page never hears of (the pointer let go outside the window) must not
    freeze the table: past 5 s (``LONGEST_PRESS_MS``) of pressing, the felt is drawn
    again at the next news, the pointer still down. The page's clock is Playwright's,
    moved on instead of waited for."""
    page.clock.install()
    register(page, server, fresh_alias())
    page.goto(f"{server}/#/table/press-long")
    page.locator(".felt").wait_for()
    box = page.get_by_role("button", name="Sit here: seat 6").bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    log = page.get_by_role("list", name="Hand log")
    taken = page.locator(".felt .seat:not(.empty)")
    first = fresh_alias("held")
    driven.puppet("press-long", first, seat=0)
    expect(log).to_contain_text(f"{first} sits down")
    expect(taken).to_have_count(0)  # a click's length: the felt waits for the release
    page.clock.run_for(6000)
    second = fresh_alias("held")
    driven.puppet("press-long", second, seat=1)
    expect(log).to_contain_text(f"{second} sits down")
    expect(taken).to_have_count(2)  # held past any click: drawn, the pointer still down
    page.mouse.up()


def test_after_a_draw_by_keyboard_the_focus_stays_on_the_table(
    page: Any, server: str, driven: Any
) -> None:
    """A keyboard player picks a card (Tab, Space) and draws (D): the picked card is no
    longer a button once the draw is sent, and the focus stays on the table (the next
    Tab goes on from there), not thrown back to the top of the page. Heads-up against a
    puppet that checks or calls."""
    register(page, server, fresh_alias())
    puppet = driven.puppet("draw-focus", fresh_alias("pup"))
    sit(page, server, "draw-focus")
    bar = page.locator(".actionbar")

    def at_our_draw() -> bool:
        button = bar.locator(".act.check, .act.call")
        if button.count():
            with contextlib.suppress(Exception):  # the bar is redrawn as the table moves
                button.first.click(timeout=1000)
        return bar.locator(".act.draw").count() > 0

    puppet.passive_until(page, at_our_draw, "no draw came to us", 30)
    pick = page.locator(".seat.mine .card-pick").first
    pick.focus()
    pick.press("Space")
    expect(pick).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("d")
    page.locator(".seat.mine .card-pick").first.wait_for(state="detached")
    assert page.evaluate("document.activeElement.closest('.tablepage') !== null")
