"""A phone played by touch (Playwright's touchscreen, a 390x844 page with touch), heads-up
against a puppet: a second tap on the spot just tapped, or a tap as the next decision's
bar comes, plays nothing that moved under the finger; our turn while the on-screen
keyboard is up for the chat puts the bar on the screen; every control is a finger's
size (44x44 CSS px)."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect
from tests.web.browser import fresh_alias, register, shoot, sit, until
from tests.web.driven import Puppet

pytestmark = pytest.mark.browser

PASSIVE = ".actionbar .act.check, .actionbar .act.call"


def _our_turn(page: Any, puppet: Puppet, seconds: float = 60.0) -> None:
    """Let the puppet check or call until our action bar offers a check or a call."""
    deadline = time.monotonic() + seconds
    while not page.locator(PASSIVE).count():
        assert time.monotonic() < deadline, "our turn did not come"
        puppet.passive()
        page.wait_for_timeout(50)


def _ours_acted(puppet: Puppet) -> list[dict[str, Any]]:
    """The moves of the hands so far that were not the puppet's (ours: heads-up)."""
    return [e for e in puppet.seen if e.get("type") == "Acted" and e.get("seat") != puppet.seat]


def _centre(page: Any, selector: str) -> tuple[float, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def _under(page: Any, x: float, y: float) -> str:
    """The outer HTML's start of the element at (x, y) of the screen."""
    return str(
        page.evaluate("([x, y]) => document.elementFromPoint(x, y)?.outerHTML.slice(0, 80)", [x, y])
    )


def test_a_second_tap_plays_nothing_that_moved_under_the_finger(
    phone: Any, server: str, driven: Any
) -> None:
    register(phone, server, fresh_alias())
    puppet = driven.puppet("touch-twice", fresh_alias("pup"))
    sit(phone, server, "touch-twice")
    # The guard lasts 400 ms; a loaded machine can take longer than a finger between two
    # taps, so the test's page keeps it 3 s (an old page has none to lengthen).
    phone.evaluate("() => { const g = window.cardroomTable.tapGuard; if (g) g.ms = 3000; }")
    moved = "document.querySelector('fieldset.advance') && !document.elementFromPoint(%s, %s)"
    for _ in range(12):  # until an action of ours leaves the puppet to act in the hand
        _our_turn(phone, puppet)
        # The board first, the bar scrolled up just into sight, as a player looks at them.
        phone.evaluate("window.scrollTo(0, 0)")
        phone.locator(PASSIVE).first.scroll_into_view_if_needed()
        x, y = _centre(phone, PASSIVE)
        phone.touchscreen.tap(x, y)
        # The bar goes as the action is sent; the advance boxes and our seat's controls
        # move up into its place, under the finger that tapped (it ticked "Call any").
        try:
            until(phone, moved % (x, y) + ".closest('.actionbar')", timeout=3000)
            break
        except PlaywrightTimeout:  # our turn again, or the hand over: no boxes to tick
            continue
    else:
        pytest.fail("no action of ours left the puppet to act")
    moved_in = _under(phone, x, y)
    phone.touchscreen.tap(x, y)  # the double tap's second, or an impatient one
    phone.wait_for_timeout(400)
    assert phone.evaluate("window.cardroomTable.view.advance") is None, moved_in
    expect(phone.locator("fieldset.advance input:checked")).to_have_count(0)
    expect(phone.get_by_role("button", name="Sit out next hand")).to_be_visible()
    expect(phone.get_by_role("button", name="Leave table")).to_be_visible()
    # The next decision's bar comes in the same place: a tap as it comes (aimed at what
    # was there) plays nothing; one once the bar has been seen acts.
    deadline = time.monotonic() + 60
    while not phone.locator(PASSIVE).count():
        assert time.monotonic() < deadline, "our next turn did not come"
        puppet.passive()
        phone.wait_for_timeout(20)
    x, y = _centre(phone, PASSIVE)
    acted = len(_ours_acted(puppet))
    phone.touchscreen.tap(x, y)
    phone.wait_for_timeout(500)
    assert len(_ours_acted(puppet)) == acted  # nothing was sent
    expect(phone.locator(PASSIVE)).to_have_count(1)  # still our turn
    phone.evaluate("() => { window.cardroomTable.tapGuard.ms = 400; }")
    phone.wait_for_timeout(500)
    phone.touchscreen.tap(x, y)
    deadline = time.monotonic() + 15
    while len(_ours_acted(puppet)) == acted:
        assert time.monotonic() < deadline, "a tap on the bar seen for a while did not act"
        phone.wait_for_timeout(50)
    shoot(phone, "touch-second-tap")


def test_our_turn_while_typing_in_the_chat_puts_the_bar_on_the_screen(
    phone: Any, server: str, driven: Any
) -> None:
    register(phone, server, fresh_alias())
    puppet = driven.puppet("touch-typing", fresh_alias("pup"))
    sit(phone, server, "touch-typing")
    for _ in range(12):  # until an action of ours leaves the puppet to act
        _our_turn(phone, puppet)
        phone.wait_for_timeout(500)  # the bar read (a tap as it comes is dropped)
        acted = len(_ours_acted(puppet))
        phone.locator(PASSIVE).first.tap()
        until(phone, "!document.querySelector('.actionbar')")
        phone.wait_for_timeout(300)
        if (
            len(_ours_acted(puppet)) > acted
            and puppet.turns.qsize()
            and not phone.locator(".actionbar").count()
        ):
            break
    else:
        pytest.fail("no action of ours left the puppet to act")
    box = phone.get_by_role("textbox", name="Chat message")
    box.scroll_into_view_if_needed()
    box.tap()
    # The on-screen keyboard takes the lower half of the screen: the page's viewport is
    # what is left (a phone resizing its page for the keyboard).
    phone.set_viewport_size({"width": 390, "height": 470})
    box.scroll_into_view_if_needed()
    phone.keyboard.type("nice hand")
    _our_turn(phone, puppet)
    phone.wait_for_timeout(300)
    bar = phone.evaluate(
        "(() => { const r = document.querySelector('.actionbar').getBoundingClientRect();"
        " return [r.top, r.bottom, innerHeight]; })()"
    )
    # It was 500 px above the screen: nothing there said it was our turn, and the clock ran.
    assert bar[0] >= 0 and bar[1] <= bar[2], bar
    x, y = _centre(phone, PASSIVE)
    assert re.search(r'class="act (check|call)"', _under(phone, x, y)), _under(phone, x, y)
    expect(box).to_have_value("nice hand")  # the line being typed is kept
    shoot(phone, "touch-turn-while-typing")
    acted = len(_ours_acted(puppet))
    phone.wait_for_timeout(500)  # the bar read (a tap as it comes is dropped)
    phone.touchscreen.tap(x, y)
    deadline = time.monotonic() + 15
    while len(_ours_acted(puppet)) == acted:
        assert time.monotonic() < deadline, "the tap on the bar did not act"
        phone.wait_for_timeout(50)


SMALL = """(() => {
  // Every control of the page a finger may need, and its target: a checkbox's is its own
  // box with its label's (a tap on either ticks it). Not links in running text (WCAG
  // 2.5.8's exception), nor what is hidden or only for screen readers.
  const out = [];
  for (const el of document.querySelectorAll('button, a, input, select, summary')) {
    if (el.closest('.sr, .skip') || el.type === 'hidden') continue;
    if (el.tagName === 'A' && !el.classList.contains('button') && el.closest('p, li')) continue;
    let r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    if (el.type === 'checkbox') {
      const label = el.closest('label') || document.querySelector(`label[for="${el.id}"]`);
      if (label) {
        const l = label.getBoundingClientRect();
        const [top, left] = [Math.min(r.top, l.top), Math.min(r.left, l.left)];
        const [right, bottom] = [Math.max(r.right, l.right), Math.max(r.bottom, l.bottom)];
        r = { width: right - left, height: bottom - top };
      }
    }
    if (r.width < 43.5 || r.height < 43.5) {
      const name = (el.getAttribute('aria-label') || el.textContent || el.id || el.type).trim();
      out.push(`${name.slice(0, 30)} ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
  }
  return out;
})()"""


def test_every_control_is_a_fingers_size_on_a_phone(phone: Any, server: str, driven: Any) -> None:
    register(phone, server, fresh_alias())
    phone.wait_for_timeout(500)
    assert phone.evaluate(SMALL) == []  # the lobby: its menu, filters and tables
    puppet = driven.puppet("touch-sizes", fresh_alias("pup"))
    sit(phone, server, "touch-sizes")
    deadline = time.monotonic() + 60
    while not phone.locator("#raise-slider").count():  # a bet or raise of our choosing
        assert time.monotonic() < deadline, "no turn with an amount to choose came"
        _our_turn(phone, puppet)
        if not phone.locator("#raise-slider").count():
            phone.locator(PASSIVE).first.tap()
    phone.wait_for_timeout(300)
    shoot(phone, "touch-sizes")
    assert phone.evaluate(SMALL) == []  # the bar, its slider and presets, our seat's controls
    # No text under 12 CSS px, the least a phone's reader is asked to read (the seats'
    # tags and the dealer button were 11.95 px: .83 of the seat's 14.4 px).
    assert phone.evaluate(TINY) == []


TINY = """(() => {
  const out = new Set();
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const el = walk.currentNode.parentElement;
    if (!walk.currentNode.nodeValue.trim() || el.closest('.sr, .skip')) continue;
    if (!el.getBoundingClientRect().width) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    const text = walk.currentNode.nodeValue.trim().slice(0, 20);
    if (size < 12) out.add(`${el.className}: ${text} ${size}`);
  }
  return [...out];
})()"""


def test_a_phone_back_on_the_network_or_in_front_connects_again_at_once(
    phone: Any, server: str, console: Any
) -> None:
    console.allow("ERR_INTERNET_DISCONNECTED")  # the page's tries while the network is away
    # (the lobby's reads of /api/tables too: only the WebSocket's are counted below)
    register(phone, server, fresh_alias())
    until(phone, "window.cardroom.conn.state === 'open'")
    tries: list[str] = []
    phone.on("console", lambda m: tries.append(m.text) if "WebSocket" in m.text else None)
    phone.context.set_offline(True)  # a tunnel, a lift, the phone in a pocket
    phone.evaluate("window.cardroom.conn.drop()")  # the socket gone with the network
    # Each try waits longer than the last (0.25, 0.5, 1, 2, 4 s, then 5 s): after the
    # sixth, the next is 5 s away.
    deadline = time.monotonic() + 30
    while len(tries) < 6:
        assert time.monotonic() < deadline, tries
        phone.wait_for_timeout(50)
    # The page shown again (the player back from another app): it tries at once.
    phone.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    shown = time.monotonic()
    while len(tries) < 7:
        assert time.monotonic() - shown < 2, "the page waited out its pause to try again"
        phone.wait_for_timeout(50)
    phone.context.set_offline(False)
    back = time.monotonic()
    until(phone, "window.cardroom.conn.state === 'open'", timeout=10_000)
    # It waited out the pause (up to 5 s of "reconnecting", a turn's clock running).
    assert time.monotonic() - back < 2, time.monotonic() - back
    expect(phone.locator("#banner")).to_be_hidden()
