"""A seat taken while a hand is played is not in that hand: it says "Waiting" (it had no
cards and no word why) until it is dealt in. Two puppets play the hand, slowly."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.web.browser import fresh_alias, register, shoot, sit

pytestmark = pytest.mark.browser


def test_a_seat_not_in_the_hand_says_it_is_waiting(page: Any, server: str, driven: Any) -> None:
    register(page, server, fresh_alias())
    puppets = [driven.puppet("waiting", fresh_alias("pup"), post_now=True) for _ in range(2)]
    page.goto(f"{server}/#/table/waiting")
    # The puppets' hand is dealt (they move only when told: it goes on while we sit).
    page.wait_for_function("document.querySelectorAll('.seat:not(.empty) .card').length >= 4")
    sit(page, server, "waiting")
    mine = page.locator(".seat.mine")
    expect(mine.locator(".tag", has_text="Waiting")).to_be_visible()
    expect(mine.locator(".card")).to_have_count(0)
    assert page.locator(".seat:not(.mine) .tag", has_text="Waiting").count() == 0
    shoot(page, "seat-waiting")
    deadline = time.monotonic() + 60
    while not mine.locator(".card").count():  # the puppets fold to the next hand
        assert time.monotonic() < deadline, "we were not dealt in"
        for puppet in puppets:
            if puppet.turn() is not None:
                puppet.move("fold")
        page.wait_for_timeout(50)
    expect(mine.locator(".tag", has_text="Waiting")).to_have_count(0)
