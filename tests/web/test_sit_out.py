"""Sitting out asked for in a hand (RULEBOOK §10.4: it takes effect from the next hand),
heads-up against a puppet that checks or calls: the seat says so and offers to keep
playing (before, it went on offering "Sit out next hand" as if nothing had been
asked); keeping playing cancels it; asked again, a reload still says so, and the next
hand finds us sitting out."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.web.browser import fresh_alias, register, shoot, sit

pytestmark = pytest.mark.browser


def test_sitting_out_asked_in_a_hand_is_said_and_can_be_taken_back(
    page: Any, server: str, driven: Any
) -> None:
    register(page, server, fresh_alias())
    puppet = driven.puppet("sit-out", fresh_alias("pup"))
    sit(page, server, "sit-out", amount=1500)  # below the maximum: a rebuy is offered
    bar = page.locator(".actionbar")
    # Our turn: we are in a hand, which cannot end before we act.
    puppet.passive_until(page, bar.count, "no turn of ours came")
    controls = page.get_by_role("group", name="Your seat")
    expect(controls.get_by_role("button", name="Rebuy")).to_be_disabled()  # §10.2
    controls.get_by_role("button", name="Sit out next hand").click()
    expect(controls).to_contain_text("You will sit out from the next hand.")
    shoot(page, "sit-out-asked")
    tops = controls.locator("button").evaluate_all(
        "bs => bs.map(b => Math.round(b.getBoundingClientRect().top))"
    )
    assert len(set(tops)) == 1, f"the seat's controls take more than one line: {tops}"
    controls.get_by_role("button", name="Keep playing").click()
    expect(controls.get_by_role("button", name="Sit out next hand")).to_be_visible()
    expect(controls).not_to_contain_text("You will sit out")
    controls.get_by_role("button", name="Sit out next hand").click()
    expect(controls.get_by_role("button", name="Keep playing")).to_be_visible()
    page.reload()  # the table's view says what was asked (the page forgot it before)
    expect(controls).to_contain_text("You will sit out from the next hand.")
    bar.get_by_role("button", name="Fold").click()  # the hand ends: we sit out
    back = controls.get_by_role("button", name="I'm back")
    puppet.passive_until(page, back.count, "we were not sat out after the hand", 30)
    expect(controls).not_to_contain_text("You will sit out")
    expect(page.locator(".seat.mine .tag", has_text="Sitting out")).to_be_visible()


def test_10_4_a_player_who_owes_the_big_blind_may_post_it_now_on_coming_back(
    page: Any, server: str, driven: Any
) -> None:
    """RULEBOOK §10.4: one who missed the big blind waits for it or posts it now. A seat
    sitting out offered only "I'm back" (waiting for the big blind, unsaid: up to a
    round of hands) though the view says what is owed (`owes`) and the room takes
    `sit_in` with `post_now`. It says what is owed and offers "Post now", which asks the
    room to deal us in at once (`post_now`: the room's rule, tested in tests/room), and we
    are dealt into the next hand. (Which blind we post there is the room's: the table's
    first hand is a new game whose button is drawn, so it is not asserted here.)"""
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: sent.append(str(f))))
    alias = fresh_alias()
    register(page, server, alias)
    sit(page, server, "come-back", post_now=False)  # alone: no hand, the big blind owed
    controls = page.get_by_role("group", name="Your seat")
    controls.get_by_role("button", name="Sit out next hand").click()
    post = controls.get_by_role("button", name="Post now")
    expect(post).to_be_visible()
    expect(controls).to_contain_text("You owe the big blind: wait for it to reach you")
    expect(controls.get_by_role("button", name="I'm back")).to_be_visible()
    shoot(page, "owed-blind-offered")
    post.click()
    expect(controls.get_by_role("button", name="Sit out next hand")).to_be_visible()
    asked = [json.loads(f) for f in sent if '"sit_in"' in f]
    assert [(m["table"], m.get("post_now")) for m in asked] == [("come-back", True)], sent
    driven.puppet("come-back", fresh_alias("pup"))
    page.locator(".seat.mine .card.face").first.wait_for(timeout=20_000)
    expect(page.locator(".log")).to_contain_text(f"{alias} is back.")


def test_10_3_a_player_waiting_for_the_big_blind_may_still_post_it_now(
    page: Any, server: str, driven: Any
) -> None:
    """RULEBOOK §10.3: a new player waits for the big blind or posts one now. Seated to
    wait (the box unticked) at a table in a hand, the seat offered only "Sit out next
    hand": the wait (up to a round of hands) could not be cut short. It now says so and
    offers "Post now" (`sit_in` with `post_now`), which the room takes; then we are dealt
    into the next hand."""
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: sent.append(str(f))))
    first = driven.puppet("waiting-bb", fresh_alias("pup"))
    second = driven.puppet("waiting-bb", fresh_alias("pup"))
    register(page, server, fresh_alias())
    sit(page, server, "waiting-bb", post_now=False)  # their hand is on: we wait
    controls = page.get_by_role("group", name="Your seat")
    expect(controls).to_contain_text("You wait for the big blind to reach you, or post it now.")
    post = controls.get_by_role("button", name="Post now")
    shoot(page, "waiting-for-the-big-blind")
    post.click()
    expect(post).to_have_count(0)  # asked: the view's post_now says so
    expect(controls).not_to_contain_text("You wait for the big blind")
    # Until dealt in, what was asked is said (a seat the button has yet to pass waited
    # without a word why).
    expect(controls).to_contain_text("You post at the next hand that may deal you in")
    asked = [json.loads(f) for f in sent if '"sit_in"' in f]
    assert [(m["table"], m.get("post_now")) for m in asked] == [("waiting-bb", True)], sent
    mine = page.locator(".seat.mine .card.face")
    deadline = time.monotonic() + 30
    while not mine.count():  # their hand ends; the next deals us in
        assert time.monotonic() < deadline, "we were not dealt into the next hand"
        first.passive()
        second.passive()
        page.wait_for_timeout(100)
