"""The table's layout with the most it has to hold: an 8-seat stud table on seventh
street, six players with seven cards each, every seat and every card inside the felt at
1280x800 and on a phone (390 px wide, nothing wider than the screen); full-ring Hold'em
(9 and 10 seats) on the river, bets out, at the usual screen sizes: every seat inside
the felt, no two seats and no seat and the board over each other; the page's head is
one box of its grid."""

from __future__ import annotations

import contextlib
import json
import re
import time
from typing import Any

import pytest
from tests.web.browser import fresh_alias, register, settled, shoot, sit
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

OVERLAPS = """() => {
    const boxes = [...document.querySelectorAll(".felt .seat")].map(
        (el) => [`seat ${el.dataset.seat}`, el.getBoundingClientRect()]);
    const centre = document.querySelector(".felt .centre");
    if (centre) boxes.push(["the board and pots", centre.getBoundingClientRect()]);
    const out = [];
    boxes.forEach(([a, r], i) => boxes.slice(i + 1).forEach(([b, q]) => {
        if (r.left < q.right - 0.5 && q.left < r.right - 0.5
            && r.top < q.bottom - 0.5 && q.top < r.bottom - 0.5) out.push(`${a} and ${b}`);
    }));
    return out;
}"""
"""The seats whose boxes run into each other or into the board and pots, named."""

BOXES = """() => {
    const felt = document.querySelector(".felt");
    const seats = [...document.querySelectorAll(".felt .seat")].map((el) => {
        const r = el.getBoundingClientRect();
        const words = el.innerText.replace(/\\s+/g, " ");
        return `${el.dataset.seat}: ${Math.round(r.left)},${Math.round(r.top)} `
            + `${Math.round(r.width)}x${Math.round(r.height)} "${words}"`;
    });
    const c = document.querySelector(".felt .centre").getBoundingClientRect();
    return `felt ${felt.clientWidth}x${felt.clientHeight} scale `
        + `${felt.style.getPropertyValue("--seat-scale")}; board ${Math.round(c.width)}x`
        + `${Math.round(c.height)}; ` + seats.join("; ");
}"""
"""Where each seat is, its size and words, and the felt's scale: what a failure shows."""

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
    # Seven cards a seat at the other sizes too (a puppet still to act on 7th street).
    problems = _wrong_at_each_size(page, "stud8")
    assert problems == {}, json.dumps(problems, indent=1)


RING = """() => ({
    dealt: [...document.querySelectorAll('.felt .seat')]
        .filter((s) => s.querySelectorAll('.card').length === 2).length,
    board: document.querySelectorAll('.felt .centre .card').length,
    ours: document.querySelectorAll('.actionbar').length > 0,
})"""
"""How many seats hold two cards, how many cards the board shows, whether we are to act."""

SIZES = [(1920, 1080), (1366, 768), (1280, 800), (1024, 768), (800, 600), (390, 844)]
"""Desktop screens, a small laptop, an old 4:3 screen, a narrow window and a phone."""


def _puppet_move(puppet: Puppet, full: bool, river: bool) -> None:
    """A hand without every seat: fold (on to the next). A full one: check or call, and
    on the river open with a four-figure bet, so every seat before ours has one out."""
    turn = puppet.turn()
    if turn is None:
        return
    legal = turn["legal"]
    kinds = legal["actions"]
    if not full:
        puppet.move("fold" if "fold" in kinds else "check")
    elif river and "check" in kinds and "raise" in kinds:
        puppet.move("raise", min(max(int(legal["min_raise_to"]), 1000), legal["max_raise_to"]))
    else:
        puppet.move("check" if "check" in kinds else "call")


def _river_with_everyone(page: Any, puppets: list[Puppet], seats: int) -> None:
    """Play until it is our turn on the river of a hand every seat was dealt into."""
    deadline = time.monotonic() + 120
    while True:
        assert time.monotonic() < deadline, f"no river with {seats} players"
        state = page.evaluate(RING)
        full = state["dealt"] == seats
        river = full and state["board"] == 5
        if river and state["ours"]:
            return
        for puppet in puppets:
            _puppet_move(puppet, full, river)
        _act(page)
        page.wait_for_timeout(50)


