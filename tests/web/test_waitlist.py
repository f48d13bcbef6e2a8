"""The waiting list (RULEBOOK §10.3) in the browser: a heads-up table is full (a bot and
a player); one player joins its waiting list from the lobby, another from the table's
"Join the waiting list"; a seat frees, each in turn is offered it ("Take seat 2"),
takes it and is seated."""

from __future__ import annotations

import contextlib
import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.web.browser import fresh_alias, register, shoot, sit

pytestmark = pytest.mark.browser


def _leave(page: Any, seconds: float = 60.0) -> None:
    """Leave the table, folding meanwhile (the seat goes when the hand is over)."""
    page.get_by_role("button", name="Leave table").click()
    said = re.compile(r"You will leave the table after this hand;|You left the table: ")
    expect(page.locator("#table-notice")).to_have_text(said)
    deadline = time.monotonic() + seconds
    while page.locator(".seat.mine").count():
        assert time.monotonic() < deadline, "the seat was not freed"
        fold = page.locator(".actionbar").get_by_role("button", name="Fold")
        if fold.count():
            with contextlib.suppress(Exception):  # the bar may be redrawn meanwhile
                fold.click(timeout=1000)
        page.wait_for_timeout(100)


def _folded(page: Any) -> bool:
    """Fold if it is our turn; whether our seat is gone (left after the hand)."""
    fold = page.locator(".actionbar").get_by_role("button", name="Fold")
    if fold.count():
        with contextlib.suppress(Exception):  # the bar may be redrawn meanwhile
            fold.click(timeout=1000)
    return page.locator(".seat.mine").count() == 0


def _take_offered_seat(page: Any, alias: str) -> None:
    controls = page.locator(".controls")
    expect(controls).to_contain_text(
        "From the waiting list: seat 2 is held for you", timeout=60_000
    )
    controls.get_by_role("button", name="Take seat 2").click()
    page.get_by_role("button", name="Buy in").click()
    mine = page.locator(".seat.mine")
    expect(mine.locator(".alias")).to_have_text(alias, timeout=30_000)
    assert mine.get_attribute("data-seat") == "1"


def test_waiting_list_from_the_lobby_and_the_table(page: Any, server: str, more_pages: Any) -> None:
    seated, from_lobby, at_table = (fresh_alias("wl") for _ in range(3))
    register(page, server, seated)
    sit(page, server, "wait")  # with the bot: the table is full
    lobby = more_pages()
    register(lobby, server, from_lobby)
    row = lobby.locator('tr[data-table="wait"]')
    expect(row.locator("td").nth(2)).to_have_text("2/2", timeout=20_000)
    row.get_by_role("button", name="Join waiting list of wait").click()
    expect(lobby.locator("#lobby-status")).to_have_text("You are on the waiting list of wait.")
    expect(row.get_by_role("button", name="On the waiting list of wait")).to_be_disabled()
    expect(row.locator("td").nth(5)).to_have_text("1", timeout=20_000)  # waiting
    watcher = more_pages()
    register(watcher, server, at_table)
    watcher.goto(f"{server}/#/table/wait")
    expect(watcher.locator(".controls")).to_contain_text("The table is full.")
    watcher.get_by_role("button", name="Join the waiting list").click()
    expect(watcher.locator("#table-notice")).to_have_text(
        "You are on the waiting list: a seat will be offered to you."
    )
    shoot(lobby, "waitlist-lobby")
    # The seated player leaves: the first on the list is told in the lobby, opens the
    # table from there and takes the seat.
    _leave(page)
    offer = lobby.locator("#lobby-offer")
    expect(offer).to_contain_text("A seat is free at wait: seat 2 is held for you.", timeout=60_000)
    shoot(lobby, "waitlist-offer")
    offer.get_by_role("link", name="Take seat 2").click()
    _take_offered_seat(lobby, from_lobby)
    # The next on the list, who joined it at the table and has gone to the lobby since,
    # is told there when the seat frees again, and takes it.
    expect(watcher.locator(".controls")).to_contain_text(
        "You are on the waiting list: place 1 of 1."
    )
    watcher.goto(f"{server}/#/lobby")
    expect(watcher.locator('tr[data-table="wait"]')).to_be_visible(timeout=20_000)
    _leave(lobby)
    offer = watcher.locator("#lobby-offer")
    expect(offer).to_contain_text("A seat is free at wait: seat 2 is held for you.", timeout=60_000)
    offer.get_by_role("link", name="Take seat 2").click()
    _take_offered_seat(watcher, at_table)
    shoot(watcher, "waitlist-seated")


