"""How a seat went is said as it goes: left when asked ("You left the table: your 1,000
chips are back in your account.", where the page went on saying "You will leave the
table"), or given up after sitting out longer than the table allows (it said the table
had closed or the server restarted). Alone at a table whose seats may sit out 3 s."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect
from tests.web.browser import fresh_alias, register, shoot, sit

pytestmark = pytest.mark.browser


def test_leaving_and_being_stood_up_are_said_in_words(page: Any, server: str) -> None:
    register(page, server, fresh_alias())
    sit(page, server, "stood-up", amount=1000)
    notice = page.locator("#table-notice")
    expect(page.locator(".gameinfo")).to_contain_text("No hand yet")  # not "Hand #0"
    page.get_by_role("button", name="Leave table").click()
    expect(page.locator(".seat.mine")).to_have_count(0)
    expect(notice).to_have_text("You left the table: your 1,000 chips are back in your account.")
    sit(page, server, "stood-up", amount=1200)
    page.get_by_role("button", name="Sit out next hand").click()  # no hand: out at once
    expect(page.get_by_role("button", name="I'm back")).to_be_visible()
    expect(page.locator(".seat.mine")).to_have_count(0, timeout=15_000)
    expect(notice).to_have_text(
        "You sat out longer than this table allows, so your seat was given up:"
        " your 1,200 chips are back in your account."
    )
    shoot(page, "stood-up")
