"""Timeout and auto-fold, a reconnect after the WebSocket is cut, the rules pages,
the four-colour deck, the phone layout, and the accessibility check."""

from __future__ import annotations

import contextlib
import json
import re
import time
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect
from tests.web.browser import PASSWORD, fresh_alias, register, serious_violations, shoot, sit
from tests.web.driven import Cut, Lag

from cardroom.cards import parse_cards
from cardroom.evaluation.badugi import badugi

pytestmark = pytest.mark.browser


def test_timeout_counts_down_then_folds_for_us(page: Any, server: str) -> None:
    lag = Lag(page)
    register(page, server, fresh_alias())
    sit(page, server, "quick")
    page.locator(".seat.mine .clock").wait_for(timeout=30_000)
    assert page.locator(".seat.mine .clock").inner_text().endswith("s")
    page.locator(".actionbar").wait_for()
    # We do nothing: the table acts for us when the action time runs out.
    page.wait_for_function(
        "document.querySelector('#table-notice').textContent.includes('ran out of time')",
        timeout=20_000,
    )
    assert "ran out of time" in page.locator(".log").inner_text()
    shoot(page, "table-timeout")
    # The same account in a second window acts first; this window, its news late,
    # still shows the bar, and its click is refused: said without blaming the clock
    # alone (it said "(the clock ran out)").
    other = page.context.new_page()
    other.goto(f"{server}/#/table/quick")
    bars = [p.locator(".actionbar") for p in (page, other)]
    deadline = time.monotonic() + 60
    while not (bars[0].count() and bars[1].count()):  # our turn, in both (a 2 s clock)
        assert time.monotonic() < deadline, "no turn of ours seen in both windows"
        page.wait_for_timeout(30)
    lag.hold()
    with contextlib.suppress(PlaywrightTimeout):  # (else the clock ran out first)
        bars[1].get_by_role("button", name=re.compile(r"^(Check|Call)")).click(timeout=1500)
    bars[0].get_by_role("button", name="Fold").click()
    expect(page.locator("#table-notice")).to_have_text(
        "Too late: the hand had moved on (your time ran out, or you acted in another"
        " window), so this action was not played."
    )
    lag.release()
    other.close()


@pytest.mark.parametrize(("off_by", "table"), [(-3600.0, "clock-behind"), (600.0, "clock-ahead")])
def test_the_countdown_is_right_when_our_clock_is_off(
    page: Any, server: str, off_by: float, table: str
) -> None:
    """Deadlines are on the server's clock: a browser an hour behind (or ten minutes
    ahead) still counts down the table's 20 s."""
    page.clock.set_system_time(time.time() + off_by)
    register(page, server, fresh_alias())
    sit(page, server, table)
    secs = page.locator(".seat.mine .clock .secs")
    secs.wait_for(timeout=60_000)
    page.wait_for_timeout(1500)  # the countdown runs
    # Both read at one instant: read apart, they can straddle a tick of the countdown.
    shown, label = page.evaluate(
        "[document.querySelector('.seat.mine .clock .secs').textContent,"
        " document.querySelector('.seat.mine .clock').getAttribute('aria-label')]"
    )
    left = int(shown.removesuffix("s"))
    assert 10 <= left <= 19, f"{left} s left of 20, with our clock {off_by:+.0f} s off"
    assert label == f"{left} seconds to act"
    shoot(page, f"table-clock-{off_by:+.0f}")


def test_the_countdown_holds_when_our_clock_is_set_during_a_turn(page: Any, server: str) -> None:
    """Our clock set ten minutes on while the turn runs (a laptop's NTP, its owner): the
    countdown goes on from where it was, not to 0 (it read the wall clock, measured
    against the ``server_time`` of the turn's start)."""
    register(page, server, fresh_alias())
    sit(page, server, "clock-set")
    secs = page.locator(".seat.mine .clock .secs")
    secs.wait_for(timeout=60_000)
    # The wall clock alone steps, as setting a computer's clock does (Playwright's
    # ``clock.set_system_time`` would restart ``performance.now`` with it).
    page.evaluate("{ const wall = Date.now; Date.now = () => wall() + 600_000; }")
    page.wait_for_timeout(1500)  # the countdown runs
    left = int(secs.inner_text().removesuffix("s"))
    assert 10 <= left <= 19, f"{left} s left of 20 after our clock was set 600 s on"


