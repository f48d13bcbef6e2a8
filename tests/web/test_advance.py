"""Advance actions (RULEBOOK §10.5) as the player sees them, heads-up against a bot the
test moves: a ticked "Check" is played when the turn comes; a raise before the turn
clears it (and the player is told); ticked too late, after the turn came but before
the page heard of it, the room refuses it and the page says to act now."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.web.browser import ANNOUNCED, fresh_alias, register, shoot, sit
from tests.web.driven import Lag, Puppet

pytestmark = pytest.mark.browser


def _puppet_turn(page: Any, puppet: Puppet, seconds: float = 20.0) -> dict[str, Any]:
    """Wait for the puppet's turn; meanwhile check or call on our own turns."""
    deadline = time.monotonic() + seconds
    while (turn := puppet.turn()) is None:
        assert time.monotonic() < deadline, "the puppet's turn did not come"
        bar = page.locator(".actionbar")
        for name in ("Check", "Call"):
            button = bar.get_by_role("button", name=re.compile(f"^{name}"))
            if button.count():
                button.first.click(timeout=1000)
                break
        page.wait_for_timeout(50)
    return turn


def _check_offered(page: Any) -> bool:
    """Whether the page offers "Check" in advance (we are in the hand, nothing to call)."""
    box = page.locator("fieldset.advance")
    with_check = box.get_by_label("Check", exact=True)
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        if with_check.count() and with_check.is_enabled():
            return True
        if box.count() and box.get_by_label(re.compile(r"^Call \d")).count():
            return False  # a bet to call: no check
        page.wait_for_timeout(50)
    return False


def _tick_check(page: Any) -> None:
    """Tick "Check" and see the table take it (it stays ticked in the next view)."""
    notice = page.locator("#table-notice")
    page.locator("fieldset.advance").get_by_label("Check", exact=True).click()
    page.wait_for_timeout(300)  # the view comes back from the table
    expect(page.locator("fieldset.advance").get_by_label("Check", exact=True)).to_be_checked()
    expect(notice).to_have_text("")


def test_advance_check_is_played_cleared_by_a_raise_and_refused_when_late(
    page: Any, server: str, driven: Any
) -> None:
    lag = Lag(page)
    alias = fresh_alias()
    register(page, server, alias)
    puppet = driven.puppet("advance", fresh_alias("pup"))
    sit(page, server, "advance")
    notice = page.locator("#table-notice")
    log = page.locator(".log")
    bar = page.locator(".actionbar")
    done: list[str] = []
    deadline = time.monotonic() + 55
    while len(done) < 3:
        assert time.monotonic() < deadline, f"only {done} seen in time"
        turn = _puppet_turn(page, puppet)
        legal = turn["legal"]
        passive = "check" if "check" in legal["actions"] else "call"
        if not _check_offered(page):
            puppet.move(passive)
            continue
        if "played" not in done:
            _tick_check(page)
            puppet.move(passive)
            page.wait_for_function(
                "/played|cleared/.test(document.querySelector('#table-notice').textContent)"
            )
            if "played" in notice.inner_text():  # (a new street would have cleared it)
                expect(notice).to_have_text("Your advance action was played: Check.")
                expect(log).to_contain_text(f"{alias} checks.")
                shoot(page, "advance-played")
                done.append("played")
        elif "cleared" not in done:
            _tick_check(page)
            puppet.move("raise", int(legal["min_raise_to"]))
            expect(notice).to_have_text("The bet changed: your advance action (Check) was cleared.")
            call = bar.get_by_role("button", name=re.compile(r"^Call \d"))
            expect(call).to_be_enabled()
            expect(bar.get_by_role("button", name="Check", exact=True)).to_have_count(0)
            shoot(page, "advance-cleared")
            bar.get_by_role("button", name="Fold").click()
            done.append("cleared")
        else:
            lag.hold()  # the page hears nothing of the table for a while
            seen = puppet.move(passive)
            if puppet.next_turn_after(seen, lambda: page.wait_for_timeout(20)) == puppet.seat:
                lag.release()  # the street closed and the puppet acts first: again later
                continue
            # Our turn has come, but the page does not know yet and still offers the box.
            page.locator("fieldset.advance").get_by_label("Check", exact=True).click()
            expect(notice).to_have_text("It is your turn: act now.")
            box = page.locator("fieldset.advance").get_by_label("Check", exact=True)
            expect(box).not_to_be_checked()  # refused: nothing was pre-selected
            shoot(page, "advance-act-now")
            lag.release()
            expect(bar.get_by_role("button", name=re.compile("^(Check|Call)"))).to_be_enabled()
            bar.get_by_role("button", name=re.compile("^(Check|Call)")).first.click()
            done.append("late")


