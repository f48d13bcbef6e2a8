"""The client's care with what a player does and with the network: a table left stops
its news, a network gone silent is noticed, a player can be reported, chips to add and
the lobby's stake filters are checked before anything is sent, the phone lobby fits
its screen."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.web.browser import fresh_alias, play_passively, register, shoot, sit
from tests.web.driven import Stall

SILENCE_MS = 13_000
"""More than the page's HEARD_WITHIN_MS (js/ws.js): a connection this quiet is lost."""

pytestmark = pytest.mark.browser


def test_a_table_left_as_its_news_arrives_is_not_watched_again(page: Any, server: str) -> None:
    # The table asks for a fresh snapshot shortly after a burst of events; leaving in
    # between used to watch it again behind the page's back, for the page's life.
    register(page, server, fresh_alias())
    page.goto(f"{server}/#/table/busy")
    page.locator(".felt").wait_for(timeout=30_000)
    page.evaluate(
        """() => new Promise((done) => {
          const off = window.cardroom.conn.listen((m) => {
            if (m.type !== "events" || m.table !== "busy") return;
            off();
            location.hash = "#/";  // leave right after the table's own handler ran
            done();
          });
        })"""
    )
    page.get_by_role("heading", name="Lobby").wait_for()
    page.wait_for_timeout(1000)  # past the table's snapshot timer
    assert page.evaluate("[...window.cardroom.conn.watching.keys()]") == []
    seen: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: seen.append(str(f))))
    page.wait_for_timeout(2000)
    assert not [f for f in seen if '"table":"busy"' in str(f)]


def test_a_network_gone_silent_is_noticed_and_the_controls_are_held(page: Any, server: str) -> None:
    # The page's clock is Playwright's: it runs as the real one, and the test moves it
    # past the page's 12 s of silence at once instead of waiting for them.
    page.clock.install()
    stall = Stall(page)
    sockets: list[Any] = []
    page.on("websocket", lambda ws: sockets.append(ws))
    register(page, server, fresh_alias())
    sit(page, server, "silent")
    leave = page.get_by_role("button", name="Leave table")
    expect(leave).to_be_enabled()
    bar = page.locator(".actionbar")
    bar.wait_for(timeout=60_000)  # our turn: we act as the network goes silent
    before = len(sockets)
    stall.stall()  # nothing arrives and nothing closes: the socket stays "open"
    bar.get_by_role("button", name=re.compile(r"^(Check|Call|Bring in|Stand pat)")).click()
    banner = page.locator("#banner")
    expect(banner).not_to_have_text("Connection lost — reconnecting…")
    page.clock.run_for(SILENCE_MS)
    expect(banner).to_have_text("Connection lost — reconnecting…", timeout=30_000)
    expect(leave).to_be_disabled()
    shoot(page, "table-silent-network")
    # A new connection tried while the network is still silent never hears its hello:
    # it must be given up too, or the page would wait on it for ever.
    for _ in range(100):
        if len(sockets) > before:
            break
        page.wait_for_timeout(100)
    assert len(sockets) > before, "the page tries a new connection"
    page.wait_for_timeout(500)  # its hello is lost in the silence
    stall.resume()
    page.clock.run_for(SILENCE_MS)  # the new connection is given up too, then one more
    expect(banner).to_be_hidden(timeout=40_000)
    expect(leave).to_be_enabled()
    page.locator(".seat.mine").wait_for(timeout=30_000)
    # The action's answer was lost with the connection: said in words (it was the bare
    # code, "Disconnected.", still shown with the bar back), or, the turn still ours,
    # the bar back to act again; the action never sent again.
    said = (
        "The connection was lost as your action was sent: it may not have reached the"
        " table. When the table is back, act again if it is still your turn."
    )
    notice = page.locator("#table-notice")
    expect(notice).to_have_text(re.compile(f"^({re.escape(said)})?$"))
    if not notice.inner_text().strip():
        expect(bar).to_be_visible()
    acts = [m for m in stall.sent if '"type":"act"' in str(m)]
    assert len(acts) == 1, acts


def test_10_7_a_player_at_the_table_can_be_reported(page: Any, server: str) -> None:
    register(page, server, fresh_alias())
    sit(page, server, "report")
    page.get_by_text("Report a player").click()
    options = page.locator("#report-player option").all_inner_texts()
    assert options, "the bots seated here can be reported"
    page.get_by_label("Reason").select_option("collusion")
    page.get_by_label("Note").fill("they soft-play each other")
    page.locator("form.reportform").get_by_role("button", name="Report").click()
    # The one chosen (the list follows the bots, who may come and go meanwhile).
    recorded = re.compile(r"^Your report on (\S+) was recorded: an operator will review it\.$")
    expect(page.locator("#table-notice")).to_have_text(recorded)
    reported = recorded.match(page.locator("#table-notice").inner_text())
    assert reported is not None and reported.group(1) in options
    shoot(page, "table-report")
    page.locator("#report-player").select_option(reported.group(1))
    page.locator("form.reportform").get_by_role("button", name="Report").click()
    expect(page.locator("#table-notice")).to_have_text(  # the server's reason, in words
        f"You reported {reported.group(1)} here lately: once every 10 minutes."
    )