def test_reconnect_restores_the_table_without_a_reload(page: Any, server: str) -> None:
    register(page, server, fresh_alias())
    sit(page, server, "reconnect")
    page.locator(".seat.mine .card.face").first.wait_for(timeout=30_000)
    page.evaluate("window.__sameDocument = true")
    page.evaluate("window.cardroom.conn.drop()")
    page.get_by_text("reconnecting…").wait_for()
    shoot(page, "table-reconnecting")
    page.locator("#banner").wait_for(state="hidden")
    page.locator(".seat.mine .card.face").first.wait_for(timeout=30_000)
    assert page.evaluate("window.__sameDocument") is True
    assert page.locator(".seat.mine .stack").inner_text() != ""


def test_10_9_the_page_connects_with_one_device_id_kept_across_reloads(
    page: Any, server: str
) -> None:
    """The browser's device id (for the room's shared-device review flag) is made once,
    kept in local storage and sent with every connection, a reload's too."""
    urls: list[str] = []
    page.on("websocket", lambda ws: urls.append(ws.url))
    register(page, server, fresh_alias())
    page.wait_for_function("window.cardroom && window.cardroom.conn.state === 'open'")
    device = page.evaluate("localStorage.getItem('cardroomDevice')")
    assert re.fullmatch(r"[A-Za-z0-9_-]{8,64}", device or ""), device
    page.reload()
    page.wait_for_function("window.cardroom && window.cardroom.conn.state === 'open'")
    assert len(urls) >= 2
    assert all(url.endswith(f"/ws?device={device}") for url in urls), urls


def test_a_table_s_rule_options_are_shown_in_its_header(page: Any, server: str) -> None:
    # RULEBOOK: every option set per table is shown to players (a mixed table's too).
    register(page, server, fresh_alias())
    page.goto(server + "/#/table/house-rules")
    expect(page.locator(".tablerules")).to_have_text(
        "Table rules: no burn cards · equal showing hands act by the suit of the highest card"
    )
    page.goto(server + "/#/table/holdem")
    page.get_by_role("link", name="View hand rankings").wait_for()
    expect(page.locator(".tablerules")).to_have_count(0)  # nothing set: the rules pages


def test_10_a_table_s_room_terms_are_shown_in_its_header(page: Any, server: str) -> None:
    # RULEBOOK: every option is shown to players, the room's (§10.4-§10.6) too: they were
    # settable per table and said nowhere (the view's ``terms``).
    register(page, server, fresh_alias())
    page.goto(server + "/#/table/holdem")
    expect(page.locator(".tableterms")).to_have_text(
        "20 s to act + a 30 s time bank · cut off: 30 s to come back, then check or fold"
        " · sitting out: removed after 10 min · chat in English"
    )
    # A time bank that starts empty says how it fills (it said "+ a 0 s time bank").
    page.goto(server + "/#/table/mixed")
    expect(page.locator(".tableterms")).to_contain_text(
        "3 s to act + a time bank of 10 s every 10 hands · cut off"
    )


def test_rules_pages_from_the_table_and_the_four_colour_deck(page: Any, server: str) -> None:
    register(page, server, fresh_alias())
    page.goto(server + "/#/table/holdem")
    page.get_by_role("link", name="View hand rankings").click()
    page.get_by_role("heading", name="Hand rankings (high)").wait_for()
    items = page.locator(".rankings li")
    assert items.count() == 9 and items.first.inner_text().startswith("Straight flush")
    diamond = page.locator(".card.suit-d").first
    red = diamond.evaluate("e => getComputedStyle(e).color")
    page.get_by_label("Four-colour deck").check()
    assert diamond.evaluate("e => getComputedStyle(e).color") != red
    page.goto(server + "/#/rules/short-deck")
    text = page.locator("article.rules").inner_text()
    assert "trips beat a straight" in text and "a straight beats trips" in text
    for name in ("low-a5", "low-27", "badugi", "hi-lo", "omaha", "stud", "draw", "chinese"):
        page.goto(f"{server}/#/rules/{name}")
        assert page.locator("article.rules .rankings li").count() >= 4
        if name == "badugi":  # the example's hand as the evaluator counts it: one club plays
            three = page.locator(".rankings li", has_text="Three-card hand").inner_text()
            counted = badugi(parse_cards("Ac 2c 3d 4h")).name.rsplit(" ", 1)[1]  # "4-3-A"
            assert counted in three and "2-3-4" not in three, three
    # Chinese poker's money and Fantasyland as the room settles them (docs/room.md).
    text = page.locator("article.rules").inner_text()
    assert "starting from the player left of the button" in text
    assert "Fantasyland is for the very next hand" in text
    shoot(page, "rules-chinese")