def test_a_seat_offered_is_said_where_the_player_is_looking(
    page: Any, server: str, more_pages: Any, driven: Any
) -> None:
    """The lobby said the seat offered at the top of the page: a player who had scrolled
    down to the table's row to join its list saw nothing, and the seat is held for a
    short while only. The offer now stays on the screen however far the list scrolled."""
    puppet = driven.puppet("wait-far", fresh_alias("pup"))
    register(page, server, fresh_alias("wl"))
    sit(page, server, "wait-far")  # with the puppet: the table is full
    lobby = more_pages()
    register(lobby, server, fresh_alias("wl"))
    row = lobby.locator('tr[data-table="wait-far"]')
    expect(row.locator("td").nth(2)).to_have_text("2/2", timeout=20_000)
    row.get_by_role("button", name="Join waiting list of wait-far").click()  # scrolled to
    expect(lobby.locator("#lobby-status")).to_have_text("You are on the waiting list of wait-far.")
    assert lobby.evaluate("window.scrollY") > 0, "the row was on the first screen"
    page.get_by_role("button", name="Leave table").click()
    puppet.passive_until(page, lambda: _folded(page), "the seat was not freed", 30)
    offer = lobby.locator("#lobby-offer")
    expect(offer).to_contain_text("A seat is free at wait-far: seat", timeout=30_000)
    expect(offer).to_be_in_viewport()
    shoot(lobby, "waitlist-offer-on-screen")


def test_a_reloaded_lobby_keeps_the_waiting_list_s_place_and_says_the_seat_offered(
    page: Any, server: str, more_pages: Any, driven: Any
) -> None:
    """A reload keeps the place on the list (the server's word, RULEBOOK §10.3), but the
    reloaded lobby knew nothing of it: it offered "Join waiting list" again, watched
    the table no more, and the seat offered was never said (it lapsed unseen, and the
    player left the list). The lobby now reads its lists and place from the server
    (``your_place``), says them, and tells the seat offered."""
    puppet = driven.puppet("wait-reload", fresh_alias("pup"))
    register(page, server, fresh_alias("wl"))
    sit(page, server, "wait-reload")  # with the puppet: the table is full
    lobby = more_pages()
    register(lobby, server, fresh_alias("wl"))
    row = lobby.locator('tr[data-table="wait-reload"]')
    expect(row.locator("td").nth(2)).to_have_text("2/2", timeout=20_000)
    row.get_by_role("button", name="Join waiting list of wait-reload").click()
    expect(lobby.locator("#lobby-status")).to_have_text(
        "You are on the waiting list of wait-reload."
    )
    lobby.reload()
    on_list = row.get_by_role("button", name="On the waiting list of wait-reload")
    expect(on_list).to_be_disabled(timeout=20_000)
    expect(on_list).to_contain_text("(place 1)")
    page.get_by_role("button", name="Leave table").click()
    puppet.passive_until(page, lambda: _folded(page), "the seat was not freed", 30)
    offer = lobby.locator("#lobby-offer")
    expect(offer).to_contain_text("A seat is free at wait-reload: seat", timeout=30_000)
    offer.get_by_role("link", name=re.compile(r"Take seat \d")).click()
    expect(lobby.locator(".controls")).to_contain_text("is held for you", timeout=20_000)


def test_a_waiting_player_sees_his_place_leaves_the_list_and_is_offered_a_seat_anywhere(
    page: Any, server: str, more_pages: Any, driven: Any
) -> None:
    """On a full table's waiting list, its page said "The table is full. Join the waiting
    list" as before (joining again was refused ``already_waiting``), never the place,
    and offered no way off the list nor to decline a seat (RULEBOOK §10.3: a player may
    decline; the protocol's ``waitlist`` off). And a player seated at another table was
    told nothing there of the seat offered (only the lobby said it): it lapsed. Now the
    page says the place with "Leave the waiting list", the seat offered with "Decline
    and leave the list", and another table's page says the seat offered."""
    puppet = driven.puppet("wait-decline", fresh_alias("pup"))
    register(page, server, fresh_alias("wl"))
    sit(page, server, "wait-decline")  # with the puppet: the table is full
    waiter = more_pages()
    register(waiter, server, fresh_alias("wl"))
    waiter.goto(f"{server}/#/table/wait-decline")
    controls = waiter.locator(".controls")
    controls.get_by_role("button", name="Join the waiting list").click()
    expect(controls).to_contain_text("You are on the waiting list: place 1 of 1.")
    controls.get_by_role("button", name="Leave the waiting list").click()
    expect(waiter.locator("#table-notice")).to_have_text("You left the waiting list.")
    expect(controls).to_contain_text("The table is full.")
    controls.get_by_role("button", name="Join the waiting list").click()
    expect(controls).to_contain_text("You are on the waiting list: place 1 of 1.")
    sit(waiter, server, "wait-side")  # alone there: no hand
    page.get_by_role("button", name="Leave table").click()
    puppet.passive_until(page, lambda: _folded(page), "the seat was not freed", 30)
    offer = waiter.locator("#table-offer")
    expect(offer).to_contain_text("A seat is free at wait-decline: seat", timeout=30_000)
    shoot(waiter, "waitlist-offer-at-another-table")
    offer.get_by_role("link", name=re.compile(r"Take seat \d")).click()
    expect(controls).to_contain_text("is held for you", timeout=20_000)
    controls.get_by_role("button", name="Decline and leave the list").click()
    expect(waiter.locator("#table-notice")).to_have_text("You left the waiting list.")
    expect(controls).to_contain_text("Choose an empty seat", timeout=20_000)


