"""Chinese poker in the browser: an OFC table against two bots, cards placed by click,
by keyboard and with the discard of Pineapple, the showdown's points, and axe-core."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.web.browser import fresh_alias, register, serious_violations, shoot, sit

pytestmark = pytest.mark.browser


def _sit_with_the_bots(page: Any, server: str, table: str) -> None:
    """Sit once both bots have their seats (they may still be joining: a seat taken
    under us would be refused)."""
    page.goto(f"{server}/#/table/{table}")
    page.wait_for_function("document.querySelectorAll('.ofc-seat:not(.empty)').length >= 2")
    sit(page, server, table)


def _place_street(page: Any, by_keys: bool) -> None:
    """Place the cards of the street shown in the bar: bottom first, then middle, then
    top (the discard first where the game has one); by mouse or by the keys."""
    bar = page.locator(".placebar")
    discard = bar.get_by_role("button", name="Discard")
    if discard.count() and discard.is_enabled():
        bar.locator(".to-place button").last.click()  # pick the last card, throw it
        discard.click()
    for row, key in (("Bottom", "b"), ("Middle", "m"), ("Top", "t")):
        target = bar.get_by_role("button", name=row)
        while bar.locator(".to-place button").count() and target.is_enabled():
            if by_keys:
                page.keyboard.press(key)
            else:
                bar.locator(".to-place button").first.click()
                target.click()
    place = bar.get_by_role("button", name="Place cards")
    assert place.is_enabled()
    page.keyboard.press("p") if by_keys else place.click()


def _play_until_showdown(page: Any, alias: str, seconds: float = 90) -> int:
    """Place every street of our hand until the showdown panel names us; returns the
    number of streets we placed."""
    deadline = time.monotonic() + seconds
    placed = 0
    while True:
        assert time.monotonic() < deadline, "no showdown of a hand we played"
        showdown = page.locator(".ofc-showdown")
        if placed and showdown.count() and alias in showdown.inner_text():
            return placed
        bar = page.locator(".placebar")
        if bar.count() and bar.get_by_role("button", name="Place cards").count():
            _place_street(page, by_keys=placed % 2 == 1)
            placed += 1
            page.wait_for_timeout(150)
        else:
            page.wait_for_timeout(100)


def test_ofc_cards_placed_through_a_hand_then_the_scoring(page: Any, server: str) -> None:
    alias = fresh_alias("ofc")
    register(page, server, alias)
    _sit_with_the_bots(page, server, "ofc")
    page.get_by_role("link", name="View Chinese poker scoring and royalties").wait_for()
    page.locator(".placebar").wait_for(timeout=30_000)
    assert page.locator(".placebar .to-place button").count() == 5  # the first street
    shoot(page, "ofc_first_street")
    streets = _play_until_showdown(page, alias)
    assert streets >= 9  # 5 cards, then 8 streets of one
    text = page.locator(".ofc-showdown").inner_text()
    assert "points" in text and "chips" in text
    assert "Fouled" in text or "royalties" in text
    # Our three rows (the next hand may be starting: its empty rows are three too).
    expect(page.locator(".seat.mine .ofc-row")).to_have_count(3)
    shoot(page, "ofc_showdown")
    page.get_by_role("link", name="View Chinese poker scoring and royalties").click()
    page.get_by_role("heading", name="Chinese poker and OFC: scoring and royalties").wait_for()
    # The hand is in our history; the replayer steps through it to the rows shown.
    page.goto(f"{server}/#/history")
    page.get_by_role("link", name="ofc hand #").first.click()
    page.get_by_role("button", name="End").click()
    log = page.get_by_label("Actions so far").inner_text()
    assert "places 5 cards" in log and "places 1 card" in log
    mine = page.locator(".replayseats tr", has_text="(you)")
    assert mine.locator(".card.face").count() == 13
    # PHH has no form for Chinese poker: the replayer says so rather than offering none.
    expect(page.get_by_role("link", name="Download PHH")).to_have_count(0)
    expect(page.locator(".replaycontrols .nophh")).to_contain_text("No PHH: ")
    shoot(page, "ofc_replay")


def test_pineapple_discards_one_card_a_street(page: Any, server: str) -> None:
    alias = fresh_alias("pine")
    register(page, server, alias)
    _sit_with_the_bots(page, server, "pineapple")
    deadline = time.monotonic() + 60
    while True:  # the first street places 5; wait for one that deals 3
        assert time.monotonic() < deadline
        bar = page.locator(".placebar")
        if bar.count() and bar.get_by_role("button", name="Place cards").count():
            if bar.locator(".to-place button").count() == 3:
                break
            _place_street(page, by_keys=False)
        page.wait_for_timeout(100)
    assert page.locator(".placebar").get_by_role("button", name="Discard (1)").is_enabled()
    _place_street(page, by_keys=False)
    page.locator(".seat.mine .discards").wait_for()
    shoot(page, "pineapple_discard")


def test_ofc_table_passes_axe(page: Any, server: str) -> None:
    register(page, server, fresh_alias("ofca"))
    _sit_with_the_bots(page, server, "ofc-axe")
    page.locator(".placebar").wait_for(timeout=30_000)
    problems = serious_violations(page)
    assert problems == [], json.dumps(problems, indent=1)


def test_ofc_table_fits_a_phone(phone: Any, server: str) -> None:
    register(phone, server, fresh_alias("ofcp"))
    _sit_with_the_bots(phone, server, "ofc-phone")
    phone.locator(".placebar").wait_for(timeout=30_000)
    width = phone.evaluate("document.scrollingElement.scrollWidth")
    assert width <= 392, f"the page scrolls sideways on a phone ({width}px)"
    _place_street(phone, by_keys=False)  # the bar works by touch-sized buttons too
    phone.locator(".seat.mine .ofc-row .card.face").first.wait_for()
    shoot(phone, "ofc_phone")


def test_classic_chinese_poker_sets_13_cards_at_once_by_keys(page: Any, server: str) -> None:
    """Everyone sets at once: our bar comes whenever the hand is dealt, whoever's clock
    runs; 13 cards set by the keys (B x5, M x5, T x3, P), then the showdown."""
    alias = fresh_alias("cls")
    register(page, server, alias)
    _sit_with_the_bots(page, server, "classic")
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, "no showdown of a classic hand we played"
        bar = page.locator(".placebar")
        if bar.count() and bar.locator(".to-place button").count() == 13:
            for key, n in (("b", 5), ("m", 5), ("t", 3)):
                for _ in range(n):
                    page.keyboard.press(key)
            assert bar.get_by_role("button", name="Place cards").is_enabled()
            page.keyboard.press("p")
            break
        page.wait_for_timeout(100)
    page.locator(".ofc-showdown", has_text=alias).wait_for(timeout=60_000)
    shoot(page, "classic_showdown")


TO_SET = """() => {
    const cards = [...document.querySelectorAll(".placebar .to-place button")];
    const page = document.scrollingElement;
    return cards.length === 13 && {
        rights: cards.map((c) => c.getBoundingClientRect().right),
        width: page.scrollWidth, screen: page.clientWidth,
    };
}"""
"""Once the 13 cards to set are in the bar: where each ends, the page's width and the
screen's (measured at once: the bar is redrawn as the table moves on)."""