def test_the_advance_boxes_are_not_announced_at_each_move(
    page: Any, server: str, driven: Any
) -> None:
    """The advance checkboxes come and go with every move of the others (offered from a
    fresh view only): in the action area's live region, a screen reader read them all
    out ("Act in advance, Check/fold, Check, Call any, Fold") after each move. Our turn
    is still announced. A box focused keeps the focus as they go and come back."""
    register(page, server, fresh_alias())
    puppet = driven.puppet("advance-quiet", fresh_alias("pup"))
    sit(page, server, "advance-quiet")
    page.evaluate(ANNOUNCED)
    box, bar = page.locator("fieldset.advance"), page.locator(".actionbar")
    turn = _puppet_turn(page, puppet)  # waiting for the puppet: the boxes are offered
    box.wait_for()
    # A keyboard player on the first box: another player sits down, and the boxes go (an
    # event) and come back (a fresh view). The focus comes back to the box: it stayed on
    # the action area, so Space ticked nothing and the player had to find the box again
    # after every move of the others.
    box.get_by_label("Check/fold").focus()
    newcomer = fresh_alias("pup")
    driven.puppet("advance-quiet", newcomer)
    expect(page.locator(".log")).to_contain_text(f"{newcomer} sits down", timeout=15_000)
    expect(box.get_by_label("Check/fold")).to_be_focused()
    puppet.move("check" if "check" in turn["legal"]["actions"] else "call")
    puppet.passive_until(page, lambda: bar.count() > 0, "our turn did not come")
    # The focused box went as our turn came: the focus stays in the action area, not on
    # the bar's first button, Fold (a Space meant for the box folded).
    expect(bar).to_be_visible()
    on = page.evaluate("() => document.activeElement.closest('.actionbar button')?.textContent")
    assert on is None, on
    announced = page.evaluate("window.announced")
    assert any("Your turn" in text for text in announced), announced
    assert not [text for text in announced if "Act in advance" in text], announced


def test_the_other_players_moves_are_announced_once_each(
    page: Any, server: str, driven: Any
) -> None:
    """A screen reader heard "Your turn" and nothing of what the others did: the hand log
    is rebuilt at each event, so it is no live region. Each new line of it is now said
    once in a region of its own (``#said``), which keeps the last few."""
    register(page, server, fresh_alias())
    alias = fresh_alias("pup")
    puppet = driven.puppet("moves-said", alias)
    sit(page, server, "moves-said")
    page.evaluate(ANNOUNCED)
    turn = _puppet_turn(page, puppet)
    move = "check" if "check" in turn["legal"]["actions"] else "call"
    puppet.move(move)
    said = f"{alias} {move}s"
    page.wait_for_function(
        "(said) => window.announced.some((text) => text.includes(said))", arg=said, timeout=10_000
    )
    announced = page.evaluate("window.announced")
    assert len([text for text in announced if said in text]) == 1, announced
    region = page.locator("#said")
    assert region.get_attribute("aria-live") == "polite"
    assert region.locator("p").count() <= 5  # only the last few lines are kept
