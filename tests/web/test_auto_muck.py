"""RULEBOOK §7: "auto-muck losing hands" is an option per player, on by default. The
seat's controls offer it; turned off it is said, kept by the room (a reload reads it
from the table's view) and can be turned on again."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect
from tests.web.browser import fresh_alias, register, shoot, sit

pytestmark = pytest.mark.browser


def test_7_auto_muck_losing_hands_is_a_seat_option_kept_over_a_reload(
    page: Any, server: str
) -> None:
    register(page, server, fresh_alias())
    sit(page, server, "automuck")
    box = page.get_by_label("Auto-muck losing hands")
    expect(box).to_be_checked()
    box.uncheck()
    expect(page.locator("#table-notice")).to_have_text(
        "Your losing hands will be shown from the next hand."
    )
    page.reload()
    expect(page.get_by_label("Auto-muck losing hands")).not_to_be_checked()
    shoot(page, "auto-muck-off")
    page.get_by_label("Auto-muck losing hands").check()
    expect(page.locator("#table-notice")).to_have_text(
        "Your losing hands will be mucked from the next hand."
    )
    page.reload()
    expect(page.get_by_label("Auto-muck losing hands")).to_be_checked()
