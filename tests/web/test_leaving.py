"""Leaving asked in a hand (RULEBOOK §10.2: the seat goes when the hand ends), heads-up
against a puppet whose turn it is: the seat says "Leaving after this hand" to everyone
at the table (it said nothing) and its player is offered "Stay" (he could not change his
mind), after a reload too; staying takes the marker away and gives "Leave table" back;
leaving again, the seat goes when the hand ends, and the marker with it."""

from __future__ import annotations

import contextlib
import json
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.web.browser import fresh_alias, register, shoot, sit

pytestmark = pytest.mark.browser


def _the_puppet_to_act(page: Any, puppet: Any) -> dict[str, Any]:
    """Call or check our turns until the puppet is to act; its turn (kept waiting: the
    hand cannot end before it moves)."""
    bar = page.locator(".actionbar")
    for _ in range(600):
        turn = puppet.turn()
        if turn is not None:
            return turn
        ours = bar.locator("button.act.check, button.act.call")
        if ours.count():
            with contextlib.suppress(Exception):  # the bar may be redrawn meanwhile
                ours.first.click(timeout=1000)
        page.wait_for_timeout(50)
    raise AssertionError("the puppet was never to act")


def test_10_2_leaving_in_a_hand_is_marked_on_the_seat_and_may_be_taken_back(
    page: Any, server: str, driven: Any, more_pages: Any
) -> None:
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: sent.append(str(f))))
    register(page, server, fresh_alias())
    puppet = driven.puppet("leaving", fresh_alias("pup"))
    sit(page, server, "leaving")
    page.locator(".seat.mine .card.face").first.wait_for(timeout=30_000)
    held = _the_puppet_to_act(page, puppet)
    rail = more_pages()  # another player's page, watching the table
    register(rail, server, fresh_alias("rail"))
    rail.goto(f"{server}/#/table/leaving")
    rail.locator(".seat .card").first.wait_for(timeout=30_000)

    controls = page.get_by_role("group", name="Your seat")
    mine = page.locator(".seat.mine")
    controls.get_by_role("button", name="Leave table").click()
    expect(mine.locator(".tag", has_text="Leaving after this hand")).to_be_visible()
    # A leaving seat's turns are played as a timeout's (room/turns.py): it says so.
    expect(controls).to_contain_text(
        "You will leave the table after this hand; until then your turns are played as if"
        " your time ran out."
    )
    stay = controls.get_by_role("button", name="Stay", exact=True)
    expect(stay).to_be_visible()
    seat = mine.get_attribute("data-seat")
    theirs = rail.locator(f'.seat[data-seat="{seat}"]')
    expect(theirs.locator(".tag", has_text="Leaving after this hand")).to_be_visible()
    expect(rail.locator(".log")).to_contain_text("leaves after this hand.")
    page.reload()  # the table's view says it (the page's own memory is gone)
    expect(mine.locator(".tag", has_text="Leaving after this hand")).to_be_visible()
    # No advance actions (they were offered): the room plays a leaving seat's turns as a
    # timeout's, whatever is ticked.
    expect(page.locator(".actionbar, .advance")).to_have_count(0)
    shoot(page, "leaving-after-this-hand")
    stay.click()
    expect(mine.locator(".tag", has_text="Leaving after this hand")).to_have_count(0)
    expect(theirs.locator(".tag", has_text="Leaving after this hand")).to_have_count(0)
    expect(controls.get_by_role("button", name="Leave table")).to_be_visible()
    expect(controls).not_to_contain_text("You will leave the table")
    expect(page.locator(".advance")).to_be_visible()  # waiting on the puppet's turn
    asked = [json.loads(f) for f in sent if '"stay"' in f]
    assert [m["table"] for m in asked] == ["leaving"], sent

    controls.get_by_role("button", name="Leave table").click()  # and now for good
    expect(theirs.locator(".tag", has_text="Leaving after this hand")).to_be_visible()
    puppet.move("check" if "check" in held["legal"]["actions"] else "call")  # the held turn
    puppet.passive_until(page, lambda: mine.count() == 0, "our seat was not freed", 30)
    expect(page.locator("#table-notice")).to_contain_text("You left the table")
    expect(rail.locator(".tag", has_text="Leaving after this hand")).to_have_count(0)
