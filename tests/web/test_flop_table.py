"""A flop game in the browser: buy in, see one's own cards, act from the action bar
(and the keyboard), play hands to showdown against bots, see the winner named."""

from __future__ import annotations

import contextlib
import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.web.browser import fresh_alias, play_passively, register, shoot, sit

pytestmark = pytest.mark.browser


def test_buy_in_and_play_holdem_to_showdown(page: Any, server: str) -> None:
    alias = fresh_alias()
    register(page, server, alias)
    sit(page, server, "holdem")
    mine = page.locator(".seat.mine")
    stack = int(mine.locator(".stack .chips").inner_text().replace(",", ""))
    assert 1000 <= stack <= 2000  # the buy-in (less a blind already posted)
    seen_cards: set[str] = set()
    labels: set[str] = set()

    def showdown_with_me() -> bool:
        # Read in one go: the next hand may clear our cards between a count and a read
        # (a read of a card gone waited 15 s and failed the test).
        faces = mine.locator(".card.face").evaluate_all(
            "els => els.map((e) => [e.getAttribute('data-card'), e.getAttribute('aria-label')])"
        )
        for card, label in faces:
            if card:
                seen_cards.add(card)
                labels.add(label or "")
        panel = page.locator(".showdown")
        if panel.count() == 0 or len(seen_cards) < 2:
            return False
        text = panel.inner_text()
        return "wins" in text and f"{alias} shows" in text

    play_passively(page, showdown_with_me, seconds=60)
    panel = page.locator(".showdown")
    assert "shows" in panel.inner_text()
    assert panel.locator(".winner").count() >= 1
    # Own hole cards are faces with a rank and suit readable by a screen reader (read as
    # they were seen: once the showdown is up, the next hand may clear our seat's cards).
    assert labels and all(" of " in label for label in labels), labels
    shoot(page, "table-holdem-showdown")


def test_keyboard_chat_sit_out_and_leave(page: Any, server: str) -> None:
    alias = fresh_alias()
    register(page, server, alias)
    sit(page, server, "keys")
    page.get_by_role("textbox", name="Chat message").fill("good luck all")
    page.get_by_role("textbox", name="Chat message").press("Enter")
    page.locator(".chatlines li", has_text="good luck all").wait_for()
    assert alias in page.locator(".chatlines").inner_text()
    # C checks or calls from the keyboard; the buttons say which key they answer to.
    bar = page.locator(".actionbar")
    bar.wait_for(timeout=30_000)
    assert bar.locator('[aria-keyshortcuts="C"]').count() == 1
    # The chat box keeps the focus after a line is sent (a key there is typed): leave it.
    page.get_by_role("textbox", name="Chat message").blur()
    page.locator("body").press("c")
    page.wait_for_function(
        f"/{alias} (checks|calls)/.test(document.querySelector('.log').textContent)"
    )
    page.get_by_role("button", name="Sit out next hand").click()
    back = page.get_by_role("button", name="I'm back")
    play_passively(page, lambda: back.count() > 0, seconds=40)
    assert "Sitting out" in page.locator(".seat.mine").inner_text()
    # Played passively, we may have lost our chips (a fresh CI saw a stack of 0, and
    # "I'm back" refused: "Not enough chips for the forced bets"): top up first.
    rebuy = page.get_by_role("button", name="Rebuy")
    if rebuy.count() and rebuy.is_enabled():
        rebuy.click()  # sent before "I'm back" on the one connection: the table takes it first
    page.get_by_role("button", name="I'm back").click()
    page.get_by_role("button", name="Sit out next hand").wait_for(timeout=30_000)
    page.get_by_role("button", name="Leave table").click()
    page.locator(".seat.mine").wait_for(state="detached", timeout=30_000)
    assert page.get_by_role("button", name="Sit here: seat").count() >= 1


def test_replayer_steps_through_a_hand_we_played(page: Any, server: str) -> None:
    alias = fresh_alias()
    register(page, server, alias)
    sit(page, server, "replay")

    def a_hand_with_us_ended() -> bool:
        return bool(
            page.evaluate(
                "a => JSON.parse(localStorage.getItem('cardroom.hands.' + a) || '[]').length",
                alias,
            )
        )

    play_passively(page, a_hand_with_us_ended, seconds=60)
    page.get_by_role("link", name="Hand history").click()
    # When each hand was dealt, its day too (the list said "7:44:39 PM" of a hand days old).
    listed = page.locator("ul.hands li").first.inner_text()
    assert re.search(r" · \d{1,2} [A-Z][a-z]{2},? \d\d:\d\d:\d\d$", listed), listed
    page.locator("ul.hands a").first.click()
    counter = page.locator(".stepcount")
    assert counter.inner_text().startswith("Step 0 of ")
    total = int(counter.inner_text().rsplit(" ", 1)[1])
    page.get_by_role("button", name="Next ▶").click()
    page.get_by_role("button", name="Next ▶").click()
    assert counter.inner_text() == f"Step 2 of {total}"
    assert page.locator(".replay .loglines li").count() >= 1
    page.get_by_role("button", name="End", exact=True).click()
    assert counter.inner_text() == f"Step {total} of {total}"
    assert "wins" in page.locator(".replay .loglines").inner_text()
    # Our own hole cards are in the replay, face up for us.
    mine = page.locator(".replayseats tr", has_text="(you)")
    assert mine.locator(".card.face").count() >= 2
    page.get_by_role("button", name="◀ Back").click()
    assert counter.inner_text() == f"Step {total - 1} of {total}"
    # The players are named as they sat (the server's history gives the aliases).
    names = page.locator(".replayseats tbody th").all_inner_texts()
    assert f"{alias} (you)" in names
    assert all(n == f"{alias} (you)" or n.startswith("breplay") for n in names), names
    assert "Seat " not in page.locator(".replay .loglines").inner_text()
    shoot(page, "replayer")
    # The PHH download: a file with the hand, our own cards in it.
    ours = [c.get_attribute("data-card") for c in mine.locator(".card.face").all()[:2]]
    with page.expect_download() as download:
        page.get_by_role("link", name="Download PHH").click()
    assert download.value.suggested_filename.endswith(".phh")
    text = Path(download.value.path()).read_text()
    assert 'variant = "NT"' in text and "starting_stacks" in text
    dealt = [line for line in text.splitlines() if '"d dh ' in line]
    assert any(all(c and c in line for c in ours) for line in dealt), (ours, dealt)