def test_10_7_a_player_not_at_the_table_is_not_told_as_reported_lately(
    page: Any, server: str
) -> None:
    # The server's refusal became "no player 'X' at this table lately", and the page
    # took any refusal with "lately" in it for the cooldown's: it told the player he had
    # reported somebody lately, whom he never reported (one who left as he chose him).
    register(page, server, fresh_alias())
    page.goto(f"{server}/#/table/report")
    page.locator(".felt").wait_for(timeout=30_000)
    page.evaluate("() => window.cardroomTable.report('Nobody', 'collusion', '')")
    expect(page.locator("#table-notice")).to_have_text("Nobody cannot be reported here.")


def test_a_line_said_by_another_player_keeps_what_one_is_typing(page: Any, server: str) -> None:
    register(page, server, fresh_alias())
    sit(page, server, "draft")
    box = page.get_by_role("textbox", name="Chat message")
    box.click()
    box.press_sequentially("half a sent")
    # Another player's line arrives: the chat is drawn again around the draft.
    page.evaluate(
        """() => { const t = window.cardroomTable;
                   t.chat.push({ alias: "Someone", text: "nice hand" }); t.renderSide(); }"""
    )
    expect(page.locator(".chatlines")).to_contain_text("nice hand")
    expect(box).to_have_value("half a sent")
    expect(box).to_be_focused()
    box.press_sequentially("ence")
    expect(box).to_have_value("half a sentence")


def test_chips_to_add_and_stakes_to_filter_are_checked_before_sending(
    page: Any, server: str
) -> None:
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: sent.append(str(f))))
    register(page, server, fresh_alias())
    for bad in ("-5", "1.5"):
        page.locator("#filter-min").fill(bad)
        page.locator("#filter-min").dispatch_event("change")
        expect(page.locator("#lobby-status")).to_have_text(
            "Stakes are whole numbers of chips, 0 or more."
        )
    page.locator("#filter-min").fill("")
    page.locator("#filter-min").dispatch_event("change")
    expect(page.locator("#lobby-status")).to_have_text(re.compile(r"^\d+ tables?\.$"))
    # Below the maximum, and out of the hands (a seat dealt in has its rebuy held, §10.2).
    sit(page, server, "report", amount=1500, post_now=False)
    page.get_by_role("button", name="Sit out next hand").click()
    back = page.get_by_role("button", name="I'm back")
    # Dealt in, we may have a decision: play it, or the hand waits out our clock and
    # time bank (it failed so once in a fresh CI, our turn with 21 s of bank left).
    play_passively(page, back.count)
    for bad in ("-5", "1.5"):
        page.locator("#rebuy-amount").fill(bad)
        page.get_by_role("button", name="Rebuy").click()
        expect(page.locator("#table-notice")).to_have_text(
            "Add a whole number of chips, 1 or more."
        )
    assert not [f for f in sent if '"type":"rebuy"' in str(f)]


def test_the_phone_lobby_shows_each_row_whole_on_the_screen(page: Any, server: str) -> None:
    page.set_viewport_size({"width": 375, "height": 667})
    register(page, server, fresh_alias())
    page.locator("table.lobby tbody tr[data-table]").first.wait_for()
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= 375, f"the page is {wide} px wide on a 375 px screen"
    # Every figure and the row's "Open" on the screen (they were in a box scrolled
    # sideways, the stakes, seats and "Open" out of sight with nothing to say so).
    cut = page.evaluate(
        """() => [...document.querySelectorAll(
            'table.lobby tbody tr[data-table] :is(th, td, a, button)')]
          .filter((e) => { const r = e.getBoundingClientRect();
                           return r.width && (r.left < 0 || r.right > innerWidth); })
          .map((e) => e.textContent.trim())"""
    )
    assert cut == [], f"cut off on a 375 px screen: {cut[:8]}"
    named = page.evaluate(  # each figure named, the name first
        """() => [...document.querySelector('table.lobby tbody tr[data-table]').cells]
          .map((c) => getComputedStyle(c, '::before').content)"""
    )
    assert named[2:7] == ['"Stakes "', '"Seats "', '"Avg pot "', '"Hands/h "', '"Waiting "'], named
    shoot(page, "lobby-phone")


