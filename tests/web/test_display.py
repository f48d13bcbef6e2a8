"""What the table shows beyond the usual hand: a side pot and the all-in tag, the no
limit presets (½ pot, pot, "All-in N"), the dealer button, the time bank, a rebuy, and
a real hi/lo showdown naming the high and the low winners."""

from __future__ import annotations

import contextlib
import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.web.browser import fresh_alias, register, shoot
from tests.web.driven import Puppet

pytestmark = pytest.mark.browser


class Pair:
    """Two puppets: they check or call, except that the first of them to act after
    our all-in raises to 100 (so the two of them make a side pot)."""

    def __init__(self, puppets: list[Puppet]) -> None:
        self.puppets = puppets
        self.shoved = False
        self.raised = False

    def play(self) -> None:
        for puppet in self.puppets:
            turn = puppet.turn()
            if turn is None:
                continue
            legal = turn["legal"]
            acts = legal["actions"]
            if self.shoved and not self.raised and "raise" in acts:
                self.raised = True
                puppet.move("raise", max(int(legal["min_raise_to"]), 100))
            else:
                puppet.move("call" if "call" in acts else "check")


def _sit_short(page: Any, server: str, amount: int, table: str = "sidepot") -> None:
    page.goto(f"{server}/#/table/{table}")
    page.wait_for_function("document.querySelectorAll('.seat:not(.empty)').length >= 2")
    page.get_by_role("button", name=re.compile(r"^Sit here: seat \d+$")).last.click()
    page.locator("#buyin-amount").fill(str(amount))
    page.get_by_role("button", name="Buy in").click()
    page.locator(".seat.mine").wait_for(timeout=30_000)


