"""A link anyone can send (a chat line copied, a forum post, another site's page) opens
the room at whatever hash it names: the page reads it as a screen and its argument and
nothing more. A screen or rules page named like a property every JavaScript object has
(``#/constructor``, ``#/rules/__proto__``) and an argument that is no valid escape
(``%E0%A4%A``) are unknown names, not a crash that leaves the page on "Connecting…" and
its links dead; a hand-history link asks the server for a hand and for nothing else; a
table link whose id no table can have is told so in words, and asks nothing."""

from __future__ import annotations

from typing import Any

import pytest
from tests.web.browser import fresh_alias, register

pytestmark = pytest.mark.browser

OBJECT_NAMES = ["constructor", "__proto__", "toString", "valueOf", "hasOwnProperty"]
"""Names every object answers to through its prototype."""


def _open(page: Any, server: str, link: str) -> None:
    """Open ``link`` as a link followed from elsewhere: a fresh load of the page."""
    page.goto("about:blank")
    page.goto(f"{server}/{link}")


def _heading(page: Any) -> str:
    """The screen's heading, once the page has drawn one."""
    heading = page.locator("#app h1").first
    heading.wait_for(timeout=15_000)
    return str(heading.text_content())


def _links_still_work(page: Any) -> None:
    """The header's links still change the screen (a broken router left them dead)."""
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Rules").click()
    page.get_by_role("heading", name="Rules", exact=True).wait_for(timeout=15_000)


def test_a_screen_named_like_an_object_s_property_is_an_unknown_screen(
    page: Any, server: str
) -> None:
    """Logged out, such a screen is the log-in (as any unknown one), and such a rules
    page the index; logged in, the lobby. The page went on "Connecting…" with an
    uncaught "ctx.cleanup is not a function" (or "routes[screen] is not a function"),
    and after ``#/constructor`` no link worked again until a reload."""
    for name in OBJECT_NAMES:
        _open(page, server, f"#/{name}")
        assert _heading(page) == "Log in", name
        _open(page, server, f"#/rules/{name}")
        assert _heading(page) == "Rules", name
        _links_still_work(page)
    register(page, server, fresh_alias("proto"))
    for name in OBJECT_NAMES:
        _open(page, server, f"#/{name}")
        assert _heading(page) == "Lobby", name
        _links_still_work(page)


def test_an_argument_that_is_no_valid_escape_is_read_as_written(page: Any, server: str) -> None:
    """``decodeURIComponent`` throws on a lone or broken ``%`` escape: the page stayed on
    "Connecting…" ("URI malformed"). The argument is now kept as it is written."""
    for link in ("#/rules/%E0%A4%A", "#/rules/100%", "#/rules/%"):
        _open(page, server, link)
        assert _heading(page) == "Rules", link
        _links_still_work(page)


def test_a_hand_history_link_asks_for_a_hand_and_nothing_else(page: Any, server: str) -> None:
    """The replayer's argument went into the hand's URL with its ``..`` kept, and the
    browser's URL resolution walked out of ``/api/hands/``: ``#/history/..%2F..%2Fapi
    %2Foperator%2Fintegrity`` had the player's browser GET ``/api/operator/integrity``
    (with his cookie) and draw the answer as a hand ("undefined hand #undefined"). A link
    that names no hand (a table and a hand number) is told so, and nothing is asked."""
    register(page, server, fresh_alias("hist"))
    asked: list[str] = []
    page.on(
        "request",
        lambda r: asked.append(r.url.removeprefix(server)) if r.url.startswith(server) else None,
    )
    links = [
        "#/history/..%2F..%2Fapi%2Fme",
        "#/history/..%2F..%2Fapi%2Foperator%2Fintegrity",
        "#/history/../../openapi.json",
        "#/history/holdem/..%2F..%2F..%2Fhealthz",
        "#/history/holdem/1%2F..%2F..%2F..%2Fapi%2Fme",
        "#/history/%2E%2E/%2E%2E",
    ]
    for link in links:
        asked.clear()
        _open(page, server, link)
        page.get_by_text("This hand is not in your history.").wait_for(timeout=15_000)
        # The page's own start asks for /api/me and /openapi.json, once.
        strays = [path for path in asked if path.startswith("/api/") and path != "/api/me"]
        assert strays == [], (link, strays)
        assert "/healthz" not in asked and asked.count("/openapi.json") <= 1, (link, asked)


def test_a_table_link_whose_id_no_table_can_have_is_told_in_words(page: Any, server: str) -> None:
    """Such an id went to the server, whose refusal was shown as it came: "Expected `str`
    matching regex '^[A-Za-z0-9_-]+$(?!\\n)' - at `$.table`."; now the page says there is
    no such table, the id shown as text (markup in it is not made into elements)."""
    register(page, server, fresh_alias("tbl"))
    watched: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda frame: watched.append(frame)))
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    for link, shown in (
        ("#/table/%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E", "<img src=x onerror=alert(1)>"),
        ("#/table/100%", "100%"),
        ("#/table/a%0Ab", "a\nb"),
        ("#/table/" + "a" * 41, "a" * 41),  # the protocol's ids are at most 40 long
        ("#/table/", ""),
    ):
        watched.clear()
        _open(page, server, link)
        notice = page.locator("#table-notice")
        notice.get_by_text("There is no table").wait_for(timeout=15_000)
        assert notice.text_content() == f'There is no table "{shown}".', link
        assert page.locator("#app img").count() == 0, link
        assert not [f for f in watched if '"watch"' in f], (link, watched)
    assert dialogs == []