def test_phone_layout_fits_the_screen(phone: Any, server: str) -> None:
    register(phone, server, fresh_alias())
    sit(phone, server, "phone")
    phone.locator(".seat.mine .card.face").first.wait_for(timeout=30_000)
    width = phone.evaluate("document.scrollingElement.scrollWidth")
    assert width <= 392, f"the page scrolls sideways on a phone ({width}px)"
    mine = phone.locator(".seat.mine")
    seat = None
    for _ in range(50):  # the seat is drawn again on each event: measure it when it stands
        mine.wait_for(state="visible", timeout=10_000)
        seat = mine.bounding_box()
        if seat is not None:
            break
    assert seat is not None and seat["x"] >= 0 and seat["x"] + seat["width"] <= 392


def test_lobby_and_table_pass_axe(page: Any, server: str) -> None:
    """The lobby, a table watched before sitting down (its "Sit here" buttons: their
    names did not hold their text, "Sit at seat N", axe's label in name) and the table
    seated in a hand: no serious violation."""
    register(page, server, fresh_alias())
    page.locator("table.lobby tbody tr[data-table]").first.wait_for()  # the rows, loaded
    problems = serious_violations(page)
    assert problems == [], json.dumps(problems, indent=1)
    page.goto(f"{server}/#/table/axe")
    page.locator(".seat.empty button").first.wait_for(timeout=30_000)
    problems = serious_violations(page)
    assert problems == [], json.dumps(problems, indent=1)
    sit(page, server, "axe")
    page.locator(".seat.mine .card.face").first.wait_for(timeout=30_000)
    problems = serious_violations(page)
    assert problems == [], json.dumps(problems, indent=1)


def test_showdown_words_name_the_high_and_the_low(page: Any, server: str) -> None:
    """A split pot is told as a player reads it (the client's own sentences), and the
    rake taken from a pot before it is awarded."""
    page.goto(server + "/#/rules")
    words = page.evaluate(
        """async () => {
        const { describe } = await import('/js/tablelog.js');
        const { cardName } = await import('/js/cards.js');
        const names = (s) => ['Ann', 'Bob'][s];
        const award = (seat, share, hand) => describe(
            { type: 'PotAwarded', pot: 0, seat, amount: 50, share, hand, cards: [] },
            (p) => p, names);
        const rake = (pot, several) => describe(
            { type: 'RakeTaken', pot, amount: 5 }, (p) => p, names, false, null, several);
        return [award(0, 'high', 'Flush, Ace high'), award(1, 'low', '8-6-4-2-A low'),
                award(0, 'all', 'Two Pair, Sevens and Threes'), cardName('Td'),
                rake(0, false), rake(0, true), rake(1, true)];
    }"""
    )
    assert words == [
        "Ann wins 50 (high) with Flush, Ace high.",
        "Bob wins 50 (low) with 8-6-4-2-A low.",
        "Ann wins 50 with Two Pair, Sevens and Threes.",
        "Ten of diamonds",
        # A real-money pot of 100 raked 5 paid 95 with nothing said of the 5 (§10.8).
        "Rake 5.",  # one pot: no need to name it
        "Rake 5 from the main pot.",
        "Rake 5 from side pot 1.",
    ]


def test_the_table_log_forgets_its_oldest_lines_past_a_bound(page: Any, server: str) -> None:
    """A page left at a table all day held every line of every hand (the multitable audit:
    2,300 in 32 minutes); the log keeps between 400 and 800 lines, and the count of
    lines said to a screen reader follows what it forgot, so none is said twice or
    skipped."""
    page.goto(server + "/#/rules")
    kept = page.evaluate(
        """async () => {
        const { keepLine } = await import('/js/tablelog.js');
        const t = { log: [], said: 0 };
        for (let i = 1; i <= 800; i++) keepLine(t, `line ${i}`);
        const full = t.log.length;
        t.said = 790;  // a screen reader has been told up to line 790
        keepLine(t, 'line 801');
        return { full, length: t.log.length, first: t.log[0], last: t.log.at(-1),
                 said: t.said, next: t.log[t.said], lines: t.logLines };
    }"""
    )
    assert kept == {
        "full": 800,
        "length": 400,
        "first": "line 402",
        "last": "line 801",
        "said": 389,
        "next": "line 791",
        "lines": 801,
    }


def test_10_3_a_seat_held_for_us_says_its_seconds_rounded_up_as_the_turn_clock_does(
    page: Any, server: str
) -> None:
    """The waiting list's offer said "for 0 s" with 0.4 s left (rounded to nearest) while
    the seat could still be taken, and the turn's clock beside it rounds up."""
    page.goto(server + "/#/rules")
    words = page.evaluate(
        """async () => {
        const { offerLeft } = await import('/js/sitting.js');
        const t = { now: () => 1000 };
        return [1000.4, 1005.5, 1000, 999].map((expires) => offerLeft(t, { expires }));
    }"""
    )
    assert words == ["for 1 s", "for 6 s", "for 0 s", "for 0 s"]