def test_classic_chinese_poker_fits_a_phone(phone: Any, server: str) -> None:
    """Thirteen cards to set at once: the bar wraps them, nothing is wider than the
    screen, and every card can be reached."""
    register(phone, server, fresh_alias("clsp"))
    _sit_with_the_bots(phone, server, "classic-phone")
    seen = phone.wait_for_function(TO_SET, timeout=30_000).json_value()
    assert seen["width"] <= seen["screen"], f"the page scrolls sideways on a phone ({seen})"
    assert max(seen["rights"]) <= seen["screen"], seen
    shoot(phone, "classic_phone")


def test_classic_chinese_poker_shows_the_clock_on_every_seat_setting(
    page: Any, more_pages: Any, server: str
) -> None:
    """Everyone sets at once on one clock from the deal (RULEBOOK §8): each player sees
    the clock on every seat still setting, their own included."""
    players = [page, more_pages()]
    for player in players:
        register(player, server, fresh_alias("clk"))
        sit(player, server, "classic-clock")
    for player in players:
        player.wait_for_function(
            "document.querySelectorAll('.placebar .to-place button').length === 13",
            timeout=30_000,
        )
        seats = player.locator(".ofc-seat:not(.empty)")
        expect(seats).to_have_count(2)
        for i in range(2):
            clock = seats.nth(i).get_by_role("timer")
            expect(clock).to_have_count(1)
            expect(clock).to_have_text(re.compile(r"^\d+s$"))
            assert int(clock.inner_text()[:-1]) > 60  # the time to set 13 cards
    shoot(page, "classic_clocks")
    # Once a player has set, only the other's clock runs, on both screens.
    for key, n in (("b", 5), ("m", 5), ("t", 3)):
        for _ in range(n):
            page.keyboard.press(key)
    page.keyboard.press("p")
    still = players[1].locator(".seat.mine").get_attribute("data-seat")
    for player in players:
        expect(player.get_by_role("timer")).to_have_count(1)
        setting = player.locator(".ofc-seat", has=player.get_by_role("timer"))
        expect(setting).to_have_attribute("data-seat", still or "")


