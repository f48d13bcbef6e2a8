"""What a blind player hears at the table (the text added to live regions, as a screen
reader announces it), playing by roles and names only: his cards and the board by name,
the others' face-up cards, his turn once with the pot, the clock running down, Chinese
poker's placements, and the replayer's steps; and the keyboard focus ring seen on the
light pages as well as on the felt (WCAG 1.4.11)."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.web.browser import ANNOUNCED, fresh_alias, register, sit
from tests.web.test_ofc_table import _sit_with_the_bots

pytestmark = pytest.mark.browser

CARD = (
    r"(Ace|King|Queen|Jack|Ten|Nine|Eight|Seven|Six|Five|Four|Three|Two)"
    r" of (spades|hearts|diamonds|clubs)"
)
"""A card by name, as a screen reader should say it."""
CODE = re.compile(r"(?<![\w-])[2-9TJQKA][shdc](?![\w-])")
"""A card's code ("Ah", "Td"), which a screen reader reads letter by letter."""


def _announced(page: Any) -> list[str]:
    return [str(text) for text in page.evaluate("window.announced")]


def _act(page: Any) -> bool:
    """Check or call (bring in on stud) when it is our turn, by the buttons' names."""
    bar = page.get_by_role("group", name="Your action")
    for name in ("Check", re.compile(r"^Call \d"), re.compile(r"^Bring in")):
        button = bar.get_by_role("button", name=name)
        if button.count():
            try:
                button.first.click(timeout=1000)
            except Exception:  # the bar went with the turn (a redraw): fine
                return False
            return True
    return False