def test_10_6_the_log_says_how_many_disconnect_all_ins_were_used_only_when_told(
    page: Any, server: str
) -> None:
    """Another seat's ``DisconnectAllInUsed`` comes without ``used_today`` (the server
    tells the count to the player's own seat only): the log says it happened, no count."""
    page.goto(server + "/#/rules")
    words = page.evaluate(
        """async () => {
        const { describe } = await import('/js/tablelog.js');
        const used = { type: 'DisconnectAllInUsed', seat: 1, player: 'p', hand_no: 3, day: 1 };
        const names = (s) => ['Ann', 'Bob'][s];
        return [describe(used, (p) => p, names),
                describe({ ...used, used_today: 1 }, (p) => p, names)];
    }"""
    )
    assert words == [
        "Bob is all-in by disconnection.",
        "Bob is all-in by disconnection (1 used today).",
    ]


def test_while_reconnecting_the_action_bar_is_held(page: Any, server: str) -> None:
    cut = Cut(page)
    alias = fresh_alias()
    register(page, server, alias)
    sit(page, server, "offline")
    fold = page.locator(".actionbar").get_by_role("button", name="Fold")
    fold.wait_for(timeout=60_000)  # our turn, with a bet to call
    cut.block()
    expect(page.locator("#banner")).to_have_text("Connection lost — reconnecting…")
    expect(fold).to_be_disabled()
    expect(page.get_by_role("button", name="Leave table")).to_be_disabled()
    page.locator("body").press("f")  # the keys wait too
    shoot(page, "table-offline")
    cut.unblock()
    expect(page.locator("#banner")).to_be_hidden(timeout=15_000)
    expect(page.get_by_role("button", name="Leave table")).to_be_enabled()
    assert f"{alias} folds" not in page.locator(".log").inner_text()


def test_a_session_ended_while_reconnecting_asks_to_log_in(page: Any, server: str) -> None:
    cut = Cut(page)
    alias = fresh_alias()
    register(page, server, alias)
    sit(page, server, "expired")
    cut.block()
    expect(page.locator("#banner")).to_have_text("Connection lost — reconnecting…")
    csrf = page.request.get(server + "/api/me").json()["csrf"]
    assert page.request.post(server + "/api/logout", headers={"x-csrf-token": csrf}).ok
    cut.unblock()  # the server no longer knows the session
    banner = page.locator("#banner")
    expect(banner).to_have_text("Your session has ended. Log in again to go on playing.")
    expect(page.get_by_role("button", name="Leave table")).to_be_disabled()
    shoot(page, "table-session-ended")
    banner.get_by_role("link", name="Log in again").click()
    page.get_by_label("Alias").fill(alias)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("heading", name="Lobby").wait_for()
    expect(banner).to_be_hidden()


def test_the_log_marks_stud_streets_and_draws_by_name(page: Any, server: str) -> None:
    """A stud or draw hand's log says where each street begins, as a flop game's says
    the board: "Fourth street.", "First draw."; a flop street and the deal are not
    named (the board line and "Hand #n begins." say them)."""
    page.goto(server + "/#/rules")
    words = page.evaluate(
        """async () => {
        const { describe } = await import('/js/tablelog.js');
        const street = (index, name) => describe({ type: 'StreetStarted', index, name }, (p) => p);
        return [street(1, 'fourth street'), street(3, 'sixth street'), street(1, 'first draw'),
                street(1, 'draw'), street(0, 'third street'), street(0, 'pre-draw'),
                street(1, 'flop'), street(2, 'discard')];
    }"""
    )
    assert words == [
        "Fourth street.", "Sixth street.", "First draw.", "Draw.", None, None, None, None,
    ]  # fmt: skip


def test_10_8_a_real_money_table_says_its_rake_in_its_header(page: Any, server: str) -> None:
    # RULEBOOK §10.8 (the rake schedule is data, per table or per stake) and its preamble
    # (every table option is shown to players): the rake a real-money table takes was
    # said nowhere but in the logs of the hands it raked. Play money is free: no line.
    register(page, server, fresh_alias())
    page.goto(server + "/#/table/real-rake")
    expect(page.locator(".tablerake")).to_have_text(
        "Rake: 5 every 100 of the pot (1 every 20 under 200), at most 75 with 2 players,"
        " 200 with 3-4, 400 with 5 or more; none unless the flop is dealt"
    )
    page.goto(server + "/#/table/holdem")
    page.locator(".tableterms").wait_for()
    expect(page.locator(".tablerake")).to_have_count(0)