def _wrong_at_each_size(page: Any, name: str) -> dict[str, list[str]]:
    """The page resized to each of :data:`SIZES` (shot as ``layout-<name>-<size>``): what
    sticks out of the felt, runs into another seat or makes the page scroll sideways."""
    problems = {}
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        settled(page)
        shoot(page, f"layout-{name}-{width}x{height}")
        # The table is live: a seat's words change between fits (its clock, a bet), and
        # under load a refit may land a little later. What is wrong must stay wrong.
        deadline = time.monotonic() + 3
        while True:
            wrong = page.evaluate(OUTSIDE) + page.evaluate(OVERLAPS)
            scroll = page.evaluate(WIDTHS)
            if scroll[0] > scroll[1]:
                wrong.append(f"the page scrolls sideways ({scroll})")
            if not wrong or time.monotonic() > deadline:
                break
            page.wait_for_timeout(100)
        if wrong:
            shoot(page, f"layout-{name}-{width}x{height}-wrong")
            problems[f"{width}x{height}"] = [*wrong, page.evaluate(BOXES)]
    return problems


@pytest.mark.parametrize("seats", [9, 10])
def test_a_full_ring_keeps_every_seat_apart_on_the_felt(
    page: Any, server: str, driven: Any, seats: int
) -> None:
    table = f"ring{seats}"
    register(page, server, fresh_alias("ringseat"))  # long aliases: the widest seats
    sit(page, server, table)
    puppets = [
        driven.puppet(table, fresh_alias("ringseat"), post_now=True) for _ in range(seats - 1)
    ]
    page.wait_for_function(
        f"document.querySelectorAll('.felt .seat:not(.empty)').length === {seats}"
    )
    _river_with_everyone(page, puppets, seats)
    problems = _wrong_at_each_size(page, table)
    assert problems == {}, json.dumps(problems, indent=1)


def test_our_turn_brings_the_whole_action_bar_onto_a_small_laptops_screen(
    page: Any, server: str, driven: Any
) -> None:
    """At 1024x768 the bar (its raise button on a second line) ran below the screen's
    edge: when our turn comes the page scrolls just enough to show all of it, and keeps
    it there while it is shown, however the page grows above it (the side beside it or
    the bar growing: its last line went off the screen; the bar was scrolled into view
    once, a frame after it came, and not at all when it was drawn again meanwhile).
    Heads-up with a puppet that checks or calls."""
    page.set_viewport_size({"width": 1024, "height": 768})
    register(page, server, fresh_alias())
    sit(page, server, "laptop")
    puppet = driven.puppet("laptop", fresh_alias("pup"))
    # Where a player who clicked the table's title is: at the top, nothing focused.
    page.get_by_role("heading", level=1).click()
    page.evaluate("window.scrollTo(0, 0)")
    bar = page.locator(".actionbar")
    puppet.passive_until(page, bar.count, "our turn did not come")
    settled(page)
    box = bar.bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= 768, box
    assert page.locator(".seat.mine").bounding_box()["y"] >= 0  # our cards in sight too
    # The page grows while the bar is shown: the side beside it (a showdown panel, the
    # last hands, the chat; a box stands for them), then the bar itself (a long line in
    # it). Each moved it down, its last line off the screen.
    for grow in (
        "document.querySelector('.side').append(Object.assign("
        "document.createElement('div'), {className: 'grown'}))",
        "document.querySelector('.raise-problem').textContent = 'A long line. '.repeat(30)",
    ):
        page.add_style_tag(content=".grown { height: 700px; }")
        page.evaluate(grow)
        settled(page)
        settled(page)  # (the bar's size watched, then scrolled)
        box = bar.bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= 768, (grow, box)
    shoot(page, "laptop-our-turn")


def test_the_table_page_has_one_head_in_the_grid(page: Any, server: str) -> None:
    """The header (the table's name and game, the hand, the rules link) is one
    ``.tablehead``, the page grid's ``head`` area: it was a ``.tablehead`` inside
    another (the region and the header built into it), two boxes where one was meant,
    the grid's rule matching both."""
    register(page, server, fresh_alias())
    page.goto(f"{server}/#/table/holdem")
    page.locator(".tablehead h1").wait_for(timeout=30_000)
    heads = page.evaluate(
        """() => [...document.querySelectorAll(".tablehead")].map((el) => ({
            parent: el.parentElement.className,
            area: getComputedStyle(el).gridRowStart,
            children: [...el.children].map((c) => c.tagName.toLowerCase() + "." + c.className),
        }))"""
    )
    assert len(heads) == 1, json.dumps(heads, indent=1)
    (head,) = heads
    assert head["parent"] == "tablepage" and head["area"] == "head", head
    assert head["children"][:2] == ["h1.", "p.gameinfo"], head