def _until(page: Any, pair: Pair, seen: Any, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not seen():
        assert time.monotonic() < deadline, "the table did not get there in time"
        pair.play()
        page.wait_for_timeout(50)


def test_side_pot_all_in_presets_button_time_bank_and_rebuy(
    page: Any, server: str, driven: Any
) -> None:
    alias = fresh_alias()
    register(page, server, alias)
    pair = Pair([driven.puppet("sidepot", fresh_alias("pup")) for _ in range(2)])
    _sit_short(page, server, 20)
    mine = page.locator(".seat.mine")
    expect(mine.locator(".timebank")).to_have_text("Time bank 30s")
    bar = page.locator(".actionbar")
    all_in = bar.get_by_role("button", name="All-in", exact=True)
    _until(page, pair, lambda: all_in.count() > 0)
    expect(page.locator(".seat .dealer")).to_have_count(1)  # one button, on one seat
    amount = page.locator("#raise-amount")
    low, high = int(amount.get_attribute("min") or 0), int(amount.get_attribute("max") or 0)
    assert high == 20  # all we have: the 18 behind and the blind of 2 posted
    bar.get_by_role("button", name="½ pot").click()
    half = int(amount.input_value())
    bar.get_by_role("button", name="Pot", exact=True).click()
    pot = int(amount.input_value())
    assert low <= half <= pot <= high
    all_in.click()
    raise_button = bar.locator(".act.raise")
    expect(raise_button).to_have_text("All-in 20")
    shoot(page, "table-all-in-preset")
    pair.shoved = True
    raise_button.click()
    pots = page.locator(".felt .pots")
    _until(page, pair, lambda: "Side pot 1" in pots.inner_text())
    expect(mine.locator(".tag.allin")).to_have_text("All-in")
    assert "Pot: 60" in pots.inner_text()  # 20 from each of three; the rest is the side pot
    assert re.search(r"Side pot 1: [1-9]\d*", pots.inner_text())
    shoot(page, "table-side-pot")
    # Between hands a seat sitting out adds chips.
    sit_out = page.get_by_role("button", name="Sit out next hand")
    back = page.get_by_role("button", name="I'm back")

    def sitting_out() -> bool:
        if sit_out.count():
            with contextlib.suppress(Exception):
                sit_out.click(timeout=1000)
        fold = bar.get_by_role("button", name="Fold")
        if fold.count():
            with contextlib.suppress(Exception):
                fold.click(timeout=1000)
        return back.count() > 0 and mine.locator(".card").count() == 0

    _until(page, pair, sitting_out)
    before = int(mine.locator(".stack .chips").inner_text().replace(",", ""))
    page.locator("#rebuy-amount").fill("100")
    page.get_by_role("button", name="Rebuy").click()
    expect(page.locator(".log")).to_contain_text(f"{alias} adds 100.")
    expect(mine.locator(".stack .chips")).to_have_text(f"{before + 100:,}")
    shoot(page, "table-rebuy")


def test_12_the_showdown_says_which_pot_each_player_won(
    page: Any, server: str, driven: Any
) -> None:
    """RULEBOOK §12 (the pot, each side pot): once the hand is over the pots are gone
    from the felt, and the showdown said only "wins 60", "wins 160": not which of them
    each player won. Our 20 chips all-in, two puppets make a side pot behind it."""
    register(page, server, fresh_alias())
    pair = Pair([driven.puppet("sidepot-won", fresh_alias("pup")) for _ in range(2)])
    _sit_short(page, server, 20, "sidepot-won")
    bar = page.locator(".actionbar")
    all_in = bar.get_by_role("button", name="All-in", exact=True)
    _until(page, pair, lambda: all_in.count() > 0)
    all_in.click()
    pair.shoved = True
    hand_no = page.evaluate("window.cardroomTable.view.hand_no")
    bar.locator(".act.raise").click()
    title = page.locator(".showdown h2")
    _until(page, pair, lambda: title.count() > 0 and f"hand #{hand_no}" in title.inner_text())
    lines = page.locator(".showdown .winners li > span").all_inner_texts()
    assert any(re.search(r" wins [\d,]+ from the main pot", w) for w in lines), lines
    assert any(re.search(r" wins [\d,]+ from side pot 1", w) for w in lines), lines
    shoot(page, "showdown-pots-named")


READ_SHOWDOWN = """() => {
    const p = document.querySelector(".showdown");
    return p && {
        title: p.querySelector("h2").textContent,
        shown: [...p.querySelector("ul").children].map(li => ({
            text: li.textContent, cards: li.querySelectorAll(".card.face").length})),
        winners: [...p.querySelectorAll(".winners li")].map(li => li.textContent)};
}"""
"""The showdown panel in one reading: its title, who showed what, who won what."""


def test_hi_lo_showdown_names_the_high_and_the_low(page: Any, server: str) -> None:
    register(page, server, fresh_alias())
    page.goto(f"{server}/#/table/hilo")
    deadline = time.monotonic() + 120
    while True:  # until the bots split a pot; each reading is whole (the next hand's
        # showdown may replace the panel at any moment)
        assert time.monotonic() < deadline, "no pot was split high and low"
        panel = page.evaluate(READ_SHOWDOWN)
        winners = panel["winners"] if panel else []
        high = [w for w in winners if re.search(r"wins [\d,]+ \(high\) with ", w)]
        low = [w for w in winners if re.search(r"wins [\d,]+ \(low\) with .*low", w)]
        if high and low:
            break
        page.wait_for_timeout(200)
    assert "Showdown" in panel["title"], panel
    halves = high + low
    assert all(w.startswith("bhilo") for w in halves), panel
    # Each player shown shows four cards; a player who can win nothing may muck, so
    # one player shows when one scoops, and both winners show when the halves split.
    assert panel["shown"] and all(s["cards"] == 4 for s in panel["shown"]), panel
    named = {w.split(" wins ")[0] for w in halves}
    shown = {s["text"].split(" shows ")[0] for s in panel["shown"]}
    assert named <= shown, panel
    shoot(page, "table-hi-lo-showdown")
