"""A table that closes under the page (``table_closed``): the page says so plainly and
offers the way back to the lobby, to a seated player (with the chips back) and to one
who only watched. A server of its own: the test closes its table."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect
from tests.web.browser import PASSWORD, _table, fresh_alias, register, sit
from tests.web.conftest import own_server

from cardroom.store import Players, make_engine

pytestmark = pytest.mark.browser


@pytest.fixture
def closing(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """A server with a table to close; its base URL and database URL (asked for before
    the pages: it stops after them, which would say their reconnections failed)."""
    table = _table("closing", "holdem", "small_blind = 1, big_blind = 2")
    with own_server(tmp_path, table) as served:
        yield served


def _close(base: str, url: str, table: str) -> None:
    """An operator closes ``table`` through the operator API."""
    alias = fresh_alias("boss")
    body = {"alias": alias, "password": PASSWORD, "age_confirmed": True}
    assert httpx.post(base + "/api/register", json=body).status_code == 201
    engine = make_engine(url)
    try:
        Players(engine).set_role(alias, "operator", operator="test")
    finally:
        engine.dispose()
    token = httpx.post(base + "/api/login", json={"alias": alias, "password": PASSWORD}).json()
    headers = {"authorization": f"Bearer {token['token']}"}
    closed = httpx.post(f"{base}/api/operator/tables/{table}/close", headers=headers)
    assert closed.status_code == 200, closed.text


def test_a_seated_player_and_a_watcher_are_told_the_table_closed(
    closing: tuple[str, str], page: Any, more_pages: Any
) -> None:
    base, url = closing
    register(page, base, fresh_alias())
    sit(page, base, "closing", amount=1000)
    watcher = more_pages()
    register(watcher, base, fresh_alias())
    watcher.goto(f"{base}/#/table/closing")
    watcher.locator(".felt").wait_for()
    _close(base, url, "closing")
    for p in (page, watcher):
        notice = p.locator("#table-notice")
        expect(notice).to_contain_text("This table has closed.")
        back = notice.get_by_role("link", name="Back to the lobby")
        expect(back).to_have_attribute("href", "#/lobby")
    expect(page.locator("#table-notice")).to_contain_text(
        "Your 1,000 chips are back in your account."
    )
    for p in (page, watcher):  # nothing left to click at a table that is no more
        p.evaluate("window.cardroomTable.render()")  # as an answer arriving late would
        assert p.locator(".tablepage .felt, .seatcontrols, .chatwrap input").count() == 0
    page.locator("#table-notice").get_by_role("link", name="Back to the lobby").click()
    page.get_by_role("heading", name="Lobby").wait_for()


def test_a_server_stopping_is_said_with_what_becomes_of_the_chips(
    tmp_path: Path, page: Any, console: Any
) -> None:
    console.allow("ERR_CONNECTION_REFUSED")  # the page tries to reconnect, as it should
    table = _table("stopping", "holdem", "small_blind = 1, big_blind = 2")
    with own_server(tmp_path, table) as (base, _url):
        register(page, base, fresh_alias())
        sit(page, base, "stopping", amount=1000)
    notice = page.locator("#table-notice")  # the server stopped cleanly meanwhile
    expect(notice).to_contain_text("The server is stopping.")
    expect(notice).to_contain_text("the chips on the table go back to the players' accounts")
    expect(notice.get_by_role("link", name="Back to the lobby")).to_be_visible()
    expect(page.locator("#banner")).to_contain_text("reconnecting")