def test_8_the_showdown_says_the_chips_paid_when_a_loser_could_not_cover(
    page: Any, server: str
) -> None:
    """The scoring's chips are points at the point's value; a loser pays only the chips
    on his table (§10.2), so the panel says what moved, read from the stacks before and
    after (the four-player hand of tests/room/test_chinese_settlement.py)."""
    page.goto(server + "/#/rules")
    lines = page.evaluate(
        """async () => {
        const { chipsMoved, ofcShowdown } = await import('/js/ofc.js');
        const rows = { top: ['2c', '3c', '4c'], middle: [], bottom: [] };
        const result = (seat, points) => ({ seat, points, chips: 10 * points, fouled: seat > 1,
            royalties: {}, fantasyland_next: 0, ...rows });
        const before = { 0: 1000, 1: 100, 2: 100, 3: 150 };
        const moved = chipsMoved(before, [[0, 1160], [1, 190], [2, 0], [3, 0]]);
        const t = { seatName: (s) => `p${s}`, chineseResult: { handNo: 1, before, moved,
            results: [result(0, 51), result(1, 11), result(2, -31), result(3, -31)] } };
        const panel = ofcShowdown(t);
        const paid = [...panel.querySelectorAll('.verdict strong')].map((e) => e.textContent);
        t.chineseResult.moved = chipsMoved(before, [[0, 1510], [1, 210], [2, -210], [3, -160]]);
        const scored = ofcShowdown(t).querySelector('.verdict strong').textContent;
        t.chineseResult.results[0].fantasyland_next = 14;  // earned: the seat's words
        const fantasy = ofcShowdown(t).querySelector('.verdict .fantasy').textContent;
        return [...paid, scored, fantasy];
    }"""
    )
    assert lines == [
        "p0: +51 points (+510 chips scored, +160 paid: table stakes)",
        "p1: +11 points (+110 chips scored, +90 paid: table stakes)",
        "p2: -31 points (-310 chips scored, -100 paid: table stakes)",
        "p3: -31 points (-310 chips scored, -150 paid: table stakes)",
        "p0: +51 points (+510 chips)",
        "Fantasyland next (14 cards)",
    ]


def test_8_a_chinese_table_s_terms_say_its_time_to_set_and_what_a_timeout_does(
    page: Any, server: str
) -> None:
    # RULEBOOK §8 (`arrange_seconds`, shown as every option is; on timeout the cards are
    # placed) and §10.5-§10.6: the header said "25 s to act ... then check or fold" at
    # every Chinese poker table, a poker table's words: a classic hand gives 120 s to set
    # its 13 cards, a Fantasyland hand 90 s, and nobody checks or folds there.
    register(page, server, fresh_alias())
    page.goto(server + "/#/table/classic")
    expect(page.locator(".tableterms")).to_have_text(
        "120 s to set your hand + a 30 s time bank · cut off: 30 s to come back, then your"
        " cards are placed for you · sitting out: removed after 10 min · chat in English"
    )
    page.goto(server + "/#/table/ofc")
    expect(page.locator(".tableterms")).to_contain_text(
        "25 s a street (90 s to set a Fantasyland hand) + a 30 s time bank · cut off: 30 s"
        " to come back, then your cards are placed for you ·"
    )
