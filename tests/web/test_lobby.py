"""The lobby (RULEBOOK §12) against the real server's ``GET /api/tables``: badges,
stakes, seats, average pot and hands per hour once hands are played, the filters the
server offers (every game and structure), live updates of the seat counts, axe."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.web.browser import fresh_alias, register, serious_violations, shoot, sit

pytestmark = pytest.mark.browser


def _cells(page: Any, table: str) -> list[str]:
    row = page.locator(f'tr[data-table="{table}"]')
    return [c.strip() for c in row.locator("th, td").all_inner_texts()]


def _shown_tables(page: Any) -> set[str]:
    return set(
        page.eval_on_selector_all(
            "table.lobby tbody tr[data-table]", "rs => rs.map(r => r.dataset.table)"
        )
    )


def _wait_for_rows(page: Any, shown: Any, seconds: float = 15.0) -> set[str]:
    """The tables listed once ``shown(tables)`` holds (the list is read in the background)."""
    deadline = time.monotonic() + seconds
    while not shown(tables := _shown_tables(page)):
        assert time.monotonic() < deadline, f"the lobby lists {sorted(tables)}"
        page.wait_for_timeout(100)
    return tables


def test_lobby_lists_the_real_tables_with_their_figures(
    page: Any, server: str, session_bots: Any
) -> None:
    session_bots.ensure("holdem")  # no page of ours watches it: its bots sit down now
    register(page, server, fresh_alias())
    holdem = page.locator('tr[data-table="holdem"]')
    holdem.wait_for()
    # Bots play at once: the average pot and hands per hour come with the finished hands.
    expect(holdem.locator("td").nth(3)).to_have_text(re.compile(r"^\d[\d,]*$"), timeout=20_000)
    cells = _cells(page, "holdem")
    assert cells[1] == "NL Hold'em" and cells[2] == "1/2"
    taken, seats = (int(x) for x in cells[3].split("/"))
    assert seats == 6 and taken >= 1  # the bots (one going broke leaves, then comes back)
    assert int(cells[4].replace(",", "")) > 0 and int(cells[5]) > 0
    stud = _cells(page, "stud")
    assert stud[1] == "FL Stud" and stud[2] == "4/8 ante 1"
    assert _cells(page, "ofc")[1:3] == ["OFC", "1 a point"]
    assert _cells(page, "wait")[3].endswith("/2")
    problems = serious_violations(page)
    assert problems == [], json.dumps(problems, indent=1)
    shoot(page, "lobby")
    holdem.get_by_role("link", name="Open table holdem").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("holdem · NL Hold'em")


def test_filters_offer_every_game_of_the_server(page: Any, server: str) -> None:
    register(page, server, fresh_alias())
    page.locator("table.lobby tbody tr[data-table]").first.wait_for()
    answer = json.loads(page.request.get(server + "/api/tables").text())
    games = page.locator("#filter-game option").all_inner_texts()
    assert games == ["All games", *[g["label"] for g in answer["games"]]]
    for name in ("Texas Hold'em", "Omaha 5-Card", "Big O", "Omaha 6-Card", "Irish", "HORSE"):
        assert name in games, name
    structures = page.locator("#filter-structure option").all_inner_texts()
    assert structures == [
        "All structures", "No limit", "Pot limit", "Half-pot limit", "Fixed limit", "Spread limit",
    ]  # fmt: skip
    every = _shown_tables(page)
    page.get_by_label("Game").select_option(label="2-7 Triple Draw")
    _wait_for_rows(page, lambda t: t == {"draw", "draw-keys", "draw-pick"})
    page.get_by_label("Game").select_option(label="Soko")  # no table of it is open
    expect(page.locator("table.lobby tbody")).to_have_text("No table matches these filters.")
    page.get_by_label("Game").select_option("")
    _wait_for_rows(page, lambda t: t == every)
    page.get_by_label("Structure").select_option(label="Fixed limit")
    fixed = _wait_for_rows(page, lambda t: "holdem" not in t and "stud" in t)
    assert {"stud", "limit", "draw", "mixed"} <= fixed and "plo" not in fixed
    page.get_by_label("Structure").select_option(label="Pot limit")
    _wait_for_rows(page, lambda t: t == {"plo", "bigo", "courchevel-hilo"})
    assert _cells(page, "plo")[1] == "PL Omaha" and _cells(page, "bigo")[1] == "PL Big O"
    assert _cells(page, "courchevel-hilo")[1] == "PL Courchevel Hi-Lo"  # its hi_lo option
    page.get_by_label("Structure").select_option("")
    _wait_for_rows(page, lambda t: t == every)
    page.get_by_label("Stakes from").fill("3")
    page.get_by_label("Stakes from").dispatch_event("change")
    high = _wait_for_rows(page, lambda t: "holdem" not in t and "stud" in t)
    assert "plo" not in high  # stud's 4/8 is a small bet of 4; 1/2 is a big blind of 2
    page.get_by_label("Stakes from").fill("")
    page.get_by_label("Stakes from").dispatch_event("change")
    _wait_for_rows(page, lambda t: t == every)
    shoot(page, "lobby-filters")


def test_seat_counts_update_live(page: Any, server: str, more_pages: Any) -> None:
    register(page, server, fresh_alias())
    seats = page.locator('tr[data-table="lobby-live"] td').nth(2)
    expect(seats).to_have_text("0/6", timeout=20_000)  # no bots here: nobody comes or goes
    page.evaluate("window.__sameDocument = true")
    other = more_pages()
    register(other, server, fresh_alias())
    sit(other, server, "lobby-live")
    expect(seats).to_have_text("1/6", timeout=20_000)  # without a reload
    assert page.evaluate("window.__sameDocument") is True
    shoot(page, "lobby-live")
