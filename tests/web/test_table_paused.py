"""A table the room cannot store (``table_paused``: a full disk): the page says why it
stands still, to everyone at it, and takes the words away when play resumes. Before, only
the player whose action was refused read "The change could not be stored"; the others saw
the table stand still with no word why. A server of its own: the test fills its disk."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.server.disk_full import disk_full
from tests.web.browser import PASSWORD, _table, fresh_alias, register
from tests.web.conftest import own_server

from cardroom.bots.client import ProtocolClient, account

pytestmark = pytest.mark.browser

WORDS = "The table is paused: the room cannot store its moves; play resumes by itself."


async def _join(base: str, table: str) -> str:
    """Another player asks for a seat at ``table``: the answer's code."""
    login = await asyncio.to_thread(account, base, fresh_alias("join"), PASSWORD)
    client = await ProtocolClient.connect(base, login["token"])
    try:
        await client.send("join", id="j", table=table, seat=1, amount=1000)
        async with asyncio.timeout(15):
            while True:
                msg = await client.receive()
                if msg["type"] in ("ok", "error") and msg.get("re") == "j":
                    return str(msg.get("code", "ok"))
    finally:
        await client.close()


def _joined(base: str, table: str) -> str:
    """:func:`_join` on a thread of its own (the page's Playwright holds this one's loop)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, _join(base, table)).result(timeout=30)


def test_a_watcher_is_told_the_table_is_paused_and_when_it_plays_on(
    tmp_path: Path, page: Any
) -> None:
    table = _table("pausing", "holdem", "small_blind = 1, big_blind = 2")
    with own_server(tmp_path, table) as (base, url):
        register(page, base, fresh_alias())
        page.goto(f"{base}/#/table/pausing")
        page.locator(".felt").wait_for()
        notice = page.locator("#table-notice")
        disk_full(url, "table_entries")
        assert _joined(base, "pausing") == "not_stored"  # the refused step
        expect(notice).to_have_text(WORDS)
        disk_full(url, "table_entries", full=False)
        assert _joined(base, "pausing") == "ok"  # stored: the table plays on
        expect(notice).to_have_text("")
        page.goto("about:blank")  # gone before its server stops: no reconnection to fail
