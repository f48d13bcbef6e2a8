"""Adding chips (RULEBOOK §10.2: between hands, never above the table's maximum). The
box offers what tops the stack up to the maximum (it offered the minimum buy-in, which
the room refuses above a stack of more than max - min), and a stack at the maximum is
told so instead of being offered a rebuy the room must refuse."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect
from tests.web.browser import fresh_alias, register, shoot, sit

pytestmark = pytest.mark.browser


def test_10_2_the_rebuy_box_tops_up_to_the_maximum_and_no_further(page: Any, server: str) -> None:
    alias = fresh_alias()
    register(page, server, alias)
    sit(page, server, "rebuy", amount=1500)  # buy-in 1,000 to 2,000; alone: no hand
    controls = page.get_by_role("group", name="Your seat")
    box = page.locator("#rebuy-amount")
    expect(controls).to_contain_text("Add up to 500")
    expect(box).to_have_value("500")
    assert box.get_attribute("max") == "500"
    controls.get_by_role("button", name="Rebuy").click()
    expect(page.locator(".log")).to_contain_text(f"{alias} adds 500.")
    expect(page.locator(".seat.mine .stack .chips")).to_have_text("2,000")
    expect(controls).to_contain_text("Your stack is at the table's maximum (2,000).")
    expect(box).to_have_count(0)
    expect(controls.get_by_role("button", name="Rebuy")).to_have_count(0)
    shoot(page, "rebuy-at-maximum")
