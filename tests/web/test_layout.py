"""The table's layout with the most it has to hold: an 8-seat stud table on seventh
street, six players with seven cards each, every seat and every card inside the felt at
1280x800 and on a phone (390 px wide, nothing wider than the screen)."""

from __future__ import annotations

import contextlib
import re
import time
from typing import Any

import pytest
from tests.web.browser import fresh_alias, register, shoot, sit
from tests.web.driven import Puppet

pytestmark = pytest.mark.browser

OUTSIDE = """() => {
    const felt = document.querySelector(".felt").getBoundingClientRect();
    const out = [];
    for (const el of document.querySelectorAll(".felt .seat, .felt .seat .card")) {
        const r = el.getBoundingClientRect();
        if (r.left < felt.left - 0.5 || r.right > felt.right + 0.5
            || r.top < felt.top - 0.5 || r.bottom > felt.bottom + 0.5) {
            const seat = el.closest(".seat");
            out.push(`${el.className} of seat ${seat.dataset.seat}: ${JSON.stringify(r)}`);
        }
    }
    return out;
}"""
"""What sticks out of the felt's box: seats and cards, named."""

SEVEN = (
    "[...document.querySelectorAll('.felt .seat')]"
    ".filter((s) => s.querySelectorAll('.card').length === 7).length"
)
"""How many seats show seven cards."""

WIDTHS = "[document.scrollingElement.scrollWidth, document.scrollingElement.clientWidth]"
"""The document's width and the screen's (more: it scrolls sideways)."""


def _act(page: Any) -> None:
    """Our turn: check, call or bring in (the bar is redrawn as the table moves on)."""
    bar = page.locator(".actionbar")
    for name in ("Check", "Call", "Bring in"):
        button = bar.get_by_role("button", name=re.compile(f"^{name}"))
        if button.count():
            with contextlib.suppress(Exception):
                button.first.click(timeout=1000)
            return


def _seventh_street(page: Any, puppets: list[Puppet], folders: set[int]) -> Puppet:
    """Play until a puppet is to act on 7th street with six players of eight still in
    (two seats fold on 3rd street: eight stud hands take more than a deck). Returns that
    puppet, its move still to make."""
    deadline = time.monotonic() + 120
    while True:
        assert time.monotonic() < deadline, "no 7th street with six players"
        for puppet in puppets:
            turn = puppet.turn()
            if turn is None:
                continue
            streets = [e["index"] for e in list(puppet.seen) if e.get("type") == "StreetStarted"]
            street = streets[-1] if streets else 0
            if street == 4 and page.evaluate(SEVEN) == 6:
                puppet.turns.put(turn)  # keep the turn for the end of the test
                return puppet
            legal = turn["legal"]
            if street == 0 and puppet.seat in folders and "fold" in legal["actions"]:
                puppet.move("fold")
            elif "bring_in" in legal["actions"]:
                puppet.move("bring_in")
            else:
                puppet.move("check" if "check" in legal["actions"] else "call")
        _act(page)
        page.wait_for_timeout(50)


def test_an_eight_seat_stud_table_keeps_every_card_on_the_felt(
    page: Any, phone: Any, server: str, driven: Any
) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    register(page, server, fresh_alias())
    sit(page, server, "stud8")
    me = int(page.locator(".seat.mine").get_attribute("data-seat") or 0)
    register(phone, server, fresh_alias())
    phone.goto(f"{server}/#/table/stud8")  # a spectator on a phone
    puppets = [driven.puppet("stud8", fresh_alias("p8")) for _ in range(7)]
    page.wait_for_function("document.querySelectorAll('.felt .seat:not(.empty)').length === 8")
    # The seats three places from ours on either side fold: those with cards are ours,
    # our neighbours, the sides of the oval and the top.
    folders = {(me + 3) % 8, (me + 5) % 8}
    _seventh_street(page, puppets, folders)
    assert page.evaluate(SEVEN) == 6
    shoot(page, "layout-stud8")
    assert page.evaluate(OUTSIDE) == []
    phone.wait_for_function(f"{SEVEN} === 6")
    shoot(phone, "layout-stud8-phone")
    assert phone.evaluate(OUTSIDE) == []
    width = phone.evaluate(WIDTHS)
    assert width[0] <= width[1], f"the phone page scrolls sideways ({width})"