def test_a_seat_held_for_the_waiting_list_is_not_offered_to_the_rail(
    page: Any, server: str, more_pages: Any, driven: Any
) -> None:
    """A seat freed is held for the first player waiting (RULEBOOK §10.3): the room
    refuses it to anyone else (``seat_reserved``) and takes newcomers on the list. The
    page showed it to a newcomer as any empty seat, "Sit here" (refused after the buy-in
    form), "Watching. Choose an empty seat", and neither it nor the lobby offered the
    waiting list. Now the seat says it is held, the table is full to him, and both offer
    the list."""
    puppet = driven.puppet("wait-held", fresh_alias("pup"))
    register(page, server, fresh_alias("wl"))
    sit(page, server, "wait-held")  # with the puppet: the table is full
    first = more_pages()
    register(first, server, fresh_alias("wl"))
    first.goto(f"{server}/#/table/wait-held")
    first.locator(".controls").get_by_role("button", name="Join the waiting list").click()
    expect(first.locator(".controls")).to_contain_text("place 1 of 1.")
    page.get_by_role("button", name="Leave table").click()
    puppet.passive_until(page, lambda: _folded(page), "the seat was not freed", 30)
    expect(first.locator(".controls")).to_contain_text("is held for you", timeout=20_000)
    rail = more_pages()
    register(rail, server, fresh_alias("wl"))
    row = rail.locator('tr[data-table="wait-held"]')
    expect(row.locator("td").nth(5)).to_have_text("1", timeout=20_000)  # waiting
    expect(row.get_by_role("button", name="Join waiting list of wait-held")).to_be_visible()
    rail.goto(f"{server}/#/table/wait-held")
    held = rail.locator(".seat.empty")
    expect(held).to_contain_text("held for the waiting list", timeout=20_000)
    expect(held.get_by_role("button", name=re.compile("Sit here"))).to_have_count(0)
    controls = rail.locator(".controls")
    expect(controls).to_contain_text("The table is full.")
    controls.get_by_role("button", name="Join the waiting list").click()
    expect(controls).to_contain_text("You are on the waiting list: place 2 of 2.")
    shoot(rail, "waitlist-seat-held")


def test_the_time_a_seat_is_held_runs_down_and_its_lapse_is_said(
    page: Any, server: str, more_pages: Any, driven: Any
) -> None:
    """The seat offered said "held for you for 6 s" and went on saying so until it
    lapsed; then the table page went back to "Choose an empty seat" with its notice
    still saying "You are on the waiting list", and the lobby went on saying "A seat
    is free ... held for you" with its link. Now the seconds run down, and the lapse
    is said in both (the player is off the list: RULEBOOK §10.3, the seat passes on)."""
    puppet = driven.puppet("wait-lapse", fresh_alias("pup"))
    register(page, server, fresh_alias("wl"))
    sit(page, server, "wait-lapse")  # with the puppet: the table is full
    first = more_pages()
    register(first, server, fresh_alias("wl"))
    first.goto(f"{server}/#/table/wait-lapse")
    first.locator(".controls").get_by_role("button", name="Join the waiting list").click()
    expect(first.locator(".controls")).to_contain_text("place 1 of 1.")
    second = more_pages()
    register(second, server, fresh_alias("wl"))
    row = second.locator('tr[data-table="wait-lapse"]')
    expect(row.locator("td").nth(5)).to_have_text("1", timeout=20_000)  # waiting
    row.get_by_role("button", name="Join waiting list of wait-lapse").click()
    expect(second.locator("#lobby-status")).to_have_text(
        "You are on the waiting list of wait-lapse."
    )
    page.get_by_role("button", name="Leave table").click()
    puppet.passive_until(page, lambda: _folded(page), "the seat was not freed", 30)
    left = first.locator(".controls .offer-left")
    expect(left).to_have_text(re.compile(r"^for [3-6] s$"), timeout=20_000)
    expect(left).to_have_text(re.compile(r"^for [0-2] s$"), timeout=10_000)
    expect(first.locator("#table-notice")).to_have_text(
        "The seat held for you was passed on: the time to take it ran out, and you are off"
        " the waiting list.",
        timeout=10_000,
    )
    offer = second.locator("#lobby-offer")
    expect(offer).to_contain_text("A seat is free at wait-lapse: seat", timeout=10_000)
    expect(offer).to_have_text(
        "The seat held for you at wait-lapse was passed on: the time to take it ran out.",
        timeout=15_000,
    )
    expect(offer.get_by_role("link")).to_have_count(0)