def test_an_action_names_the_last_event_seen_and_is_played(page: Any, server: str) -> None:
    # The `turn` of an `act` is what lets the server refuse a late or repeated click
    # (`stale_turn`) rather than play it on a later decision.
    frames: list[tuple[str, dict[str, Any]]] = []

    def note(way: str, payload: Any) -> None:
        frames.append((way, json.loads(str(payload))))

    page.on(
        "websocket",
        lambda ws: (
            ws.on("framesent", lambda f: note("sent", f)),
            ws.on("framereceived", lambda f: note("got", f)),
        ),
    )
    register(page, server, fresh_alias())
    sit(page, server, "late")

    def answered_act() -> bool:
        acts = {m["id"] for way, m in frames if way == "sent" and m.get("type") == "act"}
        return any(way == "got" and m.get("re") in acts for way, m in frames)

    play_passively(page, answered_act, seconds=60)
    highest = -1
    for way, m in frames:
        if way == "got" and m.get("table") == "late":
            for e in m.get("events") or []:
                highest = max(highest, e["seq"])
            if m.get("type") in ("snapshot", "turn"):
                highest = max(highest, m["seq"])
        if way == "sent" and m.get("type") == "act":
            assert isinstance(m.get("turn"), int) and 0 <= m["turn"] == highest, (m, highest)
            act = m["id"]
            break
    answer = next(m for way, m in frames if way == "got" and m.get("re") == act)
    assert answer["type"] == "ok", answer


def test_the_time_bank_counts_down_while_it_runs(page: Any, server: str) -> None:
    register(page, server, fresh_alias())
    sit(page, server, "bank")
    bank = page.locator(".seat.mine .timebank")
    expect(bank).to_have_text("Time bank 30s")
    page.locator(".actionbar").wait_for(timeout=60_000)  # our turn: 2 s, then the bank
    running = re.compile(r"^Time bank (\d+)s \(running\)$")
    expect(bank).to_have_text(running, timeout=10_000)
    first = int(running.match(bank.inner_text()).group(1))  # type: ignore[union-attr]
    page.wait_for_timeout(2500)
    later = int(running.match(bank.inner_text()).group(1))  # type: ignore[union-attr]
    assert 0 < later < first <= 30, (first, later)
    for name in ("Check", "Call"):  # act: what is left of the bank is kept
        button = page.locator(".actionbar").get_by_role("button", name=name)
        if button.count():
            button.first.click()
            break
    expect(bank).to_have_text(re.compile(r"^Time bank (\d+)s$"))
    kept = int(re.findall(r"\d+", bank.inner_text())[0])
    assert kept <= later, (later, kept)


def test_two_tabs_of_one_account_never_send_the_same_id(page: Any, server: str) -> None:
    # The server remembers ids per account, across its connections: an id seen again is
    # answered as a replay (not done) or refused id_reused. The page's ids were the time
    # and a counter of the page, so two tabs (or a phone and a laptop) of one account that
    # sent their n-th message in the same millisecond shared an id. Each page's ids now
    # carry a random part of its own. (The clock is frozen: the same millisecond.)
    register(page, server, fresh_alias())
    page.context.add_init_script("Date.now = () => 1767225600000;")
    tabs = [page, page.context.new_page()]
    ids = []
    for tab in tabs:
        tab.goto(server + "/#/")
        tab.reload()  # a new document: the frozen clock
        tab.get_by_role("heading", name="Lobby").wait_for()
        ids.append(tab.evaluate("() => window.cardroom.conn.send('ping').then((m) => m.re)"))
    assert ids[0] != ids[1], ids
    tabs[1].close()


def test_a_page_open_across_a_restore_names_the_run_of_its_last_seq_and_takes_a_snapshot(
    page: Any, server: str
) -> None:
    # A server restored from a backup never stored what a page saw after the backup,
    # yet the page holds that seq: it sends it with the run (hello.run) it was seen on,
    # so the server can tell (docs/server_backup.md), and a snapshot at a lower seq is
    # the table as of that seq (the page kept the higher one, and the next reconnect
    # asked for the events after a seq the table had not reached).
    register(page, server, fresh_alias())
    watches: list[dict[str, Any]] = []

    def sent(payload: str | bytes) -> None:
        msg = json.loads(payload)
        if msg.get("type") == "watch" and msg.get("table") == "busy":
            watches.append(msg)

    page.on("websocket", lambda ws: ws.on("framesent", sent))
    page.goto(f"{server}/#/table/busy")
    page.locator(".felt").wait_for(timeout=30_000)
    run = page.evaluate("window.cardroom.conn.hello.run")
    assert run
    lost = 10**12  # a seq of the lost time after the backup, beyond the table's
    page.evaluate(f"window.cardroom.conn.watching.set('busy', {lost})")
    page.evaluate("window.cardroom.conn.drop()")
    page.wait_for_function(
        f"window.cardroom.conn.watching.get('busy') < {lost}", timeout=30_000
    )  # the snapshot's seq
    again = [w for w in watches if w.get("since") == lost]
    assert again and again[-1].get("run") == run, watches
