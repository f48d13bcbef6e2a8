"""Coming back within the reducing rule's window (RULEBOOK §10.2: "leaving and returning
to the same table with fewer chips within 30 minutes is not allowed"): the buy-in form
says why its minimum is above the table's own, and until when; the room's refusal of
less says the same."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.web.browser import fresh_alias, register, shoot, sit

pytestmark = pytest.mark.browser


def test_10_2_the_buy_in_form_says_why_a_returning_player_brings_what_he_took_off(
    page: Any, server: str
) -> None:
    """The form said "Buy-in (1,500 to 2,000)" at a 1,000 to 2,000 table, to a player who
    had left with 1,500, and the room refused 1,200 with "The buy-in is at least 1500."
    alone: neither said why, nor for how long."""
    register(page, server, fresh_alias())
    sit(page, server, "reducing", amount=1500)  # buy-in 1,000 to 2,000; alone: no hand
    page.get_by_role("group", name="Your seat").get_by_role("button", name="Leave table").click()
    notice = page.locator("#table-notice")
    expect(notice).to_contain_text("your 1,500 chips are back in your account")
    page.get_by_role("button", name=re.compile(r"^Sit here: seat \d+$")).first.click()
    form = page.locator("form.buyin")
    expect(form).to_contain_text("Buy-in (1,500 to 2,000)")
    hint = page.locator("#buyin-reducing")
    expect(hint).to_have_text(
        re.compile(
            r"^You left this table with 1,500 chips: until \d\d:\d\d you may not come back "
            r"with less \(no reducing\)\.$"
        )
    )
    expect(page.locator("#buyin-amount")).to_have_attribute("aria-describedby", "buyin-reducing")
    shoot(page, "buy-in-reducing")
    # Sent anyway (the form's own check passed by): the room says why as well.
    page.locator("#buyin-amount").fill("1200")
    page.evaluate("() => { document.querySelector('form.buyin').noValidate = true; }")
    form.get_by_role("button", name="Buy in").click()
    expect(notice).to_contain_text("you left this table with 1500 chips")
    expect(notice).to_contain_text("no reducing")
    page.locator("#buyin-amount").fill("1500")
    form.get_by_role("button", name="Buy in").click()
    page.locator(".seat.mine").wait_for(timeout=30_000)
    expect(page.locator("#buyin-reducing")).to_have_count(0)
