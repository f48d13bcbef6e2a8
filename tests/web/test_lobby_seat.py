"""The lobby's row of a full table one sits at offers "Go to your seat", not its waiting
list (RULEBOOK §10.3: the waiting list is for a seat; the server refused it in words);
another player is offered the waiting list. A server of its own: the test fills a table."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.web.browser import _table, fresh_alias, register, sit
from tests.web.conftest import own_server

pytestmark = pytest.mark.browser


@pytest.fixture
def pair_table(tmp_path: Path) -> Iterator[str]:
    """A server with a heads-up table; its base URL (asked for before the pages: it
    stops after them, which would say their reconnections failed)."""
    table = _table("pair", "holdem", "small_blind = 1, big_blind = 2", seats=2)
    with own_server(tmp_path, table) as (base, _url):
        yield base


def test_10_3_a_full_table_one_sits_at_offers_one_s_seat_not_its_waiting_list(
    pair_table: str, page: Any, more_pages: Any
) -> None:
    base = pair_table
    register(page, base, fresh_alias())
    sit(page, base, "pair", amount=1000)
    other = more_pages()
    register(other, base, fresh_alias())
    sit(other, base, "pair", amount=1000)  # the table is full
    page.goto(f"{base}/#/lobby")
    row = page.locator('tr[data-table="pair"]')
    expect(row.locator("td").nth(2)).to_have_text("2/2")
    expect(row.get_by_role("link", name="Go to your seat")).to_have_attribute(
        "href", "#/table/pair"
    )
    assert row.get_by_role("button", name="Join waiting list").count() == 0
    stranger = more_pages()
    register(stranger, base, fresh_alias())
    theirs = stranger.locator('tr[data-table="pair"]')
    expect(theirs.get_by_role("button", name="Join waiting list of pair")).to_be_visible()
    assert theirs.get_by_role("link", name="Go to your seat").count() == 0
    row.get_by_role("link", name="Go to your seat").click()
    page.locator(".seat.mine").wait_for()