def _play_until(page: Any, puppet: Any, done: Any, what: str, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, f"{what}: {_announced(page)[-30:]}"
        _act(page)
        puppet.passive()
        page.wait_for_timeout(50)


def test_our_cards_the_board_our_turn_and_the_clock_are_said_in_words(
    page: Any, server: str, driven: Any
) -> None:
    """A screen reader heard "Board: 5c 4s 6s." and "... shows Jh 7c." (the log's
    codes), never which cards we were dealt, and the whole action bar again at every
    redraw ("Your turnFoldCall 1Raise to (4–42)½ potPot..."), without the pot; our
    clock, a timer, was never read out as it ran down. Now the cards are named, our own
    said as they come, the turn said once with the pot and the choices, the last ten
    seconds and the time bank said once each; the replayer says each step's line."""
    alias = fresh_alias()
    register(page, server, alias)
    puppet = driven.puppet("said", fresh_alias("pup"))
    sit(page, server, "said")
    page.evaluate(ANNOUNCED)
    dealt = re.compile(rf"^{alias} is dealt {CARD}, {CARD}\.$")
    board = re.compile(rf"^Board: {CARD}, {CARD}, {CARD}\.$")

    def heard(pattern: re.Pattern[str]) -> bool:
        return any(pattern.search(text) for text in _announced(page))

    _play_until(page, puppet, lambda: heard(dealt) and heard(board), "our cards and a flop")
    said = _announced(page)
    assert not [text for text in said if CODE.search(text)], said
    # Our cards as the seat shows them, by name.
    turns = [text for text in said if text.startswith("Your turn")]
    assert turns, said
    assert all(re.match(r"^Your turn\. Pot \d+\. Fold, (Check|Call \d+)", t) for t in turns), turns
    # Our moves from the first turn heard: heads-up we may act first, our first turn
    # said before the recorder was put in.
    after = said[said.index(turns[0]) :]
    ours = len([t for t in after if re.match(rf"^{alias} (checks|calls)", t)])
    assert ours <= len(turns) <= ours + 1, said  # once a turn, never again as it is redrawn
    assert not [text for text in said if "Keys:" in text], said
    # Our next turn is left to run down: 12 s, then the 3 s time bank.
    page.evaluate("window.announced.length = 0")
    bar = page.get_by_role("group", name="Your action")
    deadline = time.monotonic() + 60
    while not bar.count():
        assert time.monotonic() < deadline, "our turn did not come"
        puppet.passive()
        page.wait_for_timeout(50)
    page.get_by_text("You ran out of time").wait_for(timeout=30_000)
    said = _announced(page)
    low = [t for t in said if re.fullmatch(r"(10|9|8) seconds left to act\.", t)]
    bank = [t for t in said if re.fullmatch(r"Your time bank is running: [1-3] seconds? left\.", t)]
    assert len(low) == 1 and len(bank) == 1, said
    # The replayer's steps are said with their line, our cards named.
    # The hand we timed out in may still be on (a check, the puppet to act): the list has
    # a hand once one ended, so it is read again until it does (it said "No hands yet"
    # under a loaded CI, read before the first hand ended).
    page.get_by_role("link", name="Hand history").click()
    ours = page.get_by_role("link", name=re.compile(r"said hand #"))
    listed = page.get_by_text(re.compile(r"said hand #|No hands yet")).first
    deadline = time.monotonic() + 60
    while True:
        listed.wait_for(timeout=15_000)
        if ours.count():
            break
        assert time.monotonic() < deadline, "no hand of ours ended"
        puppet.passive()
        page.wait_for_timeout(500)
        page.reload()
    ours.first.click()
    status = page.get_by_role("status").filter(has_text="Step")
    expect(status).to_have_text(re.compile(r"^Step 0 of \d+$"))
    for _ in range(12):
        page.get_by_role("button", name="Next ▶").click()
        if "is dealt" in status.inner_text():
            break
    step = re.compile(rf"^Step \d+ of \d+: {alias} is dealt {CARD}, {CARD}\.$")
    expect(status).to_have_text(step)


def test_the_others_face_up_stud_cards_are_said(page: Any, server: str, driven: Any) -> None:
    """At stud a sighted player sees every up card dealt; a screen reader heard
    "Fourth street." and nothing of them (nor of his own). Now each seat's cards are
    said as they are dealt: ours with which are face up, the other's up cards."""
    alias = fresh_alias()
    register(page, server, alias)
    other = fresh_alias("pup")
    puppet = driven.puppet("said-stud", other)
    sit(page, server, "said-stud")
    page.evaluate(ANNOUNCED)
    ours = re.compile(rf"^{alias} is dealt {CARD}, {CARD}, {CARD} face up\.$")
    theirs = re.compile(rf"^{other} is dealt {CARD}\.$")

    def heard() -> bool:
        said = _announced(page)
        return any(ours.match(t) for t in said) and len([t for t in said if theirs.match(t)]) >= 2

    _play_until(page, puppet, heard, "third and fourth street's cards")
    said = _announced(page)
    assert not [text for text in said if CODE.search(text)], said


def test_chinese_placements_are_said_with_their_cards_and_our_turn_once(
    page: Any, server: str
) -> None:
    """The placement bar was a live region drawn again at every snapshot: a screen
    reader read it whole ("Place 5 cards:2♣3♥10♦...Top (3 free)...") four or five
    times a street, and the others' moves as "places 1 card." though their cards are
    face up for all to see. Now our turn is said once a street with the cards to place
    by name, and each placement with its rows and cards."""
    register(page, server, fresh_alias())
    _sit_with_the_bots(page, server, "ofc-said")
    page.evaluate(ANNOUNCED)
    bar = page.get_by_role("group", name="Place your cards")
    placed = 0
    deadline = time.monotonic() + 90
    while placed < 3:
        assert time.monotonic() < deadline, _announced(page)[-30:]
        place = bar.get_by_role("button", name="Place cards")
        if not place.count():
            page.wait_for_timeout(100)
            continue
        page.wait_for_timeout(1500)  # snapshots come and go while we think
        cards = bar.get_by_role("group", name="Your cards to place").get_by_role("button")
        for row in ("Bottom", "Middle", "Top"):
            target = bar.get_by_role("button", name=re.compile(f"^{row}"))
            while cards.count() and target.is_enabled():
                cards.first.click()
                target.click()
        place.click()
        placed += 1
        page.wait_for_timeout(300)
    said = _announced(page)
    turns = [t for t in said if t.startswith("Your turn: place")]
    assert 3 <= len(turns) <= 4, said
    assert all(re.fullmatch(rf"Your turn: place \d cards?: {CARD}(, {CARD})*\.", t) for t in turns)
    assert not [t for t in said if t.startswith("Place ")], said  # the bar is not read out
    others = re.compile(rf"^bofcsaid\d places 1 card: (top|middle|bottom) {CARD}\.$")
    assert [t for t in said if others.match(t)], said
    assert not [text for text in said if CODE.search(text)], said


def _luminance(rgb: str) -> float:
    channels = [int(x) / 255 for x in re.findall(r"\d+", rgb)[:3]]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


RING = """(el) => {
    let back = el.parentElement;
    const clear = (x) => ['rgba(0, 0, 0, 0)', 'transparent'].includes(x);
    while (back && clear(getComputedStyle(back).backgroundColor)) back = back.parentElement;
    return [getComputedStyle(el).outlineColor, getComputedStyle(el).outlineStyle,
            back ? getComputedStyle(back).backgroundColor : 'rgb(255, 255, 255)'];
}"""
"""The focused element's outline colour and style, and the colour behind it (the first
ancestor with a background)."""


def test_the_focus_ring_stands_out_on_the_light_pages_and_on_the_felt(
    page: Any, server: str
) -> None:
    """The focus ring was yellow (#f0b400) everywhere: 1.9:1 on the white and off-white
    pages (log-in, lobby, the action bar), under the 3:1 of WCAG 1.4.11, so a low-vision
    keyboard player lost track of it. It is dark there now, yellow on the felt."""
    page.goto(f"{server}/#/login/login")
    page.get_by_label("Alias").wait_for()
    page.get_by_label("Alias").focus()
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")  # the password, then the log-in button
    focused = page.locator(":focus")
    expect(focused).to_have_accessible_name(re.compile("Log in"))
    colour, style, back = focused.evaluate(RING)
    assert style != "none"
    assert _contrast(colour, back) >= 3, (colour, back)
    register(page, server, fresh_alias())
    page.goto(f"{server}/#/table/focus-ring")
    sit_here = page.get_by_role("button", name=re.compile(r"^Sit here")).first
    sit_here.focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")  # by the keyboard: :focus-visible
    colour, style, _ = page.locator(":focus").evaluate(RING)
    felt = page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--felt')")
    felt_rgb = "rgb({}, {}, {})".format(*(int(felt.strip()[i : i + 2], 16) for i in (1, 3, 5)))
    assert style != "none"
    assert _contrast(colour, felt_rgb) >= 3, (colour, felt_rgb)


def test_the_lobby_does_not_say_its_table_count_at_every_refresh(page: Any, server: str) -> None:
    """The lobby reads its list again every 4 s and wrote "N tables." into its status
    (a live region) each time, the same words: a screen reader said "42 tables." every
    4 s for as long as the lobby was open. Said when it changes only."""
    register(page, server, fresh_alias())
    status = page.get_by_role("status").filter(has_text="tables.")
    expect(status).to_have_text(re.compile(r"^\d+ tables\.$"))
    page.evaluate(ANNOUNCED)
    page.wait_for_timeout(9_000)  # two refreshes
    said = [t for t in _announced(page) if t.endswith("tables.")]
    assert said == [], said


def test_the_seats_text_grows_with_the_browsers_text_size(page: Any, server: str) -> None:
    """WCAG 1.4.4: a player who sets his browser's text to 200 % (its default font size,
    here 32 px through Chromium's devtools) got the seats' text at 136 % to 160 % only:
    the layouts were chosen by the window's width in pixels, so the seats, fitted into a
    felt sized in pixels, were made smaller again. The layouts now follow the width in
    ems: larger text takes the narrow layouts (the seats a list under the board)."""
    register(page, server, fresh_alias())
    page.goto(f"{server}/#/table/stud")  # the session's bots sit and play there
    alias = page.locator(".seat .alias").first
    page.locator(".seat .card").first.wait_for(timeout=30_000)
    size = "(a) => parseFloat(getComputedStyle(a).fontSize)"
    normal = float(alias.evaluate(size))
    cdp = page.context.new_cdp_session(page)
    cdp.send("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 26}})
    page.reload()
    page.locator(".seat .card").first.wait_for(timeout=30_000)
    page.wait_for_timeout(500)  # the seats fitted (layout.js)
    large = float(alias.evaluate(size))
    assert large >= 1.9 * normal, (normal, large)
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