FOCUSED = """() => {
    const f = document.activeElement;
    return { tag: f.tagName, text: f.textContent.trim(),
             group: f.closest("[role=group]")?.getAttribute("aria-label") ?? null };
}"""
"""The focused element: its tag, its text and the group it belongs to."""


def test_after_buying_in_the_focus_is_on_ones_own_seat(page: Any, server: str) -> None:
    """A keyboard player buys in with Enter: the keyboard focus lands on the controls of
    the seat just taken (not the top of the page), and stays there as the table moves."""
    register(page, server, fresh_alias())
    page.goto(f"{server}/#/table/focus")
    page.get_by_role("button", name=re.compile(r"^Sit here: seat \d+$")).last.click()
    amount = page.locator("#buyin-amount")
    assert page.evaluate("document.activeElement.id") == "buyin-amount"
    amount.press("Enter")
    page.locator(".seat.mine").wait_for()
    page.wait_for_function("document.activeElement !== document.body", timeout=5000)
    focused = page.evaluate(FOCUSED)
    assert focused == {"tag": "BUTTON", "text": "Sit out next hand", "group": "Your seat"}
    page.wait_for_timeout(1500)  # the bots play on: the table is redrawn
    assert page.evaluate(FOCUSED) == focused


def test_a_hand_reloaded_mid_way_comes_back_to_its_showdown(
    page: Any, server: str, driven: Any
) -> None:
    """Reloaded on the flop, the page gets the table back (our cards, the board) and, when
    the hand ends, its showdown panel (the page had not seen it dealt and showed no panel
    for it). Heads-up with a puppet that checks or calls."""
    alias = fresh_alias()
    register(page, server, alias)
    sit(page, server, "reload")
    puppet = driven.puppet("reload", fresh_alias("pup"))
    mine = page.locator(".seat.mine .card.face")
    board = page.locator(".felt .centre .card")

    def passive_until(seen: Any) -> None:
        deadline = time.monotonic() + 60
        while not seen():
            assert time.monotonic() < deadline, "the hand did not get there"
            puppet.passive()
            button = page.locator(".actionbar").locator(".act.check, .act.call")
            if button.count():
                with contextlib.suppress(Exception):
                    button.first.click(timeout=1000)
            page.wait_for_timeout(50)

    passive_until(lambda: board.count() == 3 and mine.count() == 2)
    hand = page.locator(".tablehead h1 + p").inner_text()
    cards = mine.evaluate_all("cs => cs.map(c => c.dataset.card)")
    page.reload()
    expect(mine).to_have_count(2)
    assert mine.evaluate_all("cs => cs.map(c => c.dataset.card)") == cards
    expect(board).to_have_count(3)
    number = re.search(r"Hand #(\d+)", hand)
    assert number
    panel = page.locator(".showdown")
    passive_until(lambda: panel.count() > 0)
    expect(panel.locator("h2")).to_have_text(re.compile(rf"hand #{number.group(1)}$"))
    expect(panel).to_contain_text(" wins ")
    shoot(page, "reloaded-showdown")


def test_after_acting_by_keyboard_the_focus_stays_in_the_action_area(
    page: Any, server: str, driven: Any
) -> None:
    """A keyboard player acts with Enter on the action bar's button: the bar goes with the
    turn, and the focus stays where the bar was (the next Tab goes on from there), not
    thrown back to the top of the page. Heads-up with a puppet that checks or calls."""
    me = fresh_alias()
    register(page, server, me)
    puppet = driven.puppet("act-focus", fresh_alias("pup"))
    sit(page, server, "act-focus")
    passive = page.locator(".actionbar .act.check, .actionbar .act.call")
    puppet.passive_until(page, lambda: passive.count() > 0, "our turn did not come")
    passive.first.focus()
    passive.first.press("Enter")
    # Played: the bar goes, or comes back at once when our turn follows (the big blind
    # checking the flop's deal heads-up acts first on it), so wait for the log's line.
    expect(page.locator(".log")).to_contain_text(re.compile(rf"{me} (checks|calls)"))
    inside = "document.activeElement.closest('.tablepage .actions') !== null"
    assert page.evaluate(inside)
    page.wait_for_timeout(1000)  # the puppet plays on, the table is redrawn
    assert page.evaluate(inside)
